"""Gapped k-mer kernels from masked-match counts, tile by tile.

For a set F of j free positions of an l-mer, its masked code is its letters outside F. Summed
over the C(l, j) sets F of size j, the weighted number of l-mer pairs of x and y whose masked
codes are equal,

    M_j(x, y) = Σ_{|F| = j} Σ_code S_x^F(code) S_y^F(code),

(S^F(code): the summed position weights of a sequence's l-mers with that masked code) counts a
pair at Hamming distance m exactly C(l − m, j − m) times: ``M_j = Σ_{m ≤ j} C(l − m, j − m) N_m``,
triangular with a unit diagonal, so the mismatch profile follows exactly,
``N_m = M_m − Σ_{q < m} C(l − q, m − q) N_q``, and ``K = Σ_m h_m N_m`` as in the trie walk of
``_gapped_kmer_gram`` (same integers, same float sum: the two cores agree bit for bit). When h
is a multiple of the last row of that triangle (the ``gkm`` type with d = l − k), ``K = h_d M_d``
and only the masks of size d are counted.

The Gram is cut into tiles of rows × columns. A thread takes a tile, lays its l-mers out (row
sequences' then column sequences', each in sequence order), and for every mask codes their
masked letters (a few shifts of the bit-packed l-mer codes), sorts them by that key with a
stable LSD radix sort (digits of at most 16 bits: one counting pass for short keys), and walks
the groups of equal keys: the summed weights of each row sequence and each column sequence of
a group (adjacent, the sort being stable) are multiplied pairwise into the tile's int64 counts
M_j. Exact integer sums, so the result does not depend on the thread count; memory is the
input plus one tile's l-mers and counts per thread. The diagonal (each sequence against
itself) runs on tiles of sequences whose groups are joined on the sequence only.
"""

from cython.parallel cimport parallel
from libc.stdint cimport int64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from _interrupt cimport (CHECK_WORK, INTERRUPTED, InterruptState, interrupt_init, interrupted,
                        leave_team, next_item, raise_pending)
from _types cimport int32_t, intp_t, uint32_t, uint64_t


cdef enum:
    MAX_DIGIT_BITS = 16         # counting-sort digit: a histogram of 2^16 counts at most


ctypedef struct Side:
    const uint64_t *codes      # bit-packed l-mer codes grouped by sequence
    const int32_t *weights     # their position weights
    const intp_t *ptr          # (n_sequences + 1,) sequence s owns entries ptr[s]..ptr[s+1]


ctypedef struct Masks:
    intp_t n_masks
    const intp_t *run_ptr      # (n_masks + 1,) the runs of kept positions of each mask
    const int32_t *run_shift   # a run's lowest bit in the packed code
    const uint64_t *run_bits   # its bits, once shifted down
    const int32_t *run_place   # its lowest bit in the key
    const int32_t *key_bits    # (n_masks,) bits of a mask's key
    const int32_t *level       # (n_masks,) index of the M_j the mask adds to


ctypedef struct Problem:
    Side rows
    Side cols
    Masks masks
    int n_levels, d            # n_levels: d + 1 (every M_j), or 1 (M_d alone)
    const int64_t *binomial    # ((d + 1)²,) C(l − q, m − q) at m * (d + 1) + q
    const double *h            # (d + 1,)
    intp_t tile_rows, tile_cols
    intp_t row_start, row_stop, n_cols
    intp_t n_col_tiles
    bint diagonal              # rows against their own entries (cols = the same sequences)
    bint symmetric             # K(X, X): the tiles on or above the diagonal, mirrored
    intp_t capacity            # l-mers of the largest tile
    double *out                # out[i * out_stride + j]
    intp_t out_stride


ctypedef struct Workspace:
    uint64_t *code             # (capacity,) the tile's l-mers: rows' then columns'
    uint32_t *payload          # who << 8 | weight: row sequence r (local), or n_tile_rows +
                               # column sequence (local); position weights are at most 255
    uint64_t *key[2]           # the radix sort's keys and payloads, double-buffered
    uint32_t *sorted[2]
    intp_t *count              # (2^MAX_DIGIT_BITS + 1,)
    int32_t *row_who
    int64_t *row_weight        # a group's summed weights per row sequence
    int32_t *col_who
    int64_t *col_weight
    int64_t *counts            # (n_levels, tile_rows, tile_cols) M_j of the tile
    int64_t *profile           # (d + 1,) N_m of one pair
    intp_t work
    InterruptState *interrupt


cdef void _free_workspace(Workspace *ws) noexcept nogil:
    if ws != NULL:
        free(ws.code)
        free(ws.payload)
        free(ws.key[0])
        free(ws.key[1])
        free(ws.sorted[0])
        free(ws.sorted[1])
        free(ws.count)
        free(ws.row_who)
        free(ws.row_weight)
        free(ws.col_who)
        free(ws.col_weight)
        free(ws.counts)
        free(ws.profile)
        free(ws)


cdef Workspace *_new_workspace(const Problem *p, InterruptState *interrupt) noexcept nogil:
    """A thread's buffers (NULL when memory ran out)."""
    cdef Workspace *ws = <Workspace *> calloc(1, sizeof(Workspace))
    cdef intp_t n = p.capacity if p.capacity > 0 else 1
    cdef intp_t n_cells = p.tile_rows * (1 if p.diagonal else p.tile_cols)
    if ws == NULL:
        return NULL
    ws.code = <uint64_t *> malloc(n * sizeof(uint64_t))
    ws.payload = <uint32_t *> malloc(n * sizeof(uint32_t))
    ws.key[0] = <uint64_t *> malloc(n * sizeof(uint64_t))
    ws.key[1] = <uint64_t *> malloc(n * sizeof(uint64_t))
    ws.sorted[0] = <uint32_t *> malloc(n * sizeof(uint32_t))
    ws.sorted[1] = <uint32_t *> malloc(n * sizeof(uint32_t))
    ws.count = <intp_t *> malloc(((1 << MAX_DIGIT_BITS) + 1) * sizeof(intp_t))
    ws.row_who = <int32_t *> malloc(p.tile_rows * sizeof(int32_t))
    ws.row_weight = <int64_t *> malloc(p.tile_rows * sizeof(int64_t))
    ws.col_who = <int32_t *> malloc(p.tile_cols * sizeof(int32_t))
    ws.col_weight = <int64_t *> malloc(p.tile_cols * sizeof(int64_t))
    ws.counts = <int64_t *> malloc(p.n_levels * n_cells * sizeof(int64_t))
    ws.profile = <int64_t *> malloc((p.d + 1) * sizeof(int64_t))
    if (ws.code == NULL or ws.payload == NULL or ws.key[0] == NULL or ws.key[1] == NULL
            or ws.sorted[0] == NULL or ws.sorted[1] == NULL or ws.count == NULL
            or ws.row_who == NULL or ws.row_weight == NULL or ws.col_who == NULL
            or ws.col_weight == NULL or ws.counts == NULL or ws.profile == NULL):
        _free_workspace(ws)
        return NULL
    ws.interrupt = interrupt
    return ws


cdef intp_t _gather(Workspace *ws, const Side *side, intp_t first, intp_t stop, intp_t at,
                    intp_t who_shift) noexcept nogil:
    """Append the entries of sequences [first, stop) of ``side`` at ``at``; returns the end."""
    cdef intp_t s, e
    for s in range(first, stop):
        for e in range(side.ptr[s], side.ptr[s + 1]):
            ws.code[at] = side.codes[e]
            ws.payload[at] = <uint32_t> (((s - first + who_shift) << 8) | side.weights[e])
            at += 1
    return at


cdef inline uint64_t _masked_key(const Masks *masks, intp_t t, uint64_t code) noexcept nogil:
    """The letters of ``code`` kept by mask t, packed together."""
    cdef uint64_t key = 0
    cdef intp_t r
    for r in range(masks.run_ptr[t], masks.run_ptr[t + 1]):
        key |= ((code >> masks.run_shift[r]) & masks.run_bits[r]) << masks.run_place[r]
    return key


cdef inline void _add_pairs(const Problem *p, Workspace *ws, int64_t *counts, intp_t n_row_who,
                     intp_t n_col_who, intp_t n_tile_cols) noexcept nogil:
    """Products of a group's summed row and column weights into the tile's counts: every
    row × column pair, or (diagonal) the pairs of one sequence, joined on it."""
    cdef intp_t a, b = 0
    cdef int64_t *line
    cdef int64_t wa
    if p.diagonal:
        for a in range(n_row_who):
            while b < n_col_who and ws.col_who[b] < ws.row_who[a]:
                b += 1
            if b < n_col_who and ws.col_who[b] == ws.row_who[a]:
                counts[ws.row_who[a]] += ws.row_weight[a] * ws.col_weight[b]
        ws.work += n_row_who + n_col_who
        return
    for a in range(n_row_who):
        line = counts + ws.row_who[a] * n_tile_cols
        wa = ws.row_weight[a]
        for b in range(n_col_who):
            line[ws.col_who[b]] += wa * ws.col_weight[b]
    ws.work += n_row_who * n_col_who


cdef inline void _group(const Problem *p, Workspace *ws, const uint32_t *payload, intp_t lo,
                 intp_t hi, int64_t *counts, intp_t n_tile_rows,
                 intp_t n_tile_cols) noexcept nogil:
    """The l-mers [lo, hi) of one masked code: sum their weights per row sequence and per
    column sequence (each adjacent, rows first: the sort is stable and the tile is laid out
    rows first, in sequence order) and add the products to the counts."""
    cdef intp_t i, n_row_who = 0, n_col_who = 0
    cdef int32_t who
    cdef int64_t weight
    for i in range(lo, hi):
        who = <int32_t> (payload[i] >> 8)
        weight = payload[i] & 0xFF
        if who < n_tile_rows:
            if n_row_who > 0 and ws.row_who[n_row_who - 1] == who:
                ws.row_weight[n_row_who - 1] += weight
            else:
                ws.row_who[n_row_who] = who
                ws.row_weight[n_row_who] = weight
                n_row_who += 1
        else:
            who = who - <int32_t> n_tile_rows
            if n_col_who > 0 and ws.col_who[n_col_who - 1] == who:
                ws.col_weight[n_col_who - 1] += weight
            else:
                ws.col_who[n_col_who] = who
                ws.col_weight[n_col_who] = weight
                n_col_who += 1
    if n_row_who > 0 and n_col_who > 0:
        _add_pairs(p, ws, counts, n_row_who, n_col_who, n_tile_cols)


cdef void _count_short_key(const Problem *p, Workspace *ws, intp_t t, intp_t n,
                           int64_t *counts, intp_t n_tile_rows,
                           intp_t n_tile_cols) noexcept nogil:
    """Mask t with a key of at most MAX_DIGIT_BITS bits: one counting sort of the payloads,
    whose buckets are the groups (the keys themselves are not moved)."""
    cdef intp_t e, b, lo = 0, size = (<intp_t> 1) << p.masks.key_bits[t]
    cdef intp_t *count = ws.count
    cdef uint64_t *key = ws.key[0]
    cdef uint32_t *out = ws.sorted[0]
    memset(count, 0, (size + 1) * sizeof(intp_t))
    for e in range(n):
        key[e] = _masked_key(&p.masks, t, ws.code[e])
        count[key[e] + 1] += 1
    for b in range(size):
        count[b + 1] += count[b]
    for e in range(n):
        out[count[key[e]]] = ws.payload[e]
        count[key[e]] += 1
    # count[b] is now the end of bucket b
    for b in range(size):
        if count[b] - lo > 1:
            _group(p, ws, out, lo, count[b], counts, n_tile_rows, n_tile_cols)
        lo = count[b]
    ws.work += 2 * n + size


cdef void _count_long_key(const Problem *p, Workspace *ws, intp_t t, intp_t n,
                          int64_t *counts, intp_t n_tile_rows,
                          intp_t n_tile_cols) noexcept nogil:
    """Mask t with a longer key: a stable LSD radix sort of (key, payload) in equal digits of
    at most MAX_DIGIT_BITS bits, then the runs of equal keys are the groups."""
    cdef intp_t e, i, lo, size
    cdef int key_bits = p.masks.key_bits[t], n_passes, digit_bits, shift = 0, src = 0
    cdef uint64_t digit_mask
    cdef intp_t *count = ws.count
    cdef const uint32_t *payload_in = ws.payload
    n_passes = (key_bits + MAX_DIGIT_BITS - 1) // MAX_DIGIT_BITS
    digit_bits = (key_bits + n_passes - 1) // n_passes
    size = (<intp_t> 1) << digit_bits
    digit_mask = <uint64_t> (size - 1)
    for e in range(n):
        ws.key[0][e] = _masked_key(&p.masks, t, ws.code[e])
    while shift < key_bits:
        memset(count, 0, (size + 1) * sizeof(intp_t))
        for e in range(n):
            count[((ws.key[src][e] >> shift) & digit_mask) + 1] += 1
        for i in range(size):
            count[i + 1] += count[i]
        for e in range(n):
            i = <intp_t> ((ws.key[src][e] >> shift) & digit_mask)
            ws.key[1 - src][count[i]] = ws.key[src][e]
            ws.sorted[1 - src][count[i]] = payload_in[e]
            count[i] += 1
        payload_in = ws.sorted[1 - src]
        src = 1 - src
        shift += digit_bits
    lo = 0
    for i in range(1, n + 1):
        if i == n or ws.key[src][i] != ws.key[src][lo]:
            if i - lo > 1:
                _group(p, ws, payload_in, lo, i, counts, n_tile_rows, n_tile_cols)
            lo = i
    ws.work += n * (n_passes + 2)


cdef void _count_mask(const Problem *p, Workspace *ws, intp_t t, intp_t n, intp_t n_tile_rows,
                      intp_t n_tile_cols) noexcept nogil:
    """Add mask t's masked matches of the tile's n entries to its counts."""
    cdef int64_t *counts = ws.counts + p.masks.level[t] * n_tile_rows * (
        1 if p.diagonal else n_tile_cols)
    if p.masks.key_bits[t] <= MAX_DIGIT_BITS:
        _count_short_key(p, ws, t, n, counts, n_tile_rows, n_tile_cols)
    else:
        _count_long_key(p, ws, t, n, counts, n_tile_rows, n_tile_cols)


cdef double _value(const Problem *p, Workspace *ws, intp_t cell, intp_t n_cells) noexcept nogil:
    """``Σ_m h_m N_m`` of one cell from its counts M_j (or ``h_d M_d`` with one level)."""
    cdef int m, q
    cdef int64_t value
    cdef double total = 0.0
    if p.n_levels == 1:
        return p.h[p.d] * ws.counts[cell]
    for m in range(p.d + 1):
        value = ws.counts[m * n_cells + cell]
        for q in range(m):
            value -= p.binomial[m * (p.d + 1) + q] * ws.profile[q]
        ws.profile[m] = value
        total = total + p.h[m] * value
    return total


cdef int _tile(const Problem *p, Workspace *ws, intp_t tile) noexcept nogil:
    """One tile: gather its l-mers, count every mask, write its Gram values."""
    cdef intp_t r0 = p.row_start + (tile // p.n_col_tiles) * p.tile_rows
    cdef intp_t r1 = min(r0 + p.tile_rows, p.row_stop)
    cdef intp_t c0 = (tile % p.n_col_tiles) * p.tile_cols
    cdef intp_t c1 = min(c0 + p.tile_cols, p.n_cols)
    cdef intp_t n_tile_rows = r1 - r0, n_tile_cols, n, t, a, b, n_cells
    cdef double value
    if p.diagonal:
        c0, c1 = r0, r1
    n_tile_cols = c1 - c0
    n_cells = n_tile_rows * (1 if p.diagonal else n_tile_cols)
    if p.symmetric and c1 <= r0:
        return 0
    n = _gather(ws, &p.rows, r0, r1, 0, 0)
    n = _gather(ws, &p.cols, c0, c1, n, n_tile_rows)
    memset(ws.counts, 0, p.n_levels * n_cells * sizeof(int64_t))
    for t in range(p.masks.n_masks):
        _count_mask(p, ws, t, n, n_tile_rows, n_tile_cols)
        if ws.work >= CHECK_WORK:
            ws.work = 0
            if interrupted(ws.interrupt):
                return INTERRUPTED
    for a in range(n_tile_rows):
        if p.diagonal:
            p.out[(r0 + a) * p.out_stride] = _value(p, ws, a, n_cells)
            continue
        for b in range(n_tile_cols):
            if p.symmetric and c0 + b < r0 + a:
                continue
            value = _value(p, ws, a * n_tile_cols + b, n_cells)
            p.out[(r0 + a) * p.out_stride + c0 + b] = value
            if p.symmetric:
                # exact integer counts: K(x, y) = K(y, x) bit for bit
                p.out[(c0 + b) * p.out_stride + r0 + a] = value
    return 0


cdef int _run_tiles(const Problem *p, int n_threads) noexcept nogil:
    """Every tile in parallel, taken one at a time (dynamic); returns 0, -1 (memory ran out)
    or INTERRUPTED. A thread out of tiles waits in leave_team, so the first thread keeps
    looking at the signals while another one counts a long tile."""
    cdef intp_t n_row_tiles = (p.row_stop - p.row_start + p.tile_rows - 1) // p.tile_rows
    cdef intp_t n_tiles = n_row_tiles * p.n_col_tiles, tile, next_tile = 0, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status   # shared: assigned through the pointer
    cdef Workspace *ws = NULL        # per thread
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if n_tiles <= 0:
        return 0
    if n_threads > n_tiles:
        n_threads = <int> n_tiles
    with parallel(num_threads=n_threads):
        ws = _new_workspace(p, &interrupt)
        if ws == NULL:
            status_ptr[0] = -1
        while True:
            tile = next_item(&next_tile)
            if tile >= n_tiles or ws == NULL or interrupted(&interrupt):
                break
            _tile(p, ws, tile)
        _free_workspace(ws)
        leave_team(&interrupt, &n_done)
    return INTERRUPTED if interrupt.stop and status == 0 else status


cdef void _fill_side(Side *side, dict entries) except *:
    cdef const uint64_t[::1] codes = entries["packed"]
    cdef const int32_t[::1] weights = entries["weights"]
    cdef const intp_t[::1] ptr = entries["ptr"]
    side.codes = &codes[0] if codes.shape[0] > 0 else NULL
    side.weights = &weights[0] if weights.shape[0] > 0 else NULL
    side.ptr = &ptr[0]


cdef void _fill_problem(Problem *p, dict rows, dict cols, dict plan) except *:
    """The fields of ``p`` from the dicts (which keep the arrays alive)."""
    cdef const intp_t[::1] run_ptr = plan["run_ptr"]
    cdef const int32_t[::1] run_shift = plan["run_shift"]
    cdef const uint64_t[::1] run_bits = plan["run_bits"]
    cdef const int32_t[::1] run_place = plan["run_place"]
    cdef const int32_t[::1] key_bits = plan["key_bits"]
    cdef const int32_t[::1] level = plan["level"]
    cdef const int64_t[::1] binomial = plan["binomial"]
    cdef const double[::1] h = plan["h"]
    _fill_side(&p.rows, rows)
    _fill_side(&p.cols, cols)
    p.masks.n_masks = key_bits.shape[0]
    p.masks.run_ptr = &run_ptr[0]
    p.masks.run_shift = &run_shift[0] if run_shift.shape[0] > 0 else NULL
    p.masks.run_bits = &run_bits[0] if run_bits.shape[0] > 0 else NULL
    p.masks.run_place = &run_place[0] if run_place.shape[0] > 0 else NULL
    p.masks.key_bits = &key_bits[0]
    p.masks.level = &level[0]
    p.binomial = &binomial[0]
    p.h = &h[0]
    p.d = plan["d"]
    p.n_levels = plan["n_levels"]
    p.tile_rows = plan["tile_rows"]
    p.tile_cols = plan["tile_cols"]


cdef intp_t _largest(const intp_t[::1] ptr, intp_t start, intp_t stop, intp_t width):
    """Most entries of ``width`` consecutive sequences among [start, stop) (tiles start at
    multiples of ``width`` from ``start``)."""
    cdef intp_t most = 0, s
    for s in range(start, stop, width):
        most = max(most, ptr[min(s + width, stop)] - ptr[s])
    return most


cdef _finish(int status):
    if status == INTERRUPTED:
        raise_pending()
    if status == -1:
        raise MemoryError("could not allocate the gapped k-mer kernel's masked-match tiles")


def masked_gram(
    dict rows,                    # IN packed, weights, ptr: the row sequences' l-mers
    dict columns,                 # IN packed, weights, ptr: the column sequences' l-mers
    dict plan,                    # IN masks, levels, h, tile sizes (below)
    double[:, ::1] out,           # OUT (n_rows, n_cols): rows [row_start, row_stop) written
    intp_t row_start,
    intp_t row_stop,
    bint symmetric,               # columns are the rows' sequences: mirror the upper triangle
    int n_threads,
):
    """Rows ``[row_start, row_stop)`` of ``K[i, j] = Σ_m h_m N_m(x_i, y_j)`` from masked matches.

    Parameters
    ----------
    rows, columns : dict
        ``packed`` ndarray (n_entries,) uint64, bit-packed l-mer codes (b bits a letter, the
        first letter most significant) grouped by sequence; ``weights`` ndarray (n_entries,)
        int32, their position weights; ``ptr`` ndarray (n_sequences + 1,) intp, sequence s
        owns entries ``ptr[s]..ptr[s+1]``. The rows' forward l-mers; the columns' l-mers and,
        with reverse complements, theirs too.
    plan : dict
        ``run_ptr`` ndarray (n_masks + 1,) intp; ``run_shift``, ``run_place`` ndarray (n_runs,)
        int32 and ``run_bits`` ndarray (n_runs,) uint64: the runs of kept positions of each
        mask, moved from the packed code to the key; ``key_bits``, ``level`` ndarray
        (n_masks,) int32; ``binomial`` ndarray ((d + 1)²,) int64, C(l − q, m − q) at
        m (d + 1) + q; ``h`` ndarray (d + 1,) float64; ``d``, ``n_levels`` (d + 1, or 1 when
        only M_d is counted), ``tile_rows``, ``tile_cols`` int.
    out : ndarray of shape (n_rows, n_cols), dtype float64
    row_start, row_stop : int
    symmetric : bool
        ``K(X, X)``: the entries j ≥ i of rows [row_start, row_stop) are counted and written at
        (i, j) and (j, i).
    n_threads : int
    """
    cdef Problem p
    cdef int status
    cdef const intp_t[::1] row_ptr = rows["ptr"]
    cdef const intp_t[::1] col_ptr = columns["ptr"]
    _fill_problem(&p, rows, columns, plan)
    p.diagonal = False
    p.symmetric = symmetric
    p.row_start, p.row_stop, p.n_cols = row_start, row_stop, out.shape[1]
    if row_stop <= row_start or p.n_cols == 0:
        return
    p.n_col_tiles = (p.n_cols + p.tile_cols - 1) // p.tile_cols
    p.capacity = (_largest(row_ptr, row_start, row_stop, p.tile_rows)
                  + _largest(col_ptr, 0, p.n_cols, p.tile_cols))
    p.out = &out[0, 0]
    p.out_stride = out.shape[1]
    with nogil:
        status = _run_tiles(&p, n_threads)
    _finish(status)


def masked_diagonal(
    dict rows,                    # IN as in masked_gram
    dict own,                     # IN packed, weights, ptr: each row sequence's column l-mers
    dict plan,                    # IN as in masked_gram
    double[::1] out,              # OUT (n_rows,) K(x_i, x_i)
    int n_threads,
):
    """``K(x_i, x_i)`` from masked matches: tiles of ``tile_rows`` sequences, each against its
    own l-mers (and reverse complements).

    Parameters
    ----------
    rows, own, plan : dict
        As ``rows``, ``columns`` and ``plan`` of :func:`masked_gram`, ``own`` over the same
        sequences as ``rows``.
    out : ndarray of shape (n_rows,), dtype float64
    n_threads : int
    """
    cdef Problem p
    cdef int status
    cdef const intp_t[::1] row_ptr = rows["ptr"]
    cdef const intp_t[::1] own_ptr = own["ptr"]
    _fill_problem(&p, rows, own, plan)
    p.diagonal = True
    p.symmetric = False
    p.row_start, p.row_stop, p.n_cols = 0, out.shape[0], out.shape[0]
    if p.row_stop == 0:
        return
    p.n_col_tiles = 1
    p.tile_cols = p.tile_rows
    p.capacity = (_largest(row_ptr, 0, p.row_stop, p.tile_rows)
                  + _largest(own_ptr, 0, p.row_stop, p.tile_rows))
    p.out = &out[0]
    p.out_stride = 1
    with nogil:
        status = _run_tiles(&p, n_threads)
    _finish(status)
