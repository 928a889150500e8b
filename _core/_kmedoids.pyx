"""k-medoids: FasterPAM swaps, BUILD, medoid assignment and update, over a precomputed or an
on-the-fly dissimilarity.

Sangnier, §2.2.2 "Variants of k-means" (k-medoids, k-median). E. Schubert and
P. J. Rousseeuw, "Fast and eager k-medoids clustering: O(k) runtime improvement of the PAM,
CLARA, and CLARANS algorithms", Information Systems 101, 2021 (FasterPAM); L. Kaufman and
P. J. Rousseeuw, "Clustering by means of medoids", 1987 (PAM, BUILD).

Dissimilarities. ``d(j, o)`` is read from row ``j`` of a precomputed matrix ``D`` (float32 or
float64, ``D[j, o]``: candidate or medoid ``j`` against sample ``o``), or computed on the fly from
the rows of ``X`` (metric EUCLIDEAN ``‖x_j − x_o‖`` or SQEUCLIDEAN ``‖x_j − x_o‖²``) by
``‖x_j‖² + ‖x_o‖² − 2 x_j·x_o``: one GEMM per tile of ``ROWS`` rows (aligned on multiples of ROWS)
by ``COLS`` columns, with ``d(j, j) = 0`` exactly. Every distance is computed by a GEMM call of a
shape fixed by the tile, so ``d(j, o)`` is the same number whether the whole matrix is
precomputed (:func:`distance_matrix`) or rows are made on demand, and whatever the thread count.

FasterPAM (Schubert & Rousseeuw 2021, Algorithm 3). Each sample ``o`` keeps its nearest medoid
``n(o)`` at ``dn(o)`` and its second nearest at ``ds(o)``; the removal loss of medoid ``m`` is
``Σ_{o: n(o)=m} (ds(o) − dn(o))``. Swapping candidate ``c`` for medoid ``m`` changes the loss by
``ΔTD(m, c) = acc(c) + R_m(c)`` where one pass over the samples gives, for every ``m`` at once,

    d(o, c) < dn(o):          acc += d(o, c) − dn(o),  R_{n(o)} += dn(o) − ds(o)
    dn(o) ≤ d(o, c) < ds(o):  R_{n(o)} += d(o, c) − ds(o)

starting from ``R = removal loss`` — O(n) per candidate instead of PAM's O(nk). Swaps are eager:
candidates are visited in index order and the best swap of a candidate is made as soon as it
lowers the loss; a pass ends one full cycle after the last swap. This is the algorithm and the
arithmetic of the ``kmedoids`` package (same order of sums, same ties), so from the same medoids
it reaches the same medoids.

Parallelism without changing the result: with several threads, a window of consecutive
candidates is evaluated against the current state in parallel; the first improving candidate of
the window (in index order) is swapped and the evaluations after it are dropped, so the sequence
of swaps is exactly the sequential one. The window grows while no swap happens and shrinks after
one. Each evaluation is one thread's ordered sum, so the values do not depend on the threads.
"""

from cython.parallel cimport parallel, prange
from libc.float cimport DBL_MAX
from libc.math cimport INFINITY, fabs, sqrt
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from _distances cimport gemm_abt, row_squared_norms, squared_distance_from_dot
from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport sort_pairs
from _types cimport floating, int32_t, int64_t, intp_t

# Metric codes of the on-the-fly dissimilarities (a precomputed matrix is PRECOMPUTED).
cdef enum:
    PRECOMPUTED = -1
    EUCLIDEAN = 0
    SQEUCLIDEAN = 1

METRICS = {"precomputed": PRECOMPUTED, "euclidean": EUCLIDEAN, "sqeuclidean": SQEUCLIDEAN}

# Status codes (raised in the def wrappers), besides _interrupt.pxd's INTERRUPTED.
cdef enum:
    OK = 0
    OUT_OF_MEMORY = -1

# Rows per distance tile (candidate rows are made a tile at a time) and columns per GEMM call:
# a 64 × 1024 tile of doubles (512 KiB) stays in L2.
cdef intp_t ROWS = 64
cdef intp_t COLS = 1024
# Largest window of candidates evaluated in parallel, per thread.
cdef intp_t WINDOW_PER_THREAD = 8
# Below this many samples a candidate costs too little to share between threads (a fork/join
# costs microseconds, a stalled one a time slice on a busy machine).
cdef intp_t PARALLEL_MIN_SAMPLES = 2048


# ---------------------------------------------------------------------------- on-the-fly distances
cdef void _distance_tiles(
    const double *X,           # IN (n, n_features), row-major
    const double *sqnorms,     # IN (n,)
    intp_t n, intp_t n_features, int metric,
    intp_t r0, intp_t r1,      # rows [r0, r1), a union of whole tiles (r0 a multiple of ROWS)
    double *out,               # OUT row r at out + (r − r0) n
    int n_threads,
) noexcept nogil:
    """``d(x_r, x_o)`` for rows ``[r0, r1)`` and every ``o``, one GEMM per (tile, column chunk).

    Row-major ``out[r, c0:c1]`` is the column-major ``(c1 − c0) × rows`` matrix
    ``X[c0:c1] X[rows]ᵀ``: GEMM('T', 'N') on the raw row-major buffers.
    """
    cdef intp_t n_tiles = (r1 - r0 + ROWS - 1) // ROWS
    cdef intp_t n_chunks = (n + COLS - 1) // COLS
    cdef intp_t task, t0, t1, c0, c1, r, o
    cdef double v
    cdef double *row
    if n_threads > n_tiles * n_chunks:
        n_threads = <int>(n_tiles * n_chunks)
    for task in prange(n_tiles * n_chunks, schedule='dynamic', num_threads=n_threads):
        t0 = r0 + (task // n_chunks) * ROWS
        t1 = t0 + ROWS
        if t1 > r1:
            t1 = r1
        c0 = (task % n_chunks) * COLS
        c1 = c0 + COLS
        if c1 > n:
            c1 = n
        gemm_abt(X + t0 * n_features, <int>(t1 - t0), X + c0 * n_features, <int>(c1 - c0),
                 <int>n_features, 1.0, 0.0, out + (t0 - r0) * n + c0, <int>n)
        for r in range(t0, t1):
            row = out + (r - r0) * n
            for o in range(c0, c1):
                v = squared_distance_from_dot(sqnorms[r], sqnorms[o], row[o])
                row[o] = sqrt(v) if metric == EUCLIDEAN else v
            if c0 <= r < c1:
                row[r] = 0.0


cdef struct Source:
    # Where dissimilarity rows come from when they are computed (X is NULL for a matrix).
    const double *X
    const double *sqnorms
    intp_t n_features
    int metric
    double *tile               # ROWS × n buffer holding the rows of tile `tile_index`
    intp_t tile_index          # −1: nothing cached


cdef inline const floating *_row(const floating *D, Source *src, intp_t n, intp_t j,
                                 int n_threads) noexcept nogil:
    """Row ``d(j, ·)``: in place in ``D``, or from the cached tile (computed if needed)."""
    cdef intp_t t
    if src.X == NULL:
        return D + j * n
    t = j // ROWS
    if src.tile_index != t:
        _distance_tiles(src.X, src.sqnorms, n, src.n_features, src.metric, t * ROWS,
                        min((t + 1) * ROWS, n), src.tile, n_threads)
        src.tile_index = t
    return <const floating *>(src.tile + (j - t * ROWS) * n)


# ---------------------------------------------------------------------------- FasterPAM pieces
cdef double _assign(
    const floating **med_rows, const intp_t *medoids, intp_t n_medoids, intp_t n,
    int32_t *near_i, double *near_d, int32_t *seco_i, double *seco_d, int n_threads,
) noexcept nogil:
    """Nearest and second-nearest medoid of every sample; returns the loss ``Σ dn(o)``.

    A medoid is its own nearest (as the ``kmedoids`` package); otherwise strict ``<`` keeps the
    lowest medoid index on ties.
    """
    cdef intp_t o, m
    cdef double dist, loss = 0.0
    if n < PARALLEL_MIN_SAMPLES:
        n_threads = 1
    for o in prange(n, schedule='static', num_threads=n_threads):
        near_i[o] = 0
        near_d[o] = med_rows[0][o]
        seco_i[o] = -1
        seco_d[o] = INFINITY
        for m in range(1, n_medoids):
            dist = med_rows[m][o]
            if dist < near_d[o] or o == medoids[m]:
                seco_i[o] = near_i[o]
                seco_d[o] = near_d[o]
                near_i[o] = <int32_t>m
                near_d[o] = dist
            elif dist < seco_d[o]:
                seco_i[o] = <int32_t>m
                seco_d[o] = dist
    for o in range(n):
        loss += near_d[o]
    return loss


cdef void _removal_loss(const int32_t *near_i, const double *near_d, const double *seco_d,
                        intp_t n, intp_t n_medoids, double *removal) noexcept nogil:
    cdef intp_t o, m
    for m in range(n_medoids):
        removal[m] = 0.0
    for o in range(n):
        removal[near_i[o]] += seco_d[o] - near_d[o]


cdef double _evaluate(
    const floating *row,       # IN (n,): d(c, ·) of the candidate
    const int32_t *near_i, const double *near_d, const double *seco_d,
    const double *removal, intp_t n, intp_t n_medoids,
    double *ploss,             # scratch (n_medoids,)
    intp_t *best,              # OUT: medoid slot to swap out
) noexcept nogil:
    """``min_m ΔTD(m, c)`` and its slot (the first on ties)."""
    cdef intp_t o, m
    cdef double acc = 0.0, doc, dn
    memcpy(ploss, removal, n_medoids * sizeof(double))
    for o in range(n):
        doc = row[o]
        dn = near_d[o]
        if doc < dn:
            acc += doc - dn
            ploss[near_i[o]] += dn - seco_d[o]
        elif doc < seco_d[o]:
            ploss[near_i[o]] += doc - seco_d[o]
    best[0] = 0
    for m in range(1, n_medoids):
        if ploss[m] < ploss[best[0]]:
            best[0] = m
    return ploss[best[0]] + acc


cdef void _second_nearest(const floating **med_rows, intp_t n_medoids, intp_t nearest,
                          intp_t b, intp_t o, double dob, int32_t *seco_i,
                          double *seco_d) noexcept nogil:
    """Second nearest medoid of ``o`` by a scan, starting from the new medoid ``b``."""
    cdef intp_t m
    cdef double dist
    seco_i[o] = <int32_t>b
    seco_d[o] = dob
    for m in range(n_medoids):
        if m == nearest or m == b:
            continue
        dist = med_rows[m][o]
        if dist < seco_d[o]:
            seco_i[o] = <int32_t>m
            seco_d[o] = dist


cdef double _swap(
    const floating **med_rows,   # IN: rows of the medoids, slot b already the new medoid's
    intp_t n_medoids, intp_t n, intp_t b, intp_t j,
    int32_t *near_i, double *near_d, int32_t *seco_i, double *seco_d,
) noexcept nogil:
    """Replace medoid slot ``b`` by sample ``j``: update every nearest/second nearest; return
    the new loss."""
    cdef intp_t o
    cdef double doj, loss = 0.0
    cdef const floating *row = med_rows[b]
    for o in range(n):
        if o == j:
            if near_i[o] != b:
                seco_i[o] = near_i[o]
                seco_d[o] = near_d[o]
            near_i[o] = <int32_t>b
            near_d[o] = 0.0
            continue
        doj = row[o]
        if near_i[o] == b:                       # the nearest medoid is gone
            if doj < seco_d[o]:
                near_d[o] = doj
            else:
                near_i[o] = seco_i[o]
                near_d[o] = seco_d[o]
                _second_nearest(med_rows, n_medoids, near_i[o], b, o, doj, seco_i, seco_d)
        elif doj < near_d[o]:
            seco_i[o] = near_i[o]
            seco_d[o] = near_d[o]
            near_i[o] = <int32_t>b
            near_d[o] = doj
        elif doj < seco_d[o]:
            seco_i[o] = <int32_t>b
            seco_d[o] = doj
        elif seco_i[o] == b:                     # the second nearest was replaced
            _second_nearest(med_rows, n_medoids, near_i[o], b, o, doj, seco_i, seco_d)
        loss += near_d[o]
    return loss


cdef int _fasterpam(
    const floating *D, Source *src, intp_t n, intp_t n_medoids,
    intp_t *medoids,            # INOUT (n_medoids,)
    int32_t *near_i, double *near_d, int32_t *seco_i, double *seco_d,   # OUT (n,)
    double *history,            # OUT (max_iter,): loss at the start of each pass
    intp_t max_iter, int n_threads,
    intp_t *n_iter, intp_t *n_swaps, double *loss,
) noexcept nogil:
    cdef intp_t max_window = WINDOW_PER_THREAD * n_threads if n_threads > 1 else 1
    cdef intp_t window = n_threads if n_threads > 1 else 1
    cdef intp_t it, j, c, p, stop, limit, lastswap = n, swaps_before, found, slot
    cdef double lastloss
    cdef int status = OK
    cdef const floating **med_rows = <const floating **>malloc(n_medoids * sizeof(void*))
    cdef double *med_buffer = NULL
    cdef double *removal = <double*>malloc(n_medoids * sizeof(double))
    cdef double *ploss = <double*>malloc(max_window * n_medoids * sizeof(double))
    cdef double *change = <double*>malloc(max_window * sizeof(double))
    cdef intp_t *slots = <intp_t*>malloc(max_window * sizeof(intp_t))
    cdef intp_t m
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if n < PARALLEL_MIN_SAMPLES:
        max_window = window = 1
    if src.X != NULL:
        med_buffer = <double*>malloc(n_medoids * n * sizeof(double))
    if (med_rows == NULL or removal == NULL or ploss == NULL or change == NULL or slots == NULL
            or (src.X != NULL and med_buffer == NULL)):
        status = OUT_OF_MEMORY
    else:
        for m in range(n_medoids):
            if src.X == NULL:
                med_rows[m] = D + medoids[m] * n
            else:
                # the row comes with its tile of ROWS rows: O(ROWS · n · n_features) each
                if interrupted(&interrupt):
                    status = INTERRUPTED
                    break
                memcpy(med_buffer + m * n, _row(D, src, n, medoids[m], n_threads),
                       n * sizeof(double))
                med_rows[m] = <const floating *>(med_buffer + m * n)
    if status == OK:
        loss[0] = _assign(med_rows, medoids, n_medoids, n, near_i, near_d, seco_i, seco_d,
                          n_threads)
        _removal_loss(near_i, near_d, seco_d, n, n_medoids, removal)
        n_swaps[0] = 0
        n_iter[0] = 0
        for it in range(max_iter):
            history[it] = loss[0]
            n_iter[0] = it + 1
            swaps_before = n_swaps[0]
            lastloss = loss[0]
            j = 0
            while j < n and j != lastswap:
                if interrupted(&interrupt):      # a window costs O(window · n)
                    status = INTERRUPTED
                    break
                # the window ends at the last swap of the previous pass (the pass stops there),
                # and within one tile of computed rows
                limit = lastswap if lastswap > j else n
                stop = min(j + window, limit)
                if src.X != NULL:
                    stop = min(stop, (j // ROWS + 1) * ROWS)
                    _row(D, src, n, j, n_threads)        # compute the tile once, outside threads
                if stop - j == 1:
                    c = j
                    change[0] = INFINITY
                    if medoids[near_i[c]] != c:          # a medoid is not a candidate
                        change[0] = _evaluate(_row(D, src, n, c, 1), near_i, near_d, seco_d,
                                              removal, n, n_medoids, ploss, &slots[0])
                else:
                    for p in prange(stop - j, schedule='static', num_threads=n_threads):
                        change[p] = INFINITY
                        if medoids[near_i[j + p]] != j + p:
                            change[p] = _evaluate(_row(D, src, n, j + p, 1), near_i, near_d,
                                                  seco_d, removal, n, n_medoids,
                                                  ploss + p * n_medoids, &slots[p])
                found = -1
                for p in range(stop - j):
                    if change[p] < 0.0:
                        found = p
                        break
                if found < 0:
                    j = stop
                    window = min(2 * window, max_window)
                    continue
                c = j + found
                slot = slots[found]
                medoids[slot] = c
                if src.X == NULL:
                    med_rows[slot] = D + c * n
                else:
                    memcpy(med_buffer + slot * n, _row(D, src, n, c, 1), n * sizeof(double))
                loss[0] = _swap(med_rows, n_medoids, n, slot, c, near_i, near_d, seco_i, seco_d)
                _removal_loss(near_i, near_d, seco_d, n, n_medoids, removal)
                n_swaps[0] += 1
                lastswap = c
                j = c + 1
                window = max(window // 2, n_threads if max_window > 1 else 1)
            if (status == INTERRUPTED or n_swaps[0] == swaps_before
                    or loss[0] >= lastloss):
                break
    free(med_rows)
    free(med_buffer)
    free(removal)
    free(ploss)
    free(change)
    free(slots)
    return status


cdef int _build(
    const floating *D, Source *src, intp_t n, intp_t n_medoids,
    intp_t *medoids,            # OUT (n_medoids,)
    double *near_d,             # scratch (n,)
    int n_threads,
) noexcept nogil:
    """PAM's BUILD: each next medoid is the sample minimising ``Σ_o min(dn(o), d(c, o))``
    (the first: the smallest total dissimilarity); lowest index on ties."""
    cdef intp_t t, c, o, tile_start, tile_stop, best
    cdef double total, best_total
    cdef double *totals = <double*>malloc(n * sizeof(double))
    cdef const floating *row
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if totals == NULL:
        return OUT_OF_MEMORY
    for o in range(n):
        near_d[o] = INFINITY
    for t in range(n_medoids):
        tile_start = 0
        while tile_start < n:
            if interrupted(&interrupt):          # a tile costs O(ROWS · n), O(n²) precomputed
                free(totals)
                return INTERRUPTED
            tile_stop = min(tile_start + ROWS, n) if src.X != NULL else n
            if src.X != NULL:
                _row(D, src, n, tile_start, n_threads)
            for c in prange(tile_start, tile_stop, schedule='static',
                            num_threads=n_threads if n >= PARALLEL_MIN_SAMPLES else 1):
                row = _row(D, src, n, c, 1)
                total = 0.0
                for o in range(n):
                    total = total + (row[o] if row[o] < near_d[o] else near_d[o])
                totals[c] = total
            tile_start = tile_stop
        best = -1
        best_total = INFINITY
        for c in range(n):
            if totals[c] < best_total and not _chosen(medoids, t, c):
                best = c
                best_total = totals[c]
        if best < 0:   # every total infinite or all chosen: take the first free sample
            best = 0
            while _chosen(medoids, t, best):
                best += 1
        medoids[t] = best
        row = _row(D, src, n, best, n_threads)
        for o in range(n):
            if row[o] < near_d[o]:
                near_d[o] = row[o]
    free(totals)
    return OK


cdef inline bint _chosen(const intp_t *medoids, intp_t n_chosen, intp_t c) noexcept nogil:
    cdef intp_t i
    for i in range(n_chosen):
        if medoids[i] == c:
            return True
    return False


# ---------------------------------------------------------------------------- def entries
cdef int _source(Source *src, const double[:, ::1] X, const double[::1] sqnorms, int metric,
                 intp_t n) except -1:
    src.tile = NULL
    src.tile_index = -1
    src.metric = metric
    src.n_features = X.shape[1]
    if metric == PRECOMPUTED:
        src.X = NULL
        src.sqnorms = NULL
        return 0
    if X.shape[0] != n or sqnorms.shape[0] != n:
        raise ValueError(f"X has {X.shape[0]} rows and sqnorms {sqnorms.shape[0]} entries for "
                         f"{n} samples.")
    src.X = &X[0, 0]
    src.sqnorms = &sqnorms[0]
    src.tile = <double*>malloc(ROWS * n * sizeof(double))
    if src.tile == NULL:
        raise MemoryError(f"k-medoids could not allocate {ROWS}×{n} distances.")
    return 0


cdef intp_t _n_samples(const floating[:, ::1] D, const double[:, ::1] X, int metric) except -1:
    if metric == PRECOMPUTED:
        if D.shape[0] != D.shape[1]:
            raise ValueError(f"D must be square, got shape ({D.shape[0]}, {D.shape[1]}).")
        return D.shape[0]
    if metric != EUCLIDEAN and metric != SQEUCLIDEAN:
        raise ValueError(f"unknown metric code {metric}")
    if floating is float:
        raise TypeError("on-the-fly distances are computed in float64: pass D as an empty "
                        "float64 array")
    else:
        return X.shape[0]


def fasterpam(
    const floating[:, ::1] D,        # IN (n, n) dissimilarities, or (0, 0) with a vector metric
    const double[:, ::1] X,          # IN (n, n_features) samples (vector metric), else (0, 0)
    const double[::1] sqnorms,       # IN (n,) ‖x‖² (vector metric), else empty
    int metric,                      # a value of METRICS
    intp_t[::1] medoids,             # INOUT (n_clusters,) distinct sample indices
    int32_t[::1] labels,             # OUT (n,) slot of the nearest medoid
    double[::1] distances,           # OUT (n,) dissimilarity to it
    double[::1] history,             # OUT (max_iter,) loss at the start of each pass
    intp_t max_iter,
    int n_threads,
):
    """FasterPAM from the given medoids (eager swaps, O(k)-faster swap evaluation).

    Parameters
    ----------
    D : ndarray of shape (n, n), float32 or float64, C-contiguous
        ``D[j, o]``: dissimilarity of medoid/candidate ``j`` to sample ``o`` (row ``j`` is read).
        Shape (0, 0), float64, with a vector ``metric``.
    X : ndarray of shape (n, n_features), float64
        Samples for ``metric`` EUCLIDEAN or SQEUCLIDEAN (centred, for accuracy); (0, 0)
        otherwise.
    sqnorms : ndarray of shape (n,), float64
        Squared norms of the rows of ``X``.
    metric : int
    medoids : ndarray of shape (n_clusters,), intp
        Initial medoids in, final medoids out (slot order kept).
    labels : ndarray of shape (n,), int32
    distances : ndarray of shape (n,), float64
    history : ndarray of shape (max_iter,), float64
        Only the first ``n_iter`` entries are written.
    max_iter : int
        Passes at most.
    n_threads : int

    Returns
    -------
    loss : float
        ``Σ_o d(m(o), o)``.
    n_iter : int
        Passes run.
    n_swaps : int
    """
    cdef intp_t n = _n_samples(D, X, metric)
    cdef intp_t k = medoids.shape[0]
    cdef intp_t i, n_iter = 0, n_swaps = 0
    cdef double loss = 0.0
    cdef int status
    cdef Source src
    cdef int32_t *seco_i = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    cdef double *seco_d = <double*>malloc(max(n, 1) * sizeof(double))
    if not 1 <= k <= n:
        raise ValueError(f"need 1 ≤ n_clusters ≤ n_samples, got {k} medoids for {n} samples.")
    if labels.shape[0] != n or distances.shape[0] != n or history.shape[0] < max_iter:
        raise ValueError("labels, distances or history have the wrong length.")
    try:
        if seco_i == NULL or seco_d == NULL:
            raise MemoryError()
        _source(&src, X, sqnorms, metric, n)
        with nogil:
            if k == 1:
                # the best single medoid minimises the total dissimilarity: BUILD's first step
                status = _build(&D[0, 0] if src.X == NULL else NULL, &src, n, 1, &medoids[0],
                                seco_d, n_threads)
            else:
                status = _fasterpam(&D[0, 0] if src.X == NULL else NULL, &src, n, k,
                                    &medoids[0], &labels[0], &distances[0], seco_i, seco_d,
                                    &history[0] if max_iter > 0 else NULL, max_iter, n_threads,
                                    &n_iter, &n_swaps, &loss)
        if status == INTERRUPTED:
            raise_pending()
        if status == OUT_OF_MEMORY:
            raise MemoryError(f"FasterPAM could not allocate its buffers for {n} samples and "
                              f"{k} medoids.")
        if k == 1:
            _assign_entry(D, &src, medoids, labels, distances, seco_i, seco_d, n_threads)
            loss = 0.0
            for i in range(n):
                loss += distances[i]
            n_iter = 1
            if max_iter > 0:
                history[0] = loss
    finally:
        free(src.tile)
        free(seco_i)
        free(seco_d)
    return loss, n_iter, n_swaps


cdef void _assign_entry(const floating[:, ::1] D, Source *src, intp_t[::1] medoids,
                        int32_t[::1] labels, double[::1] distances, int32_t *seco_i,
                        double *seco_d, int n_threads) except *:
    """Nearest medoid of every sample into ``labels``/``distances`` (rows of the medoids made
    or read as in FasterPAM)."""
    cdef intp_t n = labels.shape[0], k = medoids.shape[0], m
    cdef const floating **med_rows = <const floating **>malloc(k * sizeof(void*))
    cdef double *med_buffer = NULL
    if src.X != NULL:
        med_buffer = <double*>malloc(k * n * sizeof(double))
    try:
        if med_rows == NULL or (src.X != NULL and med_buffer == NULL):
            raise MemoryError()
        with nogil:
            for m in range(k):
                if src.X == NULL:
                    med_rows[m] = &D[0, 0] + medoids[m] * n
                else:
                    memcpy(med_buffer + m * n, _row(<const floating*>NULL, src, n, medoids[m],
                                                    n_threads), n * sizeof(double))
                    med_rows[m] = <const floating *>(med_buffer + m * n)
            _assign(med_rows, &medoids[0], k, n, &labels[0], &distances[0], seco_i, seco_d,
                    n_threads)
    finally:
        free(med_rows)
        free(med_buffer)


def assign_medoids(
    const floating[:, ::1] D,        # IN (n, n), or (0, 0) with a vector metric
    const double[:, ::1] X,          # IN (n, n_features) or (0, 0)
    const double[::1] sqnorms,       # IN (n,) or empty
    int metric,
    intp_t[::1] medoids,             # IN (n_clusters,)
    int32_t[::1] labels,             # OUT (n,)
    double[::1] distances,           # OUT (n,)
    int n_threads,
):
    """Nearest medoid of every sample (a medoid is its own; lowest slot on ties).

    Arguments as :func:`fasterpam`. Returns the loss ``Σ_o d(m(o), o)`` (summed in sample
    order).
    """
    cdef intp_t n = _n_samples(D, X, metric), i
    cdef Source src
    cdef double loss = 0.0
    cdef int32_t *seco_i = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    cdef double *seco_d = <double*>malloc(max(n, 1) * sizeof(double))
    if labels.shape[0] != n or distances.shape[0] != n or medoids.shape[0] < 1:
        raise ValueError("labels or distances have the wrong length, or no medoids.")
    try:
        if seco_i == NULL or seco_d == NULL:
            raise MemoryError()
        _source(&src, X, sqnorms, metric, n)
        _assign_entry(D, &src, medoids, labels, distances, seco_i, seco_d, n_threads)
        for i in range(n):
            loss += distances[i]
    finally:
        free(src.tile)
        free(seco_i)
        free(seco_d)
    return loss


def build_medoids(
    const floating[:, ::1] D,        # IN (n, n), or (0, 0) with a vector metric
    const double[:, ::1] X,          # IN (n, n_features) or (0, 0)
    const double[::1] sqnorms,       # IN (n,) or empty
    int metric,
    intp_t[::1] medoids,             # OUT (n_clusters,)
    int n_threads,
):
    """PAM's BUILD initialisation (greedy: each medoid lowers the total dissimilarity most).

    Arguments as :func:`fasterpam`. O(k n²) dissimilarities (each recomputed per round on the
    fly).
    """
    cdef intp_t n = _n_samples(D, X, metric)
    cdef Source src
    cdef int status
    cdef double *near_d = <double*>malloc(max(n, 1) * sizeof(double))
    if not 1 <= medoids.shape[0] <= n:
        raise ValueError(f"need 1 ≤ n_clusters ≤ n_samples, got {medoids.shape[0]} for {n}.")
    try:
        if near_d == NULL:
            raise MemoryError()
        _source(&src, X, sqnorms, metric, n)
        with nogil:
            status = _build(&D[0, 0] if src.X == NULL else NULL, &src, n, medoids.shape[0],
                            &medoids[0], near_d, n_threads)
        if status == INTERRUPTED:
            raise_pending()
        if status == OUT_OF_MEMORY:
            raise MemoryError()
    finally:
        free(src.tile)
        free(near_d)


def distance_matrix(
    const double[:, ::1] X,          # IN (n, n_features), centred
    const double[::1] sqnorms,       # IN (n,)
    int metric,                      # EUCLIDEAN or SQEUCLIDEAN
    double[:, ::1] out,              # OUT (n, n)
    int n_threads,
):
    """All dissimilarities ``out[j, o] = d(x_j, x_o)``, tile by tile exactly as the on-the-fly
    rows of :func:`fasterpam` (so both give the same numbers); zero diagonal.

    Parameters
    ----------
    X : ndarray of shape (n, n_features), float64
    sqnorms : ndarray of shape (n,), float64
    metric : int
    out : ndarray of shape (n, n), float64
    n_threads : int
    """
    cdef intp_t n = X.shape[0]
    if metric != EUCLIDEAN and metric != SQEUCLIDEAN:
        raise ValueError(f"metric must be EUCLIDEAN or SQEUCLIDEAN, got {metric}")
    if out.shape[0] != n or out.shape[1] != n or sqnorms.shape[0] != n:
        raise ValueError("out must be (n, n) and sqnorms (n,).")
    if n == 0:
        return
    with nogil:
        _distance_tiles(&X[0, 0], &sqnorms[0], n, X.shape[1], metric, 0, n, &out[0, 0],
                        n_threads)


def in_cluster_costs(
    const floating[:, ::1] D,        # IN (n, n), or (0, 0) with a vector metric
    const double[:, ::1] X,          # IN (n, n_features) rows grouped by cluster, or (0, 0)
    const intp_t[::1] order,         # IN (n,) sample index of each grouped position
    const intp_t[::1] offsets,       # IN (n_clusters + 1,) cluster c holds [offsets[c], ...)
    int metric,
    double[::1] costs,               # OUT (n,) by grouped position
    int n_threads,
):
    """``costs[p] = Σ_{q in p's cluster} d(order[p], order[q])``: the cost of each member as its
    cluster's medoid (the alternate method's medoid update is the argmin within each cluster).

    With a vector metric, ``X`` holds the samples already grouped (``X[p]`` is sample
    ``order[p]``) and the distances of a cluster come from GEMM tiles over the upper triangle
    of its members' pairs, one thread per cluster; with a matrix, the members' entries of
    ``D[order[p]]`` are gathered, one thread per row. Either way the order of every sum is fixed
    by the data: the result does not depend on the thread count.

    Parameters
    ----------
    D : ndarray of shape (n, n), float32 or float64; (0, 0) float64 with a vector metric
    X : ndarray of shape (n, n_features), float64, grouped; (0, 0) for a matrix
    order : ndarray of shape (n,), intp
    offsets : ndarray of shape (n_clusters + 1,), intp
    metric : int
    costs : ndarray of shape (n,), float64
    n_threads : int
    """
    cdef intp_t n = order.shape[0], n_clusters = offsets.shape[0] - 1
    cdef intp_t p, q, c, start, stop
    cdef double total
    cdef double *sqnorms = NULL
    cdef int64_t *sizes = NULL
    cdef intp_t *clusters = NULL
    cdef int status = OK
    if costs.shape[0] != n or offsets[n_clusters] != n:
        raise ValueError("costs must have one entry per sample and offsets end at n.")
    if n == 0:      # no cluster to update (and no first row to point at)
        return
    if metric == PRECOMPUTED:
        if D.shape[0] != D.shape[1]:
            raise ValueError("D must be square.")
        with nogil:
            for c in range(n_clusters):
                start = offsets[c]
                stop = offsets[c + 1]
                for p in prange(start, stop, schedule='dynamic',
                                num_threads=n_threads if stop - start >= 64 else 1):
                    total = 0.0
                    for q in range(start, stop):
                        total = total + D[order[p], order[q]]
                    costs[p] = total
        return
    if X.shape[0] != n:
        raise ValueError(f"X has {X.shape[0]} rows for {n} samples.")
    sqnorms = <double*>malloc(max(n, 1) * sizeof(double))
    sizes = <int64_t*>malloc(max(n_clusters, 1) * sizeof(int64_t))
    clusters = <intp_t*>malloc(max(n_clusters, 1) * sizeof(intp_t))
    try:
        if sqnorms == NULL or sizes == NULL or clusters == NULL:
            raise MemoryError()
        with nogil:
            # largest clusters first (ties by index): the dynamic schedule then balances threads
            for c in range(n_clusters):
                sizes[c] = offsets[c] - offsets[c + 1]
                clusters[c] = c
            sort_pairs(sizes, clusters, n_clusters)
            row_squared_norms(&X[0, 0], n, X.shape[1], sqnorms)
            status = _in_cluster_costs_vectors(&X[0, 0], sqnorms, X.shape[1], metric, offsets,
                                               clusters, n_clusters, &costs[0], n_threads)
        if status == OUT_OF_MEMORY:
            raise MemoryError("k-medoids could not allocate its per-thread distance blocks.")
    finally:
        free(sqnorms)
        free(sizes)
        free(clusters)


cdef int _in_cluster_costs_vectors(
    const double *X, const double *sqnorms, intp_t n_features, int metric,
    const intp_t[::1] offsets, const intp_t *clusters, intp_t n_clusters, double *costs,
    int n_threads,
) noexcept nogil:
    """One task per cluster (largest first): its members' pairwise distances, upper triangle
    only — each GEMM tile of ROWS member rows by COLS member columns from the diagonal on, each
    distance added to both its row's and its column's cost. One thread owns a cluster, so the
    order of the sums depends on the cluster alone."""
    cdef intp_t t, c, r0, r1, c0, c1, r, o, start, stop
    cdef double v
    cdef double *block = NULL
    cdef int status = OK
    cdef int *status_ptr = &status
    if n_threads > n_clusters:
        n_threads = <int>max(n_clusters, 1)
    with parallel(num_threads=n_threads):
        block = <double*>malloc(ROWS * COLS * sizeof(double))
        if block == NULL:
            status_ptr[0] = OUT_OF_MEMORY
        for t in prange(n_clusters, schedule='dynamic'):
            if block == NULL:
                continue
            c = clusters[t]
            start = offsets[c]
            stop = offsets[c + 1]
            for r in range(start, stop):
                costs[r] = 0.0
            r0 = start
            while r0 < stop:
                r1 = min(r0 + ROWS, stop)
                c0 = r0
                while c0 < stop:
                    c1 = min(c0 + COLS, stop)
                    gemm_abt(X + r0 * n_features, <int>(r1 - r0), X + c0 * n_features,
                             <int>(c1 - c0), <int>n_features, 1.0, 0.0, block, <int>COLS)
                    for r in range(r0, r1):
                        for o in range(max(c0, r + 1), c1):
                            v = squared_distance_from_dot(sqnorms[r], sqnorms[o],
                                                          block[(r - r0) * COLS + o - c0])
                            if metric == EUCLIDEAN:
                                v = sqrt(v)
                            costs[r] += v
                            costs[o] += v
                    c0 = c1
                r0 = r1
        free(block)
    return status


def dissimilarity_range(const floating[:, ::1] D, int n_threads):
    """``(min, all finite)`` of a dissimilarity matrix in one parallel pass (row by row, then in
    row order: independent of ``n_threads``).

    Parameters
    ----------
    D : ndarray of shape (n_rows, n_cols), float32 or float64
    n_threads : int

    Returns
    -------
    minimum : float
    finite : bool
    """
    cdef intp_t n = D.shape[0], i, j
    cdef double low, value
    cdef bint ok
    cdef double *row_min = NULL
    cdef unsigned char *row_finite = NULL
    if n == 0 or D.shape[1] == 0:
        return 0.0, True
    row_min = <double*>malloc(n * sizeof(double))
    row_finite = <unsigned char*>malloc(n * sizeof(unsigned char))
    try:
        if row_min == NULL or row_finite == NULL:
            raise MemoryError()
        with nogil:
            for i in prange(n, schedule='static', num_threads=n_threads):
                low = INFINITY
                ok = True
                for j in range(D.shape[1]):
                    value = D[i, j]
                    # NaN fails both comparisons; ±inf fails the second
                    if not (fabs(value) <= DBL_MAX):
                        ok = False
                    if value < low:
                        low = value
                row_min[i] = low
                row_finite[i] = ok
            low = INFINITY
            ok = True
            for i in range(n):
                if row_min[i] < low:
                    low = row_min[i]
                ok = ok and row_finite[i]
    finally:
        free(row_min)
        free(row_finite)
    return low, bool(ok)
