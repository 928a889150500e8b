"""Gapped k-mer kernels (gkm-SVM, Ghandi et al. 2014; LS-GKM, Lee 2016) from mismatch profiles.

Every kernel type is ``K(x, y) = Σ_m h_m N_m(x, y)`` with the mismatch profile
``N_m(x, y) = Σ_{i, j : Hamming(x_i, y_j) = m} w_i w_j`` over the l-mers ``x_i`` of x (forward
strand) and ``y_j`` of y (and of its reverse complement), weighted by integer position weights
``w``; ``h_m`` (m ≤ d) comes from the caller. The profile of one row sequence against every
column sequence is counted as in LS-GKM, by a depth-first walk of the column l-mers' trie that
carries the row's l-mers with their mismatch counts so far and drops those past d. The trie is
implicit: the column l-mer codes (base-|A| numbers, first letter most significant) sorted, so a
node at depth p is the range of codes sharing its p leading letters and its children are found
by bisection. Profiles are integer sums (exact, so the result does not depend on the thread
count); a row's Gram entries are then ``Σ_m h_m N_m`` in a fixed order. Rows run in parallel.
"""

from cython.parallel cimport parallel, prange
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc

from _interrupt cimport (CHECK_WORK, INTERRUPTED, InterruptState, interrupt_init, interrupted,
                        raise_pending)
from _types cimport int32_t, intp_t, uint64_t


ctypedef struct Columns:
    const uint64_t *codes      # (n_entries,) sorted l-mer codes (within each range walked)
    const intp_t *seq          # (n_entries,) column sequence of each entry
    const int32_t *weight      # (n_entries,) its position weight


ctypedef struct Walk:
    const int32_t *letters     # the row sequence's letter codes
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


cdef inline intp_t _lower_bound(const uint64_t *codes, intp_t lo, intp_t hi,
                                uint64_t value) noexcept nogil:
    """First index in [lo, hi) whose code is ≥ value (codes sorted)."""
    cdef intp_t mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if codes[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


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


cdef int _descend(Walk *w, const Columns *cols, intp_t lo, intp_t hi, int depth,
                  intp_t n_live) noexcept nogil:
    """Walk the node [lo, hi) at ``depth`` with ``n_live`` row l-mers still within d."""
    if depth == w.l:
        return _leaf(w, cols, lo, hi, n_live)
    cdef uint64_t unit = w.powers[w.l - 1 - depth]
    # the node's prefix: its codes with the letters from `depth` on set to 0
    cdef uint64_t prefix = cols.codes[lo] - cols.codes[lo] % (unit * <uint64_t>w.n_letters)
    cdef intp_t child_lo = lo, child_hi, e, n_next
    cdef intp_t here = depth * w.stride, there = (depth + 1) * w.stride
    cdef int letter, mismatches
    for letter in range(w.n_letters):
        if child_lo >= hi:
            break
        if letter == w.n_letters - 1:
            child_hi = hi
        else:
            child_hi = _lower_bound(cols.codes, child_lo, hi, prefix + (letter + 1) * unit)
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
                                       n_next) == INTERRUPTED:
                return INTERRUPTED
        child_lo = child_hi
    return 0


cdef int _profile_row(Walk *w, const Columns *cols, intp_t lo, intp_t hi, intp_t row_start,
                      const int32_t *row_weights, intp_t n_windows) noexcept nogil:
    """The mismatch profile of one row sequence (its l-mers start at ``row_start`` and have
    ``row_weights``) against the column entries [lo, hi)."""
    cdef intp_t i
    for i in range((w.d + 1) * w.n_profile):
        w.profile[i] = 0
    if n_windows == 0 or hi <= lo:
        return 0
    for i in range(n_windows):
        w.live_start[i] = row_start + i
        w.live_weight[i] = row_weights[i]
        w.live_mismatches[i] = 0
    return _descend(w, cols, lo, hi, 0, n_windows)


cdef Walk *_new_walk(int l, int d, intp_t stride, intp_t n_profile) noexcept nogil:
    cdef Walk *w = <Walk *> malloc(sizeof(Walk))
    if w == NULL:
        return NULL
    w.live_start = <intp_t *> malloc((l + 1) * stride * sizeof(intp_t))
    w.live_weight = <int32_t *> malloc((l + 1) * stride * sizeof(int32_t))
    w.live_mismatches = <int32_t *> malloc((l + 1) * stride * sizeof(int32_t))
    w.profile = <int64_t *> malloc((d + 1) * n_profile * sizeof(int64_t))
    return w


cdef void _free_walk(Walk *w) noexcept nogil:
    if w != NULL:
        free(w.live_start)
        free(w.live_weight)
        free(w.live_mismatches)
        free(w.profile)
        free(w)


cdef bint _walk_ok(Walk *w) noexcept nogil:
    return (w != NULL and w.live_start != NULL and w.live_weight != NULL
            and w.live_mismatches != NULL and w.profile != NULL)


def gapped_kmer_gram(
    dict rows,                    # IN letters, offsets, window_offsets, weights of the rows
    dict columns,                 # IN codes, seq (sorted by code), weight, n_samples
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
        position weights; ``max_windows`` int, the most l-mers of one row.
    columns : dict
        ``codes`` ndarray (n_entries,) uint64, the column l-mer codes sorted; ``seq`` ndarray
        (n_entries,) intp, the column of each; ``weight`` ndarray (n_entries,) int32.
    params : dict
        ``l``, ``d``, ``n_letters`` (int); ``powers`` ndarray (l + 1,) uint64, |A|^t;
        ``h`` ndarray (d + 1,) float64, the weight of an l-mer pair with m mismatches.
    out : ndarray of shape (n_rows, n_cols), dtype float64
    row_start, row_stop : int
    n_threads : int
    """
    cdef const int32_t[::1] letters = rows["letters"]
    cdef const intp_t[::1] offsets = rows["offsets"]
    cdef const intp_t[::1] window_offsets = rows["window_offsets"]
    cdef const int32_t[::1] row_weights = rows["weights"]
    cdef intp_t stride = max(<intp_t> rows["max_windows"], 1)
    cdef const uint64_t[::1] codes = columns["codes"]
    cdef const intp_t[::1] seq = columns["seq"]
    cdef const int32_t[::1] col_weight = columns["weight"]
    cdef const uint64_t[::1] powers = params["powers"]
    cdef const double[::1] h = params["h"]
    cdef int l = params["l"], d = params["d"], n_letters = params["n_letters"]
    cdef intp_t n_cols = out.shape[1], n_entries = codes.shape[0]
    cdef Columns cols
    cdef InterruptState interrupt
    cdef Walk *w
    cdef intp_t i, j, m
    cdef double value
    # set through a pointer: a variable assigned in a parallel block is private to each thread
    cdef int failed_flag = 0
    cdef int *failed = &failed_flag
    cdef const int32_t *weights = NULL
    if n_entries == 0 or row_stop <= row_start:
        return
    if row_weights.shape[0] > 0:
        weights = &row_weights[0]
    cols.codes = &codes[0]
    cols.seq = &seq[0]
    cols.weight = &col_weight[0]
    interrupt_init(&interrupt)
    with nogil, parallel(num_threads=n_threads):
        w = _new_walk(l, d, stride, n_cols)
        if not _walk_ok(w):
            failed[0] = 1
        else:
            w.letters = &letters[0]
            w.powers = &powers[0]
            w.l, w.d, w.n_letters = l, d, n_letters
            w.seq_shift, w.n_profile, w.stride = 0, n_cols, stride
            w.work = 0
            w.interrupt = &interrupt
        for i in prange(row_start, row_stop, schedule='dynamic'):
            if failed[0] or interrupted(&interrupt):
                continue
            if _profile_row(w, &cols, 0, n_entries, offsets[i], weights + window_offsets[i],
                            window_offsets[i + 1] - window_offsets[i]) == INTERRUPTED:
                continue
            for j in range(n_cols):
                value = 0.0
                for m in range(d + 1):
                    value = value + h[m] * w.profile[m * n_cols + j]
                out[i, j] = value
        _free_walk(w)
    if interrupt.stop:
        raise_pending()
    if failed_flag:
        raise MemoryError("could not allocate the gapped k-mer kernel's work space")


def gapped_kmer_diagonal(
    dict rows,                    # IN as in gapped_kmer_gram
    dict own,                     # IN codes, seq, weight sorted by (seq, code); ptr (n_rows + 1,)
    dict params,                  # IN as in gapped_kmer_gram
    double[::1] out,              # OUT (n_rows,) K(x_i, x_i)
    int n_threads,
):
    """``K(x_i, x_i)``: each row's profile against its own column entries.

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
    cdef const int32_t[::1] letters = rows["letters"]
    cdef const intp_t[::1] offsets = rows["offsets"]
    cdef const intp_t[::1] window_offsets = rows["window_offsets"]
    cdef const int32_t[::1] row_weights = rows["weights"]
    cdef intp_t stride = max(<intp_t> rows["max_windows"], 1)
    cdef const uint64_t[::1] codes = own["codes"]
    cdef const intp_t[::1] seq = own["seq"]
    cdef const int32_t[::1] col_weight = own["weight"]
    cdef const intp_t[::1] ptr = own["ptr"]
    cdef const uint64_t[::1] powers = params["powers"]
    cdef const double[::1] h = params["h"]
    cdef int l = params["l"], d = params["d"], n_letters = params["n_letters"]
    cdef intp_t n_rows = out.shape[0]
    cdef Columns cols
    cdef InterruptState interrupt
    cdef Walk *w
    cdef intp_t i, m
    cdef double value
    # set through a pointer: a variable assigned in a parallel block is private to each thread
    cdef int failed_flag = 0
    cdef int *failed = &failed_flag
    cdef const int32_t *weights = NULL
    out[:] = 0.0
    if codes.shape[0] == 0:
        return
    if row_weights.shape[0] > 0:
        weights = &row_weights[0]
    cols.codes = &codes[0]
    cols.seq = &seq[0]
    cols.weight = &col_weight[0]
    interrupt_init(&interrupt)
    with nogil, parallel(num_threads=n_threads):
        w = _new_walk(l, d, stride, 1)
        if not _walk_ok(w):
            failed[0] = 1
        else:
            w.letters = &letters[0]
            w.powers = &powers[0]
            w.l, w.d, w.n_letters = l, d, n_letters
            w.n_profile, w.stride = 1, stride
            w.work = 0
            w.interrupt = &interrupt
        for i in prange(n_rows, schedule='dynamic'):
            if failed[0] or interrupted(&interrupt) or ptr[i + 1] == ptr[i]:
                continue
            w.seq_shift = i
            if _profile_row(w, &cols, ptr[i], ptr[i + 1], offsets[i],
                            weights + window_offsets[i],
                            window_offsets[i + 1] - window_offsets[i]) == INTERRUPTED:
                continue
            value = 0.0
            for m in range(d + 1):
                value = value + h[m] * w.profile[m]
            out[i] = value
        _free_walk(w)
    if interrupt.stop:
        raise_pending()
    if failed_flag:
        raise MemoryError("could not allocate the gapped k-mer kernel's work space")
