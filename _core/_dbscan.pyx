"""DBSCAN in linear memory: streamed ε-neighbourhoods over a uniform grid or a KD-tree.

Seed 003 §2.4, Algorithm 14, with the two fixes recorded in seed-methods B19: the seed point is a
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

Neighbour search: a uniform grid of cells of width ``ε`` for ``d ≤ 3`` (a point's neighbours lie
in the ``3^d`` cells around its own: each coordinate differs by at most ``ε``), a KD-tree of
median splits otherwise. Both reorder a copy of the points so that neighbours are close in
memory; the passes run on these *positions* and labels are written back in sample order.
Precomputed distances (a dense matrix or a CSR radius-neighbours graph) use the same two passes.
"""

from cython.parallel cimport prange
from libc.math cimport floor, fabs
from libc.stdlib cimport malloc, calloc, free, realloc
from libc.string cimport memcpy

from _sort cimport sort_pairs
from _types cimport intp_t, int64_t, uint8_t

cdef enum Metric:
    EUCLIDEAN = 0   # compared as squared distances
    MANHATTAN = 1
    CHEBYSHEV = 2

cdef enum IndexKind:
    GRID = 0
    KD_TREE = 1
    DENSE_DISTANCES = 2
    SPARSE_DISTANCES = 3

_METRICS = {"euclidean": EUCLIDEAN, "manhattan": MANHATTAN, "chebyshev": CHEBYSHEV}

# Cells are made this much wider than ε: the coordinate → cell map then tolerates rounding
# errors of up to 1e-6 cell widths, far above the ~1e-8 committed on grids of ≤ 2^26 cells a side.
cdef double CELL_SLACK = 1e-6
MAX_CELLS_PER_AXIS = 1 << 26
# Grids with at most this many cells per point get a direct cell → position table.
cdef int64_t DENSE_CELLS_PER_POINT = 2
cdef intp_t LEAF_SIZE = 32
cdef intp_t MAX_DEPTH = 64
# Rows per dynamically scheduled block of the counting pass (counts are per point, so the
# schedule cannot change any result).
cdef intp_t COUNT_BLOCK = 64


cdef struct Neighbourhoods:
    int kind
    int metric
    intp_t n_points
    intp_t n_features
    double radius               # ε, squared for the Euclidean metric
    const double *points        # (n_points, n_features), in position order (grid, KD-tree)
    # grid
    intp_t n_cells              # occupied cells (sparse layout) or all cells (dense layout)
    int64_t *cell_keys          # (n_cells,) sorted keys of the occupied cells; NULL: dense
    intp_t *cell_start          # (n_cells + 1,) first position of each cell
    int64_t extent[3]
    double origin[3]
    double cell_width
    # KD-tree: node i has children 2i+1, 2i+2; nodes >= first_leaf are leaves
    intp_t n_nodes
    intp_t first_leaf
    intp_t *node_start
    intp_t *node_end
    double *node_lo             # (n_nodes, n_features)
    double *node_hi
    # precomputed distances
    const double *distances     # (n_points, n_points)
    const double *graph_data    # CSR
    const intp_t *graph_indices
    const intp_t *graph_indptr


cdef struct PositionBuffer:
    intp_t *data
    intp_t size
    intp_t capacity


cdef int _push(PositionBuffer *buf, intp_t value) noexcept nogil:
    """Append; returns -1 when the buffer cannot grow."""
    cdef intp_t *grown
    if buf.size == buf.capacity:
        grown = <intp_t*>realloc(buf.data, 2 * buf.capacity * sizeof(intp_t))
        if grown == NULL:
            return -1
        buf.data = grown
        buf.capacity *= 2
    buf.data[buf.size] = value
    buf.size += 1
    return 0


cdef inline double _reduced_distance(const double *a, const double *b, intp_t n_features,
                                     int metric) noexcept nogil:
    cdef intp_t k
    cdef double s = 0.0, t
    for k in range(n_features):
        t = a[k] - b[k]
        if metric == EUCLIDEAN:
            s += t * t
        elif metric == MANHATTAN:
            s += fabs(t)
        elif fabs(t) > s:
            s = fabs(t)
    return s


cdef inline double _combine(double s, double t, int metric) noexcept nogil:
    """Add the per-axis gap ``t ≥ 0`` to a reduced distance."""
    if metric == EUCLIDEAN:
        return s + t * t
    if metric == MANHATTAN:
        return s + t
    return t if t > s else s


cdef inline int _report(PositionBuffer *out, intp_t *count, intp_t position) noexcept nogil:
    """Count a neighbour and, in collecting mode (``out`` not NULL), store it."""
    count[0] += 1
    if out != NULL:
        return _push(out, position)
    return 0


# ---------------------------------------------------------------------------------------------
# Visiting a neighbourhood: counting (out == NULL, stop at `limit`) or collecting (out != NULL).
# Each returns the number of neighbours seen (the point itself included), or -1 when the
# collecting buffer could not grow.

cdef inline intp_t _first_position(const Neighbourhoods *nb, int64_t key) noexcept nogil:
    """Position of the first point whose cell key is ``≥ key``."""
    cdef intp_t lo = 0, hi, mid
    if nb.cell_keys == NULL:
        return nb.cell_start[key]
    hi = nb.n_cells
    while lo < hi:
        mid = (lo + hi) // 2
        if nb.cell_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return nb.cell_start[lo]


cdef intp_t _visit_grid(const Neighbourhoods *nb, intp_t p, intp_t limit,
                        PositionBuffer *out) noexcept nogil:
    cdef intp_t d = nb.n_features
    cdef const double *x = nb.points + p * d
    cdef int64_t cell[3]
    cdef int64_t c, prefix, first, last
    cdef intp_t k, q, count = 0, n_rows = 1, row, rem
    cdef bint inside
    for k in range(d):
        cell[k] = <int64_t>floor((x[k] - nb.origin[k]) / nb.cell_width)
    for k in range(d - 1):
        n_rows *= 3
    # The ≤ 3 neighbouring cells along the last axis have consecutive keys, hence are one
    # contiguous run of positions: 3^(d−1) range look-ups instead of 3^d cell look-ups.
    first = cell[d - 1] - 1 if cell[d - 1] > 0 else 0
    last = cell[d - 1] + 1 if cell[d - 1] + 1 < nb.extent[d - 1] else nb.extent[d - 1] - 1
    for row in range(n_rows):
        rem = row
        prefix = 0
        inside = True
        for k in range(d - 1):
            c = cell[k] + (rem % 3) - 1
            rem = rem // 3
            if c < 0 or c >= nb.extent[k]:
                inside = False
                break
            prefix = prefix * nb.extent[k] + c
        if not inside:
            continue
        prefix *= nb.extent[d - 1]
        for q in range(_first_position(nb, prefix + first),
                       _first_position(nb, prefix + last + 1)):
            if _reduced_distance(x, nb.points + q * d, d, nb.metric) <= nb.radius:
                if _report(out, &count, q) < 0:
                    return -1
                if out == NULL and count >= limit:
                    return count
    return count


cdef intp_t _visit_kd_tree(const Neighbourhoods *nb, intp_t p, intp_t limit,
                           PositionBuffer *out) noexcept nogil:
    cdef intp_t d = nb.n_features
    cdef const double *x = nb.points + p * d
    cdef intp_t stack[128]
    cdef intp_t top = 0, node, k, q, count = 0
    cdef double near, far, lo, hi
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        near = 0.0
        far = 0.0
        for k in range(d):
            lo = nb.node_lo[node * d + k]
            hi = nb.node_hi[node * d + k]
            if x[k] < lo:
                near = _combine(near, lo - x[k], nb.metric)
            elif x[k] > hi:
                near = _combine(near, x[k] - hi, nb.metric)
            far = _combine(far, x[k] - lo if x[k] - lo > hi - x[k] else hi - x[k], nb.metric)
        if near > nb.radius:
            continue
        if far <= nb.radius:
            # the whole box is inside the ball
            if out == NULL:
                count += nb.node_end[node] - nb.node_start[node]
                if count >= limit:
                    return count
                continue
            for q in range(nb.node_start[node], nb.node_end[node]):
                if _report(out, &count, q) < 0:
                    return -1
            continue
        if node >= nb.first_leaf:
            for q in range(nb.node_start[node], nb.node_end[node]):
                if _reduced_distance(x, nb.points + q * d, d, nb.metric) <= nb.radius:
                    if _report(out, &count, q) < 0:
                        return -1
                    if out == NULL and count >= limit:
                        return count
            continue
        stack[top] = 2 * node + 2
        stack[top + 1] = 2 * node + 1
        top += 2
    return count


cdef intp_t _visit_dense_distances(const Neighbourhoods *nb, intp_t p, intp_t limit,
                                   PositionBuffer *out) noexcept nogil:
    cdef intp_t q, count = 0
    cdef const double *row = nb.distances + p * nb.n_points
    for q in range(nb.n_points):
        # the point is its own neighbour whatever its diagonal entry says
        if q == p or row[q] <= nb.radius:
            if _report(out, &count, q) < 0:
                return -1
            if out == NULL and count >= limit:
                return count
    return count


cdef intp_t _visit_sparse_distances(const Neighbourhoods *nb, intp_t p, intp_t limit,
                                    PositionBuffer *out) noexcept nogil:
    cdef intp_t e, q, count = 0
    # the point itself, stored or not (a CSR graph usually omits its zero diagonal)
    if _report(out, &count, p) < 0:
        return -1
    for e in range(nb.graph_indptr[p], nb.graph_indptr[p + 1]):
        q = nb.graph_indices[e]
        if q != p and nb.graph_data[e] <= nb.radius:
            if _report(out, &count, q) < 0:
                return -1
            if out == NULL and count >= limit:
                return count
    return count


cdef inline intp_t _visit(const Neighbourhoods *nb, intp_t p, intp_t limit,
                          PositionBuffer *out) noexcept nogil:
    if nb.kind == GRID:
        return _visit_grid(nb, p, limit, out)
    if nb.kind == KD_TREE:
        return _visit_kd_tree(nb, p, limit, out)
    if nb.kind == DENSE_DISTANCES:
        return _visit_dense_distances(nb, p, limit, out)
    return _visit_sparse_distances(nb, p, limit, out)


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


# ---------------------------------------------------------------------------------------------
# Index construction.

cdef inline int64_t _cell_key(const Neighbourhoods *nb, const double[:, ::1] X,
                              intp_t i) noexcept nogil:
    cdef int64_t key = 0
    cdef intp_t k
    for k in range(X.shape[1]):
        key = key * nb.extent[k] + <int64_t>floor((X[i, k] - nb.origin[k]) / nb.cell_width)
    return key


cdef int _build_grid(Neighbourhoods *nb, const double[:, ::1] X, double *points,
                     intp_t *sample_at, int64_t n_grid_cells) noexcept nogil:
    """Order the samples by (cell, sample index) and record where each cell starts.

    Dense layout when the grid has at most DENSE_CELLS_PER_POINT cells per point: a counting
    sort and a table of every cell's start, so a look-up is one read. Sparse layout otherwise
    (eps tiny against the data's extent): a comparison sort and the sorted keys of the occupied
    cells, searched by bisection. Returns -1 on allocation failure.
    """
    cdef intp_t n = X.shape[0], d = X.shape[1], i, c
    cdef int64_t key
    cdef int64_t *keys
    if n_grid_cells <= DENSE_CELLS_PER_POINT * n + 1024:
        nb.n_cells = n_grid_cells
        nb.cell_start = <intp_t*>calloc(n_grid_cells + 1, sizeof(intp_t))
        if nb.cell_start == NULL:
            return -1
        for i in range(n):
            nb.cell_start[_cell_key(nb, X, i) + 1] += 1
        for c in range(n_grid_cells):
            nb.cell_start[c + 1] += nb.cell_start[c]
        # place samples in index order: within a cell they stay sorted by index; cell_start
        # is used as the fill pointer and shifted back afterwards
        for i in range(n):
            key = _cell_key(nb, X, i)
            sample_at[nb.cell_start[key]] = i
            nb.cell_start[key] += 1
        for c in range(n_grid_cells, 0, -1):
            nb.cell_start[c] = nb.cell_start[c - 1]
        nb.cell_start[0] = 0
    else:
        keys = <int64_t*>malloc(n * sizeof(int64_t))
        if keys == NULL:
            return -1
        for i in range(n):
            keys[i] = _cell_key(nb, X, i)
            sample_at[i] = i
        # by key, then by sample index: a total order, so the layout is deterministic
        sort_pairs(keys, sample_at, n)
        nb.n_cells = 0
        for i in range(n):
            if i == 0 or keys[i] != keys[i - 1]:
                nb.n_cells += 1
        nb.cell_keys = <int64_t*>malloc(nb.n_cells * sizeof(int64_t))
        nb.cell_start = <intp_t*>malloc((nb.n_cells + 1) * sizeof(intp_t))
        if nb.cell_keys == NULL or nb.cell_start == NULL:
            free(keys)
            return -1
        c = 0
        for i in range(n):
            if i == 0 or keys[i] != keys[i - 1]:
                nb.cell_keys[c] = keys[i]
                nb.cell_start[c] = i
                c += 1
        nb.cell_start[nb.n_cells] = n
        free(keys)
    for i in range(n):
        memcpy(points + i * d, &X[sample_at[i], 0], d * sizeof(double))
    return 0


cdef void _select(intp_t *idx, const double[:, ::1] X, intp_t dim, intp_t lo, intp_t hi,
                  intp_t nth) noexcept nogil:
    """Reorder ``idx[lo:hi]`` so that ``idx[nth]`` has the nth smallest coordinate ``dim``, smaller
    ones before it and larger ones after (quickselect with a three-way partition, so runs of
    equal coordinates cost linear time)."""
    cdef intp_t a, b, lt, gt, i, t
    cdef double pivot, va, vb, vc, v
    while hi - lo > 1:
        # median of three as the pivot value
        va = X[idx[lo], dim]
        vb = X[idx[(lo + hi) // 2], dim]
        vc = X[idx[hi - 1], dim]
        if (va <= vb <= vc) or (vc <= vb <= va):
            pivot = vb
        elif (vb <= va <= vc) or (vc <= va <= vb):
            pivot = va
        else:
            pivot = vc
        lt = lo
        i = lo
        gt = hi
        while i < gt:
            v = X[idx[i], dim]
            if v < pivot:
                t = idx[lt]; idx[lt] = idx[i]; idx[i] = t
                lt += 1
                i += 1
            elif v > pivot:
                gt -= 1
                t = idx[gt]; idx[gt] = idx[i]; idx[i] = t
            else:
                i += 1
        if nth < lt:
            hi = lt
        elif nth >= gt:
            lo = gt
        else:
            return


cdef int _build_kd_tree(Neighbourhoods *nb, const double[:, ::1] X, double *points,
                        intp_t *sample_at) noexcept nogil:
    """Median splits on the axis of largest spread, down to leaves of ≤ LEAF_SIZE points."""
    cdef intp_t n = X.shape[0], d = X.shape[1]
    cdef intp_t n_levels = 1, node, i, k, s, e, mid, dim, left, right
    cdef double spread, best, v, lo, hi
    while (n + (1 << (n_levels - 1)) - 1) // (1 << (n_levels - 1)) > LEAF_SIZE \
            and n_levels < MAX_DEPTH - 2:
        n_levels += 1
    nb.n_nodes = (1 << n_levels) - 1
    nb.first_leaf = (1 << (n_levels - 1)) - 1
    nb.node_start = <intp_t*>malloc(nb.n_nodes * sizeof(intp_t))
    nb.node_end = <intp_t*>malloc(nb.n_nodes * sizeof(intp_t))
    nb.node_lo = <double*>malloc(nb.n_nodes * d * sizeof(double))
    nb.node_hi = <double*>malloc(nb.n_nodes * d * sizeof(double))
    if (nb.node_start == NULL or nb.node_end == NULL or nb.node_lo == NULL
            or nb.node_hi == NULL):
        return -1
    for i in range(n):
        sample_at[i] = i
    nb.node_start[0] = 0
    nb.node_end[0] = n
    for node in range(nb.n_nodes):
        s = nb.node_start[node]
        e = nb.node_end[node]
        if node >= nb.first_leaf:
            # leaf box from its points; internal boxes are merged bottom-up below
            for k in range(d):
                lo = X[sample_at[s], k] if e > s else 0.0
                hi = lo
                for i in range(s + 1, e):
                    v = X[sample_at[i], k]
                    if v < lo:
                        lo = v
                    elif v > hi:
                        hi = v
                nb.node_lo[node * d + k] = lo
                nb.node_hi[node * d + k] = hi
            continue
        dim = 0
        best = -1.0
        for k in range(d):
            lo = X[sample_at[s], k] if e > s else 0.0
            hi = lo
            for i in range(s + 1, e):
                v = X[sample_at[i], k]
                if v < lo:
                    lo = v
                elif v > hi:
                    hi = v
            spread = hi - lo
            if spread > best:
                best = spread
                dim = k
        mid = (s + e) // 2
        if e - s > 1:
            _select(sample_at, X, dim, s, e, mid)
        left = 2 * node + 1
        right = 2 * node + 2
        nb.node_start[left] = s
        nb.node_end[left] = mid
        nb.node_start[right] = mid
        nb.node_end[right] = e
    for node in range(nb.first_leaf - 1, -1, -1):
        left = 2 * node + 1
        right = 2 * node + 2
        for k in range(d):
            # an empty child (n smaller than the number of leaves) must not widen the box
            if nb.node_end[left] == nb.node_start[left]:
                nb.node_lo[node * d + k] = nb.node_lo[right * d + k]
                nb.node_hi[node * d + k] = nb.node_hi[right * d + k]
            elif nb.node_end[right] == nb.node_start[right]:
                nb.node_lo[node * d + k] = nb.node_lo[left * d + k]
                nb.node_hi[node * d + k] = nb.node_hi[left * d + k]
            else:
                nb.node_lo[node * d + k] = min(nb.node_lo[left * d + k], nb.node_lo[right * d + k])
                nb.node_hi[node * d + k] = max(nb.node_hi[left * d + k], nb.node_hi[right * d + k])
    for i in range(n):
        memcpy(points + i * d, &X[sample_at[i], 0], d * sizeof(double))
    return 0


cdef void _free_index(Neighbourhoods *nb) noexcept nogil:
    free(nb.cell_keys)
    free(nb.cell_start)
    free(nb.node_start)
    free(nb.node_end)
    free(nb.node_lo)
    free(nb.node_hi)


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
    extents = [int((highs[k] - lows[k]) // width) + 1 for k in range(n_features)]
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
    """DBSCAN on feature vectors with streamed neighbourhoods (seed 003 Algorithm 14, fixed).

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
