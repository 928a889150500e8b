"""One tree of second-order histogram gradient boosting, grown leaf-wise on binned data.

The method is LightGBM's (Ke et al., "LightGBM: A Highly Efficient Gradient Boosting Decision
Tree", NeurIPS 2017) with XGBoost's second-order split gain (Chen & Guestrin, "XGBoost: A
Scalable Tree Boosting System", KDD 2016), and scikit-learn's rules for missing values:

- every node keeps a histogram of ``(Σ g, Σ h, count)`` per (feature, bin), built over the node's
  sample indices; of two children only the smaller one is built, the other is the parent minus it
  (in the parent's buffer);
- the split of a node maximises ``G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)`` over the features and
  bins, with at least ``min_samples_leaf`` samples and ``min_hessian_to_split`` of Hessian on each
  side. Bins ``≤ b`` go left. A feature that had missing values at fit is scanned twice: left to
  right with the missing bin on the right, right to left with it on the left; a feature without
  sends unseen missing values to the child with more samples. A categorical feature sends left a
  set of its categories (a bitset of bins): a cut of its categories sorted by
  ``Σ g / (Σ h + smoothing)`` (Fisher's grouping, as LightGBM and scikit-learn);
- nodes wait in a max-heap on their gain; the best is split until ``max_leaf_nodes`` leaves (or
  no positive gain, or ``max_depth``);
- a split reorders the node's slice of ``sample_indices`` in place (stably: left then right), so
  every node owns a contiguous slice and the leaves' slices give the training predictions;
- leaves take the Newton value ``−ν G/(H+λ)``.

Determinism: a histogram of one feature is summed by one thread in the order of the node's
samples, the node's split is the best of its features' (ties: the first feature, in order), and
the partition's chunks are fixed by the node's size, not the thread count; so the tree does not
depend on the thread count.

A split costs two parallel regions: the partition of the parent's samples, then one build
(``_build_and_split``) where each thread takes a share of the features: their histograms of the
smaller child, then per feature the larger child's (the parent's minus it) and both children's
best splits. A region per step, with the split search on one thread, cost the second thread part
of its gain: a tree's 2 threads ÷ 1 went from 0.76 to 0.67 with one build (100 000 × 20, quiet).

The pieces, by role: ``_hist_grower.pxd`` (the structs), ``_hist_histogram.pxd`` (buffers,
gather, histograms of a group of features, subtraction), ``_hist_splitting.pxd`` (gain, split
search), ``_hist_partition.pxd`` (the partition of a node's samples) and
``_best_first_heap.pxd`` (the open nodes, shared with CART's best-first builder); this module
holds the builds, the growth loop and its entry.

Ctrl-C (``_interrupt.pxd``): the signals are looked at between two nodes, every ``CHECK_WORK``
samples of the root's sums and of a group's histograms, before each group, and between two chunks
of the gather and of the partition; the growth stops at the first piece that saw them.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport INFINITY
from libc.stdint cimport int8_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from _best_first_heap cimport BestFirstHeap, heap_free, heap_init, heap_pop, heap_push
from _bitset cimport BITSET_WORDS
from _hist_constraints cimport (_bound_children, _bounded_value, _node_features,
                               _split_feature_set)
from _hist_grower cimport (CHUNK, GATHER_COST, HISTOGRAM_COST, N_BINS, SPLIT_COST, Grower, Node,
                           NodeArrays, SplitInfo)
from _hist_histogram cimport (_features_histograms, _gather_chunk, _release_histogram,
                              _subtract_feature, _take_histogram)
from _hist_partition cimport _partition
from _hist_splitting cimport _best_split, _feature_split
from _interrupt cimport (CHECK_WORK, INTERRUPTED, InterruptState, interrupt_init, interrupted,
                        raise_pending)
from _types cimport int32_t, intp_t, kk_team_for_work, uint8_t, uint32_t

# the keys of grow_tree's ``nodes``
NODE_ARRAYS = ("feature", "bin", "left_bins", "missing_go_left", "left", "right", "value",
               "start", "stop", "gain")


cdef inline bint _may_split(const Grower *g, const Node *node) noexcept nogil:
    return ((g.options.max_depth < 0 or node.depth < g.options.max_depth)
            and node.stop - node.start >= 2 * g.options.min_samples_leaf
            and node.sum_hessians >= 2 * g.options.min_hessian_to_split)


cdef struct Build:
    # one parallel region of the growth: the histogram of ``node`` from its samples, that of
    # ``sibling`` (NULL: none) as the parent's minus it in the parent's buffer, and the splits of
    # those for which ``search`` is set
    Node *node
    Node *sibling
    bint is_root
    bint search[2]


cdef inline void _build_step(Grower *g, const Build *build, const intp_t *features,
                             intp_t n_chunks, intp_t n_build, intp_t n_shares,
                             intp_t item) noexcept nogil:
    """Item ``item`` of a build: a chunk of the gather (the first ``n_chunks`` items), or one of
    ``n_shares`` shares of consecutive features: their histograms, their subtraction, their best
    splits."""
    cdef intp_t k = item - n_chunks, k0, k1, j, f, c
    cdef intp_t n_features = g.data.n_features
    cdef Node *searched[2]
    # the best gain so far of each searched node, by kind of feature (numeric, categorical)
    cdef double bar[2][2]
    if interrupted(g.work.interrupt):
        return
    if k < 0:
        _gather_chunk(g, build.node.start, build.node.stop, item)
        return
    k0 = k * n_build // n_shares
    k1 = (k + 1) * n_build // n_shares
    _features_histograms(g, features, k0, k1, build.node, build.is_root)
    searched[0] = build.node
    searched[1] = build.sibling
    bar[0][0] = bar[0][1] = bar[1][0] = bar[1][1] = 0.0
    for j in range(k0, k1):
        f = j if features == NULL else features[j]
        if build.sibling != NULL:
            _subtract_feature(f, build.sibling.histogram, build.node.histogram)
        for c in range(2):
            if build.search[c]:
                _feature_split(g, searched[c], f, bar[c][g.data.is_categorical[f]],
                               &g.work.candidates[c * n_features + f])
                if g.work.candidates[c * n_features + f].gain > 0.0:
                    bar[c][g.data.is_categorical[f]] = g.work.candidates[c * n_features + f].gain


cdef void _build_and_split(Grower *g, const Build *build) noexcept nogil:
    """A build in one parallel region on a team sized by the work (``kk_team_for_work``), a
    share of the features per thread, or by this thread alone: the gather of the node's
    gradients (but at the root), then the shares; then the nodes' best splits."""
    cdef intp_t k, c, n_build
    cdef intp_t n = build.node.stop - build.node.start
    cdef intp_t n_chunks = 0 if build.is_root else (n + CHUNK - 1) // CHUNK
    cdef const intp_t *features = _node_features(g, build.node, &n_build)
    cdef int team = kk_team_for_work(
        0.5e-9 * (n * (HISTOGRAM_COST * n_build + (0 if build.is_root else GATHER_COST))
                  + SPLIT_COST * N_BINS * n_build * (build.search[0] + build.search[1])),
        g.work.min_work_per_thread, g.work.n_threads)
    if team == 1:
        for k in range(n_chunks + 1):
            _build_step(g, build, features, n_chunks, n_build, 1, k)
    else:
        with parallel(num_threads=team):
            for c in prange(n_chunks, schedule='static'):
                _build_step(g, build, features, n_chunks, n_build, team, c)
            for k in prange(team, schedule='static'):
                _build_step(g, build, features, n_chunks, n_build, team, n_chunks + k)
    if g.work.interrupt.stop:
        return
    if build.search[0]:
        _best_split(g, build.node, g.work.candidates)
    if build.search[1]:
        _best_split(g, build.sibling, g.work.candidates + g.data.n_features)


cdef int _open(Grower *g, Node *nodes, intp_t id, BestFirstHeap *frontier) noexcept nogil:
    """Node ``id``, its split found: with a positive gain the node is open (on the frontier,
    keyed by its gain), otherwise a leaf (its histogram released). Returns -1 when the frontier
    cannot grow."""
    if nodes[id].split.gain > 0.0:
        return heap_push(frontier, nodes[id].split.gain, id)
    _release_histogram(g, &nodes[id])
    return 0


cdef int _make_children(Grower *g, Node *nodes, intp_t parent_id, intp_t first) noexcept nogil:
    """Nodes ``first`` and ``first + 1``: the children of ``parent_id`` by its split, with their
    constraints. Returns -1 when out of memory."""
    cdef const Node *parent = &nodes[parent_id]
    cdef Node *child
    cdef intp_t c, feature_set = -1
    for c in range(2):
        child = &nodes[first + c]
        child.depth = parent.depth + 1
        child.left = -1
        child.histogram = NULL
        child.split.gain = -1.0
        if c == 0:
            child.start = parent.start
            child.stop = parent.start + parent.split.count_left
            child.sum_gradients = parent.split.sum_gradient_left
            child.sum_hessians = parent.split.sum_hessian_left
        else:
            child.start = parent.start + parent.split.count_left
            child.stop = parent.stop
            child.sum_gradients = parent.sum_gradients - parent.split.sum_gradient_left
            child.sum_hessians = parent.sum_hessians - parent.split.sum_hessian_left
    if g.options.monotonic_cst != NULL:
        _bound_children(g, parent, &nodes[first], &nodes[first + 1])
    if g.options.n_groups > 0 and _split_feature_set(g, parent, &feature_set) != 0:
        return -1
    nodes[first].feature_set = feature_set
    nodes[first + 1].feature_set = feature_set
    return 0


cdef int _open_children(Grower *g, Node *nodes, intp_t parent_id, intp_t first,
                        const bint *may_split, BestFirstHeap *frontier) noexcept nogil:
    """Histograms and splits of the children of a split node, of which at least one may split:
    the smaller child's histogram is built from its samples, the larger one's is the parent's
    minus it (in the parent's buffer), in one build. Returns 0, -1 (out of memory) or
    INTERRUPTED."""
    cdef Node *parent = &nodes[parent_id]
    cdef intp_t small = first, large = first + 1, c
    cdef Build build
    if nodes[large].stop - nodes[large].start < nodes[small].stop - nodes[small].start:
        small, large = large, small
    nodes[small].histogram = _take_histogram(g)
    if nodes[small].histogram == NULL:
        return -1
    build.node = &nodes[small]
    build.sibling = NULL
    build.is_root = False
    build.search[0] = may_split[small - first]
    build.search[1] = may_split[large - first]
    if may_split[large - first]:
        # the parent's buffer becomes the larger child's
        nodes[large].histogram = parent.histogram
        parent.histogram = NULL
        build.sibling = &nodes[large]
    _build_and_split(g, &build)
    if g.work.interrupt.stop:
        _release_histogram(g, &nodes[small])
        _release_histogram(g, &nodes[large])
        return INTERRUPTED
    for c in range(2):
        if may_split[c]:
            if _open(g, nodes, first + c, frontier) != 0:
                return -1
        else:
            _release_histogram(g, &nodes[first + c])
    return 0


cdef void _make_root(const Grower *g, Node *root) noexcept nogil:
    """The root: every sample, with its Σ g and Σ h summed in sample order (the signals looked
    at every CHECK_WORK samples)."""
    cdef intp_t n = g.data.n_samples, block, i
    cdef double total_g = 0.0, total_h = 0.0
    for block in range((n + CHECK_WORK - 1) // CHECK_WORK):
        if interrupted(g.work.interrupt):
            break
        for i in range(block * CHECK_WORK, min(n, (block + 1) * CHECK_WORK)):
            total_g += g.data.gradients[i]
            total_h += 1.0 if g.data.hessians_are_constant else g.data.hessians[i]
    root.start = 0
    root.stop = n
    root.depth = 0
    root.left = -1
    root.sum_gradients = total_g
    root.sum_hessians = total_h
    root.histogram = NULL
    root.split.gain = -1.0
    root.value = _bounded_value(total_g, total_h, -INFINITY, INFINITY,
                                g.options.l2_regularization)
    root.lower_bound = -INFINITY
    root.upper_bound = INFINITY
    root.feature_set = -1


cdef int _grow(Grower *g, Node *nodes, BestFirstHeap *frontier, intp_t *n_nodes) noexcept nogil:
    """Grow the tree from its root ``nodes[0]``: the open node of largest gain is split (ties:
    the older) until ``max_leaf_nodes`` leaves or no open node. ``n_nodes[0]`` counts the nodes
    made (set at every step, so that the caller frees their histograms on any return). Returns
    0, -1 (out of memory) or INTERRUPTED."""
    cdef intp_t n_leaves = 1, parent_id, first, c
    cdef intp_t max_leaf_nodes = g.options.max_leaf_nodes
    cdef bint may_split[2]
    cdef int status = 0
    cdef Build build
    n_nodes[0] = 1
    _make_root(g, &nodes[0])
    if g.work.interrupt.stop:
        return INTERRUPTED
    if _may_split(g, &nodes[0]) and max_leaf_nodes > 1:
        nodes[0].histogram = _take_histogram(g)
        if nodes[0].histogram == NULL:
            return -1
        build.node = &nodes[0]
        build.sibling = NULL
        build.is_root = True
        build.search[0] = True
        build.search[1] = False
        _build_and_split(g, &build)
        if g.work.interrupt.stop:
            return INTERRUPTED
        if _open(g, nodes, 0, frontier) != 0:
            return -1
    while frontier.size > 0 and n_leaves < max_leaf_nodes:
        if interrupted(g.work.interrupt):
            return INTERRUPTED
        parent_id = heap_pop(frontier)
        _partition(g, &nodes[parent_id])
        if g.work.interrupt.stop:
            return INTERRUPTED
        first = n_nodes[0]
        if _make_children(g, nodes, parent_id, first) != 0:
            return -1
        for c in range(2):
            # the last allowed split makes two leaves: no histogram needed
            may_split[c] = n_leaves + 1 < max_leaf_nodes and _may_split(g, &nodes[first + c])
        n_leaves += 1
        if may_split[0] or may_split[1]:
            status = _open_children(g, nodes, parent_id, first, may_split, frontier)
            if status == INTERRUPTED:
                return status
        _release_histogram(g, &nodes[parent_id])
        nodes[parent_id].left = first
        n_nodes[0] = first + 2
        if status != 0:
            return status
    return 0


cdef void _write_node(const Grower *g, const Node *node, intp_t i,
                      const NodeArrays *out) noexcept nogil:
    """Node ``i`` into the output arrays."""
    cdef intp_t n_left
    out.start[i] = node.start
    out.stop[i] = node.stop
    if g.options.monotonic_cst != NULL:
        out.value[i] = g.options.learning_rate * node.value
    else:
        out.value[i] = (-g.options.learning_rate * node.sum_gradients
                        / (node.sum_hessians + g.options.l2_regularization))
    out.left[i] = node.left
    if node.left >= 0 and g.data.is_categorical[node.split.feature]:
        memcpy(&out.left_bins[i * BITSET_WORDS], node.split.left_bins,
               BITSET_WORDS * sizeof(uint32_t))
    else:
        memset(&out.left_bins[i * BITSET_WORDS], 0, BITSET_WORDS * sizeof(uint32_t))
    if node.left < 0:
        out.feature[i] = -1
        out.bin[i] = 0
        out.missing_go_left[i] = 0
        out.right[i] = -1
        out.gain[i] = 0.0
        return
    out.right[i] = node.left + 1
    out.feature[i] = node.split.feature
    out.bin[i] = node.split.bin
    out.gain[i] = node.split.gain
    out.missing_go_left[i] = node.split.missing_go_left
    if not g.data.has_missing_values[node.split.feature]:
        # no missing value seen at fit: unseen ones follow the majority
        n_left = node.split.count_left
        out.missing_go_left[i] = n_left > node.stop - node.start - n_left


cdef list _fill_grower(Grower *g, dict binned, dict options, dict work, dict nodes,
                       NodeArrays *out):
    """Fill ``g`` (its gradients, threads and free stack aside) and ``out`` from the dicts of
    :func:`grow_tree`; returns the views of the arrays they point into, which keep them alive
    while the tree grows."""
    cdef const uint8_t[::1, :] X_binned = binned["X_binned"]
    cdef const double[:, ::1] root_counts = binned["root_counts"]
    cdef const intp_t[::1] n_bins_non_missing = binned["n_bins_non_missing"]
    cdef const uint8_t[::1] has_missing_values = binned["has_missing_values"]
    cdef const uint8_t[::1] is_categorical = binned["is_categorical"]
    cdef int32_t[::1] sample_indices = work["sample_indices"]
    cdef int32_t[::1] partition_buffer = work["partition_buffer"]
    cdef float[::1] ordered_gradients = work["ordered_gradients"]
    cdef float[::1] ordered_hessians = work["ordered_hessians"]
    cdef intp_t[::1] feature = nodes["feature"], bin = nodes["bin"], left = nodes["left"]
    cdef intp_t[::1] right = nodes["right"], start = nodes["start"], stop = nodes["stop"]
    cdef uint8_t[::1] missing_go_left = nodes["missing_go_left"]
    cdef uint32_t[:, ::1] left_bins = nodes["left_bins"]
    cdef double[::1] value = nodes["value"], gain = nodes["gain"]
    cdef intp_t n_samples = X_binned.shape[0], n_features = X_binned.shape[1]
    cdef intp_t max_nodes = feature.shape[0]
    cdef list views = []
    if (root_counts.shape[0] != n_features or root_counts.shape[1] != 256
            or n_bins_non_missing.shape[0] != n_features
            or has_missing_values.shape[0] != n_features
            or is_categorical.shape[0] != n_features):
        raise ValueError("the per-feature arrays of binned must have n_features rows")
    if (sample_indices.shape[0] != n_samples or partition_buffer.shape[0] != n_samples
            or ordered_gradients.shape[0] != n_samples
            or ordered_hessians.shape[0] != n_samples):
        raise ValueError("the arrays of work must have n_samples entries")
    if max_nodes < 1 or any(len(nodes[name]) != max_nodes for name in NODE_ARRAYS):
        raise ValueError("the arrays of nodes must have the same length, at least 1")
    if left_bins.shape[1] != BITSET_WORDS:
        raise ValueError(f"nodes['left_bins'] must have {BITSET_WORDS} columns")
    g.data.X_binned = &X_binned[0, 0]
    g.data.n_samples = n_samples
    g.data.n_features = n_features
    g.data.root_counts = &root_counts[0, 0]
    g.data.n_bins_non_missing = &n_bins_non_missing[0]
    g.data.has_missing_values = &has_missing_values[0]
    g.data.is_categorical = &is_categorical[0]
    g.data.missing_bin = binned["missing_bin"]
    g.options.max_leaf_nodes = options["max_leaf_nodes"]
    g.options.max_depth = options["max_depth"]
    g.options.min_samples_leaf = options["min_samples_leaf"]
    g.options.min_hessian_to_split = options["min_hessian_to_split"]
    g.options.l2_regularization = options["l2_regularization"]
    g.options.learning_rate = options["learning_rate"]
    views += _fill_constraints(g, options, n_features)
    g.work.sample_indices = &sample_indices[0]
    g.work.partition_buffer = &partition_buffer[0]
    g.work.ordered_gradients = &ordered_gradients[0]
    g.work.ordered_hessians = &ordered_hessians[0]
    out.feature = &feature[0]
    out.bin = &bin[0]
    out.left_bins = &left_bins[0, 0]
    out.missing_go_left = &missing_go_left[0]
    out.left = &left[0]
    out.right = &right[0]
    out.value = &value[0]
    out.start = &start[0]
    out.stop = &stop[0]
    out.gain = &gain[0]
    return views + [X_binned, root_counts, n_bins_non_missing, has_missing_values,
                    is_categorical, sample_indices, partition_buffer, ordered_gradients,
                    ordered_hessians, feature, bin, left_bins, missing_go_left, left, right,
                    value, start, stop, gain]


cdef list _fill_constraints(Grower *g, dict options, intp_t n_features):
    """The monotonic and interaction constraints of ``options`` into ``g.options``; returns the
    views of their arrays."""
    cdef const int8_t[::1] monotonic_cst
    cdef const intp_t[::1] group_ptr, group_features, feature_group_ptr, feature_groups
    interaction_cst = options.get("interaction_cst")
    g.options.monotonic_cst = NULL
    g.options.n_groups = 0
    views = []
    if options.get("monotonic_cst") is not None:
        monotonic_cst = options["monotonic_cst"]
        if monotonic_cst.shape[0] != n_features:
            raise ValueError("monotonic_cst must have n_features entries")
        g.options.monotonic_cst = &monotonic_cst[0]
        views.append(monotonic_cst)
    if interaction_cst is not None:
        group_ptr = interaction_cst["group_ptr"]
        group_features = interaction_cst["group_features"]
        feature_group_ptr = interaction_cst["feature_group_ptr"]
        feature_groups = interaction_cst["feature_groups"]
        if (group_ptr.shape[0] < 2 or feature_group_ptr.shape[0] != n_features + 1
                or group_features.shape[0] != group_ptr[group_ptr.shape[0] - 1]
                or feature_groups.shape[0] != feature_group_ptr[n_features]
                or feature_groups.shape[0] != group_features.shape[0]):
            raise ValueError("interaction_cst must hold the CSR arrays of its groups")
        g.options.n_groups = group_ptr.shape[0] - 1
        g.options.group_ptr = &group_ptr[0]
        g.options.group_features = &group_features[0]
        g.options.feature_group_ptr = &feature_group_ptr[0]
        g.options.feature_groups = &feature_groups[0]
        views += [group_ptr, group_features, feature_group_ptr, feature_groups]
    return views


def grow_tree(
    dict binned,                        # IN the training set, see below
    const float[::1] gradients,         # IN (n_samples,)
    const float[::1] hessians,          # IN (n_samples,) (unread if hessians_are_constant)
    bint hessians_are_constant,
    dict options,                       # IN the growth options, see below
    dict work,                          # INOUT the work space, see below
    dict nodes,                         # OUT the node arrays, see below
    int n_threads,
):
    """Grow one tree; returns its number of nodes (node 0 is the root).

    Parameters
    ----------
    binned : dict
        ``X_binned`` (n_samples, n_features) uint8, Fortran order: bins, ``missing_bin`` for NaN;
        ``root_counts`` (n_features, 256) float64: samples per bin; ``n_bins_non_missing``
        (n_features,) intp; ``has_missing_values`` (n_features,) uint8: missing values at fit;
        ``is_categorical`` (n_features,) uint8: a feature whose bins are categories (split by
        sets of bins); ``missing_bin`` int.
    gradients, hessians : ndarray of shape (n_samples,), dtype float32
        ``hessians`` is not read when ``hessians_are_constant`` (all ones; then any length
        ≥ 1).
    hessians_are_constant : bool
    options : dict
        ``max_leaf_nodes``, ``max_depth`` (−1: none), ``min_samples_leaf`` (int);
        ``min_hessian_to_split``, ``l2_regularization`` (λ), ``learning_rate`` (ν) (float);
        optional constraints: ``monotonic_cst`` (n_features,) int8 of −1, 0, 1 (None: none),
        ``interaction_cst`` (None: none), a dict of intp CSR arrays: ``group_ptr``
        (n_groups + 1,) and ``group_features`` (each group's features, sorted),
        ``feature_group_ptr`` (n_features + 1,) and ``feature_groups`` (each feature's groups,
        sorted), where every feature is in a group.
    work : dict
        ``sample_indices`` (n_samples,) int32: 0..n−1 in, every node's samples a slice of it
        out (the leaves' slices give the training predictions); ``partition_buffer``
        (n_samples,) int32, ``ordered_gradients`` and ``ordered_hessians`` (n_samples,) float32:
        scratch; ``min_work_per_thread`` (float, seconds): a parallel loop runs on one thread per
        this much serial work (``kernelkit.utils._threads.min_work_per_thread``).
    nodes : dict
        Arrays of shape (max_nodes,), node i at index i: ``feature`` (−1 at a leaf), ``bin``
        (a numeric split: bins ≤ bin go left), ``left_bins`` (max_nodes, 8) uint32 (a
        categorical split: the bitset of the bins that go left; zeros elsewhere), ``left`` and
        ``right`` (children, −1 at a leaf), ``start`` and
        ``stop`` (slice of ``sample_indices``) intp; ``missing_go_left`` uint8; ``value``
        (−ν G/(H+λ)) and ``gain`` (0 at a leaf) float64. ``max_nodes = 2 max_leaves − 1`` with
        ``max_leaves`` at most ``max_leaf_nodes`` and ``n_samples // min_samples_leaf``.
    n_threads : int

    Raises
    ------
    MemoryError
        When a histogram buffer cannot be allocated.
    """
    cdef Grower g
    cdef NodeArrays out
    cdef Node *node_list
    cdef BestFirstHeap frontier
    cdef intp_t n_nodes = 1, i, n_samples, max_nodes
    cdef int status = 0
    cdef InterruptState interrupt
    views = _fill_grower(&g, binned, options, work, nodes, &out)
    n_samples = g.data.n_samples
    max_nodes = len(nodes["feature"])
    if gradients.shape[0] != n_samples or (hessians.shape[0] != n_samples
                                           and not hessians_are_constant):
        raise ValueError("gradients and hessians must have n_samples entries")
    g.data.gradients = &gradients[0]
    g.data.hessians = &hessians[0]
    g.data.hessians_are_constant = hessians_are_constant
    g.work.n_threads = n_threads
    g.work.min_work_per_thread = work["min_work_per_thread"]
    g.work.n_free_histograms = 0
    g.work.sets = NULL
    g.work.n_sets = g.work.sets_capacity = 0
    g.work.set_items = NULL
    g.work.n_set_items = g.work.set_items_capacity = 0
    g.work.feature_marks = NULL
    if g.options.n_groups > 0:
        g.work.feature_marks = <uint8_t *> calloc(g.data.n_features, sizeof(uint8_t))
    g.work.interrupt = &interrupt
    interrupt_init(&interrupt)
    node_list = <Node *> malloc(max_nodes * sizeof(Node))
    g.work.free_histograms = <double **> malloc((max_nodes + 1) * sizeof(double *))
    g.work.chunk_counts = <intp_t *> malloc((n_samples // CHUNK + 1) * sizeof(intp_t))
    g.work.candidates = <SplitInfo *> malloc(2 * g.data.n_features * sizeof(SplitInfo))
    # every node is pushed at most once: the frontier never grows
    if (heap_init(&frontier, max_nodes) != 0 or node_list == NULL
            or g.work.free_histograms == NULL or g.work.chunk_counts == NULL
            or g.work.candidates == NULL
            or (g.options.n_groups > 0 and g.work.feature_marks == NULL)):
        free(node_list)
        heap_free(&frontier)
        free(g.work.free_histograms)
        free(g.work.chunk_counts)
        free(g.work.candidates)
        free(g.work.feature_marks)
        raise MemoryError("cannot allocate the nodes of a histogram tree")
    try:
        with nogil:
            node_list[0].histogram = NULL
            status = _grow(&g, node_list, &frontier, &n_nodes)
            for i in range(n_nodes):
                _write_node(&g, &node_list[i], i, &out)
    finally:
        for i in range(g.work.n_free_histograms):
            free(g.work.free_histograms[i])
        for i in range(n_nodes):
            free(node_list[i].histogram)
        free(g.work.free_histograms)
        free(g.work.chunk_counts)
        free(g.work.candidates)
        free(g.work.sets)
        free(g.work.set_items)
        free(g.work.feature_marks)
        heap_free(&frontier)
        free(node_list)
    if interrupt.stop:
        raise_pending()
    if status != 0:
        raise MemoryError("cannot allocate a histogram of a histogram tree")
    return n_nodes
