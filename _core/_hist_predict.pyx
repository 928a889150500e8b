"""Raw predictions of histogram gradient boosting: the sum of the trees' leaf values.

Two ways in: from the training (a leaf's samples are its slice of the grower's sample indices, so
the training set is never routed through the tree again) and from raw features (a walk down each
tree). At a numeric split ``x ≤ threshold`` goes left; at a categorical split a category ``c``
goes left when its bit is set in the node's bitset of categories (``_bitset.pxd``). NaN follows
the node's ``missing_go_left``, and so does, at a categorical split, a value that is no known
category of the feature (negative, not an integer, above 255, or unseen at fit).

Determinism: every sample is routed and summed by one thread, trees in order, so results do not
depend on the thread count.

Ctrl-C (``_interrupt.pxd``): the signals are looked at between two leaves, and every
``steps_per_check(BLOCK)`` trees of a block of samples; an interrupted call leaves
``raw_predictions`` partly updated.
"""

from cython.parallel cimport prange
from libc.math cimport isnan, log2

from _bitset cimport BITSET_WORDS, bitset_test
from _interrupt cimport (InterruptState, interrupt_init, interrupted, raise_pending,
                         steps_per_check)
from _sort cimport first_at_least
from _types cimport int32_t, intp_t, kk_team_for_work, uint8_t, uint32_t

# Samples per parallel block: a block walks one tree before the next, so that tree's nodes stay
# in cache for the block.
cdef intp_t BLOCK = 256
# Below this many walks one thread does the work.
cdef intp_t MIN_PARALLEL_WALKS = 8192
# Serial seconds of add_leaf_values per sample (a scattered add: 0.7 ns with the predictions in
# cache, 2.6 ns on 10⁶ samples in a fit, quiet) and per step of a bisection (what each thread of
# a team adds), which size its team.
cdef double LEAF_SAMPLE_SECONDS = 1e-9
cdef double BISECTION_STEP_SECONDS = 3e-9
# Categories a bitset holds: 0 … N_CATEGORIES − 1.
cdef double N_CATEGORIES = 32 * BITSET_WORDS


cdef struct Forest:
    # the nodes of all trees (see add_tree_values)
    const intp_t *feature
    const double *threshold
    const uint8_t *missing_go_left
    const intp_t *left
    const intp_t *bitset              # row of left_categories, −1 at a numeric split
    const uint32_t *left_categories   # (n_bitsets, BITSET_WORDS)
    const uint32_t *known_categories  # (n_features, BITSET_WORDS)


cdef struct Leaves:
    # the leaves of a tree: leaf l's samples are samples[start[l]:stop[l]]
    const int32_t *samples
    const intp_t *start
    const intp_t *stop
    const double *value
    intp_t n_leaves


cdef void _add_leaf_rows(const Leaves *leaves, double *raw, intp_t n_columns, intp_t row_lo,
                         intp_t row_hi, bint whole, InterruptState *interrupt) noexcept nogil:
    """The leaves' values added to the rows ``row_lo ≤ i < row_hi`` of ``raw`` (a column
    pointer, rows ``n_columns`` apart); ``whole``: every sample of every leaf, without
    searching the slices."""
    cdef intp_t leaf, j, j0, j1
    cdef double value
    for leaf in range(leaves.n_leaves):
        if interrupted(interrupt):
            return
        j0, j1 = leaves.start[leaf], leaves.stop[leaf]
        if not whole:
            j0 = first_at_least(leaves.samples, j0, j1, <int32_t> row_lo)
            j1 = first_at_least(leaves.samples, j0, j1, <int32_t> row_hi)
        value = leaves.value[leaf]
        for j in range(j0, j1):
            raw[leaves.samples[j] * n_columns] += value


def add_leaf_values(
    const int32_t[::1] sample_indices,   # IN (n_samples,) the grower's partition
    const intp_t[::1] leaf_start,        # IN (n_leaves,) each leaf's slice of sample_indices
    const intp_t[::1] leaf_stop,         # IN (n_leaves,)
    const double[::1] leaf_value,        # IN (n_leaves,)
    double[:, ::1] raw_predictions,      # INOUT (n_samples, n_columns)
    intp_t column,
    int n_threads=1,
    double min_work_per_thread=0.0,
):
    """``raw_predictions[i, column] += leaf_value[l]`` for every sample ``i`` of leaf ``l``.

    On a team (sized by ``kk_team_for_work`` from ``min_work_per_thread`` seconds a thread; 0:
    the whole team), each thread owns a range of rows and adds, leaf by leaf, the part of the
    leaf's slice in its range, found by bisection: the slices must then be increasing, as the
    grower's stable partition leaves them. Threads taking whole leaves instead write into the
    same cache lines (the leaves' samples are interleaved) and wait for each other: two threads
    took 1.6× the time of one on the 31 leaves of a tree of 200 000 samples, quiet. Every entry
    gets its leaves' values in leaf order on any team."""
    cdef intp_t n_rows = raw_predictions.shape[0], n_columns = raw_predictions.shape[1]
    cdef intp_t n_leaves = leaf_start.shape[0], t
    cdef int team
    cdef Leaves leaves
    cdef InterruptState interrupt
    if leaf_stop.shape[0] != n_leaves or leaf_value.shape[0] != n_leaves:
        raise ValueError("leaf_start, leaf_stop and leaf_value must have one entry per leaf")
    if not 0 <= column < n_columns:
        raise ValueError(f"column {column} is not a column of raw_predictions")
    if sample_indices.shape[0] == 0 or n_leaves == 0:
        return
    if min_work_per_thread > 0.0:
        # a thread of a team pays its wake-up and its bisections, two a leaf
        min_work_per_thread += BISECTION_STEP_SECONDS * 2 * n_leaves * log2(n_rows + 1.0)
    team = kk_team_for_work(LEAF_SAMPLE_SECONDS * sample_indices.shape[0], min_work_per_thread,
                            n_threads)
    leaves = Leaves(&sample_indices[0], &leaf_start[0], &leaf_stop[0], &leaf_value[0], n_leaves)
    interrupt_init(&interrupt)
    with nogil:
        if team == 1:
            _add_leaf_rows(&leaves, &raw_predictions[0, column], n_columns, 0, n_rows, True,
                           &interrupt)
        else:
            for t in prange(team, num_threads=team, schedule='static'):
                _add_leaf_rows(&leaves, &raw_predictions[0, column], n_columns,
                               t * n_rows // team, (t + 1) * n_rows // team, False, &interrupt)
    if interrupt.stop:
        raise_pending()


cdef inline bint _category_goes_left(const Forest *forest, intp_t node,
                                     double value) noexcept nogil:
    """The side of a category at a categorical split: the node's bit, or the missing values'
    side for a value that is no known category of the feature."""
    cdef intp_t category
    if not (0 <= value < N_CATEGORIES) or value != <intp_t> value:
        return forest.missing_go_left[node]
    category = <intp_t> value
    if not bitset_test(&forest.known_categories[forest.feature[node] * BITSET_WORDS], category):
        return forest.missing_go_left[node]
    return bitset_test(&forest.left_categories[forest.bitset[node] * BITSET_WORDS], category)


cdef inline intp_t _leaf(const Forest *forest, const double *x, intp_t node) noexcept nogil:
    cdef double value
    cdef bint goes_left
    while forest.left[node] >= 0:
        value = x[forest.feature[node]]
        if isnan(value):
            goes_left = forest.missing_go_left[node]
        elif forest.bitset[node] >= 0:
            goes_left = _category_goes_left(forest, node, value)
        else:
            goes_left = value <= forest.threshold[node]
        node = forest.left[node] + (not goes_left)
    return node


cdef const uint32_t *_rows(const uint32_t[:, ::1] bitsets) noexcept:
    # an empty table is never read: no categorical split points into it
    return &bitsets[0, 0] if bitsets.shape[0] > 0 else NULL


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
        (the left child; the right one is ``left + 1``; -1 at a leaf), ``value`` (n_nodes,)
        float64, ``bitset`` (n_nodes,) intp (the row of ``left_categories`` of a categorical
        split, -1 elsewhere), ``left_categories`` (n_bitsets, 8) uint32 (the categories that go
        left) and ``known_categories`` (n_features or 0, 8) uint32 (the categories of each
        feature seen at fit); other keys are ignored.
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
    cdef const intp_t[::1] bitset = nodes["bitset"]
    cdef Forest forest = Forest(&feature[0], &threshold[0], &missing_go_left[0], &left[0],
                                &bitset[0], _rows(nodes["left_categories"]),
                                _rows(nodes["known_categories"]))
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
                    leaf = _leaf(&forest, &X[i, 0], tree_root[t])
                    raw_predictions[i, t % n_columns] += value[leaf]
    if interrupt.stop:
        raise_pending()
