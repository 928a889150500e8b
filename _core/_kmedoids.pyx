"""k-medoids: BUILD, the medoid assignment, the distance matrix and the alternate method's
medoid update, over a precomputed or an on-the-fly dissimilarity (``_kmedoids_common.pxd``; the
swap phase is ``_fasterpam``).

Sangnier, §2.2.2 "Variants of k-means" (k-medoids, k-median). L. Kaufman and P. J. Rousseeuw,
"Clustering by means of medoids", 1987 (PAM, BUILD).

The distance matrix (:func:`distance_matrix`) is made tile by tile exactly as the rows made on
the fly, so that both give the same numbers.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport sqrt
from libc.stdlib cimport free, malloc

from _distances cimport gemm_abt, row_squared_norms, squared_distance_from_dot
from _interrupt cimport INTERRUPTED, raise_pending
from _kmedoids_common cimport (
    COLS,
    EUCLIDEAN,
    OK,
    OUT_OF_MEMORY,
    PRECOMPUTED,
    ROWS,
    SQEUCLIDEAN,
    Source,
    _assign_entry,
    _build,
    _distance_tiles,
    _n_samples,
    _source,
)
from _sort cimport sort_pairs
from _types cimport floating, int32_t, int64_t, intp_t

METRICS = {"precomputed": PRECOMPUTED, "euclidean": EUCLIDEAN, "sqeuclidean": SQEUCLIDEAN}


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
    cdef int32_t *seco_i = NULL
    cdef double *seco_d = NULL
    if labels.shape[0] != n or distances.shape[0] != n or medoids.shape[0] < 1:
        raise ValueError("labels or distances have the wrong length, or no medoids.")
    # every buffer freed below is NULL until allocated, whatever raises first
    src.tile = NULL
    seco_i = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    seco_d = <double*>malloc(max(n, 1) * sizeof(double))
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
    cdef double *near_d = NULL
    if not 1 <= medoids.shape[0] <= n:
        raise ValueError(f"need 1 ≤ n_clusters ≤ n_samples, got {medoids.shape[0]} for {n}.")
    src.tile = NULL     # freed below whatever raises first
    near_d = <double*>malloc(max(n, 1) * sizeof(double))
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
