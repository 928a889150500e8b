# DBSCAN's neighbour search (Sangnier, §2.4): the spatial index (a uniform grid for d ≤ 3, a
# KD-tree of median splits otherwise, or precomputed distances) and the streamed visit of one
# ε-neighbourhood, counting or collecting. The two passes that use it are in _dbscan_expansion.pyx.
#
# A uniform grid of cells of width ε: a point's neighbours lie in the 3^d cells around its own
# (each coordinate differs by at most ε). Both indexes reorder a copy of the points so that
# neighbours are close in memory; visits work on these *positions*.
from libc.math cimport floor
from libc.stdlib cimport malloc, calloc, free, realloc
from libc.string cimport memcpy

from _dbscan_common cimport EUCLIDEAN, MANHATTAN, _reduced_distance
from _kd_tree cimport KDNodes, kd_tree_build, kd_tree_levels
from _sort cimport sort_pairs
from _types cimport intp_t, int64_t, uint8_t

cdef enum IndexKind:
    GRID = 0
    KD_TREE = 1
    DENSE_DISTANCES = 2
    SPARSE_DISTANCES = 3

cdef enum:
    # Grids with at most this many cells per point get a direct cell → position table.
    DENSE_CELLS_PER_POINT = 2
    LEAF_SIZE = 32
    MAX_DEPTH = 64


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


cdef inline int _push(PositionBuffer *buf, intp_t value) noexcept nogil:
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


cdef inline intp_t _visit_grid(const Neighbourhoods *nb, intp_t p, intp_t limit,
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


cdef inline intp_t _visit_kd_tree(const Neighbourhoods *nb, intp_t p, intp_t limit,
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


cdef inline intp_t _visit_dense_distances(const Neighbourhoods *nb, intp_t p, intp_t limit,
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


cdef inline intp_t _visit_sparse_distances(const Neighbourhoods *nb, intp_t p, intp_t limit,
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
# Index construction.

cdef inline int64_t _cell_key(const Neighbourhoods *nb, const double[:, ::1] X,
                              intp_t i) noexcept nogil:
    cdef int64_t key = 0
    cdef intp_t k
    for k in range(X.shape[1]):
        key = key * nb.extent[k] + <int64_t>floor((X[i, k] - nb.origin[k]) / nb.cell_width)
    return key


cdef inline int _build_grid(Neighbourhoods *nb, const double[:, ::1] X, double *points,
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


cdef inline int _build_kd_tree(Neighbourhoods *nb, const double[:, ::1] X, double *points,
                        intp_t *sample_at) noexcept nogil:
    """Median splits on the axis of largest spread, down to leaves of ≤ LEAF_SIZE points
    (_kd_tree.pxd), which leaves ``points`` in position order."""
    cdef intp_t n = X.shape[0], d = X.shape[1]
    cdef intp_t n_levels = kd_tree_levels(n, LEAF_SIZE, MAX_DEPTH - 2)
    nb.n_nodes = (1 << n_levels) - 1
    nb.first_leaf = (1 << (n_levels - 1)) - 1
    nb.node_start = <intp_t*>malloc(nb.n_nodes * sizeof(intp_t))
    nb.node_end = <intp_t*>malloc(nb.n_nodes * sizeof(intp_t))
    nb.node_lo = <double*>malloc(nb.n_nodes * d * sizeof(double))
    nb.node_hi = <double*>malloc(nb.n_nodes * d * sizeof(double))
    if (nb.node_start == NULL or nb.node_end == NULL or nb.node_lo == NULL
            or nb.node_hi == NULL):
        return -1
    kd_tree_build(&X[0, 0], n, d, n_levels, points, sample_at,
                  KDNodes(nb.node_start, nb.node_end, nb.node_lo, nb.node_hi), 1, 0.0)
    return 0


cdef inline void _free_index(Neighbourhoods *nb) noexcept nogil:
    free(nb.cell_keys)
    free(nb.cell_start)
    free(nb.node_start)
    free(nb.node_end)
    free(nb.node_lo)
    free(nb.node_hi)
