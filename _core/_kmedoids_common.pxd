# What the k-medoids cores share (_fasterpam: FasterPAM's swap phase; _kmedoids: BUILD, the
# assignment, the distance matrix and the alternate method's update): the metric and status
# codes, dissimilarity rows from a precomputed matrix or made tile by tile by GEMM (`Source`),
# the nearest and second-nearest medoid of every sample, and BUILD.
#
# Dissimilarities. ``d(j, o)`` is read from row ``j`` of a precomputed matrix ``D`` (float32 or
# float64, ``D[j, o]``: candidate or medoid ``j`` against sample ``o``), or computed on the fly
# from the rows of ``X`` (metric EUCLIDEAN ``‖x_j − x_o‖`` or SQEUCLIDEAN ``‖x_j − x_o‖²``) by
# ``‖x_j‖² + ‖x_o‖² − 2 x_j·x_o``: one GEMM per tile of ``ROWS`` rows (aligned on multiples of
# ROWS) by ``COLS`` columns, with ``d(j, j) = 0`` exactly. Every distance is computed by a GEMM
# call of a shape fixed by the tile, so ``d(j, o)`` is the same number whether the whole matrix
# is precomputed (``_kmedoids.distance_matrix``) or rows are made on demand, and whatever the
# thread count.
from cython.parallel cimport prange
from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from _distances cimport gemm_abt, squared_distance_from_dot
from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted
from _types cimport floating, int32_t, intp_t

# Metric codes of the on-the-fly dissimilarities (a precomputed matrix is PRECOMPUTED; the
# names are _kmedoids.METRICS).
cdef enum:
    PRECOMPUTED = -1
    EUCLIDEAN = 0
    SQEUCLIDEAN = 1

# Status codes (raised in the def wrappers), besides _interrupt.pxd's INTERRUPTED.
cdef enum:
    OK = 0
    OUT_OF_MEMORY = -1

cdef enum:
    # Rows per distance tile (candidate rows are made a tile at a time) and columns per GEMM
    # call: a 64 × 1024 tile of doubles (512 KiB) stays in L2.
    ROWS = 64
    COLS = 1024
    # Below this many samples a candidate costs too little to share between threads (a
    # fork/join costs microseconds, a stalled one a time slice on a busy machine).
    PARALLEL_MIN_SAMPLES = 2048


# ---------------------------------------------------------------------------- on-the-fly distances
cdef inline void _distance_tiles(
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


# ------------------------------------------------------------------------ nearest medoids, BUILD
cdef inline double _assign(
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


cdef inline int _medoid_rows(
    const floating *D, Source *src, intp_t n,
    const intp_t *medoids, intp_t n_medoids,
    const floating **med_rows,  # OUT (n_medoids,) the row d(m, ·) of each medoid
    double *med_buffer,         # OUT (n_medoids, n) the rows made on the fly (vector metric)
    int n_threads,
    InterruptState *interrupt,  # looked at between two rows made on the fly, unless NULL
) noexcept nogil:
    """Rows of the medoids: pointers into ``D``, or copies of the rows made tile by tile (each
    with its tile of ROWS rows: O(ROWS · n · n_features)). Returns OK or INTERRUPTED."""
    cdef intp_t m
    for m in range(n_medoids):
        if src.X == NULL:
            med_rows[m] = D + medoids[m] * n
        else:
            if interrupt != NULL and interrupted(interrupt):
                return INTERRUPTED
            memcpy(med_buffer + m * n, _row(D, src, n, medoids[m], n_threads),
                   n * sizeof(double))
            med_rows[m] = <const floating *>(med_buffer + m * n)
    return OK


cdef inline void _assign_entry(const floating[:, ::1] D, Source *src, intp_t[::1] medoids,
                               int32_t[::1] labels, double[::1] distances, int32_t *seco_i,
                               double *seco_d, int n_threads) except *:
    """Nearest medoid of every sample into ``labels``/``distances`` (rows of the medoids made
    or read as in FasterPAM)."""
    cdef intp_t n = labels.shape[0], k = medoids.shape[0]
    cdef const floating **med_rows = <const floating **>malloc(k * sizeof(void*))
    cdef double *med_buffer = NULL
    if src.X != NULL:
        med_buffer = <double*>malloc(k * n * sizeof(double))
    try:
        if med_rows == NULL or (src.X != NULL and med_buffer == NULL):
            raise MemoryError()
        with nogil:
            _medoid_rows(&D[0, 0] if src.X == NULL else NULL, src, n, &medoids[0], k, med_rows,
                         med_buffer, n_threads, NULL)
            _assign(med_rows, &medoids[0], k, n, &labels[0], &distances[0], seco_i, seco_d,
                    n_threads)
    finally:
        free(med_rows)
        free(med_buffer)


cdef inline bint _chosen(const intp_t *medoids, intp_t n_chosen, intp_t c) noexcept nogil:
    cdef intp_t i
    for i in range(n_chosen):
        if medoids[i] == c:
            return True
    return False


cdef inline int _build(
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


# ---------------------------------------------------------------------------- entries
cdef inline int _source(Source *src, const double[:, ::1] X, const double[::1] sqnorms,
                        int metric, intp_t n) except -1:
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


cdef inline intp_t _n_samples(const floating[:, ::1] D, const double[:, ::1] X,
                              int metric) except -1:
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
