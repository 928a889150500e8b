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
from _types cimport floating, intp_t


cdef inline intp_t kd_tree_levels(intp_t n_samples, intp_t leaf_size,
                                  intp_t max_levels) noexcept nogil:
    """Levels of the tree whose leaves hold at most ``leaf_size`` samples (a single leaf for
    ``n_samples <= leaf_size``), at most ``max_levels``."""
    cdef intp_t n_levels = 1
    while (n_samples + (1 << (n_levels - 1)) - 1) // (1 << (n_levels - 1)) > leaf_size \
            and n_levels < max_levels:
        n_levels += 1
    return n_levels


cdef inline void kd_select(intp_t *idx, const floating *X, intp_t n_features, intp_t dim,
                           intp_t lo, intp_t hi, intp_t nth) noexcept nogil:
    """Reorder ``idx[lo:hi]`` so that ``idx[nth]`` has the nth smallest coordinate ``dim`` of the
    rows of ``X`` (row-major, ``n_features`` columns), smaller ones before it and larger ones
    after (quickselect with a three-way partition, so runs of equal coordinates cost linear
    time)."""
    cdef intp_t lt, gt, i, t
    cdef double pivot, va, vb, vc, v
    while hi - lo > 1:
        # median of three as the pivot value
        va = X[idx[lo] * n_features + dim]
        vb = X[idx[(lo + hi) // 2] * n_features + dim]
        vc = X[idx[hi - 1] * n_features + dim]
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
            v = X[idx[i] * n_features + dim]
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


cdef inline void _range_box(const floating *X, intp_t n_features, const intp_t *sample_at,
                            intp_t s, intp_t e, double *lo, double *hi) noexcept nogil:
    """Bounding box of the samples at positions ``[s, e)`` (all zeros when empty), in one pass
    over their rows."""
    cdef intp_t i, k
    cdef double v
    cdef const floating *x
    for k in range(n_features):
        lo[k] = X[sample_at[s] * n_features + k] if e > s else 0.0
        hi[k] = lo[k]
    for i in range(s + 1, e):
        x = X + sample_at[i] * n_features
        for k in range(n_features):
            v = x[k]
            lo[k] = v if v < lo[k] else lo[k]
            hi[k] = v if v > hi[k] else hi[k]


cdef inline void kd_tree_build(
    const floating *X,      # IN (n_samples, n_features), row-major
    intp_t n_samples,
    intp_t n_features,
    intp_t n_levels,        # from kd_tree_levels
    intp_t *sample_at,      # OUT (n_samples,) the sample at each position
    intp_t *node_start,     # OUT (2^n_levels − 1,) first position of each node
    intp_t *node_end,       # OUT (2^n_levels − 1,) one past its last position
    double *node_lo,        # OUT (2^n_levels − 1, n_features) bounding boxes
    double *node_hi,        # OUT (2^n_levels − 1, n_features)
) noexcept nogil:
    """Top-down: each node's box from its samples, then, for an inner node, the median split on
    the axis of largest spread."""
    cdef intp_t d = n_features, n_nodes = (1 << n_levels) - 1
    cdef intp_t first_leaf = (1 << (n_levels - 1)) - 1
    cdef intp_t node, i, k, s, e, mid, dim, left
    cdef double spread, best
    for i in range(n_samples):
        sample_at[i] = i
    node_start[0] = 0
    node_end[0] = n_samples
    for node in range(n_nodes):
        s = node_start[node]
        e = node_end[node]
        _range_box(X, d, sample_at, s, e, node_lo + node * d, node_hi + node * d)
        if node >= first_leaf:
            continue
        dim = 0
        best = -1.0
        for k in range(d):
            spread = node_hi[node * d + k] - node_lo[node * d + k]
            if spread > best:
                best = spread
                dim = k
        mid = (s + e) // 2
        if e - s > 1:
            kd_select(sample_at, X, d, dim, s, e, mid)
        left = 2 * node + 1
        node_start[left] = s
        node_end[left] = mid
        node_start[left + 1] = mid
        node_end[left + 1] = e
