"""DBSCAN by breadth-first expansion over streamed ε-neighbourhoods: a uniform grid, a KD-tree
or precomputed distances.

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
back in sample order. Euclidean data of many features is clustered on blocked GEMM distances
instead, with the same labels (``_dbscan_gemm``; the caller picks by its ``uses_gemm``).

Memory: O(n) (the spatial index, labels, core flags and the queue) plus one neighbourhood, no
neighbourhood being stored beyond the one being expanded.

Progress: given a callable ``progress``, each pass runs in chunks (``_progress_hook.pxd``) and
calls ``progress(stage, done, total)`` after each one, ``stage`` indexing :data:`STAGES`.
"""

from cython.parallel cimport prange
from libc.math cimport floor
from libc.stdlib cimport free, malloc

from _dbscan_common cimport CHEBYSHEV, COUNTING, EUCLIDEAN, GROWING, MANHATTAN
from _dbscan_neighbors cimport (
    DENSE_DISTANCES,
    GRID,
    KD_TREE,
    SPARSE_DISTANCES,
    Neighbourhoods,
    PositionBuffer,
    _build_grid,
    _build_kd_tree,
    _free_index,
    _visit,
)
from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _progress_hook cimport progress_chunk, report_progress
from _types cimport intp_t, int64_t, uint8_t

_METRICS = {"euclidean": EUCLIDEAN, "manhattan": MANHATTAN, "chebyshev": CHEBYSHEV}

# The passes of both DBSCAN cores that report their progress, as ``(what is done, unit)``:
# ``progress(stage, done, total)`` counts units of ``STAGES[stage]`` (the Stage enum of
# _dbscan_common.pxd; the third is _dbscan_gemm's).
STAGES = (("counting neighbours", "samples"), ("growing clusters", "core samples"),
          ("assigning border points", "candidates"))

# Cells are made this much wider than ε: the coordinate → cell map then tolerates rounding
# errors of up to 1e-6 cell widths, far above the ~1e-8 committed on grids of ≤ 2^26 cells a side.
cdef double CELL_SLACK = 1e-6
MAX_CELLS_PER_AXIS = 1 << 26
# Rows per dynamically scheduled block of the counting pass (counts are per point, so the
# schedule cannot change any result).
cdef intp_t COUNT_BLOCK = 64


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


def _grid_extents(
    const double[:, ::1] X,       # IN (n_samples, n_features)
    double eps,
):
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


def dbscan_dense(
    const double[:, ::1] X,       # IN (n_samples, n_features)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,           # OUT (n_samples,)
    uint8_t[::1] is_core,         # OUT (n_samples,)
    str metric="euclidean",
    str algorithm="auto",
    int n_threads=1,
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
    algorithm : {"auto", "grid", "kd_tree"}
        Neighbour search. ``"auto"``: the grid when ``n_features ≤ 3`` and the grid has at most
        2^26 cells a side (and 2^62 in all), the KD-tree otherwise. ``"grid"`` falls back to the
        KD-tree where the grid is not possible. (Blocked GEMM distances are
        ``_dbscan_gemm.dbscan_gemm``.)
    n_threads : int
        OpenMP threads of the core-counting pass. The result does not depend on it.
    progress : callable or None
        ``progress(stage, done, total)``, called with the GIL after each twentieth of each pass
        (:data:`STAGES`); what it raises stops the run and propagates. The result does not
        depend on it.

    Returns
    -------
    n_clusters : int
    """
    cdef intp_t n = X.shape[0], d = X.shape[1], k
    cdef intp_t n_clusters = 0   # read below even when the index could not be built
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
    if algorithm not in ("auto", "grid", "kd_tree"):
        raise ValueError(f"algorithm must be 'auto', 'grid' or 'kd_tree', got {algorithm!r}.")
    if n == 0:
        return 0
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
