"""Raw predictions of histogram gradient boosting: the sum of the trees' leaf values.

Two ways in: from the training (a leaf's samples are its slice of the grower's sample indices, so
the training set is never routed through the tree again) and from raw features (a walk down each
tree: ``x ≤ threshold`` goes left, NaN follows the node's ``missing_go_left``).

Determinism: every sample is routed and summed by one thread, trees in order, so results do not
depend on the thread count.

Ctrl-C (``_interrupt.pxd``): the signals are looked at between two leaves, and every
``steps_per_check(BLOCK)`` trees of a block of samples; an interrupted call leaves
``raw_predictions`` partly updated.
"""

from cython.parallel cimport prange
from libc.math cimport isnan

from _interrupt cimport (InterruptState, interrupt_init, interrupted, raise_pending,
                         steps_per_check)
from _types cimport int32_t, intp_t, uint8_t

# Samples per parallel block: a block walks one tree before the next, so that tree's nodes stay
# in cache for the block.
cdef intp_t BLOCK = 256
# Below this many walks one thread does the work.
cdef intp_t MIN_PARALLEL_WALKS = 8192


cdef void _add_to_slice(const int32_t *indices, intp_t n, double value,
                        double[:, ::1] raw_predictions, intp_t column,
                        int n_threads) noexcept nogil:
    cdef intp_t j
    if n < MIN_PARALLEL_WALKS:
        n_threads = 1
    for j in prange(n, num_threads=n_threads, schedule='static'):
        raw_predictions[indices[j], column] += value


def add_leaf_values(
    const int32_t[::1] sample_indices,   # IN (n_samples,) the grower's partition
    const intp_t[::1] leaf_start,        # IN (n_leaves,) each leaf's slice of sample_indices
    const intp_t[::1] leaf_stop,         # IN (n_leaves,)
    const double[::1] leaf_value,        # IN (n_leaves,)
    double[:, ::1] raw_predictions,      # INOUT (n_samples, n_columns)
    intp_t column,
    int n_threads,
):
    """``raw_predictions[i, column] += leaf_value[l]`` for every sample ``i`` of leaf ``l``."""
    cdef intp_t leaf
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil:
        for leaf in range(leaf_start.shape[0]):
            if interrupted(&interrupt):
                break
            _add_to_slice(&sample_indices[leaf_start[leaf]], leaf_stop[leaf] - leaf_start[leaf],
                          leaf_value[leaf], raw_predictions, column, n_threads)
    if interrupt.stop:
        raise_pending()


cdef inline intp_t _leaf(const intp_t *feature, const double *threshold,
                         const uint8_t *missing_go_left, const intp_t *left,
                         const double *x, intp_t node) noexcept nogil:
    cdef double value
    while left[node] >= 0:
        value = x[feature[node]]
        if isnan(value):
            node = left[node] + (not missing_go_left[node])
        else:
            node = left[node] + (not (value <= threshold[node]))
    return node


def add_tree_values(
    const double[:, ::1] X,              # IN (n_samples, n_features)
    dict nodes,                          # IN all trees' nodes, tree after tree (see below)
    const intp_t[::1] tree_root,         # IN (n_trees,) each tree's root node
    intp_t first_tree,
    intp_t stop_tree,
    double[:, ::1] raw_predictions,      # INOUT (n_samples, n_columns) tree t adds to t % n_columns
    int n_threads,
):
    """Add the leaf values of trees ``first_tree ≤ t < stop_tree`` to the raw predictions.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    nodes : dict
        The nodes of all trees, tree after tree: ``feature`` (n_nodes,) intp, ``threshold``
        (n_nodes,) float64, ``missing_go_left`` (n_nodes,) uint8, ``left`` (n_nodes,) intp
        (the left child; the right one is ``left + 1``; -1 at a leaf) and ``value`` (n_nodes,)
        float64; other keys are ignored.
    tree_root : ndarray of shape (n_trees,), intp
    first_tree, stop_tree : int
    raw_predictions : ndarray of shape (n_samples, n_columns), float64
        Tree ``t`` adds to column ``t % n_columns``.
    n_threads : int
    """
    cdef const intp_t[::1] feature = nodes["feature"]
    cdef const double[::1] threshold = nodes["threshold"]
    cdef const uint8_t[::1] missing_go_left = nodes["missing_go_left"]
    cdef const intp_t[::1] left = nodes["left"]
    cdef const double[::1] value = nodes["value"]
    cdef intp_t n_samples = X.shape[0], n_columns = raw_predictions.shape[1]
    cdef intp_t n_blocks = (n_samples + BLOCK - 1) // BLOCK, block, i, t, leaf
    cdef intp_t trees_per_check = steps_per_check(BLOCK)
    cdef InterruptState interrupt
    if n_samples == 0 or stop_tree <= first_tree:
        return
    if n_samples * (stop_tree - first_tree) < MIN_PARALLEL_WALKS:
        n_threads = 1
    interrupt_init(&interrupt)
    with nogil:
        for block in prange(n_blocks, num_threads=n_threads, schedule='static'):
            for t in range(first_tree, stop_tree):
                # a block walks every tree: a large ensemble makes it long
                if (t - first_tree) % trees_per_check == 0 and interrupted(&interrupt):
                    break
                for i in range(block * BLOCK, min(n_samples, (block + 1) * BLOCK)):
                    leaf = _leaf(&feature[0], &threshold[0], &missing_go_left[0], &left[0],
                                 &X[i, 0], tree_root[t])
                    raw_predictions[i, t % n_columns] += value[leaf]
    if interrupt.stop:
        raise_pending()
