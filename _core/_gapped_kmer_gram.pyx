"""Gapped k-mer kernels (gkm-SVM, Ghandi et al. 2014; LS-GKM, Lee 2016) from mismatch profiles.

Every kernel type is ``K(x, y) = Σ_m h_m N_m(x, y)`` with the mismatch profile
``N_m(x, y) = Σ_{i, j : Hamming(x_i, y_j) = m} w_i w_j`` over the l-mers ``x_i`` of x (forward
strand) and ``y_j`` of y (and of its reverse complement), weighted by integer position weights
``w``; ``h_m`` (m ≤ d) comes from the caller. The profile of one row sequence against every
column sequence is counted as in LS-GKM, by a depth-first walk of the column l-mers' trie that
carries the row's l-mers with their mismatch counts so far and drops those past d. The trie is
implicit: the column l-mer codes (base-|A| numbers, first letter most significant) sorted, so a
node at depth p is the range of codes sharing its p leading letters; a table of the first entry
of every prefix of the first levels (LS-GKM's array tree, as deep as the entries fill it) finds
a child there in O(1), deeper a scan or a bisection of the few entries left. Profiles are
integer sums (exact, so the result does not depend on the thread count); a row's Gram entries
are then ``Σ_m h_m N_m`` in a fixed order. Rows run in parallel, one at a time per thread.
"""

from cython.parallel cimport parallel
from libc.stdint cimport int64_t
from libc.stdlib cimport calloc, free, malloc

from _interrupt cimport (CHECK_WORK, INTERRUPTED, InterruptState, interrupt_init, interrupted,
                        leave_team, next_item, raise_pending)
from _sort cimport first_at_least
from _types cimport int32_t, intp_t, uint64_t


ctypedef struct Columns:
    const uint64_t *codes      # (n_entries,) sorted l-mer codes (within each range walked)
    const intp_t *seq          # (n_entries,) column sequence of each entry
    const int32_t *weight      # (n_entries,) its position weight
    # NULL, or the first entry of every prefix of `prefix_depth` letters (|A|^prefix_depth + 1
    # of them): the nodes down to that depth are found in O(1), as in LS-GKM's array tree
    const intp_t *prefix_start
    int prefix_depth


ctypedef struct Walk:
    const int32_t *letters     # the row sequence's letter codes
    const uint64_t *row_codes  # the codes of the row's l-mers (its first l-mer's at 0)
    intp_t row_start           # position of the row's first letter in `letters`
    const uint64_t *powers     # (l + 1,) |A|^t
    int l, d, n_letters
    intp_t seq_shift           # profile column of an entry = seq - seq_shift
    intp_t n_profile           # profile columns
    intp_t stride              # live-list capacity per depth (the row's l-mers, at most)
    intp_t *live_start         # ((l + 1) * stride,) start of each live row l-mer
    int32_t *live_weight       # ((l + 1) * stride,) its weight
    int32_t *live_mismatches   # ((l + 1) * stride,) its mismatches so far
    int64_t *profile           # ((d + 1) * n_profile,) N_m of the row, by m then column
    intp_t work                # units of work since the last look at the signals
    InterruptState *interrupt


cdef int _leaf(Walk *w, const Columns *cols, intp_t lo, intp_t hi, intp_t n_live) noexcept nogil:
    """Add the live row l-mers × the column l-mers of one leaf to the profile."""
    cdef intp_t e, c, base = w.l * w.stride
    cdef int64_t row_weight
    cdef int64_t *slot
    for e in range(n_live):
        row_weight = w.live_weight[base + e]
        slot = w.profile + w.live_mismatches[base + e] * w.n_profile - w.seq_shift
        for c in range(lo, hi):
            slot[cols.seq[c]] += row_weight * cols.weight[c]
    w.work += n_live * (hi - lo)
    if w.work >= CHECK_WORK:
        w.work = 0
        if interrupted(w.interrupt):
            return INTERRUPTED
    return 0


cdef inline intp_t _child_end(const Walk *w, const Columns *cols, intp_t lo, intp_t hi,
                              int depth, uint64_t child_prefix) noexcept nogil:
    """End of the child ``child_prefix`` (its first depth + 1 letters) of a node whose
    entries from ``lo`` on are that child's or its later siblings', up to ``hi``."""
    cdef uint64_t bound
    if cols.prefix_start != NULL and depth < cols.prefix_depth:
        return cols.prefix_start[(child_prefix + 1) * w.powers[cols.prefix_depth - depth - 1]]
    bound = (child_prefix + 1) * w.powers[w.l - 1 - depth]
    if hi - lo <= 16:
        # deep nodes hold a few entries: a scan beats a bisection
        while lo < hi and cols.codes[lo] < bound:
            lo += 1
        return lo
    return first_at_least(cols.codes, lo, hi, bound)


cdef intp_t _exhausted(Walk *w, const Columns *cols, intp_t lo, intp_t hi, int depth,
                       uint64_t prefix, intp_t n_live) noexcept nogil:
    """Count the live l-mers with d mismatches already at once: their remaining letters must
    match exactly, so the one column code they can meet is the node's prefix followed by them,
    found by bisection (not walked down level by level). Keeps the others, in place; returns
    their number."""
    cdef intp_t here = depth * w.stride, e, n_free = 0, c
    cdef uint64_t tail = w.powers[w.l - depth], target
    cdef int64_t row_weight
    cdef int64_t *slot = w.profile + w.d * w.n_profile - w.seq_shift
    for e in range(n_live):
        if w.live_mismatches[here + e] < w.d:
            w.live_start[here + n_free] = w.live_start[here + e]
            w.live_weight[here + n_free] = w.live_weight[here + e]
            w.live_mismatches[here + n_free] = w.live_mismatches[here + e]
            n_free += 1
            continue
        target = prefix * tail + w.row_codes[w.live_start[here + e] - w.row_start] % tail
        row_weight = w.live_weight[here + e]
        c = first_at_least(cols.codes, lo, hi, target)
        while c < hi and cols.codes[c] == target:
            slot[cols.seq[c]] += row_weight * cols.weight[c]
            c += 1
    w.work += n_live
    return n_free


cdef int _descend(Walk *w, const Columns *cols, intp_t lo, intp_t hi, int depth,
                  uint64_t prefix, intp_t n_live) noexcept nogil:
    """Walk the node [lo, hi) at ``depth`` (its letters so far coded as ``prefix``) with
    ``n_live`` row l-mers still within d."""
    if depth == w.l:
        return _leaf(w, cols, lo, hi, n_live)
    n_live = _exhausted(w, cols, lo, hi, depth, prefix, n_live)
    if w.work >= CHECK_WORK:
        w.work = 0
        if interrupted(w.interrupt):
            return INTERRUPTED
    cdef intp_t child_lo = lo, child_hi, e, n_next
    cdef intp_t here = depth * w.stride, there = (depth + 1) * w.stride
    cdef int letter, mismatches
    for letter in range(w.n_letters):
        if child_lo >= hi:
            break
        if letter == w.n_letters - 1:
            child_hi = hi
        else:
            child_hi = _child_end(w, cols, child_lo, hi, depth,
                                  prefix * w.n_letters + letter)
        if child_hi > child_lo:
            n_next = 0
            for e in range(n_live):
                mismatches = w.live_mismatches[here + e] + (
                    w.letters[w.live_start[here + e] + depth] != letter)
                if mismatches <= w.d:
                    w.live_start[there + n_next] = w.live_start[here + e]
                    w.live_weight[there + n_next] = w.live_weight[here + e]
                    w.live_mismatches[there + n_next] = mismatches
                    n_next += 1
            w.work += n_live
            if n_next > 0 and _descend(w, cols, child_lo, child_hi, depth + 1,
                                       prefix * w.n_letters + letter, n_next) == INTERRUPTED:
                return INTERRUPTED
        child_lo = child_hi
    return 0


cdef int _profile_row(Walk *w, const Columns *cols, intp_t lo, intp_t hi, intp_t row_start,
                      const int32_t *row_weights, const uint64_t *row_codes,
                      intp_t n_windows) noexcept nogil:
    """The mismatch profile of one row sequence (its l-mers start at ``row_start`` and have
    ``row_weights`` and ``row_codes``) against the column entries [lo, hi)."""
    cdef intp_t i
    w.row_start = row_start
    w.row_codes = row_codes
    for i in range((w.d + 1) * w.n_profile):
        w.profile[i] = 0
    if n_windows == 0 or hi <= lo:
        return 0
    for i in range(n_windows):
        w.live_start[i] = row_start + i
        w.live_weight[i] = row_weights[i]
        w.live_mismatches[i] = 0
    return _descend(w, cols, lo, hi, 0, 0, n_windows)


ctypedef struct Task:
    Columns cols
    intp_t n_entries
    const intp_t *own_ptr      # NULL: every row against all entries (a Gram row); else row i
                               # against its own entries own_ptr[i]..own_ptr[i+1] (K(x_i, x_i))
    const int32_t *letters
    const intp_t *offsets
    const intp_t *window_offsets
    const int32_t *weights
    const uint64_t *row_codes
    const uint64_t *powers
    const double *h
    int l, d, n_letters
    intp_t stride
    intp_t n_profile           # profile columns: the Gram's columns, or 1
    double *out                # row i's values at out + i * n_profile


cdef Walk *_new_walk(const Task *task, InterruptState *interrupt) noexcept nogil:
    """A thread's walk state (NULL when memory ran out)."""
    cdef Walk *w = <Walk *> calloc(1, sizeof(Walk))
    cdef intp_t n_live = (task.l + 1) * task.stride
    if w == NULL:
        return NULL
    w.live_start = <intp_t *> malloc(n_live * sizeof(intp_t))
    w.live_weight = <int32_t *> malloc(n_live * sizeof(int32_t))
    w.live_mismatches = <int32_t *> malloc(n_live * sizeof(int32_t))
    w.profile = <int64_t *> malloc((task.d + 1) * task.n_profile * sizeof(int64_t))
    if (w.live_start == NULL or w.live_weight == NULL or w.live_mismatches == NULL
            or w.profile == NULL):
        _free_walk(w)
        return NULL
    w.letters = task.letters
    w.powers = task.powers
    w.l, w.d, w.n_letters = task.l, task.d, task.n_letters
    w.n_profile, w.stride = task.n_profile, task.stride
    w.interrupt = interrupt
    return w


cdef void _free_walk(Walk *w) noexcept nogil:
    if w != NULL:
        free(w.live_start)
        free(w.live_weight)
        free(w.live_mismatches)
        free(w.profile)
        free(w)


cdef int _walk_row(const Task *task, Walk *w, intp_t i) noexcept nogil:
    """Row i's profile, then its values ``Σ_m h_m N_m``."""
    cdef intp_t lo = 0, hi = task.n_entries, j, m
    cdef double value
    w.seq_shift = 0
    if task.own_ptr != NULL:
        lo, hi = task.own_ptr[i], task.own_ptr[i + 1]
        w.seq_shift = i
    if _profile_row(w, &task.cols, lo, hi, task.offsets[i],
                    task.weights + task.window_offsets[i],
                    task.row_codes + task.window_offsets[i],
                    task.window_offsets[i + 1] - task.window_offsets[i]) == INTERRUPTED:
        return INTERRUPTED
    for j in range(task.n_profile):
        value = 0.0
        for m in range(task.d + 1):
            value = value + task.h[m] * w.profile[m * task.n_profile + j]
        task.out[i * task.n_profile + j] = value
    return 0


cdef int _walk_rows(const Task *task, intp_t row_start, intp_t row_stop,
                    int n_threads) noexcept nogil:
    """Rows [row_start, row_stop) in parallel, one row at a time per thread; returns 0, -1
    (memory ran out) or INTERRUPTED. A thread out of rows waits in leave_team, so the first
    thread keeps looking at the signals while another one walks a long row."""
    cdef intp_t i, next_row = 0, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status   # shared: assigned through the pointer
    cdef Walk *w = NULL              # per thread
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if row_stop <= row_start:
        return 0
    if n_threads > row_stop - row_start:
        n_threads = <int>(row_stop - row_start)
    with parallel(num_threads=n_threads):
        w = _new_walk(task, &interrupt)
        if w == NULL:
            status_ptr[0] = -1
        while True:
            i = row_start + next_item(&next_row)
            if i >= row_stop or w == NULL or interrupted(&interrupt):
                break
            _walk_row(task, w, i)
        _free_walk(w)
        leave_team(&interrupt, &n_done)
    return INTERRUPTED if interrupt.stop and status == 0 else status


cdef void _fill_task(Task *task, dict rows, dict params) except *:
    """The row and parameter fields of ``task`` from the entries' dicts (kept alive by them)."""
    cdef const int32_t[::1] letters = rows["letters"]
    cdef const intp_t[::1] offsets = rows["offsets"]
    cdef const intp_t[::1] window_offsets = rows["window_offsets"]
    cdef const int32_t[::1] weights = rows["weights"]
    cdef const uint64_t[::1] row_codes = rows["lmer_codes"]
    cdef const uint64_t[::1] powers = params["powers"]
    cdef const double[::1] h = params["h"]
    task.letters = &letters[0]
    task.offsets = &offsets[0]
    task.window_offsets = &window_offsets[0]
    task.weights = &weights[0] if weights.shape[0] > 0 else NULL
    task.row_codes = &row_codes[0] if row_codes.shape[0] > 0 else NULL
    task.powers = &powers[0]
    task.h = &h[0]
    task.l, task.d, task.n_letters = params["l"], params["d"], params["n_letters"]
    task.stride = max(<intp_t> rows["max_windows"], 1)


cdef void _fill_columns(Task *task, dict columns) except *:
    cdef const uint64_t[::1] codes = columns["codes"]
    cdef const intp_t[::1] seq = columns["seq"]
    cdef const int32_t[::1] weight = columns["weight"]
    cdef const intp_t[::1] prefix_start
    task.n_entries = codes.shape[0]
    task.cols.prefix_start = NULL
    task.cols.prefix_depth = 0
    if columns.get("prefix_start") is not None:
        prefix_start = columns["prefix_start"]
        task.cols.prefix_start = &prefix_start[0]
        task.cols.prefix_depth = columns["prefix_depth"]
    if task.n_entries > 0:
        task.cols.codes = &codes[0]
        task.cols.seq = &seq[0]
        task.cols.weight = &weight[0]


cdef _finish(int status):
    if status == INTERRUPTED:
        raise_pending()
    if status == -1:
        raise MemoryError("could not allocate the gapped k-mer kernel's work space")


def gapped_kmer_gram(
    dict rows,                    # IN letters, offsets, window_offsets, weights of the rows
    dict columns,                 # IN codes, seq (sorted by code), weight
    dict params,                  # IN l, d, n_letters, powers, h
    double[:, ::1] out,           # OUT (n_rows, n_cols): rows [row_start, row_stop) written
    intp_t row_start,
    intp_t row_stop,
    int n_threads,
):
    """Rows ``[row_start, row_stop)`` of ``K[i, j] = Σ_m h_m N_m(x_i, y_j)``.

    Parameters
    ----------
    rows : dict
        ``letters`` ndarray (total_length,) int32, letter codes of the row sequences
        concatenated; ``offsets`` ndarray (n_rows + 1,) intp; ``window_offsets`` ndarray
        (n_rows + 1,) intp, the l-mers of row i are ``window_offsets[i]..window_offsets[i+1]``
        (``max(0, len_i − l + 1)`` of them); ``weights`` ndarray (n_windows,) int32, their
        position weights; ``lmer_codes`` ndarray (n_windows,) uint64, their codes;
        ``max_windows`` int, the most l-mers of one row.
    columns : dict
        ``codes`` ndarray (n_entries,) uint64, the column l-mer codes sorted; ``seq`` ndarray
        (n_entries,) intp, the column of each; ``weight`` ndarray (n_entries,) int32;
        optionally ``prefix_start`` ndarray (|A|^prefix_depth + 1,) intp, the first entry
        whose code is ≥ c·|A|^(l − prefix_depth) for every c, and ``prefix_depth`` int.
    params : dict
        ``l``, ``d``, ``n_letters`` (int); ``powers`` ndarray (l + 1,) uint64, |A|^t;
        ``h`` ndarray (d + 1,) float64, the weight of an l-mer pair with m mismatches.
    out : ndarray of shape (n_rows, n_cols), dtype float64
    row_start, row_stop : int
    n_threads : int
    """
    cdef Task task
    cdef int status
    _fill_task(&task, rows, params)
    _fill_columns(&task, columns)
    if task.n_entries == 0 or out.shape[1] == 0:
        return
    task.own_ptr = NULL
    task.n_profile = out.shape[1]
    task.out = &out[0, 0]
    with nogil:
        status = _walk_rows(&task, row_start, row_stop, n_threads)
    _finish(status)


def gapped_kmer_diagonal(
    dict rows,                    # IN as in gapped_kmer_gram
    dict own,                     # IN codes, seq, weight sorted by (seq, code); ptr (n_rows + 1,)
    dict params,                  # IN as in gapped_kmer_gram
    double[::1] out,              # OUT (n_rows,) K(x_i, x_i)
    int n_threads,
):
    """``K(x_i, x_i)``: each row's profile against its own l-mers (and reverse complements).

    Parameters
    ----------
    rows, params : dict
        As in :func:`gapped_kmer_gram`.
    own : dict
        ``codes``, ``seq``, ``weight`` as ``columns`` of :func:`gapped_kmer_gram` but sorted by
        sequence then code; ``ptr`` ndarray (n_rows + 1,) intp, row i's entries are
        ``ptr[i]..ptr[i+1]``.
    out : ndarray of shape (n_rows,), dtype float64
    n_threads : int
    """
    cdef Task task
    cdef int status
    cdef const intp_t[::1] ptr = own["ptr"]
    out[:] = 0.0
    _fill_task(&task, rows, params)
    _fill_columns(&task, own)
    if task.n_entries == 0:
        return
    task.own_ptr = &ptr[0]
    task.n_profile = 1
    task.out = &out[0]
    with nogil:
        status = _walk_rows(&task, 0, out.shape[0], n_threads)
    _finish(status)
