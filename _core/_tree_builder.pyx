"""CART growth: depth-first and best-first builders over the exact or the histogram splitter.

Sangnier, §1.6.2: a cell A is split into ``L = {x_j ≤ τ}`` and ``R = {x_j > τ}`` at the
pair (j, τ) minimising ``|L|/|A| D(L) + |R|/|A| D(R)``; §1.6.4: random forests draw a subset of
features at each cell. Breiman, Friedman, Olshen & Stone, *Classification and regression trees*
(1984).

The pieces, by role (scikit-learn's ``_criterion``, ``_splitter``, ``_partitioner``, ``_tree``):
``_tree_criterion.pxd`` (impurities, node values, split proxies and their screens),
``_tree_absolute_error.pxd`` (Fenwick trees of the absolute error, a node's absolute error),
``_tree_splitter_exact.pxd`` (scans and partition of presorted rows),
``_tree_splitter_hist.pxd`` (histograms, their scans, partition of the samples),
``_tree_workspace.pxd`` (a thread's buffers, the set-up of one tree) and ``_tree_buffer.pxd``
(the growing node arrays, handed over to numpy). They are inline declarations cimported here
rather than modules of their own: the scans run once per candidate position, and only inside
one translation unit can the compiler inline them into the split search and specialise the scan
loop per criterion; across modules every call would go through a function-pointer table. The
presort (``_tree_presort``, a radix argsort of ``_sort.pxd``) runs once per fit before growth.

Features per node. The features examined at a node are drawn with scikit-learn's Fisher–Yates
scheme over its 32-bit xorshift generator (seeded once per tree), features known to be constant
included: ``max_features`` of them, continuing while all drawn ones are constant. So a tree with a
given seed is the same tree as scikit-learn's with the random state that yields that seed.
Rows of features found constant at an ancestor are not partitioned any more (depth-first growth
never reads them again).

Growth. Depth-first (preorder node ids, left child first) or, with ``max_leaf_nodes``, best-first
(the frontier node of largest impurity decrease is split next; ties to the older node). The whole
growth loop runs without the GIL. Threads: a forest grows its trees in parallel (one tree per
thread, dynamic schedule); a single tree evaluates and partitions the features of a large node in
parallel. Every tree depends only on its weights and seed, never on the thread count.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.stdint cimport uint16_t, uint32_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memcpy, memset

import numpy as np

from _best_first_heap cimport BestFirstHeap, heap_free, heap_init, heap_pop, heap_push
from _interrupt cimport (INTERRUPTED, InterruptState, interrupt_init, interrupted, leave_team,
                        next_item, raise_pending)
from _random cimport xorshift32_between
from _sort cimport swap
from _tree cimport (PARALLEL_MIN_WORK, TREE_UNDEFINED, NodeRecord, NodeStats, Problem, Scratch,
                    Split, Workspace, _sample_at, index_t)
from _tree_absolute_error cimport _node_absolute_error, _node_ranks
from _tree_buffer cimport (TreeBuffer, _add_node, _tree_free, _tree_init, _tree_reserve,
                           _tree_to_arrays)
from _tree_criterion cimport (ABSOLUTE_ERROR, ENTROPY, GINI, NEWTON, _add_sample_stats,
                              _impurity, _node_value)
from _tree_splitter_exact cimport _exact_apply_split, _exact_evaluate, _exact_is_constant
from _tree_splitter_hist cimport (_build_histograms, _hist_apply_split, _hist_children_stats,
                                  _hist_is_constant, _keep_histograms, _scan_histogram,
                                  _scan_node_feature)
from _tree_workspace cimport _prepare_tree, _workspace_free, _workspace_new
from _types cimport int32_t, intp_t, uint8_t

# A node of impurity <= EPSILON is pure; a split must decrease impurity by more than
# min_impurity_decrease - EPSILON (numpy's float64 eps, as scikit-learn's builder).
cdef double EPSILON = 2.220446049250313e-16


# ------------------------------------------------------------------------------------------
# Feature draws (scikit-learn's generator, _random.pxd)

cdef bint _is_constant(const Problem *pb, const Workspace *ws, const NodeRecord *rec,
                       intp_t f, const index_t *rows) noexcept nogil:
    """Whether feature ``f`` takes one value on the node."""
    if pb.hist:
        return _hist_is_constant(pb, ws, rec, f)
    return _exact_is_constant(pb, ws, f, rec.start, rec.end, rows)


cdef intp_t _draw_features(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                           intp_t n_known_constants, intp_t *n_constant_out,
                           const index_t *rows) noexcept nogil:
    """Draw the features to evaluate at a node into ``ws.to_eval`` (in draw order).

    scikit-learn's sampling without replacement (``node_split_best``): a Fisher–Yates shuffle of
    ``ws.features`` whose prefix holds the features known to be constant; it stops after
    ``max_features`` draws unless every drawn feature so far was constant. The evaluation of a
    drawn feature never influences later draws, so all draws can be made before evaluating.
    Returns the number drawn and, in ``n_constant_out``, the constant features known for the
    children.
    """
    cdef intp_t f_i = pb.n_features
    cdef intp_t f_j
    cdef intp_t n_visited = 0
    cdef intp_t n_found = 0
    cdef intp_t n_drawn = 0
    cdef intp_t n_total = n_known_constants
    cdef intp_t n_eval = 0
    cdef intp_t *features = ws.features
    while f_i > n_total and (n_visited < pb.max_features
                             or n_visited <= n_found + n_drawn):
        n_visited += 1
        f_j = xorshift32_between(n_drawn, f_i - n_found, &ws.rand_state)
        if f_j < n_known_constants:
            swap(features, n_drawn, f_j)
            n_drawn += 1
            continue
        f_j += n_found
        if _is_constant(pb, ws, rec, features[f_j], rows):
            swap(features, f_j, n_total)
            n_found += 1
            n_total += 1
            continue
        f_i -= 1
        swap(features, f_i, f_j)
        ws.to_eval[n_eval] = features[f_i]
        n_eval += 1
    # the known constants keep their order for siblings and children; append the new ones
    memcpy(features, ws.constant_features, n_known_constants * sizeof(intp_t))
    memcpy(ws.constant_features + n_known_constants, features + n_known_constants,
           n_found * sizeof(intp_t))
    n_constant_out[0] = n_total
    return n_eval


# ------------------------------------------------------------------------------------------
# Node statistics, impurities and values

cdef void _node_stats(const Problem *pb, const Workspace *ws, intp_t row, intp_t start,
                      intp_t end, NodeStats *st, double *counts,
                      const index_t *rows) noexcept nogil:
    """Sums of the node's samples (slice ``[start, end)`` of ``row``); class weights into
    ``counts``."""
    cdef intp_t p
    memset(st, 0, sizeof(NodeStats))
    if pb.classification:
        memset(counts, 0, pb.n_classes * sizeof(double))
    for p in range(start, end):
        _add_sample_stats(pb, ws, _sample_at(pb, ws, row, p, rows), st, counts)
    if pb.classification:
        st.sum_h = st.weight


cdef double _node_impurity_value(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                                 NodeStats *st, const index_t *rows) noexcept nogil:
    """Statistics, impurity and output value (into ``ws.value_buf``) of a node."""
    cdef double median = 0.0, impurity
    _node_stats(pb, ws, rec.row, rec.start, rec.end, st, ws.node_counts, rows)
    if pb.criterion == ABSOLUTE_ERROR:
        _node_ranks(pb, ws, rec.start, rec.end, rows)
        impurity = _node_absolute_error(pb, ws, rec.row, rec.start, rec.end, &median,
                                        rows) / st.weight
    else:
        impurity = _impurity(pb, st, ws.node_counts)
    _node_value(pb, st, ws.node_counts, median, ws.value_buf)
    return impurity


# ------------------------------------------------------------------------------------------
# Split search and partition

cdef void _evaluate_feature(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                            const NodeStats *st, intp_t k, Scratch *sc,
                            const index_t *rows) noexcept nogil:
    cdef intp_t f = ws.to_eval[k]
    if pb.hist and rec.hist != NULL:
        _scan_histogram(pb, ws, rec, f, st, sc.counts, &ws.cand[k])
    elif pb.hist:
        _scan_node_feature(pb, ws, rec, f, st, sc, &ws.cand[k])
    else:
        _exact_evaluate(pb, ws, f, rec.start, rec.end, st, sc, &ws.cand[k], rows)


cdef void _children_stats(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                          const Split *split, NodeStats *left, NodeStats *right,
                          const index_t *rows) noexcept nogil:
    """Sums of both children of a split that is not applied yet (class weights into
    ``ws.child_counts`` and ``ws.right_counts``)."""
    if pb.hist:
        _hist_children_stats(pb, ws, rec, split, left, right, ws.child_counts, ws.right_counts)
    else:
        _node_stats(pb, ws, split.feature, rec.start, split.pos, left, ws.child_counts, rows)
        _node_stats(pb, ws, split.feature, split.pos, rec.end, right, ws.right_counts, rows)


cdef void _find_split(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                      const NodeStats *st, double impurity, intp_t n_known_constants,
                      Split *split, intp_t *n_constant_out, const index_t *rows) noexcept nogil:
    """Best split of a node among the drawn features (``split.pos == rec.end``: none)."""
    cdef intp_t n_eval, k, best = -1
    cdef int n_threads = ws.n_threads
    cdef NodeStats left, right
    cdef double h_node
    n_eval = _draw_features(pb, ws, rec, n_known_constants, n_constant_out, rows)
    split.pos = rec.end
    if n_eval == 0:
        return
    if (n_threads > 1 and n_eval > 1
            and (rec.end - rec.start) * n_eval >= PARALLEL_MIN_WORK):
        with parallel(num_threads=n_threads):
            for k in prange(n_eval, schedule='dynamic'):
                _evaluate_feature(pb, ws, rec, st, k, &ws.scratch[threadid()], rows)
    else:
        for k in range(n_eval):
            _evaluate_feature(pb, ws, rec, st, k, &ws.scratch[0], rows)
    # first strict maximum in draw order: the tie rule of a sequential scan
    for k in range(n_eval):
        if ws.cand[k].pos < rec.end and (best < 0 or ws.cand[k].proxy > ws.cand[best].proxy):
            best = k
    if best < 0:
        return
    split.feature = ws.to_eval[best]
    split.pos = ws.cand[best].pos
    split.bin = ws.cand[best].bin
    split.threshold = ws.cand[best].threshold
    _children_stats(pb, ws, rec, split, &left, &right, rows)
    split.h_left = left.sum_h
    if pb.criterion == ABSOLUTE_ERROR:
        split.impurity_left = ws.cand[best].ae_left / left.weight
    else:
        split.impurity_left = _impurity(pb, &left, ws.child_counts)
    split.h_right = right.sum_h
    if pb.criterion == ABSOLUTE_ERROR:
        split.impurity_right = ws.cand[best].ae_right / right.weight
    else:
        split.impurity_right = _impurity(pb, &right, ws.right_counts)
    h_node = st.sum_h
    split.improvement = ((h_node / ws.h_total)
                         * (impurity - (split.h_right / h_node * split.impurity_right)
                            - (split.h_left / h_node * split.impurity_left)))


cdef inline bint _certain_leaf(const Problem *pb, const Workspace *ws, intp_t n, double h,
                               double impurity, intp_t depth) noexcept nogil:
    """Whether a node is a leaf whatever its split search would find."""
    return (depth >= pb.max_depth or n < pb.min_samples_split or n < 2 * pb.min_samples_leaf
            or h < 2 * ws.min_weight_leaf
            or (pb.criterion != NEWTON and impurity <= EPSILON))


cdef int _apply_split(const Problem *pb, Workspace *ws, NodeRecord *rec, const Split *split,
                      intp_t n_skip, bint need_children, double **hist_left,
                      double **hist_right, index_t *rows) noexcept nogil:
    """Partition the node's samples for its children (the splitter's partition; hist: with the
    children's histograms). Returns -1 when out of memory."""
    hist_left[0] = NULL
    hist_right[0] = NULL
    if pb.hist:
        return _hist_apply_split(pb, ws, rec, split, need_children, hist_left, hist_right)
    _exact_apply_split(pb, ws, rec.start, rec.end, split, n_skip, need_children, rows)
    return 0


# ------------------------------------------------------------------------------------------
# Builders

cdef int _push_record(Workspace *ws, const NodeRecord *rec) noexcept nogil:
    cdef void *p
    if ws.n_records == ws.records_capacity:
        p = realloc(ws.records, 2 * ws.records_capacity * sizeof(NodeRecord))
        if p == NULL:
            return -1
        ws.records = <NodeRecord *>p
        ws.records_capacity *= 2
    ws.records[ws.n_records] = rec[0]
    ws.n_records += 1
    return 0


cdef void _record_leaf(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                       intp_t node_id, const index_t *rows) noexcept nogil:
    cdef intp_t p
    if ws.train_leaves != NULL:
        for p in range(rec.start, rec.end):
            ws.train_leaves[_sample_at(pb, ws, rec.row, p, rows)] = <int32_t>node_id


cdef int _grow_depth_first(const Problem *pb, Workspace *ws, TreeBuffer *tree,
                           NodeRecord *root, index_t *rows) noexcept nogil:
    """scikit-learn's DepthFirstTreeBuilder: a stack, left child on top, node ids in preorder.
    Returns 0, -1 (out of memory) or INTERRUPTED."""
    cdef NodeRecord rec, child
    cdef NodeStats st
    cdef Split split
    cdef double impurity
    cdef intp_t n_node, node_id, n_constant
    cdef bint is_leaf, need_children
    cdef double *hist_left
    cdef double *hist_right
    cdef intp_t k
    ws.n_records = 0
    if _push_record(ws, root) != 0:
        return -1
    while ws.n_records > 0:
        if interrupted(pb.interrupt):
            for k in range(ws.n_records):
                free(ws.records[k].hist)
            ws.n_records = 0
            return INTERRUPTED
        ws.n_records -= 1
        rec = ws.records[ws.n_records]
        n_node = rec.end - rec.start
        impurity = _node_impurity_value(pb, ws, &rec, &st, rows)
        is_leaf = _certain_leaf(pb, ws, n_node, st.sum_h, impurity, rec.depth)
        n_constant = rec.n_constant
        split.pos = rec.end
        if not is_leaf:
            _find_split(pb, ws, &rec, &st, impurity, rec.n_constant, &split, &n_constant,
                        rows)
            is_leaf = (split.pos >= rec.end
                       or split.improvement + EPSILON < pb.min_impurity_decrease)
        node_id = _add_node(tree, rec.parent, rec.is_left, is_leaf, &split, impurity, n_node,
                            st.weight, ws.value_buf)
        if node_id < 0:
            free(rec.hist)
            return -1
        if rec.depth > tree.max_depth:
            tree.max_depth = rec.depth
        if is_leaf:
            _record_leaf(pb, ws, &rec, node_id, rows)
            free(rec.hist)
            continue
        need_children = not (
            _certain_leaf(pb, ws, split.pos - rec.start, split.h_left, split.impurity_left,
                          rec.depth + 1)
            and _certain_leaf(pb, ws, rec.end - split.pos, split.h_right,
                              split.impurity_right, rec.depth + 1))
        if _apply_split(pb, ws, &rec, &split, n_constant, need_children, &hist_left,
                        &hist_right, rows) != 0:
            free(rec.hist)
            return -1
        child.depth = rec.depth + 1
        child.parent = node_id
        child.n_constant = n_constant
        child.row = split.feature
        child.start = split.pos
        child.end = rec.end
        child.is_left = 0
        child.hist = hist_right
        if _push_record(ws, &child) != 0:
            free(hist_left)
            free(hist_right)
            return -1
        child.start = rec.start
        child.end = split.pos
        child.is_left = 1
        child.hist = hist_left
        if _push_record(ws, &child) != 0:
            free(hist_left)
            return -1
    return 0


cdef int _frontier_push(Workspace *ws, BestFirstHeap *frontier,
                        const NodeRecord *rec) noexcept nogil:
    """Keep a frontier node at ``ws.records[rec.node_id]`` and push it on the heap, keyed by its
    impurity decrease (ties to the node created first). Returns -1 when out of memory."""
    cdef intp_t capacity = ws.records_capacity
    cdef void *p
    if rec.node_id >= capacity:
        while capacity <= rec.node_id:
            capacity *= 2
        p = realloc(ws.records, capacity * sizeof(NodeRecord))
        if p == NULL:
            return -1
        ws.records = <NodeRecord *>p
        ws.records_capacity = capacity
    ws.records[rec.node_id] = rec[0]
    return heap_push(frontier, rec.split.improvement, rec.node_id)


cdef int _add_frontier(const Problem *pb, Workspace *ws, BestFirstHeap *frontier,
                       TreeBuffer *tree, NodeRecord *rec, const index_t *rows) noexcept nogil:
    """Evaluate a new node's split and add it to the tree and the frontier (best-first)."""
    cdef NodeStats st
    cdef double impurity
    cdef intp_t n_node = rec.end - rec.start, n_constant
    impurity = _node_impurity_value(pb, ws, rec, &st, rows)
    rec.is_leaf = _certain_leaf(pb, ws, n_node, st.sum_h, impurity, rec.depth)
    rec.split.pos = rec.end
    rec.split.improvement = 0.0
    if not rec.is_leaf:
        # best-first forgets constant features between nodes, as scikit-learn
        _find_split(pb, ws, rec, &st, impurity, 0, &rec.split, &n_constant, rows)
        rec.is_leaf = (rec.split.pos >= rec.end
                       or rec.split.improvement + EPSILON < pb.min_impurity_decrease)
        if rec.is_leaf:
            rec.split.improvement = 0.0
    rec.node_id = _add_node(tree, rec.parent, rec.is_left, rec.is_leaf, &rec.split, impurity,
                            n_node, st.weight, ws.value_buf)
    if rec.node_id < 0:
        return -1
    if rec.is_leaf and rec.hist != NULL:
        free(rec.hist)
        rec.hist = NULL
    return _frontier_push(ws, frontier, rec)


cdef int _grow_best_first(const Problem *pb, Workspace *ws, TreeBuffer *tree,
                          NodeRecord *root, index_t *rows) noexcept nogil:
    """scikit-learn's BestFirstTreeBuilder: split the frontier node of largest impurity decrease
    until ``max_leaf_nodes`` leaves. Returns 0, -1 (out of memory) or INTERRUPTED."""
    cdef NodeRecord rec, child
    cdef intp_t max_split_nodes = pb.max_leaf_nodes - 1, k
    cdef int status = 0
    cdef double *hist_left
    cdef double *hist_right
    cdef BestFirstHeap frontier
    ws.n_records = 0
    if heap_init(&frontier, 64) != 0:
        free(root.hist)
        return -1
    if _add_frontier(pb, ws, &frontier, tree, root, rows) != 0:
        free(root.hist)
        heap_free(&frontier)
        return -1
    while frontier.size > 0:
        if interrupted(pb.interrupt):
            status = INTERRUPTED
            break
        rec = ws.records[heap_pop(&frontier)]
        if rec.depth > tree.max_depth:
            tree.max_depth = rec.depth
        if rec.is_leaf or max_split_nodes <= 0:
            tree.feature[rec.node_id] = TREE_UNDEFINED
            tree.threshold[rec.node_id] = TREE_UNDEFINED
            _record_leaf(pb, ws, &rec, rec.node_id, rows)
            free(rec.hist)
            continue
        max_split_nodes -= 1
        if _apply_split(pb, ws, &rec, &rec.split, 0, True, &hist_left, &hist_right,
                        rows) != 0:
            free(rec.hist)
            status = -1
            break
        child.depth = rec.depth + 1
        child.parent = rec.node_id
        child.n_constant = 0
        child.row = rec.split.feature
        child.start = rec.start
        child.end = rec.split.pos
        child.is_left = 1
        child.hist = hist_left
        if _add_frontier(pb, ws, &frontier, tree, &child, rows) != 0:
            free(child.hist)
            free(hist_right)
            status = -1
            break
        child.start = rec.split.pos
        child.end = rec.end
        child.is_left = 0
        child.hist = hist_right
        if _add_frontier(pb, ws, &frontier, tree, &child, rows) != 0:
            free(child.hist)
            status = -1
            break
    for k in range(frontier.size):
        free(ws.records[frontier.entries[k].id].hist)
    heap_free(&frontier)
    return status


# ------------------------------------------------------------------------------------------
# One tree

cdef int _grow_one(const Problem *pb, Workspace *ws, const double *weights,
                   const uint8_t *counts, uint32_t seed, TreeBuffer *tree,
                   int32_t *train_leaves) noexcept nogil:
    """Grow one tree into ``tree`` (initialised here); 0, -1 when out of memory, or
    INTERRUPTED. The histogram splitter has no rows (NULL)."""
    if pb.hist:
        return _grow_one_rows(pb, ws, weights, counts, seed, tree, train_leaves,
                              <const int32_t *>NULL)
    if pb.data.rows.compact:
        return _grow_one_rows(pb, ws, weights, counts, seed, tree, train_leaves,
                              <const uint16_t *>pb.data.rows.sorted_samples)
    return _grow_one_rows(pb, ws, weights, counts, seed, tree, train_leaves,
                          <const int32_t *>pb.data.rows.sorted_samples)


cdef int _grow_one_rows(const Problem *pb, Workspace *ws, const double *weights,
                        const uint8_t *counts, uint32_t seed, TreeBuffer *tree,
                        int32_t *train_leaves, const index_t *sorted_samples) noexcept nogil:
    cdef NodeRecord root
    cdef int status
    cdef index_t *rows
    if _tree_init(tree, pb.n_values) != 0:
        return -1
    if _prepare_tree(pb, ws, weights, counts, seed, sorted_samples) != 0:
        return -1
    rows = NULL if pb.hist else <index_t *>ws.of.rows.entries
    ws.train_leaves = train_leaves
    memset(&root, 0, sizeof(NodeRecord))
    root.end = ws.n_active
    root.parent = -1
    root.row = 0
    # the root's histograms of every feature when its children would probably keep theirs
    if pb.hist and _keep_histograms(pb, ws.n_active // 2, ws.n_active):
        root.hist = _build_histograms(pb, ws, 0, ws.n_active)
        if root.hist == NULL:
            return -1
    if pb.max_leaf_nodes > 0:
        status = _grow_best_first(pb, ws, tree, &root, rows)
    else:
        status = _grow_depth_first(pb, ws, tree, &root, rows)
    if status != 0:
        return status
    # give back the spare capacity: a forest keeps every finished tree until the last one
    return _tree_reserve(tree, tree.node_count)


# ------------------------------------------------------------------------------------------
# Python entry points

def grow_trees(
    dict training_set,                      # IN the splitter's arrays, see below
    dict target,                            # IN y, hessian (newton), y_order (absolute_error)
    const double[:, ::1] tree_weights,      # IN (n_trees or 1, n_samples)
    const uint8_t[:, ::1] tree_counts,      # IN (n_trees, n_samples) or None
    const uint32_t[::1] seeds,              # IN (n_trees,)
    dict growth,                            # IN criterion, n_classes, stopping rules
    int n_threads,
    int32_t[::1] train_leaves,              # OUT (n_samples,) leaf of each sample, or None
):
    """Grow ``n_trees`` CART trees, tree t on the sample weights ``tree_weights[t]`` (times
    ``tree_counts[t]``) with the feature-draw seed ``seeds[t]``.

    Parameters
    ----------
    training_set : dict
        Exact splitter: ``X_T`` (n_features, n_samples) float32 and ``sorted_samples``
        (n_features, n_samples) uint16 or int32 (:func:`presort`; uint16 when there are fewer
        than 2¹⁶ samples: the rows of every tree then hold 16-bit ids). Histogram splitter:
        ``binned`` (n_features, n_samples) uint8 bin codes, ``bin_lower`` and ``bin_upper``
        (n_features, 255) float32 (smallest and largest training value of every bin) and
        ``n_bins`` (n_features,) int32.
    target : dict
        ``y`` (n_samples,) float64: class codes 0..n_classes−1 (gini, entropy), targets
        (squared_error, friedman_mse, absolute_error) or gradients of the loss (newton);
        ``hessian`` (n_samples,) float64, newton only; ``y_order`` (n_samples,), the sample ids
        in increasing order of y with the dtype of ``sorted_samples``, absolute_error only.
    tree_weights : ndarray of shape (n_trees, n_samples) or (1, n_samples), float64
        Non-negative sample weights of each tree (one row: shared by all trees).
    tree_counts : ndarray of shape (n_trees, n_samples), uint8, or None
        Multiplicities (bootstrap counts) multiplying the weights; a compact alternative to one
        weight row per tree. Samples of weight 0 are left out of that tree.
    seeds : ndarray of shape (n_trees,), uint32
        Seeds of the feature draws (scikit-learn's ``random_state.randint(0, 2**31 - 1)``).
    growth : dict
        ``criterion`` (0 gini, 1 entropy, 2 squared_error, 3 friedman_mse, 4 absolute_error,
        5 newton), ``n_classes`` (classification, else 1) and the stopping rules resolved to
        numbers: ``max_depth``, ``min_samples_split``, ``min_samples_leaf``, ``max_features``,
        ``max_leaf_nodes`` (``<= 0``: depth-first growth) as int; ``min_weight_fraction_leaf``,
        ``min_impurity_decrease``, ``l2_regularization`` as float.
    n_threads : int
        Threads: one tree per thread when there are several trees, else inside the nodes.
    train_leaves : ndarray of shape (n_samples,), int32, or None
        With one tree, receives the leaf id of every sample of positive weight (others are left
        unchanged).

    Returns
    -------
    trees : list of tuple
        Per tree ``(children_left, children_right, feature, threshold, value, impurity,
        n_node_samples, weighted_n_node_samples, max_depth)``: int32, int32, int32, float64,
        float64 (n_nodes, n_values), float64, int32, float64 arrays and an int.
    """
    cdef Problem pb
    cdef intp_t n_trees = seeds.shape[0], t
    cdef bint shared_weights = tree_weights.shape[0] == 1
    cdef bint with_counts = tree_counts is not None
    cdef TreeBuffer *trees = NULL
    cdef int *status = NULL
    cdef int n_outer = 1, n_inner = n_threads
    cdef Workspace *ws = NULL
    cdef int32_t *leaves = NULL
    cdef InterruptState interrupt
    cdef intp_t next_tree = 0, n_done = 0
    # the views keep the arrays the problem points into alive until the trees are grown
    views = _fill_problem(&pb, training_set, target, growth)
    if tree_weights.shape[1] != pb.n_samples or not (shared_weights
                                                      or tree_weights.shape[0] == n_trees):
        raise ValueError("tree_weights must have shape (n_trees, n_samples) or (1, n_samples)")
    if with_counts and (tree_counts.shape[0] != n_trees
                        or tree_counts.shape[1] != pb.n_samples):
        raise ValueError("tree_counts must have shape (n_trees, n_samples)")
    pb.interrupt = &interrupt
    interrupt_init(&interrupt)
    if n_trees == 1 and train_leaves is not None and train_leaves.shape[0] == pb.n_samples:
        leaves = &train_leaves[0]
    if n_trees > 1 and n_threads > 1:
        n_outer = n_threads if n_threads < n_trees else <int>n_trees
        n_inner = 1
    trees = <TreeBuffer *>calloc(n_trees, sizeof(TreeBuffer))
    status = <int *>calloc(n_trees, sizeof(int))
    try:
        if trees == NULL or status == NULL:
            raise MemoryError()
        with nogil:
            if n_outer > 1:
                # trees taken one at a time by hand (not prange): a thread out of trees waits
                # in leave_team, where the first thread keeps looking at the signals
                with parallel(num_threads=n_outer):
                    ws = _workspace_new(&pb, 1)
                    while True:
                        t = next_item(&next_tree)
                        if t >= n_trees or interrupt.stop:
                            break
                        if ws == NULL:
                            status[t] = -1
                        else:
                            status[t] = _grow_one(
                                &pb, ws, &tree_weights[0 if shared_weights else t, 0],
                                &tree_counts[t, 0] if with_counts else NULL, seeds[t],
                                &trees[t], NULL)
                    _workspace_free(&pb, ws)
                    leave_team(&interrupt, &n_done)
            else:
                ws = _workspace_new(&pb, n_inner)
                for t in range(n_trees):
                    if interrupt.stop:
                        break
                    if ws == NULL:
                        status[t] = -1
                    else:
                        status[t] = _grow_one(
                            &pb, ws, &tree_weights[0 if shared_weights else t, 0],
                            &tree_counts[t, 0] if with_counts else NULL, seeds[t],
                            &trees[t], leaves)
                _workspace_free(&pb, ws)
        return _take_trees(trees, status, n_trees, interrupt.stop)
    finally:
        if trees != NULL:
            for t in range(n_trees):
                _tree_free(&trees[t])
        free(trees)
        free(status)


cdef list _fill_problem(Problem *pb, dict training_set, dict target, dict growth):
    """Fill ``pb`` (its interrupt state aside) from the dicts of :func:`grow_trees`; returns the
    views of the arrays it points into, which keep them alive while the trees grow."""
    cdef int criterion = growth["criterion"]
    cdef const double[::1] y = target["y"]
    cdef const double[::1] hessian
    cdef list views = [y]
    memset(pb, 0, sizeof(Problem))
    pb.n_samples = y.shape[0]
    pb.criterion = criterion
    pb.classification = criterion == GINI or criterion == ENTROPY
    pb.hist = "binned" in training_set
    pb.n_classes = growth["n_classes"] if pb.classification else 1
    pb.n_values = pb.n_classes
    if pb.hist:
        views += _fill_bins(pb, training_set)
    else:
        views += _fill_rows(pb, training_set, target)
    pb.y = &y[0]
    if criterion == NEWTON:
        hessian = target["hessian"]
        pb.hessian = &hessian[0]
        views.append(hessian)
    pb.max_depth = growth["max_depth"]
    pb.min_samples_split = growth["min_samples_split"]
    pb.min_samples_leaf = growth["min_samples_leaf"]
    pb.max_features = growth["max_features"]
    pb.max_leaf_nodes = growth["max_leaf_nodes"]
    pb.min_weight_fraction_leaf = growth["min_weight_fraction_leaf"]
    pb.min_impurity_decrease = growth["min_impurity_decrease"]
    pb.l2_regularization = growth["l2_regularization"]
    return views


cdef list _fill_bins(Problem *pb, dict training_set):
    """The histogram splitter's training set (``pb.n_classes`` set); returns the views."""
    cdef const uint8_t[:, ::1] binned = training_set["binned"]
    cdef const float[:, ::1] bin_lower = training_set["bin_lower"]
    cdef const float[:, ::1] bin_upper = training_set["bin_upper"]
    cdef const int32_t[::1] n_bins = training_set["n_bins"]
    cdef intp_t[::1] bin_offset
    pb.n_features = binned.shape[0]
    bin_offset = np.zeros(pb.n_features + 1, dtype=np.intp)
    np.cumsum(n_bins, out=np.asarray(bin_offset)[1:])
    pb.data.bins.codes = &binned[0, 0]
    pb.data.bins.lower = &bin_lower[0, 0]
    pb.data.bins.upper = &bin_upper[0, 0]
    pb.data.bins.n_bins = &n_bins[0]
    pb.data.bins.offset = &bin_offset[0]
    pb.data.bins.total = bin_offset[pb.n_features]
    pb.data.bins.n_stats = pb.n_classes + 1 if pb.classification else 3
    return [binned, bin_lower, bin_upper, n_bins, bin_offset]


cdef list _fill_rows(Problem *pb, dict training_set, dict target):
    """The exact splitter's training set (``pb.criterion`` set); returns the views."""
    cdef const float[:, ::1] X_T = training_set["X_T"]
    cdef const uint16_t[:, ::1] sorted16
    cdef const int32_t[:, ::1] sorted32
    cdef const uint16_t[::1] y_order16
    cdef const int32_t[::1] y_order32
    cdef list views = [X_T]
    pb.n_features = X_T.shape[0]
    pb.data.rows.n_rows = pb.n_features + (1 if pb.criterion == ABSOLUTE_ERROR else 0)
    pb.data.rows.X_T = &X_T[0, 0]
    pb.data.rows.compact = training_set["sorted_samples"].dtype == np.uint16
    if pb.data.rows.compact:
        sorted16 = training_set["sorted_samples"]
        pb.data.rows.sorted_samples = &sorted16[0, 0]
        views.append(sorted16)
        if pb.criterion == ABSOLUTE_ERROR:
            y_order16 = target["y_order"]
            pb.data.rows.y_order = &y_order16[0]
            views.append(y_order16)
    else:
        sorted32 = training_set["sorted_samples"]
        pb.data.rows.sorted_samples = &sorted32[0, 0]
        views.append(sorted32)
        if pb.criterion == ABSOLUTE_ERROR:
            y_order32 = target["y_order"]
            pb.data.rows.y_order = &y_order32[0]
            views.append(y_order32)
    return views


cdef list _take_trees(TreeBuffer *trees, const int *status, intp_t n_trees, bint stopped):
    """The grown trees' arrays (their buffers handed over, see :func:`grow_trees`), or the
    exception that stopped the growth: the pending one of a signal, or MemoryError."""
    cdef intp_t t
    if stopped:
        raise_pending()
    for t in range(n_trees):
        if status[t] != 0:
            raise MemoryError("out of memory while growing a decision tree")
    return [_tree_to_arrays(&trees[t]) for t in range(n_trees)]
