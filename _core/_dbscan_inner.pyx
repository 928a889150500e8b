"""DBSCAN in linear memory: streamed ε-neighbourhoods over a uniform grid or a KD-tree.

Sangnier, §2.4, Algorithm 14, with two fixes: the seed point is a
core point when ``|N| ≥ m`` (the printed ``|N| > m`` contradicts the definition), and every point
is visited once (as printed, a non-core point is never removed from ``T`` and the loop does not
end).

No neighbourhood is ever stored beyond the one being expanded. Two passes over the points:

1. *core counting*, parallel: each point counts its neighbours (itself included) and stops as
   soon as it has ``min_samples`` of them, so dense regions cost ``min_samples`` distance
   evaluations per point, not their full neighbourhood;
2. *expansion*, sequential: clusters are grown breadth-first from core points taken in sample
   order; the neighbourhood of each core point is streamed into one reusable buffer. A border
   point joins the first cluster that reaches it, so labels are deterministic and equal to
   scikit-learn's for the same neighbourhoods.

Memory is O(n) (the spatial index, labels, core flags and the queue) plus one neighbourhood.

Neighbour search (``_dbscan_neighbors.pxd``): a uniform grid of cells of width ``ε`` for
``d ≤ 3``, a KD-tree of median splits otherwise, or precomputed distances (a dense matrix or a
CSR radius-neighbours graph). The passes run on the index's *positions* and labels are written
back in sample order.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport floor, sqrt
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from scipy.linalg.cython_blas cimport dgemm

from _dbscan_neighbors cimport (
    CHEBYSHEV,
    DENSE_DISTANCES,
    EUCLIDEAN,
    GRID,
    KD_TREE,
    MANHATTAN,
    SPARSE_DISTANCES,
    Neighbourhoods,
    PositionBuffer,
    _build_grid,
    _build_kd_tree,
    _free_index,
    _reduced_distance,
    _visit,
)
from _types cimport intp_t, int64_t, uint8_t

_METRICS = {"euclidean": EUCLIDEAN, "manhattan": MANHATTAN, "chebyshev": CHEBYSHEV}

# Cells are made this much wider than ε: the coordinate → cell map then tolerates rounding
# errors of up to 1e-6 cell widths, far above the ~1e-8 committed on grids of ≤ 2^26 cells a side.
cdef double CELL_SLACK = 1e-6
MAX_CELLS_PER_AXIS = 1 << 26
# Rows per dynamically scheduled block of the counting pass (counts are per point, so the
# schedule cannot change any result).
cdef intp_t COUNT_BLOCK = 64


# Euclidean DBSCAN with at least this many features runs on blocked GEMM distances (see
# _dbscan_gemm). Measured 2026-11-24, 2 shared cores, uniform points with ~20 neighbours, KD-tree
# vs GEMM: d=8, n=5000: 128 vs 141 ms; d=16: 441 vs 106 ms (n=5000), 6.5 vs 2.0 s (n=20000);
# d=32: 884 vs 164 ms; digits (d=64): 100-157 vs 25-36 ms.
GEMM_MIN_FEATURES = 16
# Budget, in doubles, of one thread's block of distances (rows × n_samples).
cdef intp_t GEMM_BLOCK_BUDGET = 1 << 21
cdef double DOUBLE_EPS = 2.220446049250313e-16


# ---------------------------------------------------------------------------------------------
# The two passes.

cdef intp_t _dbscan(const Neighbourhoods *nb, intp_t min_samples, const intp_t *position_of,
                    const intp_t *sample_at, uint8_t *is_core_position, intp_t *labels,
                    uint8_t *is_core, int n_threads) noexcept nogil:
    """Core counting then expansion. ``position_of[i]``: position of sample i (NULL: identity);
    ``sample_at[p]``: its inverse. Returns the number of clusters, or -1 on allocation failure.
    """
    cdef intp_t n = nb.n_points
    cdef intp_t i, p, q, r, j, head, tail, n_clusters = 0
    cdef intp_t *label_at = NULL
    cdef intp_t *queue = NULL
    cdef PositionBuffer buf
    buf.size = 0
    buf.capacity = 64
    buf.data = <intp_t*>malloc(buf.capacity * sizeof(intp_t))
    label_at = <intp_t*>malloc(n * sizeof(intp_t))
    queue = <intp_t*>malloc(n * sizeof(intp_t))
    if buf.data == NULL or label_at == NULL or queue == NULL:
        n_clusters = -1
    else:
        for p in prange(n, schedule='dynamic', chunksize=COUNT_BLOCK, num_threads=n_threads):
            is_core_position[p] = _visit(nb, p, min_samples, NULL) >= min_samples
        for p in range(n):
            label_at[p] = -1
        for i in range(n):
            p = position_of[i] if position_of != NULL else i
            if not is_core_position[p] or label_at[p] != -1:
                continue
            label_at[p] = n_clusters
            queue[0] = p
            head = 0
            tail = 1
            while head < tail:
                q = queue[head]
                head += 1
                buf.size = 0
                if _visit(nb, q, n + 1, &buf) < 0:
                    n_clusters = -1
                    break
                for j in range(buf.size):
                    r = buf.data[j]
                    if label_at[r] == -1:
                        label_at[r] = n_clusters
                        if is_core_position[r]:
                            queue[tail] = r
                            tail += 1
            if n_clusters < 0:
                break
            n_clusters += 1
        if n_clusters >= 0:
            for p in range(n):
                i = sample_at[p] if sample_at != NULL else p
                labels[i] = label_at[p]
                is_core[i] = is_core_position[p]
    free(buf.data)
    free(label_at)
    free(queue)
    return n_clusters


def _grid_extents(const double[:, ::1] X, double eps):
    """Origin, cell width and cells per axis of the grid, or None when it would be too large."""
    cdef intp_t i, k, n_features = X.shape[1]
    cdef double v, lo, hi
    if X.shape[0] == 0 or n_features == 0 or n_features > 3:
        return None
    width = eps * (1.0 + CELL_SLACK)
    lows = [0.0] * n_features
    highs = [0.0] * n_features
    for k in range(n_features):
        lo = X[0, k]
        hi = lo
        with nogil:
            for i in range(1, X.shape[0]):
                v = X[i, k]
                if v < lo:
                    lo = v
                elif v > hi:
                    hi = v
        lows[k] = lo
        highs[k] = hi
    # The largest cell index is that of the largest coordinate, computed with the very
    # arithmetic of the cell keys (floor((x − origin) / width), _cell_key): one cell more than it
    # per axis, never a key past the table (Python's float // can differ from C's floor of the
    # quotient by one).
    extents = [<int64_t>floor((highs[k] - lows[k]) / width) + 1 for k in range(n_features)]
    total = 1
    for e in extents:
        total *= e
    if max(extents) > MAX_CELLS_PER_AXIS or total >= (1 << 62):
        return None
    return lows, width, extents


def dbscan_dense(
    const double[:, ::1] X,       # IN (n_samples, n_features)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,           # OUT (n_samples,)
    uint8_t[::1] is_core,         # OUT (n_samples,)
    str metric="euclidean",
    str algorithm="auto",
    int n_threads=1,
):
    """DBSCAN on feature vectors with streamed neighbourhoods (Sangnier, Algorithm 14, fixed).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
        Finite samples.
    eps : float
        Neighbourhood radius ``ε > 0``; ``x`` and ``y`` are neighbours when ``d(x, y) ≤ ε``.
    min_samples : int
        ``m ≥ 1``: a point is a core point when it has at least ``m`` neighbours, itself included.
    labels : ndarray of shape (n_samples,), intp
        Output: cluster index in order of discovery (clusters are grown from core points taken
        in sample order), ``-1`` for noise.
    is_core : ndarray of shape (n_samples,), uint8
        Output: 1 for core points.
    metric : {"euclidean", "manhattan", "chebyshev"}
    algorithm : {"auto", "grid", "kd_tree", "brute"}
        Neighbour search. ``"auto"``: the grid when ``n_features ≤ 3`` and the grid has at most
        2^26 cells a side (and 2^62 in all), blocked GEMM distances (``"brute"``, Euclidean
        only) when ``n_features ≥ GEMM_MIN_FEATURES``, the KD-tree otherwise. ``"grid"`` falls back to the
        KD-tree where the grid is not possible.
    n_threads : int
        OpenMP threads of the core-counting pass. The result does not depend on it.

    Returns
    -------
    n_clusters : int
    """
    cdef intp_t n = X.shape[0], d = X.shape[1], k
    cdef intp_t n_clusters
    cdef int64_t n_grid_cells = 0
    cdef int status = 0
    cdef Neighbourhoods nb
    cdef double *points = NULL
    cdef intp_t *sample_at = NULL
    cdef intp_t *position_of = NULL
    cdef uint8_t *is_core_position = NULL
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {sorted(_METRICS)}, got {metric!r}.")
    if algorithm not in ("auto", "grid", "kd_tree", "brute"):
        raise ValueError("algorithm must be 'auto', 'grid', 'kd_tree' or 'brute', got "
                         f"{algorithm!r}.")
    if algorithm == "brute" and metric != "euclidean":
        raise ValueError(f"algorithm='brute' is for the Euclidean metric, got {metric!r}.")
    if n == 0:
        return 0
    if metric == "euclidean" and (algorithm == "brute" or (algorithm == "auto"
                                                           and d >= GEMM_MIN_FEATURES)):
        with nogil:
            n_clusters = _dbscan_gemm(&X[0, 0], n, d, eps * eps, min_samples, &labels[0],
                                      &is_core[0], n_threads)
        if n_clusters < 0:
            raise MemoryError("DBSCAN could not allocate its blocks of distances.")
        return n_clusters
    nb.kind = KD_TREE
    nb.metric = _METRICS[metric]
    nb.n_points = n
    nb.n_features = d
    nb.radius = eps * eps if nb.metric == EUCLIDEAN else eps
    nb.cell_keys = NULL
    nb.cell_start = NULL
    nb.node_start = NULL
    nb.node_end = NULL
    nb.node_lo = NULL
    nb.node_hi = NULL
    grid = _grid_extents(X, eps) if algorithm != "kd_tree" else None
    if grid is not None:
        nb.kind = GRID
        lows, width, extents = grid
        n_grid_cells = 1
        for k in range(d):
            n_grid_cells *= extents[k]
        nb.cell_width = width
        for k in range(d):
            nb.origin[k] = lows[k]
            nb.extent[k] = extents[k]
    points = <double*>malloc(n * d * sizeof(double))
    sample_at = <intp_t*>malloc(n * sizeof(intp_t))
    position_of = <intp_t*>malloc(n * sizeof(intp_t))
    is_core_position = <uint8_t*>malloc(n * sizeof(uint8_t))
    try:
        if points == NULL or sample_at == NULL or position_of == NULL or is_core_position == NULL:
            raise MemoryError()
        nb.points = points
        with nogil:
            if nb.kind == GRID:
                status = _build_grid(&nb, X, points, sample_at, n_grid_cells)
            else:
                status = _build_kd_tree(&nb, X, points, sample_at)
            if status == 0:
                for k in range(n):
                    position_of[sample_at[k]] = k
                n_clusters = _dbscan(&nb, min_samples, position_of, sample_at,
                                     is_core_position, &labels[0], &is_core[0], n_threads)
        if status < 0 or n_clusters < 0:
            raise MemoryError("DBSCAN could not allocate its neighbour index or buffers.")
    finally:
        _free_index(&nb)
        free(points)
        free(sample_at)
        free(position_of)
        free(is_core_position)
    return n_clusters


cdef intp_t _run_on_distances(
    const Neighbourhoods *nb, intp_t min_samples,
    intp_t[::1] labels,    # OUT (n_samples,)
    uint8_t[::1] is_core,  # OUT (n_samples,)
    int n_threads,
) except -1:
    """The run shared by the precomputed entries (positions are sample indices there)."""
    cdef intp_t n_clusters
    cdef uint8_t *is_core_position = <uint8_t*>malloc(nb.n_points * sizeof(uint8_t))
    try:
        if is_core_position == NULL:
            raise MemoryError()
        with nogil:
            n_clusters = _dbscan(nb, min_samples, NULL, NULL, is_core_position, &labels[0],
                                 &is_core[0], n_threads)
        if n_clusters < 0:
            raise MemoryError("DBSCAN could not allocate its buffers.")
    finally:
        free(is_core_position)
    return n_clusters


def dbscan_precomputed_dense(
    const double[:, ::1] distances,   # IN (n_samples, n_samples)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,               # OUT (n_samples,)
    uint8_t[::1] is_core,             # OUT (n_samples,)
    int n_threads=1,
):
    """DBSCAN on a dense distance matrix: ``j`` is a neighbour of ``i`` when ``D[i, j] ≤ ε``.

    Parameters
    ----------
    distances : ndarray of shape (n_samples, n_samples), float64, C-contiguous
        Non-negative distances; row ``i`` is read as the neighbourhood of sample ``i`` (the
        point itself always counts, whatever its diagonal entry).
    eps, min_samples, labels, is_core, n_threads
        As in :func:`dbscan_dense`.

    Returns
    -------
    n_clusters : int
    """
    cdef Neighbourhoods nb
    cdef intp_t n = distances.shape[0]
    if n == 0:
        return 0
    nb.kind = DENSE_DISTANCES
    nb.n_points = n
    nb.radius = eps
    nb.distances = &distances[0, 0]
    return _run_on_distances(&nb, min_samples, labels, is_core, n_threads)


def dbscan_precomputed_sparse(
    const double[::1] data,       # IN (nnz,)
    const intp_t[::1] indices,    # IN (nnz,)
    const intp_t[::1] indptr,     # IN (n_samples + 1,)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,           # OUT (n_samples,)
    uint8_t[::1] is_core,         # OUT (n_samples,)
    int n_threads=1,
):
    """DBSCAN on a sparse radius-neighbours graph in CSR form.

    Only stored entries are candidate neighbours (an absent entry means "farther than any radius
    of interest"); ``j`` is a neighbour of ``i`` when the stored ``D[i, j] ≤ ε``. The point itself
    always counts. Building the graph once at the largest ε lets one sweep smaller radii without
    recomputing neighbours.

    Parameters
    ----------
    data, indices, indptr : CSR arrays of a (n_samples, n_samples) matrix
        Without duplicate entries; ``indices`` and ``indptr`` as intp.
    eps, min_samples, labels, is_core, n_threads
        As in :func:`dbscan_dense`.

    Returns
    -------
    n_clusters : int
    """
    cdef Neighbourhoods nb
    cdef intp_t n = indptr.shape[0] - 1
    if n <= 0:
        return 0
    nb.kind = SPARSE_DISTANCES
    nb.n_points = n
    nb.radius = eps
    nb.graph_data = &data[0] if data.shape[0] > 0 else NULL
    nb.graph_indices = &indices[0] if indices.shape[0] > 0 else NULL
    nb.graph_indptr = &indptr[0]
    return _run_on_distances(&nb, min_samples, labels, is_core, n_threads)


# ---------------------------------------------------------------------------------------------
# Blocked GEMM distances for many features.

cdef void _neighbour_block(
    const double *X,            # IN (n, d) the samples
    const double *x_squared,    # IN (n,) ‖x_i‖²
    const double *x_norms,      # IN (n,) ‖x_i‖
    const intp_t *rows,         # IN (n_rows,) the block's samples
    intp_t n_rows,
    const double *Y,            # IN (n_cols, d) the candidate neighbours (copies of samples)
    const double *y_squared,    # IN (n_cols,)
    const double *y_norms,      # IN (n_cols,)
    intp_t n_cols, intp_t d, double radius,
    double *rows_copy,          # scratch (n_rows, d)
    double *dist,               # OUT (n_rows, n_cols): 1.0 for neighbours, 0.0 otherwise
) noexcept nogil:
    """Which columns are within ε of each row of the block: ``‖x‖² + ‖y‖² − 2x·y`` by one GEMM,
    then the exact rule of the streamed path (``_reduced_distance ≤ ε²``, direct differences)
    for the pairs whose GEMM value is within its rounding bound of ε². The GEMM's error is below
    ``(d + 4) ε_mach (‖x‖ + ‖y‖)²`` and that of the direct sum below ``d ε_mach (‖x‖ + ‖y‖)²``:
    outside twice the sum, both sides agree."""
    cdef char transa = b'T'
    cdef char transb = b'N'
    cdef double alpha = -2.0, beta = 0.0, g, err, scale, xn
    cdef int m = <int>n_cols, nr = <int>n_rows, k = <int>d
    cdef intp_t r, j, i
    cdef double *out
    for r in range(n_rows):
        memcpy(rows_copy + r * d, X + rows[r] * d, d * sizeof(double))
    # column-major: distᵀ (n_cols × n_rows) = Y · rows_copyᵀ, i.e. dist[r, j] = −2 x_r·y_j
    dgemm(&transa, &transb, &m, &nr, &k, &alpha, <double*>Y, &k, rows_copy, &k, &beta, dist, &m)
    scale = 2.0 * (2 * d + 8) * DOUBLE_EPS
    for r in range(n_rows):
        i = rows[r]
        out = dist + r * n_cols
        xn = x_norms[i]
        for j in range(n_cols):
            g = out[j] + x_squared[i] + y_squared[j]
            err = scale * (xn + y_norms[j]) * (xn + y_norms[j])
            if g < radius - err:
                out[j] = 1.0
            elif g > radius + err:
                out[j] = 0.0
            else:
                out[j] = 1.0 if _reduced_distance(X + i * d, Y + j * d, d, EUCLIDEAN) <= radius \
                    else 0.0


cdef intp_t _find(intp_t *parent, intp_t i) noexcept nogil:
    """Root of i's tree, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


cdef int _rows_pass(const double *X, const double *norms, const intp_t *selected,
                    intp_t n_rows, const double *Y, const double *y_norms,
                    const intp_t *column_sample, intp_t n_cols, intp_t n, intp_t d,
                    double radius, intp_t block, intp_t *values, bint count,
                    int n_threads) noexcept nogil:
    """A parallel pass over the rows ``selected[:n_rows]`` in blocks against the columns ``Y``
    (sample ``column_sample[j]``), each row independent of the others: with ``count``,
    ``values[row]`` = its number of neighbours; otherwise ``values[row]`` = the lowest
    ``values[column_sample[j]]`` over its neighbouring columns (−1 if none). ``norms`` holds
    ``‖x‖²`` then ``‖x‖`` (2n values), ``y_norms`` the same for the columns. Returns -1 when a
    thread could not allocate its block."""
    cdef intp_t n_blocks = (n_rows + block - 1) // block
    cdef intp_t b, r, j, start, stop, total, best, v
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef double *dist = NULL
    cdef double *rows_copy = NULL
    with parallel(num_threads=n_threads):
        dist = <double*>malloc(block * n_cols * sizeof(double))
        rows_copy = <double*>malloc(block * d * sizeof(double))
        if dist == NULL or rows_copy == NULL:
            status_ptr[0] = -1
        for b in prange(n_blocks, schedule='dynamic'):
            if dist == NULL or rows_copy == NULL:
                continue
            start = b * block
            stop = start + block if start + block < n_rows else n_rows
            _neighbour_block(X, norms, norms + n, selected + start, stop - start, Y, y_norms,
                             y_norms + n_cols, n_cols, d, radius, rows_copy, dist)
            for r in range(stop - start):
                if count:
                    total = 0
                    for j in range(n_cols):
                        total = total + <intp_t>dist[r * n_cols + j]
                    values[selected[start + r]] = total
                else:
                    best = -1
                    for j in range(n_cols):
                        if dist[r * n_cols + j] != 0.0:
                            v = values[column_sample[j]]
                            if best == -1 or v < best:
                                best = v
                    values[selected[start + r]] = best
        free(dist)
        free(rows_copy)
    return status


cdef intp_t _dbscan_gemm(const double *X, intp_t n, intp_t d, double radius, intp_t min_samples,
                         intp_t *labels, uint8_t *is_core, int n_threads) noexcept nogil:
    """DBSCAN from blocked GEMM distances, in three passes over row blocks (memory
    O(n + block · n)): neighbour counts; unions of neighbouring core points (union-find); border
    points. Passes 2 and 3 compare with a copy of the core points only. Same labels as the
    breadth-first expansion: clusters are the components of core points, numbered by their
    smallest sample index (the order in which the expansion starts them), and a border point
    joins the lowest-numbered cluster among its core neighbours (the first cluster that reaches
    it). Returns the number of clusters, or -1 (allocation failure).
    """
    cdef intp_t block = GEMM_BLOCK_BUDGET // n if n > 0 else 1
    cdef intp_t n_blocks, b, r, j, i, start, stop, root, other, n_rows, n_core, n_clusters = 0
    cdef intp_t round_start, n_round
    cdef int status = 0
    cdef double *norms = <double*>malloc(2 * n * sizeof(double))
    cdef intp_t *parent = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *cluster_of = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *selected = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *core_sample = <intp_t*>malloc(n * sizeof(intp_t))
    cdef double *core_points = NULL  # (n_core, d) copies of the core points
    cdef double *core_norms = NULL   # (2 n_core,)
    cdef double *dists = NULL        # (n_threads blocks) × block × n_core, for the union pass
    cdef double *rows_copies = NULL
    cdef double s
    if block < 1:
        block = 1
    if block > 256:
        block = 256
    if n_threads < 1:
        n_threads = 1
    if norms == NULL or parent == NULL or cluster_of == NULL or selected == NULL \
            or core_sample == NULL:
        status = -1
    if status == 0:
        for i in range(n):
            s = 0.0
            for j in range(d):
                s = s + X[i * d + j] * X[i * d + j]
            norms[i] = s
            norms[n + i] = sqrt(s)
            selected[i] = i
            parent[i] = i
            cluster_of[i] = -1
        # 1. neighbour counts (in labels for now), rows in parallel blocks
        if _rows_pass(X, norms, selected, n, X, norms, selected, n, n, d, radius, block, labels,
                      True, n_threads) < 0:
            status = -1
    if status == 0:
        n_core = 0
        for i in range(n):
            is_core[i] = labels[i] >= min_samples
            if is_core[i]:
                core_sample[n_core] = i
                n_core += 1
        core_points = <double*>malloc((n_core * d if n_core > 0 else 1) * sizeof(double))
        core_norms = <double*>malloc((2 * n_core if n_core > 0 else 1) * sizeof(double))
        dists = <double*>malloc((n_threads * block * n_core if n_core > 0 else 1)
                                * sizeof(double))
        rows_copies = <double*>malloc(n_threads * block * d * sizeof(double))
        if core_points == NULL or core_norms == NULL or dists == NULL or rows_copies == NULL:
            status = -1
    if status == 0:
        for r in range(n_core):
            i = core_sample[r]
            memcpy(core_points + r * d, X + i * d, d * sizeof(double))
            core_norms[r] = norms[i]
            core_norms[n_core + r] = norms[n + i]
        # 2. unions of neighbouring core points: each round computes n_threads blocks of core
        # rows in parallel, then merges them sequentially (union-find is order-free: the
        # components, hence the labels, do not depend on the rounds).
        n_blocks = (n_core + block - 1) // block
        round_start = 0
        while round_start < n_blocks:
            n_round = n_blocks - round_start if n_blocks - round_start < n_threads else n_threads
            for b in prange(n_round, schedule='static', num_threads=n_round):
                start = (round_start + b) * block
                stop = start + block if start + block < n_core else n_core
                _neighbour_block(X, norms, norms + n, core_sample + start, stop - start,
                                 core_points, core_norms, core_norms + n_core, n_core, d, radius,
                                 rows_copies + b * block * d, dists + b * block * n_core)
            for b in range(n_round):
                start = (round_start + b) * block
                stop = start + block if start + block < n_core else n_core
                for r in range(stop - start):
                    root = _find(parent, core_sample[start + r])
                    for j in range(n_core):
                        if dists[(b * block + r) * n_core + j] != 0.0:
                            other = _find(parent, core_sample[j])
                            if other != root:
                                # the smaller root stays: roots are the components' first samples
                                if other < root:
                                    parent[root] = other
                                    root = other
                                else:
                                    parent[other] = root
            round_start += n_threads
        # border candidates: non-core points with a neighbour besides themselves
        n_rows = 0
        for i in range(n):
            if not is_core[i] and labels[i] > 1:
                selected[n_rows] = i
                n_rows += 1
        # clusters numbered by their first sample, as the expansion starts them
        for i in range(n):
            labels[i] = -1
            if is_core[i]:
                root = _find(parent, i)
                if cluster_of[root] == -1:
                    cluster_of[root] = n_clusters
                    n_clusters += 1
                labels[i] = cluster_of[root]
        # 3. border points: the lowest cluster among their core neighbours
        if n_core > 0 and _rows_pass(X, norms, selected, n_rows, core_points, core_norms,
                                     core_sample, n_core, n, d, radius, block, labels, False,
                                     n_threads) < 0:
            status = -1
    free(norms)
    free(parent)
    free(cluster_of)
    free(selected)
    free(core_sample)
    free(core_points)
    free(core_norms)
    free(dists)
    free(rows_copies)
    return n_clusters if status == 0 else -1
