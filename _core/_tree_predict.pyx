"""Prediction with flat decision trees: leaf lookup (``apply``) and forest sums.

A sample goes left at a node when ``x[feature] <= threshold`` (Sangnier, §1.6.2: ``L_{j,τ} =
{x_j ≤ τ}``), with x read as float32 as at training, until a leaf (``children_left == -1``).

Determinism: every sample is routed and summed by one thread, trees in order, so results do not
depend on the thread count.

A forest is walked over a packed copy of its nodes, 16 bytes each (children, feature and a
float32 threshold): one cache line holds four nodes where the separate arrays took one line per
field. The float32 threshold is the largest float32 at most the float64 one, so for a float32 x
``x <= threshold32`` exactly when ``x <= threshold``. A leaf's children are itself (feature 0,
threshold +inf), so a step from a leaf stays there: LANES samples walk a tree in lockstep, the
child picked by indexing the pair of children with the comparison, until no sample moves. There
is no branch to mispredict per node (a forest's comparisons are coin flips to the branch
predictor) and the lanes' independent chains of loads overlap.
"""

from cython.parallel cimport prange
from libc.math cimport INFINITY, nextafterf
from libc.stdlib cimport free, malloc

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _tree cimport TREE_LEAF
from _types cimport int32_t, intp_t

# Samples per parallel chunk of apply_tree.
cdef intp_t BLOCK = 256
# Below this many (sample × tree) walks one thread does the work.
cdef intp_t MIN_PARALLEL_WALKS = 8192
cdef enum:
    # Samples walking a tree in lockstep.
    LANES = 8
# A forest block holds at most this many float32 values of X (256 KiB, with the tree being
# walked well inside the per-core cache) and at most FOREST_BLOCK_ROWS rows: a block walks
# every tree, each tree once per block.
cdef intp_t FOREST_BLOCK_VALUES = 65536
cdef intp_t FOREST_BLOCK_ROWS = 2048


cdef struct PackedNode:
    int32_t child[2]        # left, right; child[0] is TREE_LEAF for a leaf
    int32_t feature
    float threshold         # largest float32 ≤ the node's float64 threshold


cdef inline intp_t _leaf(const int32_t *left, const int32_t *right, const int32_t *feature,
                         const double *threshold, const float *x) noexcept nogil:
    cdef intp_t node = 0
    while left[node] != TREE_LEAF:
        if x[feature[node]] <= threshold[node]:
            node = left[node]
        else:
            node = right[node]
    return node


def apply_tree(
    const int32_t[::1] children_left,       # IN (n_nodes,)
    const int32_t[::1] children_right,      # IN (n_nodes,)
    const int32_t[::1] feature,             # IN (n_nodes,)
    const double[::1] threshold,            # IN (n_nodes,)
    const float[:, ::1] X,                  # IN (n_samples, n_features)
    intp_t[::1] out,                        # OUT (n_samples,) leaf id of each sample
    int n_threads,
):
    """Leaf reached by every row of ``X``."""
    cdef intp_t n_samples = X.shape[0], i
    if n_samples == 0:
        return
    if n_samples < MIN_PARALLEL_WALKS:
        n_threads = 1
    with nogil:
        for i in prange(n_samples, num_threads=n_threads, schedule='static', chunksize=BLOCK):
            out[i] = _leaf(&children_left[0], &children_right[0], &feature[0], &threshold[0],
                           &X[i, 0])


cdef void _sum_block(const PackedNode *nodes, const double *value, const intp_t *node_offset,
                     intp_t n_trees, intp_t n_values, const float[:, ::1] X, intp_t i0,
                     intp_t i1, double[:, ::1] out) noexcept nogil:
    cdef intp_t t, i, j, k, off, n_lanes
    cdef int32_t node[LANES]
    cdef int32_t step
    cdef int moved
    cdef const PackedNode *tree
    cdef const PackedNode *at
    cdef const double *v
    for i in range(i0, i1):
        for k in range(n_values):
            out[i, k] = 0.0
    for t in range(n_trees):
        off = node_offset[t]
        tree = nodes + off
        i = i0
        while i < i1:
            n_lanes = i1 - i if i1 - i < LANES else LANES
            for j in range(n_lanes):
                node[j] = 0
            moved = 1
            while moved:
                moved = 0
                for j in range(n_lanes):
                    at = &tree[node[j]]
                    step = at.child[X[i + j, at.feature] > at.threshold]
                    moved |= step != node[j]
                    node[j] = step
            for j in range(n_lanes):
                v = value + (off + node[j]) * n_values
                for k in range(n_values):
                    out[i + j, k] += v[k]
            i += n_lanes


def sum_forest(
    const int32_t[::1] children_left,       # IN (total_nodes,) child ids within each tree
    const int32_t[::1] children_right,      # IN (total_nodes,)
    const int32_t[::1] feature,             # IN (total_nodes,)
    const double[::1] threshold,            # IN (total_nodes,)
    const double[:, ::1] value,             # IN (total_nodes, n_values)
    const intp_t[::1] node_offset,          # IN (n_trees + 1,) first node of each tree
    const float[:, ::1] X,                  # IN (n_samples, n_features)
    double[:, ::1] out,                     # OUT (n_samples, n_values) Σ_t value_t[leaf_t(x)]
    int n_threads,
):
    """Sum over trees of the leaf values of every row of ``X`` (trees concatenated)."""
    cdef intp_t n_samples = X.shape[0], n_trees = node_offset.shape[0] - 1
    cdef intp_t n_values = value.shape[1], n_nodes = children_left.shape[0], n_blocks, b, i1
    cdef intp_t node, t, local, block_rows
    cdef InterruptState interrupt
    cdef PackedNode *nodes
    cdef float threshold32
    if n_samples == 0:
        return
    nodes = <PackedNode *>malloc(n_nodes * sizeof(PackedNode))
    if nodes == NULL:
        raise MemoryError("out of memory while packing the forest's nodes")
    for t in range(n_trees):
        for node in range(node_offset[t], node_offset[t + 1]):
            local = node - node_offset[t]
            if children_left[node] == TREE_LEAF:
                nodes[node].child[0] = <int32_t>local
                nodes[node].child[1] = <int32_t>local
                nodes[node].feature = 0
                nodes[node].threshold = INFINITY
                continue
            nodes[node].child[0] = children_left[node]
            nodes[node].child[1] = children_right[node]
            nodes[node].feature = feature[node]
            threshold32 = <float>threshold[node]
            if threshold32 > threshold[node]:
                threshold32 = nextafterf(threshold32, -INFINITY)
            nodes[node].threshold = threshold32
    block_rows = FOREST_BLOCK_VALUES // X.shape[1]
    block_rows = min(max(block_rows, LANES), FOREST_BLOCK_ROWS)
    n_blocks = (n_samples + block_rows - 1) // block_rows
    if n_samples * n_trees < MIN_PARALLEL_WALKS:
        n_threads = 1
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    interrupt_init(&interrupt)
    try:
        with nogil:
            for b in prange(n_blocks, num_threads=n_threads, schedule='static'):
                # a block walks every tree: a large forest makes it long
                if interrupted(&interrupt):
                    continue
                i1 = (b + 1) * block_rows
                if i1 > n_samples:
                    i1 = n_samples
                _sum_block(nodes, &value[0, 0], &node_offset[0], n_trees, n_values, X,
                           b * block_rows, i1, out)
    finally:
        free(nodes)
    if interrupt.stop:
        raise_pending()
