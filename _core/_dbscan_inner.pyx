"""DBSCAN over streamed ε-neighbourhoods: a uniform grid, a KD-tree or blocked GEMM distances.

Sangnier, §2.4, Algorithm 14, with two fixes: the seed point is a
core point when ``|N| ≥ m`` (the printed ``|N| > m`` contradicts the definition), and every point
is visited once (as printed, a non-core point is never removed from ``T`` and the loop does not
end).

Two passes over the points:

1. *core counting*, parallel: each point counts its neighbours (itself included) and stops as
   soon as it has ``min_samples`` of them, so dense regions cost ``min_samples`` distance
   evaluations per point, not their full neighbourhood;
2. *expansion*, sequential: clusters are grown breadth-first from core points taken in sample
   order; the neighbourhood of each core point is streamed into one reusable buffer. A border
   point joins the first cluster that reaches it, so labels are deterministic and equal to
   scikit-learn's for the same neighbourhoods.

Neighbour search (``_dbscan_neighbors.pxd``): a uniform grid of cells of width ``ε`` for
``d ≤ 3``, a KD-tree of median splits otherwise, or precomputed distances (a dense matrix or a
CSR radius-neighbours graph). The passes run on the index's *positions* and labels are written
back in sample order.

Memory. On the grid, the KD-tree and precomputed distances: O(n) (the spatial index, labels,
core flags and the queue) plus one neighbourhood, no neighbourhood being stored beyond the one
being expanded. The blocked GEMM path (Euclidean, many features, :func:`_dbscan_gemm`) needs
O(n) for norms, labels and the union-find, ``n_threads × n`` counts, and per thread a block of
at most ``GEMM_BLOCK_BUDGET`` distances (16 MiB in float64); on top of that it keeps the ε-graph
as an ``n²/8``-byte bitmap when that fits in ``max_graph_bytes`` (32 MiB by default, n ≤ 16 384),
and otherwise recomputes distances to the core points instead of storing the graph.

Progress: given a callable ``progress``, each pass runs in chunks (``_progress_hook.pxd``) and
calls ``progress(stage, done, total)`` after each one, ``stage`` indexing :data:`STAGES`.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.math cimport floor, sqrt
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

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
from _distances cimport GEMM_TERMS, gemm_abt, gemm_rounding, row_squared_norms
from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _progress_hook cimport progress_chunk, report_progress
from _types cimport floating, intp_t, int64_t, uint8_t, uint64_t

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

_METRICS = {"euclidean": EUCLIDEAN, "manhattan": MANHATTAN, "chebyshev": CHEBYSHEV}

# The passes that report their progress, as ``(what is done, unit)``: ``progress(stage, done,
# total)`` counts units of ``STAGES[stage]``.
STAGES = (("counting neighbours", "samples"), ("growing clusters", "core samples"),
          ("assigning border points", "candidates"))
cdef enum:
    COUNTING = 0
    GROWING = 1
    BORDERS = 2

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
# Up to this many bytes, the counting pass also keeps the upper triangle of the ε-graph as a
# bitmap (n²/8 bytes: 0.4 MiB for the 1797 digits, 32 MiB at n = 16 384), and clusters and
# border points are read from it instead of two more GEMM passes (measured 2026-11-24, digits,
# ε = 20: 6.0 -> 3.2 ms with 2 threads). Beyond, memory stays O(n + blocks).
cdef intp_t ADJACENCY_BUDGET = 32 << 20


# ---------------------------------------------------------------------------------------------
# The two passes.

cdef intp_t _dbscan(const Neighbourhoods *nb, intp_t min_samples, const intp_t *position_of,
                    const intp_t *sample_at, uint8_t *is_core_position, intp_t *labels,
                    uint8_t *is_core, int n_threads, void *progress) noexcept nogil:
    """Core counting then expansion. ``position_of[i]``: position of sample i (NULL: identity);
    ``sample_at[p]``: its inverse. Returns the number of clusters, -1 on allocation failure, or
    INTERRUPTED (a signal handler or ``progress`` raised; _interrupt.pxd).
    """
    cdef intp_t n = nb.n_points
    cdef intp_t i, p, q, r, j, head, tail, n_clusters = 0
    cdef intp_t start, stop, chunk = progress_chunk(progress, n, COUNT_BLOCK)
    cdef intp_t n_core = 0, n_grown = 0, next_report
    cdef intp_t *label_at = NULL
    cdef intp_t *queue = NULL
    cdef PositionBuffer buf
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    buf.size = 0
    buf.capacity = 64
    buf.data = <intp_t*>malloc(buf.capacity * sizeof(intp_t))
    label_at = <intp_t*>malloc(n * sizeof(intp_t))
    queue = <intp_t*>malloc(n * sizeof(intp_t))
    if buf.data == NULL or label_at == NULL or queue == NULL:
        n_clusters = -1
    else:
        start = 0
        while start < n and not interrupt.stop:
            stop = start + chunk if start + chunk < n else n
            for p in prange(start, stop, schedule='dynamic', chunksize=COUNT_BLOCK,
                            num_threads=n_threads):
                # a visit may cost O(n) (a large eps): the first thread looks at the signals
                if not interrupted(&interrupt):
                    is_core_position[p] = _visit(nb, p, min_samples, NULL) >= min_samples
            start = stop
            if report_progress(progress, COUNTING, stop, n):
                interrupt.stop = 1
        if interrupt.stop:
            n_clusters = INTERRUPTED
        for p in range(n):
            label_at[p] = -1
            n_core += is_core_position[p]
        # every core point is taken from the queue once
        chunk = progress_chunk(progress, n_core, 1)
        next_report = chunk
        for i in range(n if n_clusters >= 0 else 0):
            p = position_of[i] if position_of != NULL else i
            if not is_core_position[p] or label_at[p] != -1:
                continue
            label_at[p] = n_clusters
            queue[0] = p
            head = 0
            tail = 1
            while head < tail:
                if interrupted(&interrupt):
                    n_clusters = INTERRUPTED
                    break
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
                n_grown += 1
                if n_grown == next_report or n_grown == n_core:
                    next_report += chunk
                    if report_progress(progress, GROWING, n_grown, n_core):
                        n_clusters = INTERRUPTED
                        break
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
    # (compared as doubles first: a tiny ε gives more cells than an int64 holds)
    cells = [floor((highs[k] - lows[k]) / width) + 1.0 for k in range(n_features)]
    if max(cells) > MAX_CELLS_PER_AXIS:
        return None
    extents = [<int64_t>c for c in cells]
    total = 1
    for e in extents:
        total *= e
    if total >= (1 << 62):
        return None
    return lows, width, extents


def uses_gemm(str metric, str algorithm, intp_t n_features):
    """Whether :func:`dbscan_dense` runs on blocked GEMM distances (Euclidean; ``"brute"``, or
    ``"auto"`` with at least ``GEMM_MIN_FEATURES`` features)."""
    return metric == "euclidean" and (algorithm == "brute" or (
        algorithm == "auto" and n_features >= GEMM_MIN_FEATURES))


def dbscan_dense(
    const double[:, ::1] X,       # IN (n_samples, n_features)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,           # OUT (n_samples,)
    uint8_t[::1] is_core,         # OUT (n_samples,)
    str metric="euclidean",
    str algorithm="auto",
    int n_threads=1,
    const float[:, ::1] X32=None,  # IN X rounded to float32 for the GEMM path, or None
    intp_t max_graph_bytes=-1,
    progress=None,
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
        only) when ``n_features ≥ GEMM_MIN_FEATURES``, the KD-tree otherwise. ``"grid"`` falls
        back to the KD-tree where the grid is not possible.
    n_threads : int
        OpenMP threads of the core-counting pass. The result does not depend on it.
    X32 : ndarray of shape (n_samples, n_features), float32, C-contiguous, or None
        ``X`` rounded to float32 (:func:`kernelkit.utils._screening.float32_screening_copy`):
        the GEMM path then screens the pairs in float32; the result is the same.
    max_graph_bytes : int
        The GEMM path keeps the ε-graph as a bitmap up to this size (negative: 32 MiB); beyond,
        it recomputes distances to the core points instead. The result is the same.
    progress : callable or None
        ``progress(stage, done, total)``, called with the GIL after each twentieth of each pass
        (:data:`STAGES`); what it raises stops the run and propagates. The result is the same.

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
    cdef void *hook = NULL if progress is None else <void*>progress
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {sorted(_METRICS)}, got {metric!r}.")
    if algorithm not in ("auto", "grid", "kd_tree", "brute"):
        raise ValueError("algorithm must be 'auto', 'grid', 'kd_tree' or 'brute', got "
                         f"{algorithm!r}.")
    if algorithm == "brute" and metric != "euclidean":
        raise ValueError(f"algorithm='brute' is for the Euclidean metric, got {metric!r}.")
    if n == 0:
        return 0
    if uses_gemm(metric, algorithm, d):
        if X32 is not None and (X32.shape[0] != n or X32.shape[1] != d):
            raise ValueError(f"X32 must have the shape of X {(n, d)}, got {X32.shape}.")
        if max_graph_bytes < 0:
            max_graph_bytes = ADJACENCY_BUDGET
        with nogil:
            if X32 is not None:
                n_clusters = _dbscan_gemm(&X[0, 0], &X32[0, 0], n, d, eps * eps, min_samples,
                                          &labels[0], &is_core[0], max_graph_bytes, n_threads,
                                          hook)
            else:
                n_clusters = _dbscan_gemm(&X[0, 0], &X[0, 0], n, d, eps * eps, min_samples,
                                          &labels[0], &is_core[0], max_graph_bytes, n_threads,
                                          hook)
        if n_clusters == INTERRUPTED:
            raise_pending()
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
                                     is_core_position, &labels[0], &is_core[0], n_threads, hook)
        if n_clusters == INTERRUPTED:
            raise_pending()
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
    progress,
) except -1:
    """The run shared by the precomputed entries (positions are sample indices there)."""
    cdef intp_t n_clusters
    cdef void *hook = NULL if progress is None else <void*>progress
    cdef uint8_t *is_core_position = <uint8_t*>malloc(nb.n_points * sizeof(uint8_t))
    try:
        if is_core_position == NULL:
            raise MemoryError()
        with nogil:
            n_clusters = _dbscan(nb, min_samples, NULL, NULL, is_core_position, &labels[0],
                                 &is_core[0], n_threads, hook)
        if n_clusters == INTERRUPTED:
            raise_pending()
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
    progress=None,
):
    """DBSCAN on a dense distance matrix: ``j`` is a neighbour of ``i`` when ``D[i, j] ≤ ε``.

    Parameters
    ----------
    distances : ndarray of shape (n_samples, n_samples), float64, C-contiguous
        Non-negative distances; row ``i`` is read as the neighbourhood of sample ``i`` (the
        point itself always counts, whatever its diagonal entry).
    eps, min_samples, labels, is_core, n_threads, progress
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
    return _run_on_distances(&nb, min_samples, labels, is_core, n_threads, progress)


def dbscan_precomputed_sparse(
    const double[::1] data,       # IN (nnz,)
    const intp_t[::1] indices,    # IN (nnz,)
    const intp_t[::1] indptr,     # IN (n_samples + 1,)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,           # OUT (n_samples,)
    uint8_t[::1] is_core,         # OUT (n_samples,)
    int n_threads=1,
    progress=None,
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
    eps, min_samples, labels, is_core, n_threads, progress
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
    return _run_on_distances(&nb, min_samples, labels, is_core, n_threads, progress)


# ---------------------------------------------------------------------------------------------
# Blocked GEMM distances for many features.

cdef void _neighbour_block(
    const double *X,            # IN (n, d) the samples
    const floating *Xg,         # IN (n, d) the samples in the GEMM's precision
    const double *x_squared,    # IN (n,) ‖x_i‖²
    const double *x_norms,      # IN (n,) ‖x_i‖
    const intp_t *rows,         # IN (n_rows,) the block's samples
    intp_t n_rows,
    const double *Y,            # IN (n_cols, d) the candidate neighbours
    const floating *Yg,         # IN (n_cols, d) the same in the GEMM's precision
    const double *y_squared,    # IN (n_cols,)
    const double *y_norms,      # IN (n_cols,)
    intp_t n_cols, intp_t d, double radius,
    double y_largest,           # IN max of y_norms
    floating *rows_copy,        # scratch (n_rows, d)
    floating *dist,             # OUT (n_rows, n_cols): 1 for neighbours, 0 otherwise
) noexcept nogil:
    """Which columns are within ε of each row of the block: ``‖x‖² + ‖y‖² − 2x·y`` by one GEMM
    (float32 for float64 data when :func:`kernelkit.utils._screening.float32_screening_copy`
    allows it, else float64), then the exact rule of the streamed path (``_reduced_distance ≤
    ε²``, direct differences in double) for the pairs whose GEMM value is within its error
    bound of ε². That bound, ``(d + 4) u (‖x‖ + ‖y‖)²`` for the GEMM with unit roundoff ``u``
    (the inputs' rounding to float32 included) plus ``d ε₆₄ (‖x‖ + ‖y‖)²`` for the direct sum,
    is covered four times over by ``8 (d + 4) u (‖x‖ + ‖y‖)²`` (8 ``gemm_rounding``,
    ``_distances.pxd``): outside it both sides agree. A
    row's test is first made against the widest bound (its norm plus the largest column norm),
    so most pairs cost one addition and one comparison."""
    cdef intp_t r, j, i
    cdef double v, lo, hi, xn, xs, err, wide
    cdef double scale = 8.0 * gemm_rounding(d, floating is float, GEMM_TERMS)
    cdef floating *out
    for r in range(n_rows):
        memcpy(rows_copy + r * d, Xg + rows[r] * d, d * sizeof(floating))
    # dist[r, j] = −2 rows_copy[r]·Y[j]
    gemm_abt(rows_copy, <int>n_rows, Yg, <int>n_cols, <int>d, -2.0, 0.0, dist, <int>n_cols)
    for r in range(n_rows):
        i = rows[r]
        out = dist + r * n_cols
        xn = x_norms[i]
        xs = x_squared[i]
        wide = scale * (xn + y_largest) * (xn + y_largest)
        lo = radius - xs - wide
        hi = radius - xs + wide
        for j in range(n_cols):
            v = <double>out[j] + y_squared[j]
            if v < lo:
                out[j] = 1
            elif v > hi:
                out[j] = 0
            else:
                err = scale * (xn + y_norms[j]) * (xn + y_norms[j])
                v = v + xs
                if v < radius - err:
                    out[j] = 1
                elif v > radius + err:
                    out[j] = 0
                else:
                    out[j] = 1 if _reduced_distance(X + i * d, Y + j * d, d, EUCLIDEAN) \
                        <= radius else 0


cdef intp_t _find(intp_t *parent, intp_t i) noexcept nogil:
    """Root of i's tree, halving the path on the way."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


cdef int _count_pass(const double *X, const floating *Xg, const double *norms, intp_t n,
                     intp_t d, double radius, double largest, intp_t block, intp_t *counts,
                     uint64_t *adjacency, InterruptState *interrupt, int n_threads,
                     void *progress) noexcept nogil:
    """``counts[i]`` = number of neighbours of sample ``i`` (itself included), from the upper
    triangle of the distance matrix only: block ``b`` of rows is compared with the samples from
    its first row on, and each pair found counts for both of its samples in the thread's own
    counts (summed at the end, so the result does not depend on the schedule). ``norms`` holds
    ``‖x‖²`` then ``‖x‖`` (2n values). Unless NULL, ``adjacency`` (n rows of ``⌈n/64⌉`` zeroed
    words) receives bit ``j`` of row ``i`` for every pair ``i < j`` of neighbours (a row is
    written by the thread of its block only). Returns -1 when an allocation failed, or
    INTERRUPTED."""
    cdef intp_t n_blocks = (n + block - 1) // block
    cdef intp_t b, r, j, i, t, start, stop, n_cols, total, first = 0, last
    cdef intp_t chunk = progress_chunk(progress, n_blocks, 1)
    cdef intp_t words = (n + 63) // 64
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef intp_t *identity = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *thread_counts = <intp_t*>calloc(n_threads * n, sizeof(intp_t))
    cdef intp_t *mine
    cdef floating *dist = NULL
    cdef floating *rows_copy = NULL
    if identity == NULL or thread_counts == NULL:
        free(identity)
        free(thread_counts)
        return -1
    for i in range(n):
        identity[i] = i
    while first < n_blocks and status == 0 and not interrupt.stop:
        last = first + chunk if first + chunk < n_blocks else n_blocks
        with parallel(num_threads=n_threads):
            mine = thread_counts + threadid() * n
            dist = <floating*>malloc(block * n * sizeof(floating))
            rows_copy = <floating*>malloc(block * d * sizeof(floating))
            if dist == NULL or rows_copy == NULL:
                status_ptr[0] = -1
            for b in prange(first, last, schedule='dynamic'):
                if dist == NULL or rows_copy == NULL or interrupted(interrupt):
                    continue
                start = b * block
                stop = start + block if start + block < n else n
                n_cols = n - start
                _neighbour_block(X, Xg, norms, norms + n, identity + start, stop - start,
                                 X + start * d, Xg + start * d, norms + start,
                                 norms + n + start, n_cols, d, radius, largest, rows_copy, dist)
                for r in range(stop - start):
                    i = start + r
                    mine[i] += 1  # itself
                    for j in range(r + 1, n_cols):
                        if dist[r * n_cols + j] != 0:
                            mine[i] += 1
                            mine[start + j] += 1
                            if adjacency != NULL:
                                adjacency[i * words + (start + j) // 64] |= \
                                    (<uint64_t>1) << ((start + j) % 64)
            free(dist)
            free(rows_copy)
        first = last
        if report_progress(progress, COUNTING, last * block if last * block < n else n, n):
            interrupt.stop = 1
    for i in range(n):
        total = 0
        for t in range(n_threads):
            total = total + thread_counts[t * n + i]
        counts[i] = total
    free(identity)
    free(thread_counts)
    return INTERRUPTED if interrupt.stop and status == 0 else status


cdef void _union(intp_t *parent, intp_t a, intp_t b) noexcept nogil:
    """Merge the trees of a and b; the smaller root stays (roots are the components' first
    samples)."""
    a = _find(parent, a)
    b = _find(parent, b)
    if a < b:
        parent[b] = a
    elif b < a:
        parent[a] = b


cdef void _number_clusters(intp_t n, const uint8_t *is_core, intp_t *parent, intp_t *cluster_of,
                           intp_t *labels, intp_t *n_clusters) noexcept nogil:
    """``labels`` of core points = their component, numbered by first sample (the order in which
    the expansion starts clusters); -1 elsewhere."""
    cdef intp_t i, root
    for i in range(n):
        labels[i] = -1
        if is_core[i]:
            root = _find(parent, i)
            if cluster_of[root] == -1:
                cluster_of[root] = n_clusters[0]
                n_clusters[0] += 1
            labels[i] = cluster_of[root]


cdef void _clusters_from_adjacency(intp_t n, const uint64_t *adjacency, const uint8_t *is_core,
                                   intp_t *parent, intp_t *cluster_of, intp_t *labels,
                                   intp_t *n_clusters) noexcept nogil:
    """Clusters and border points from the bitmap of neighbouring pairs ``i < j``: unions of
    core pairs, then each border point takes the lowest cluster among its core neighbours."""
    cdef intp_t words = (n + 63) // 64
    cdef intp_t i, j, w, a, b
    cdef uint64_t word
    for i in range(n):
        if is_core[i]:
            for w in range(i // 64, words):
                word = adjacency[i * words + w]
                while word:
                    j = w * 64 + __builtin_ctzll(word)
                    word = word & (word - 1)
                    if is_core[j]:
                        _union(parent, i, j)
    _number_clusters(n, is_core, parent, cluster_of, labels, n_clusters)
    for i in range(n):
        for w in range(i // 64, words):
            word = adjacency[i * words + w]
            while word:
                j = w * 64 + __builtin_ctzll(word)
                word = word & (word - 1)
                if is_core[i] == is_core[j]:
                    continue
                # a: the border point, b: its core neighbour
                a, b = (j, i) if is_core[i] else (i, j)
                if labels[a] == -1 or labels[b] < labels[a]:
                    labels[a] = labels[b]


cdef int _border_pass(const double *X, const floating *Xg, const double *norms,
                      const intp_t *selected, intp_t n_rows, const double *Y,
                      const floating *Yg, const double *y_norms, double y_largest,
                      const intp_t *column_sample, intp_t n_cols, intp_t n, intp_t d,
                      double radius, intp_t block, intp_t *labels,
                      InterruptState *interrupt, int n_threads, void *progress) noexcept nogil:
    """Each row ``selected[:n_rows]`` (a non-core point) takes the lowest label of its
    neighbouring columns ``Y`` (core point ``column_sample[j]``), or keeps -1: rows in parallel
    blocks, each independent of the others. ``norms`` holds ``‖x‖²`` then ``‖x‖`` (2n values),
    ``y_norms`` the same for the columns. Returns -1 when a thread could not allocate its
    block, or INTERRUPTED."""
    cdef intp_t n_blocks = (n_rows + block - 1) // block
    cdef intp_t b, r, j, start, stop, best, v, first = 0, last
    cdef intp_t chunk = progress_chunk(progress, n_blocks, 1)
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef floating *dist = NULL
    cdef floating *rows_copy = NULL
    while first < n_blocks and status == 0 and not interrupt.stop:
        last = first + chunk if first + chunk < n_blocks else n_blocks
        with parallel(num_threads=n_threads):
            dist = <floating*>malloc(block * n_cols * sizeof(floating))
            rows_copy = <floating*>malloc(block * d * sizeof(floating))
            if dist == NULL or rows_copy == NULL:
                status_ptr[0] = -1
            for b in prange(first, last, schedule='dynamic'):
                if dist == NULL or rows_copy == NULL or interrupted(interrupt):
                    continue
                start = b * block
                stop = start + block if start + block < n_rows else n_rows
                _neighbour_block(X, Xg, norms, norms + n, selected + start, stop - start, Y,
                                 Yg, y_norms, y_norms + n_cols, n_cols, d, radius, y_largest,
                                 rows_copy, dist)
                for r in range(stop - start):
                    best = -1
                    for j in range(n_cols):
                        if dist[r * n_cols + j] != 0:
                            v = labels[column_sample[j]]
                            if best == -1 or v < best:
                                best = v
                    labels[selected[start + r]] = best
            free(dist)
            free(rows_copy)
        first = last
        if report_progress(progress, BORDERS, last * block if last * block < n_rows else n_rows,
                           n_rows):
            interrupt.stop = 1
    return INTERRUPTED if interrupt.stop and status == 0 else status


cdef int _clusters_by_core_passes(const double *X, const floating *Xg, const double *norms,
                                  intp_t n, intp_t d, double radius, intp_t block,
                                  const uint8_t *is_core, intp_t *parent, intp_t *cluster_of,
                                  intp_t *labels, intp_t *n_clusters,
                                  InterruptState *interrupt, int n_threads,
                                  void *progress) noexcept nogil:
    """Clusters and border points in two more GEMM passes, against a copy of the core points
    only (memory O(n + block · n)): unions of neighbouring core points (upper triangle), then
    the border points. ``labels`` holds the neighbour counts on entry. Returns -1 when an
    allocation failed, or INTERRUPTED."""
    cdef intp_t n_blocks, b, r, j, i, start, stop, n_rows, n_core = 0, round_start, n_round
    cdef intp_t n_cols, chunk, next_report
    cdef int status = 0
    cdef intp_t *selected = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *core_sample = <intp_t*>malloc(n * sizeof(intp_t))
    cdef double *core_points = NULL  # (n_core, d) copies of the core points
    cdef floating *core_points_g = NULL  # the same in the GEMM's precision
    cdef double *core_norms = NULL   # (2 n_core,)
    cdef floating *dists = NULL      # (n_threads blocks) × block × n_core, for the union pass
    cdef floating *rows_copies = NULL
    cdef double core_largest = 0.0
    if selected == NULL or core_sample == NULL:
        status = -1
    else:
        for i in range(n):
            if is_core[i]:
                core_sample[n_core] = i
                n_core += 1
        core_points = <double*>malloc((n_core * d if n_core > 0 else 1) * sizeof(double))
        core_points_g = <floating*>malloc((n_core * d if n_core > 0 else 1) * sizeof(floating))
        core_norms = <double*>malloc((2 * n_core if n_core > 0 else 1) * sizeof(double))
        dists = <floating*>malloc((n_threads * block * n_core if n_core > 0 else 1)
                                  * sizeof(floating))
        rows_copies = <floating*>malloc(n_threads * block * d * sizeof(floating))
        if core_points == NULL or core_points_g == NULL or core_norms == NULL or dists == NULL \
                or rows_copies == NULL:
            status = -1
    if status == 0:
        for r in range(n_core):
            i = core_sample[r]
            memcpy(core_points + r * d, X + i * d, d * sizeof(double))
            memcpy(core_points_g + r * d, Xg + i * d, d * sizeof(floating))
            core_norms[r] = norms[i]
            core_norms[n_core + r] = norms[n + i]
            if norms[n + i] > core_largest:
                core_largest = norms[n + i]
        # unions of neighbouring core points: each round computes n_threads blocks of core rows
        # in parallel, then merges them sequentially (union-find is order-free: the components,
        # hence the labels, do not depend on the rounds).
        n_blocks = (n_core + block - 1) // block
        chunk = progress_chunk(progress, n_blocks, n_threads)
        next_report = chunk
        round_start = 0
        while round_start < n_blocks:
            if interrupted(interrupt):       # between rounds, outside the threads
                status = INTERRUPTED
                break
            n_round = n_blocks - round_start if n_blocks - round_start < n_threads else n_threads
            for b in prange(n_round, schedule='static', num_threads=n_round):
                start = (round_start + b) * block
                stop = start + block if start + block < n_core else n_core
                # the upper triangle: core points from the block's first row on
                _neighbour_block(X, Xg, norms, norms + n, core_sample + start, stop - start,
                                 core_points + start * d, core_points_g + start * d,
                                 core_norms + start, core_norms + n_core + start,
                                 n_core - start, d, radius, core_largest,
                                 rows_copies + b * block * d, dists + b * block * n_core)
            for b in range(n_round):
                start = (round_start + b) * block
                stop = start + block if start + block < n_core else n_core
                n_cols = n_core - start
                for r in range(stop - start):
                    for j in range(r + 1, n_cols):
                        if dists[b * block * n_core + r * n_cols + j] != 0:
                            _union(parent, core_sample[start + r], core_sample[start + j])
            round_start += n_threads
            if round_start >= next_report or round_start >= n_blocks:
                next_report = round_start + chunk
                if report_progress(progress, GROWING, round_start * block
                                   if round_start * block < n_core else n_core, n_core):
                    status = INTERRUPTED
                    break
    if status == 0:
        # border candidates: non-core points with a neighbour besides themselves
        n_rows = 0
        for i in range(n):
            if not is_core[i] and labels[i] > 1:
                selected[n_rows] = i
                n_rows += 1
        _number_clusters(n, is_core, parent, cluster_of, labels, n_clusters)
        # border points: the lowest cluster among their core neighbours
        if n_core > 0:
            status = _border_pass(X, Xg, norms, selected, n_rows, core_points, core_points_g,
                                  core_norms, core_largest, core_sample, n_core, n, d, radius,
                                  block, labels, interrupt, n_threads, progress)
    free(selected)
    free(core_sample)
    free(core_points)
    free(core_points_g)
    free(core_norms)
    free(dists)
    free(rows_copies)
    return status


cdef intp_t _dbscan_gemm(const double *X, const floating *Xg, intp_t n, intp_t d, double radius,
                         intp_t min_samples, intp_t *labels, uint8_t *is_core,
                         intp_t max_graph_bytes, int n_threads, void *progress) noexcept nogil:
    """DBSCAN from blocked GEMM distances. A first pass over row blocks counts the neighbours
    (upper triangle of the distances) and, within ``max_graph_bytes``, keeps the ε-graph as a
    bitmap from which clusters and border points are read; beyond, two more passes compare with
    the core points (:func:`_clusters_by_core_passes`; memory O(n + block · n)). ``Xg`` is ``X``
    in the GEMM's precision (``X`` itself for a float64 GEMM). Same labels as the breadth-first
    expansion: clusters are the components of core points, numbered by their smallest sample
    index (the order in which the expansion starts them), and a border point joins the
    lowest-numbered cluster among its core neighbours (the first cluster that reaches it).
    Returns the number of clusters, -1 (allocation failure) or INTERRUPTED.
    """
    cdef intp_t block = GEMM_BLOCK_BUDGET // n if n > 0 else 1
    cdef intp_t words = (n + 63) // 64
    cdef intp_t i, n_clusters = 0
    cdef int status = 0
    cdef double *norms = <double*>malloc(2 * n * sizeof(double))
    cdef intp_t *parent = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *cluster_of = <intp_t*>malloc(n * sizeof(intp_t))
    cdef uint64_t *adjacency = NULL
    cdef double largest = 0.0
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if block < 1:
        block = 1
    if block > 256:
        block = 256
    if n_threads < 1:
        n_threads = 1
    if n * words * <intp_t>sizeof(uint64_t) <= max_graph_bytes:
        # NULL (allocation failed) falls back to the passes that need no bitmap
        adjacency = <uint64_t*>calloc(n * words, sizeof(uint64_t))
    if norms == NULL or parent == NULL or cluster_of == NULL:
        status = -1
    if status == 0:
        row_squared_norms(X, n, d, norms)
        for i in range(n):
            norms[n + i] = sqrt(norms[i])
            if norms[n + i] > largest:
                largest = norms[n + i]
            parent[i] = i
            cluster_of[i] = -1
        # neighbour counts (in labels for now)
        status = _count_pass(X, Xg, norms, n, d, radius, largest, block, labels, adjacency,
                             &interrupt, n_threads, progress)
    if status == 0:
        for i in range(n):
            is_core[i] = labels[i] >= min_samples
        if adjacency != NULL:
            _clusters_from_adjacency(n, adjacency, is_core, parent, cluster_of, labels,
                                     &n_clusters)
        else:
            status = _clusters_by_core_passes(X, Xg, norms, n, d, radius, block, is_core, parent,
                                              cluster_of, labels, &n_clusters, &interrupt,
                                              n_threads, progress)
    free(norms)
    free(parent)
    free(cluster_of)
    free(adjacency)
    return n_clusters if status == 0 else status
