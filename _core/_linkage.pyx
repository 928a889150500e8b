"""Agglomerative clustering: single linkage by a minimum spanning tree, the others by NN-chain.

Sangnier, §2.3.1 (linkages) and §2.3.2 (single linkage ⇔ minimum spanning tree, Kruskal).

* Single linkage. Kruskal on the complete graph is single-linkage agglomeration (Sangnier, §2.3.2);
  any MST algorithm gives the same tree, and Prim's on a dense graph needs only the current
  distance of every outside vertex to the tree: O(n²) time, O(n) memory, distances computed on
  the fly from the samples (or read from a precomputed matrix). Sorting the n−1 edges by weight
  and merging them in that order gives the dendrogram.
* Complete, average and Ward linkage are *reducible*, so the nearest-neighbour chain finds every
  merge of the greedy algorithm in O(n²) time on the condensed distance matrix, updated in place
  by the Lance–Williams formulas (Müllner 2011, "Modern hierarchical, agglomerative clustering
  algorithms", arXiv:1109.2378). Merges come out of height order and are sorted afterwards.

Output is SciPy's linkage format: row ``k`` merges clusters ``Z[k, 0] < Z[k, 1]`` at height
``Z[k, 2]`` into cluster ``n + k`` of ``Z[k, 3]`` samples. Ties are broken as SciPy does (stable
sort of the merges by height; the lower index wins a nearest-neighbour tie).
"""

from libc.math cimport sqrt, fabs, INFINITY
from libc.stdlib cimport malloc, free

from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport sort_pairs
from _types cimport intp_t
from _union_find cimport uf_find

cdef enum Metric:
    EUCLIDEAN = 0
    MANHATTAN = 1
    COSINE = 2
    PRECOMPUTED = 3

cdef enum Method:
    COMPLETE = 0
    AVERAGE = 1
    WARD = 2

_METRICS = {"euclidean": EUCLIDEAN, "manhattan": MANHATTAN, "cosine": COSINE}
_METHODS = {"complete": COMPLETE, "average": AVERAGE, "ward": WARD}


cdef struct Merge:
    double height
    intp_t a
    intp_t b


cdef int _merges_to_linkage(Merge *merges, intp_t n, double[:, ::1] Z) noexcept nogil:
    """Sort the merges by height (stably) and name clusters as SciPy does. -1 on failure."""
    cdef intp_t k, ra, rb, lo, hi
    cdef intp_t *parent = <intp_t*>malloc((2 * n - 1) * sizeof(intp_t))
    cdef intp_t *size = <intp_t*>malloc((2 * n - 1) * sizeof(intp_t))
    cdef double *heights = <double*>malloc(max(n - 1, 1) * sizeof(double))
    cdef intp_t *order = <intp_t*>malloc(max(n - 1, 1) * sizeof(intp_t))
    cdef Merge *sorted_merges = <Merge*>malloc(max(n - 1, 1) * sizeof(Merge))
    if (parent == NULL or size == NULL or heights == NULL or order == NULL
            or sorted_merges == NULL):
        free(parent)
        free(size)
        free(heights)
        free(order)
        free(sorted_merges)
        return -1
    # by height, then by discovery order (the position k): a stable sort
    for k in range(n - 1):
        heights[k] = merges[k].height
        order[k] = k
    sort_pairs(heights, order, n - 1)
    for k in range(n - 1):
        sorted_merges[k] = merges[order[k]]
    for k in range(n - 1):
        merges[k] = sorted_merges[k]
    free(heights)
    free(order)
    free(sorted_merges)
    for k in range(2 * n - 1):
        parent[k] = k
        size[k] = 1
    for k in range(n - 1):
        ra = uf_find(parent, merges[k].a)
        rb = uf_find(parent, merges[k].b)
        lo = ra if ra < rb else rb
        hi = rb if ra < rb else ra
        Z[k, 0] = lo
        Z[k, 1] = hi
        Z[k, 2] = merges[k].height
        size[n + k] = size[ra] + size[rb]
        Z[k, 3] = size[n + k]
        # the union of a dendrogram: both roots under the new cluster n + k (_union_find.pxd)
        parent[ra] = n + k
        parent[rb] = n + k
    free(parent)
    free(size)
    return 0


# ---------------------------------------------------------------------------------------------
# Single linkage: Prim's minimum spanning tree with distances computed on the fly.

cdef inline double _distance(const double[:, ::1] X, const double *norms, intp_t i, intp_t j,
                             int metric) noexcept nogil:
    cdef intp_t k
    cdef double s = 0.0, t, denominator
    if metric == PRECOMPUTED:
        return X[i, j]
    if metric == COSINE:
        for k in range(X.shape[1]):
            s += X[i, k] * X[j, k]
        denominator = norms[i] * norms[j]
        # a zero vector is at distance 1 from everything, as in scipy.spatial.distance.cosine's
        # convention for sklearn's cosine_distances
        if denominator == 0.0:
            return 1.0
        s = 1.0 - s / denominator
        return s if s > 0.0 else 0.0  # rounding can leave -1e-16 for parallel vectors; clamp
    for k in range(X.shape[1]):
        t = X[i, k] - X[j, k]
        if metric == EUCLIDEAN:
            s += t * t
        else:
            s += fabs(t)
    return sqrt(s) if metric == EUCLIDEAN else s


cdef int _prim(const double[:, ::1] X, int metric, Merge *merges) noexcept nogil:
    """Minimum spanning tree of the complete graph; edge k joins a vertex to the tree.

    Sequential on purpose: each of the n−1 steps does only O(n·d) work, too little to pay for
    an OpenMP region per step. The update of the outside vertices' distances and the search of
    the nearest one are fused into one pass. Returns 0, -1 (no memory) or INTERRUPTED.
    """
    cdef intp_t n = X.shape[0], n_outside = n - 1, k, t, j, best, last = 0
    cdef double best_distance, d
    cdef double *norms = NULL
    cdef double *to_tree = <double*>malloc(n * sizeof(double))
    cdef intp_t *nearest = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *outside = <intp_t*>malloc(n * sizeof(intp_t))
    cdef int status = 0
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if metric == COSINE:
        norms = <double*>malloc(n * sizeof(double))
    if to_tree == NULL or nearest == NULL or outside == NULL or (metric == COSINE and norms == NULL):
        free(to_tree)
        free(nearest)
        free(outside)
        free(norms)
        return -1
    if metric == COSINE:
        for j in range(n):
            d = 0.0
            for k in range(X.shape[1]):
                d += X[j, k] * X[j, k]
            norms[j] = sqrt(d)
    for j in range(n - 1):
        outside[j] = j + 1
        to_tree[j + 1] = INFINITY
        # a vertex at infinite (or NaN) distance from every tree vertex joins vertex 0
        nearest[j + 1] = 0
    for k in range(n - 1):
        if interrupted(&interrupt):
            status = INTERRUPTED
            break
        best = 0
        best_distance = INFINITY
        for t in range(n_outside):
            j = outside[t]
            d = _distance(X, norms, last, j, metric)
            if d < to_tree[j]:
                to_tree[j] = d
                nearest[j] = last
            # nearest outside vertex; ties to the lowest index, whatever the order of `outside`
            if to_tree[j] < best_distance or (to_tree[j] == best_distance
                                               and j < outside[best]):
                best_distance = to_tree[j]
                best = t
        j = outside[best]
        merges[k].height = best_distance
        merges[k].a = nearest[j]
        merges[k].b = j
        n_outside -= 1
        outside[best] = outside[n_outside]
        last = j
    free(to_tree)
    free(nearest)
    free(outside)
    free(norms)
    return status


def mst_single_linkage(
    const double[:, ::1] X,      # IN (n_samples, n_features) or (n_samples, n_samples)
    double[:, ::1] Z,            # OUT (n_samples - 1, 4)
    str metric="euclidean",
):
    """Single-linkage dendrogram by Prim's minimum spanning tree, in O(n) extra memory.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
        Samples, or, with ``metric="precomputed"``, a symmetric distance matrix of shape
        (n_samples, n_samples).
    Z : ndarray of shape (n_samples - 1, 4), float64
        Output: the linkage matrix in SciPy's format.
    metric : {"euclidean", "manhattan", "cosine", "precomputed"}
    """
    cdef intp_t n = X.shape[0]
    cdef int status, code
    cdef Merge *merges
    if metric == "precomputed":
        code = PRECOMPUTED
    elif metric in _METRICS:
        code = _METRICS[metric]
    else:
        raise ValueError(f"metric must be one of {sorted(_METRICS) + ['precomputed']}, "
                         f"got {metric!r}.")
    if n < 2:
        return
    merges = <Merge*>malloc((n - 1) * sizeof(Merge))
    if merges == NULL:
        raise MemoryError()
    try:
        with nogil:
            status = _prim(X, code, merges)
            if status == 0:
                status = _merges_to_linkage(merges, n, Z)
        if status == INTERRUPTED:
            raise_pending()
        if status < 0:
            raise MemoryError("single linkage could not allocate its O(n) buffers.")
    finally:
        free(merges)


# ---------------------------------------------------------------------------------------------
# Complete, average, Ward: nearest-neighbour chain on the condensed matrix.

cdef inline intp_t _condensed_index(intp_t n, intp_t i, intp_t j) noexcept nogil:
    """Position of d(i, j), i ≠ j, in SciPy's condensed (upper-triangle, row-major) vector."""
    cdef intp_t t
    if i > j:
        t = i
        i = j
        j = t
    return n * i - (i * (i + 1)) // 2 + (j - i - 1)


cdef inline double _lance_williams(int method, double d_xk, double d_yk, double d_xy,
                                   double n_x, double n_y, double n_k) noexcept nogil:
    """Distance from cluster k to the union of x and y."""
    if method == COMPLETE:
        return d_xk if d_xk > d_yk else d_yk
    if method == AVERAGE:
        return (n_x * d_xk + n_y * d_yk) / (n_x + n_y)
    # Ward on Euclidean distances: d² = ((n_x+n_k) d_xk² + (n_y+n_k) d_yk² − n_k d_xy²) / Σn;
    # the result is sqrt(2·ΔI) with ΔI the increase of within-cluster inertia (Sangnier, §2.3.1).
    return sqrt(((n_x + n_k) * d_xk * d_xk + (n_y + n_k) * d_yk * d_yk - n_k * d_xy * d_xy)
                / (n_x + n_y + n_k))


cdef int _nn_chain(double *D, intp_t n, int method, Merge *merges) noexcept nogil:
    """The n − 1 merges, D updated in place; returns 0, -1 (no memory) or INTERRUPTED."""
    cdef intp_t *size = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *chain = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t chain_length = 0, k, i, x = 0, y = 0, t
    cdef double current, d
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if size == NULL or chain == NULL:
        free(size)
        free(chain)
        return -1
    for i in range(n):
        size[i] = 1
    for k in range(n - 1):
        if chain_length == 0:
            for i in range(n):
                if size[i] > 0:
                    chain[0] = i
                    chain_length = 1
                    break
        while True:
            # a chain step costs O(n); a chain may grow to n steps
            if interrupted(&interrupt):
                free(size)
                free(chain)
                return INTERRUPTED
            x = chain[chain_length - 1]
            # start from the previous chain element so that a tie ends the chain
            if chain_length > 1:
                y = chain[chain_length - 2]
                current = D[_condensed_index(n, x, y)]
            else:
                y = -1       # the first active cluster, even at an infinite distance
                current = INFINITY
            for i in range(n):
                if size[i] == 0 or i == x:
                    continue
                d = D[_condensed_index(n, x, i)]
                if y == -1 or d < current:
                    current = d
                    y = i
            if chain_length > 1 and y == chain[chain_length - 2]:
                break
            chain[chain_length] = y
            chain_length += 1
        chain_length -= 2
        if x > y:
            t = x
            x = y
            y = t
        merges[k].height = current
        merges[k].a = x
        merges[k].b = y
        # the union lives on in slot y; slot x is retired
        for i in range(n):
            if size[i] == 0 or i == x or i == y:
                continue
            D[_condensed_index(n, i, y)] = _lance_williams(
                method, D[_condensed_index(n, i, x)], D[_condensed_index(n, i, y)], current,
                size[x], size[y], size[i])
        size[y] += size[x]
        size[x] = 0
    free(size)
    free(chain)
    return 0


def nn_chain_linkage(
    double[::1] distances,       # INOUT (n_samples * (n_samples - 1) / 2,), overwritten
    intp_t n_samples,
    double[:, ::1] Z,            # OUT (n_samples - 1, 4)
    str method="complete",
):
    """Complete, average or Ward dendrogram by the nearest-neighbour chain.

    Parameters
    ----------
    distances : ndarray of shape (n_samples * (n_samples - 1) // 2,), float64
        Condensed distance matrix (``scipy.spatial.distance.pdist`` layout); Euclidean for Ward.
        Used as workspace: its content is destroyed.
    n_samples : int
    Z : ndarray of shape (n_samples - 1, 4), float64
        Output: the linkage matrix in SciPy's format.
    method : {"complete", "average", "ward"}
    """
    cdef int status, code
    cdef Merge *merges
    if method not in _METHODS:
        raise ValueError(f"method must be one of {sorted(_METHODS)}, got {method!r}.")
    if distances.shape[0] != n_samples * (n_samples - 1) // 2:
        raise ValueError("distances is not a condensed matrix of n_samples points.")
    code = _METHODS[method]
    if n_samples < 2:
        return
    merges = <Merge*>malloc((n_samples - 1) * sizeof(Merge))
    if merges == NULL:
        raise MemoryError()
    try:
        with nogil:
            status = _nn_chain(&distances[0], n_samples, code, merges)
            if status == 0:
                status = _merges_to_linkage(merges, n_samples, Z)
        if status == INTERRUPTED:
            raise_pending()
        if status < 0:
            raise MemoryError("NN-chain linkage could not allocate its buffers.")
    finally:
        free(merges)


def cut_linkage(
    const double[:, ::1] Z,      # IN (n_samples - 1, 4)
    intp_t n_merges,
    intp_t[::1] labels,          # OUT (n_samples,)
):
    """Flat clusters after the first ``n_merges`` merges of a linkage matrix.

    Parameters
    ----------
    Z : ndarray of shape (n_samples - 1, 4), float64
        Linkage matrix in SciPy's format.
    n_merges : int
        ``0 ≤ n_merges ≤ n_samples − 1``; ``n_samples − n_merges`` clusters remain.
    labels : ndarray of shape (n_samples,), intp
        Output: clusters numbered in order of their first sample.

    Returns
    -------
    n_clusters : int
    """
    cdef intp_t n = labels.shape[0], k, i, root, n_clusters = 0
    cdef intp_t *parent
    cdef intp_t *name
    if not 0 <= n_merges <= max(n - 1, 0):
        raise ValueError(f"n_merges must be in [0, {max(n - 1, 0)}], got {n_merges}.")
    if n == 0:
        return 0
    parent = <intp_t*>malloc((2 * n - 1) * sizeof(intp_t))
    name = <intp_t*>malloc((2 * n - 1) * sizeof(intp_t))
    try:
        if parent == NULL or name == NULL:
            raise MemoryError()
        with nogil:
            for k in range(2 * n - 1):
                parent[k] = k
                name[k] = -1
            for k in range(n_merges):
                parent[<intp_t>Z[k, 0]] = n + k
                parent[<intp_t>Z[k, 1]] = n + k
            for i in range(n):
                root = uf_find(parent, i)
                if name[root] < 0:
                    name[root] = n_clusters
                    n_clusters += 1
                labels[i] = name[root]
    finally:
        free(parent)
        free(name)
    return n_clusters
