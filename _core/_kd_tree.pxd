# A KD-tree of median splits, shared by DBSCAN's ε-neighbourhoods and the k-NN search.
#
# The tree is implicit and balanced: node i has children 2i+1 and 2i+2, every split puts the
# lower half of its node's samples (by the coordinate of largest spread) on the left, and all
# leaves sit at the same depth, so the node arrays are plain arrays of `2^levels − 1` entries and
# a node is found by arithmetic. Each node keeps its samples' range in `sample_at` (positions
# [node_start, node_end)) and their bounding box in double precision (exact for float32 and
# float64 data), the box a search prunes by: the box's distance to a query is a lower bound of
# the distance of every sample inside, in floating point too (each coordinate gap to the box is
# at most the gap to the sample, and rounding is monotone).
#
# Friedman, Bentley and Finkel, "An algorithm for finding best matches in logarithmic expected
# time", ACM Transactions on Mathematical Software 3(3), 1977.
from cython.parallel cimport prange
from libc.string cimport memcpy

from _sort cimport median_of_three
from _types cimport floating, intp_t, kk_team_for_work


cdef inline intp_t kd_tree_levels(intp_t n_samples, intp_t leaf_size,
                                  intp_t max_levels) noexcept nogil:
    """Levels of the tree whose leaves hold at most ``leaf_size`` samples (a single leaf for
    ``n_samples <= leaf_size``), at most ``max_levels``."""
    cdef intp_t n_levels = 1
    while (n_samples + (1 << (n_levels - 1)) - 1) // (1 << (n_levels - 1)) > leaf_size \
            and n_levels < max_levels:
        n_levels += 1
    return n_levels


cdef inline void _swap_rows(floating *rows, intp_t *idx, intp_t n_features, intp_t a,
                            intp_t b) noexcept nogil:
    """Exchange positions ``a`` and ``b``: their rows and their samples."""
    cdef intp_t k, t = idx[a]
    cdef floating v
    idx[a] = idx[b]
    idx[b] = t
    for k in range(n_features):
        v = rows[a * n_features + k]
        rows[a * n_features + k] = rows[b * n_features + k]
        rows[b * n_features + k] = v


cdef inline void kd_select(intp_t *idx, floating *rows, intp_t n_features, intp_t dim,
                           intp_t lo, intp_t hi, intp_t nth) noexcept nogil:
    """Reorder positions ``[lo, hi)`` of ``rows`` (row-major, ``n_features`` columns) and of
    ``idx`` alike so that position ``nth`` has the nth smallest coordinate ``dim``, smaller ones
    before it and larger ones after (quickselect with a three-way partition, so runs of equal
    coordinates cost linear time)."""
    cdef intp_t lt, gt, i
    cdef double pivot, v
    while hi - lo > 1:
        pivot = median_of_three(rows[lo * n_features + dim],
                                rows[((lo + hi) // 2) * n_features + dim],
                                rows[(hi - 1) * n_features + dim])
        lt = lo
        i = lo
        gt = hi
        while i < gt:
            v = rows[i * n_features + dim]
            if v < pivot:
                _swap_rows(rows, idx, n_features, lt, i)
                lt += 1
                i += 1
            elif v > pivot:
                gt -= 1
                _swap_rows(rows, idx, n_features, gt, i)
            else:
                i += 1
        if nth < lt:
            hi = lt
        elif nth >= gt:
            lo = gt
        else:
            return


cdef inline void _range_box(const floating *rows, intp_t n_features, intp_t s, intp_t e,
                            double *lo, double *hi) noexcept nogil:
    """Bounding box of the rows at positions ``[s, e)`` (all zeros when empty), in one pass."""
    cdef intp_t i, k
    cdef double v
    cdef const floating *x
    for k in range(n_features):
        lo[k] = rows[s * n_features + k] if e > s else 0.0
        hi[k] = lo[k]
    for i in range(s + 1, e):
        x = rows + i * n_features
        for k in range(n_features):
            v = x[k]
            lo[k] = v if v < lo[k] else lo[k]
            hi[k] = v if v > hi[k] else hi[k]


cdef inline void _split_node(floating *rows, intp_t d, intp_t node, intp_t first_leaf,
                             intp_t *sample_at, intp_t *node_start, intp_t *node_end,
                             double *node_lo, double *node_hi) noexcept nogil:
    """The box of ``node`` from its rows, then, for an inner node, the median split on the axis
    of largest spread: its children's ranges."""
    cdef intp_t s = node_start[node], e = node_end[node], k, mid, dim = 0, left
    cdef double spread, best = -1.0
    _range_box(rows, d, s, e, node_lo + node * d, node_hi + node * d)
    if node >= first_leaf:
        return
    for k in range(d):
        spread = node_hi[node * d + k] - node_lo[node * d + k]
        if spread > best:
            best = spread
            dim = k
    mid = (s + e) // 2
    if e - s > 1:
        kd_select(sample_at, rows, d, dim, s, e, mid)
    left = 2 * node + 1
    node_start[left] = s
    node_end[left] = mid
    node_start[left + 1] = mid
    node_end[left + 1] = e


cdef struct KDNodes:
    # The node arrays of a tree of 2^n_levels − 1 nodes (OUT of kd_tree_build)
    intp_t *start       # (n_nodes,) first position of each node
    intp_t *end         # (n_nodes,) one past its last position
    double *lo          # (n_nodes, n_features) bounding boxes
    double *hi          # (n_nodes, n_features)


cdef inline void kd_tree_build(
    const floating *X,      # IN (n_samples, n_features), row-major
    intp_t n_samples,
    intp_t n_features,
    intp_t n_levels,        # from kd_tree_levels
    floating *rows,         # OUT (n_samples, n_features) the rows, position by position
    intp_t *sample_at,      # OUT (n_samples,) the sample at each position
    KDNodes nodes,          # OUT the node arrays
    int n_threads,
    double min_work_per_thread,
) noexcept nogil:
    """Top-down, level by level (:func:`_split_node`), on a copy of the rows that the splits
    reorder with ``sample_at``, so that a node's rows are contiguous and read in order (read
    through ``sample_at``, a row missed the cache at every access once the data outgrew it: the
    build of 10⁶ rows × 12 took twice its time; the same at 10⁵). The nodes of a level, whose
    positions are disjoint ranges, are split in parallel on a team sized by the level's work
    (``kk_team_for_work``): the same tree for any team."""
    cdef intp_t first_leaf = (1 << (n_levels - 1)) - 1
    cdef intp_t level, first, stop, node, i
    cdef int team
    memcpy(rows, X, n_samples * n_features * sizeof(floating))
    for i in range(n_samples):
        sample_at[i] = i
    nodes.start[0] = 0
    nodes.end[0] = n_samples
    for level in range(n_levels):
        first = (1 << level) - 1
        stop = 2 * first + 1
        # a level's serial work: about 1 ns a sample and a feature, its box pass, the selection
        # as much as four more features (measured at 100 000 samples x 12, quiet)
        team = kk_team_for_work(1e-9 * n_samples * (n_features + 4), min_work_per_thread,
                                n_threads) if stop - first > 1 else 1
        if team > 1:
            for node in prange(first, stop, schedule='dynamic', num_threads=team):
                _split_node(rows, n_features, node, first_leaf, sample_at, nodes.start,
                            nodes.end, nodes.lo, nodes.hi)
        else:
            for node in range(first, stop):
                _split_node(rows, n_features, node, first_leaf, sample_at, nodes.start,
                            nodes.end, nodes.lo, nodes.hi)
