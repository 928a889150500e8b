"""Prediction with flat decision trees: leaf lookup (``apply``) and forest sums.

A sample goes left at a node when ``x[feature] <= threshold`` (Sangnier, §1.6.2: ``L_{j,τ} =
{x_j ≤ τ}``), with x read as float32 as at training, until a leaf (``children_left == -1``).

Determinism: every sample is routed and summed by one thread, trees in order, so results do not
depend on the thread count.
"""

from cython.parallel cimport prange

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _tree cimport TREE_LEAF
from _types cimport int32_t, intp_t

# Samples per parallel block: the block walks every tree before the next tree, so each tree's
# nodes stay in cache for the whole block.
cdef intp_t BLOCK = 256
# Below this many (sample × tree) walks one thread does the work.
cdef intp_t MIN_PARALLEL_WALKS = 8192


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


cdef void _sum_block(const int32_t *left, const int32_t *right, const int32_t *feature,
                     const double *threshold, const double *value, const intp_t *node_offset,
                     intp_t n_trees, intp_t n_values, const float[:, ::1] X, intp_t i0,
                     intp_t i1, double[:, ::1] out) noexcept nogil:
    cdef intp_t t, i, k, off, leaf
    cdef const double *v
    for i in range(i0, i1):
        for k in range(n_values):
            out[i, k] = 0.0
    for t in range(n_trees):
        off = node_offset[t]
        for i in range(i0, i1):
            leaf = off + _leaf(left + off, right + off, feature + off, threshold + off, &X[i, 0])
            v = value + leaf * n_values
            for k in range(n_values):
                out[i, k] += v[k]


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
    cdef intp_t n_values = value.shape[1], n_blocks, b, i1
    cdef InterruptState interrupt
    if n_samples == 0:
        return
    n_blocks = (n_samples + BLOCK - 1) // BLOCK
    if n_samples * n_trees < MIN_PARALLEL_WALKS:
        n_threads = 1
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    interrupt_init(&interrupt)
    with nogil:
        for b in prange(n_blocks, num_threads=n_threads, schedule='static'):
            # a block walks every tree: a large forest makes it long
            if interrupted(&interrupt):
                continue
            i1 = (b + 1) * BLOCK
            if i1 > n_samples:
                i1 = n_samples
            _sum_block(&children_left[0], &children_right[0], &feature[0], &threshold[0],
                       &value[0, 0], &node_offset[0], n_trees, n_values, X, b * BLOCK, i1, out)
    if interrupt.stop:
        raise_pending()
