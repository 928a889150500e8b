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
  sends unseen missing values to the child with more samples;
- nodes wait in a max-heap on their gain; the best is split until ``max_leaf_nodes`` leaves (or
  no positive gain, or ``max_depth``);
- a split reorders the node's slice of ``sample_indices`` in place (stably: left then right), so
  every node owns a contiguous slice and the leaves' slices give the training predictions;
- leaves take the Newton value ``−ν G/(H+λ)``.

Determinism: a histogram of one feature is summed by one thread in the order of the node's
samples, the split search runs over the features in order (ties: the first), and the partition's
chunks are fixed by the node's size, not the thread count; so the tree does not depend on the
thread count.

Ctrl-C (``_interrupt.pxd``): the signals are looked at between two nodes and before each
feature's histogram.
"""

from cython.parallel cimport prange
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport int32_t, intp_t, uint8_t

# Bins per feature (uint8 codes) and doubles per bin: Σ g, Σ h, count.
cdef enum:
    N_BINS = 256
    HIST_STRIDE = 3

# Samples per chunk of the parallel gather and partition.
cdef intp_t CHUNK = 16384
# Nodes smaller than this are gathered and partitioned by one thread.
cdef intp_t MIN_PARALLEL_SAMPLES = 32768


cdef struct SplitInfo:
    double gain
    intp_t feature
    intp_t bin
    uint8_t missing_go_left
    double sum_gradient_left
    double sum_hessian_left
    intp_t count_left


cdef struct Node:
    intp_t start           # the node's slice of sample_indices
    intp_t stop
    intp_t depth
    intp_t left            # the left child's id (the right one's is left + 1), -1 at a leaf
    double sum_gradients
    double sum_hessians
    double *histogram      # (n_features, N_BINS, HIST_STRIDE), NULL once not needed
    SplitInfo split


cdef struct Grower:
    # data
    const uint8_t *X_binned        # (n_features columns of n_samples): Fortran order
    intp_t n_samples
    intp_t n_features
    const float *gradients
    const float *hessians
    bint hessians_are_constant
    const double *root_counts      # (n_features, N_BINS) samples per bin of the whole data
    const intp_t *n_bins_non_missing
    const uint8_t *has_missing_values
    intp_t missing_bin
    # parameters
    intp_t min_samples_leaf
    double min_hessian_to_split
    double l2_regularization
    # work space
    int32_t *sample_indices
    int32_t *partition_buffer
    intp_t *chunk_offsets          # (2 n_chunks + 1,) of the partition
    float *ordered_gradients
    float *ordered_hessians
    int n_threads
    double **free_histograms       # a stack of reusable histogram buffers
    intp_t n_free_histograms
    InterruptState *interrupt


# ---------------------------------------------------------------------------- histograms
cdef double *_take_histogram(Grower *g) noexcept nogil:
    """A histogram buffer from the free stack, or a new one (NULL if memory runs out)."""
    if g.n_free_histograms > 0:
        g.n_free_histograms -= 1
        return g.free_histograms[g.n_free_histograms]
    return <double *> malloc(g.n_features * N_BINS * HIST_STRIDE * sizeof(double))


cdef void _release_histogram(Grower *g, Node *node) noexcept nogil:
    if node.histogram != NULL:
        g.free_histograms[g.n_free_histograms] = node.histogram
        g.n_free_histograms += 1
        node.histogram = NULL


cdef void _gather_gradients(Grower *g, intp_t start, intp_t stop) noexcept nogil:
    """``ordered_*[j] = *[sample_indices[start + j]]``: the node's gradients read once in order,
    so that each feature's histogram then streams them instead of jumping through memory."""
    cdef intp_t n = stop - start, n_chunks = (n + CHUNK - 1) // CHUNK, c, j, j1
    cdef int n_threads = g.n_threads if n >= MIN_PARALLEL_SAMPLES else 1
    cdef const int32_t *idx = g.sample_indices + start
    for c in prange(n_chunks, num_threads=n_threads, schedule='static'):
        j1 = min(n, (c + 1) * CHUNK)
        for j in range(c * CHUNK, j1):
            g.ordered_gradients[j] = g.gradients[idx[j]]
        if not g.hessians_are_constant:
            for j in range(c * CHUNK, j1):
                g.ordered_hessians[j] = g.hessians[idx[j]]


cdef void _feature_histogram(const Grower *g, intp_t f, intp_t start, intp_t stop,
                             bint is_root, double *hist) noexcept nogil:
    """Histogram of feature ``f`` over the node's samples (one thread, in sample order)."""
    cdef const uint8_t *column = g.X_binned + f * g.n_samples
    cdef const int32_t *idx = g.sample_indices + start
    cdef intp_t n = stop - start, j
    cdef double *b
    # the root reads the data in place; other nodes read the gathered gradients
    cdef const float *grad = g.gradients if is_root else g.ordered_gradients
    cdef const float *hess = g.hessians if is_root else g.ordered_hessians
    memset(hist, 0, N_BINS * HIST_STRIDE * sizeof(double))
    if is_root:
        # the root's counts are the same for every tree: copied, not summed again
        for j in range(N_BINS):
            hist[HIST_STRIDE * j + 2] = g.root_counts[f * N_BINS + j]
        if g.hessians_are_constant:
            for j in range(n):
                hist[HIST_STRIDE * column[j]] += grad[j]
        else:
            for j in range(n):
                b = hist + HIST_STRIDE * column[j]
                b[0] += grad[j]
                b[1] += hess[j]
    else:
        if g.hessians_are_constant:
            for j in range(n):
                b = hist + HIST_STRIDE * column[idx[j]]
                b[0] += grad[j]
                b[2] += 1.0
        else:
            for j in range(n):
                b = hist + HIST_STRIDE * column[idx[j]]
                b[0] += grad[j]
                b[1] += hess[j]
                b[2] += 1.0
    if g.hessians_are_constant:   # a constant Hessian of 1 sums to the count
        for j in range(N_BINS):
            hist[HIST_STRIDE * j + 1] = hist[HIST_STRIDE * j + 2]


cdef void _build_histogram(Grower *g, Node *node, bint is_root) noexcept nogil:
    """All features' histograms of a node, in parallel over the features."""
    cdef intp_t f, size = N_BINS * HIST_STRIDE
    cdef int n_threads = g.n_threads
    if not is_root:
        _gather_gradients(g, node.start, node.stop)
    if (node.stop - node.start) * g.n_features < MIN_PARALLEL_SAMPLES:
        n_threads = 1
    for f in prange(g.n_features, num_threads=n_threads, schedule='static', chunksize=1):
        if interrupted(g.interrupt):
            continue
        _feature_histogram(g, f, node.start, node.stop, is_root, node.histogram + f * size)


cdef void _subtract_histogram(const Grower *g, double *parent,
                              const double *child) noexcept nogil:
    """``parent ← parent − child``: the sibling's histogram without a pass over its samples."""
    cdef intp_t j
    for j in range(g.n_features * N_BINS * HIST_STRIDE):
        parent[j] -= child[j]


# ---------------------------------------------------------------------------- splits
cdef inline double _score(double sum_gradients, double sum_hessians,
                          double l2_regularization) noexcept nogil:
    return sum_gradients * sum_gradients / (sum_hessians + l2_regularization)


cdef inline void _consider(const Grower *g, SplitInfo *best, intp_t f, intp_t bin,
                           uint8_t missing_go_left, double parent_score, double g_left,
                           double h_left, intp_t n_left, const Node *node) noexcept nogil:
    """Keep the split if it beats ``best`` (strictly: ties keep the earlier candidate)."""
    cdef double gain = (_score(g_left, h_left, g.l2_regularization)
                        + _score(node.sum_gradients - g_left, node.sum_hessians - h_left,
                                 g.l2_regularization)
                        - parent_score)
    if gain > best.gain and gain > 0.0:
        best.gain = gain
        best.feature = f
        best.bin = bin
        best.missing_go_left = missing_go_left
        best.sum_gradient_left = g_left
        best.sum_hessian_left = h_left
        best.count_left = n_left


cdef void _find_split(const Grower *g, Node *node) noexcept nogil:
    """Best split of a node from its histogram (``node.split.gain < 0`` when there is none)."""
    cdef intp_t f, bin, n_bins, n_left, n_right
    cdef intp_t n_samples = node.stop - node.start, msl = g.min_samples_leaf
    cdef double g_left, h_left, g_right, h_right, min_h = g.min_hessian_to_split
    cdef double parent_score = _score(node.sum_gradients, node.sum_hessians,
                                      g.l2_regularization)
    cdef const double *hist
    node.split.gain = -1.0
    node.split.feature = -1
    for f in range(g.n_features):
        hist = node.histogram + f * N_BINS * HIST_STRIDE
        n_bins = g.n_bins_non_missing[f]
        # left to right, missing values on the right; the last non-missing bin may go left
        # only when the missing values then make a right child
        g_left = 0.0
        h_left = 0.0
        n_left = 0
        for bin in range(n_bins - 1 + g.has_missing_values[f]):
            g_left += hist[HIST_STRIDE * bin]
            h_left += hist[HIST_STRIDE * bin + 1]
            n_left += <intp_t> hist[HIST_STRIDE * bin + 2]
            n_right = n_samples - n_left
            if n_left < msl or h_left < min_h:
                continue
            if n_right < msl or node.sum_hessians - h_left < min_h:
                break   # the right side only shrinks from here
            _consider(g, &node.split, f, bin, 0, parent_score, g_left, h_left, n_left, node)
        if not g.has_missing_values[f]:
            continue
        # right to left, missing values on the left
        g_right = 0.0
        h_right = 0.0
        n_right = 0
        for bin in range(n_bins - 2, -1, -1):
            g_right += hist[HIST_STRIDE * (bin + 1)]
            h_right += hist[HIST_STRIDE * (bin + 1) + 1]
            n_right += <intp_t> hist[HIST_STRIDE * (bin + 1) + 2]
            n_left = n_samples - n_right
            if n_right < msl or h_right < min_h:
                continue
            if n_left < msl or node.sum_hessians - h_right < min_h:
                break
            _consider(g, &node.split, f, bin, 1, parent_score, node.sum_gradients - g_right,
                      node.sum_hessians - h_right, n_left, node)


# ---------------------------------------------------------------------------- partition
cdef inline bint _goes_left(const uint8_t *column, int32_t i, intp_t bin, intp_t missing_bin,
                            uint8_t missing_go_left) noexcept nogil:
    cdef intp_t b = column[i]
    if b == missing_bin:
        return missing_go_left
    return b <= bin


cdef void _partition(Grower *g, const Node *node) noexcept nogil:
    """Stable in-place partition of the node's slice: the left child's samples, then the
    right's, each in their previous order. Chunks count their left samples, then write at their
    offsets (prefix sums), in parallel."""
    cdef intp_t start = node.start, n = node.stop - node.start
    cdef intp_t n_chunks = (n + CHUNK - 1) // CHUNK, c, j, j1, n_left_total
    cdef intp_t *offsets = g.chunk_offsets
    cdef intp_t *right_offsets = offsets + n_chunks + 1
    cdef intp_t left_at, right_at, bin = node.split.bin, missing_bin = g.missing_bin
    cdef uint8_t missing_go_left = node.split.missing_go_left
    cdef const uint8_t *column = g.X_binned + node.split.feature * g.n_samples
    cdef int32_t *idx = g.sample_indices + start
    cdef int32_t *buffer = g.partition_buffer + start
    cdef int n_threads = g.n_threads if n >= MIN_PARALLEL_SAMPLES else 1
    for c in prange(n_chunks, num_threads=n_threads, schedule='static'):
        j1 = min(n, (c + 1) * CHUNK)
        offsets[c + 1] = 0
        for j in range(c * CHUNK, j1):
            offsets[c + 1] += _goes_left(column, idx[j], bin, missing_bin, missing_go_left)
    offsets[0] = 0
    for c in range(n_chunks):
        offsets[c + 1] += offsets[c]
    n_left_total = offsets[n_chunks]
    for c in range(n_chunks):
        right_offsets[c] = n_left_total + c * CHUNK - offsets[c]
    for c in prange(n_chunks, num_threads=n_threads, schedule='static'):
        left_at = offsets[c]
        right_at = right_offsets[c]
        j1 = min(n, (c + 1) * CHUNK)
        for j in range(c * CHUNK, j1):
            if _goes_left(column, idx[j], bin, missing_bin, missing_go_left):
                buffer[left_at] = idx[j]
                left_at = left_at + 1
            else:
                buffer[right_at] = idx[j]
                right_at = right_at + 1
    memcpy(idx, buffer, n * sizeof(int32_t))


# ---------------------------------------------------------------------------- heap
cdef inline bint _heap_before(const Node *nodes, intp_t a, intp_t b) noexcept nogil:
    """Node ``a`` is split before ``b``: larger gain first, then the older node."""
    return (nodes[a].split.gain > nodes[b].split.gain
            or (nodes[a].split.gain == nodes[b].split.gain and a < b))


cdef void _heap_push(intp_t *heap, intp_t *size, const Node *nodes, intp_t id) noexcept nogil:
    cdef intp_t i = size[0], parent
    size[0] += 1
    heap[i] = id
    while i > 0:
        parent = (i - 1) // 2
        if not _heap_before(nodes, heap[i], heap[parent]):
            break
        heap[i], heap[parent] = heap[parent], heap[i]
        i = parent


cdef intp_t _heap_pop(intp_t *heap, intp_t *size, const Node *nodes) noexcept nogil:
    cdef intp_t top = heap[0], i = 0, child, n
    size[0] -= 1
    n = size[0]
    heap[0] = heap[n]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and _heap_before(nodes, heap[child + 1], heap[child]):
            child += 1
        if not _heap_before(nodes, heap[child], heap[i]):
            break
        heap[i], heap[child] = heap[child], heap[i]
        i = child
    return top


# ---------------------------------------------------------------------------- growth
cdef inline bint _may_split(const Grower *g, const Node *node, intp_t max_depth) noexcept nogil:
    return ((max_depth < 0 or node.depth < max_depth)
            and node.stop - node.start >= 2 * g.min_samples_leaf
            and node.sum_hessians >= 2 * g.min_hessian_to_split)


cdef void _write_node(const Grower *g, const Node *node, intp_t i, intp_t[::1] node_feature,
                      intp_t[::1] node_bin, uint8_t[::1] node_missing_go_left,
                      intp_t[::1] node_left, intp_t[::1] node_right, double[::1] node_value,
                      intp_t[::1] node_start, intp_t[::1] node_stop, double[::1] node_gain,
                      double learning_rate) noexcept nogil:
    """Node ``i`` into the output arrays."""
    cdef intp_t n_left
    node_start[i] = node.start
    node_stop[i] = node.stop
    node_value[i] = (-learning_rate * node.sum_gradients
                     / (node.sum_hessians + g.l2_regularization))
    node_left[i] = node.left
    if node.left < 0:
        node_feature[i] = -1
        node_bin[i] = 0
        node_missing_go_left[i] = 0
        node_right[i] = -1
        node_gain[i] = 0.0
        return
    node_right[i] = node.left + 1
    node_feature[i] = node.split.feature
    node_bin[i] = node.split.bin
    node_gain[i] = node.split.gain
    node_missing_go_left[i] = node.split.missing_go_left
    if not g.has_missing_values[node.split.feature]:
        # no missing value seen at fit: unseen ones follow the majority
        n_left = node.split.count_left
        node_missing_go_left[i] = n_left > node.stop - node.start - n_left


def grow_tree(
    const uint8_t[::1, :] X_binned,          # IN (n_samples, n_features) bins, missing_bin = NaN
    const float[::1] gradients,              # IN (n_samples,)
    const float[::1] hessians,               # IN (n_samples,) (unread if hessians_are_constant)
    bint hessians_are_constant,
    const intp_t[::1] n_bins_non_missing,    # IN (n_features,)
    const uint8_t[::1] has_missing_values,   # IN (n_features,)
    const double[:, ::1] root_counts,        # IN (n_features, 256) samples per bin
    intp_t missing_bin,
    intp_t max_leaf_nodes,
    intp_t max_depth,                        # -1: none
    intp_t min_samples_leaf,
    double min_hessian_to_split,
    double l2_regularization,
    double learning_rate,
    int32_t[::1] sample_indices,             # INOUT (n_samples,) 0..n-1; leaves own slices
    int32_t[::1] partition_buffer,           # OUT (n_samples,) work space
    float[::1] ordered_gradients,            # OUT (n_samples,) work space
    float[::1] ordered_hessians,             # OUT (n_samples,) work space
    intp_t[::1] node_feature,                # OUT (max_nodes,) split feature, -1 at a leaf
    intp_t[::1] node_bin,                    # OUT (max_nodes,) bins <= node_bin go left
    uint8_t[::1] node_missing_go_left,       # OUT (max_nodes,)
    intp_t[::1] node_left,                   # OUT (max_nodes,) child ids, -1 at a leaf
    intp_t[::1] node_right,                  # OUT (max_nodes,)
    double[::1] node_value,                  # OUT (max_nodes,) −ν G/(H+λ)
    intp_t[::1] node_start,                  # OUT (max_nodes,) slice of sample_indices
    intp_t[::1] node_stop,                   # OUT (max_nodes,)
    double[::1] node_gain,                   # OUT (max_nodes,) split gain, 0 at a leaf
    int n_threads,
):
    """Grow one tree; returns its number of nodes (node 0 is the root).

    ``max_nodes = 2 max_leaves − 1`` with ``max_leaves`` at most ``max_leaf_nodes`` and
    ``n_samples // min_samples_leaf``; the caller sizes the node arrays so.

    Raises
    ------
    MemoryError
        When a histogram buffer cannot be allocated.
    """
    cdef Grower g
    cdef intp_t n_samples = X_binned.shape[0], max_nodes = node_feature.shape[0]
    cdef intp_t n_nodes = 1, n_leaves = 1, heap_size = 0, i, parent_id, small, large, c
    cdef Node *nodes
    cdef Node *parent
    cdef Node *child
    cdef intp_t *heap
    cdef double total_g = 0.0, total_h = 0.0
    cdef bint out_of_memory = False
    cdef bint children_may_split[2]
    cdef InterruptState interrupt
    g.X_binned = &X_binned[0, 0]
    g.n_samples = n_samples
    g.n_features = X_binned.shape[1]
    g.gradients = &gradients[0]
    g.hessians = &hessians[0]
    g.hessians_are_constant = hessians_are_constant
    g.root_counts = &root_counts[0, 0]
    g.n_bins_non_missing = &n_bins_non_missing[0]
    g.has_missing_values = &has_missing_values[0]
    g.missing_bin = missing_bin
    g.min_samples_leaf = min_samples_leaf
    g.min_hessian_to_split = min_hessian_to_split
    g.l2_regularization = l2_regularization
    g.sample_indices = &sample_indices[0]
    g.partition_buffer = &partition_buffer[0]
    g.ordered_gradients = &ordered_gradients[0]
    g.ordered_hessians = &ordered_hessians[0]
    g.n_threads = n_threads
    g.n_free_histograms = 0
    g.interrupt = &interrupt
    interrupt_init(&interrupt)
    nodes = <Node *> malloc(max_nodes * sizeof(Node))
    heap = <intp_t *> malloc(max_nodes * sizeof(intp_t))
    g.free_histograms = <double **> malloc((max_nodes + 1) * sizeof(double *))
    g.chunk_offsets = <intp_t *> malloc((2 * (n_samples // CHUNK + 1) + 1) * sizeof(intp_t))
    if (nodes == NULL or heap == NULL or g.free_histograms == NULL
            or g.chunk_offsets == NULL):
        free(nodes)
        free(heap)
        free(g.free_histograms)
        free(g.chunk_offsets)
        raise MemoryError("cannot allocate the nodes of a histogram tree")
    try:
        with nogil:
            for i in range(n_samples):
                total_g += gradients[i]
                total_h += 1.0 if hessians_are_constant else hessians[i]
            nodes[0].start = 0
            nodes[0].stop = n_samples
            nodes[0].depth = 0
            nodes[0].left = -1
            nodes[0].sum_gradients = total_g
            nodes[0].sum_hessians = total_h
            nodes[0].histogram = NULL
            nodes[0].split.gain = -1.0
            if _may_split(&g, &nodes[0], max_depth) and max_leaf_nodes > 1:
                nodes[0].histogram = _take_histogram(&g)
                if nodes[0].histogram == NULL:
                    out_of_memory = True
                else:
                    _build_histogram(&g, &nodes[0], True)
                    _find_split(&g, &nodes[0])
                    if nodes[0].split.gain > 0.0:
                        _heap_push(heap, &heap_size, nodes, 0)
                    else:
                        _release_histogram(&g, &nodes[0])
            while (heap_size > 0 and n_leaves < max_leaf_nodes and not out_of_memory
                   and not interrupted(&interrupt)):
                parent_id = _heap_pop(heap, &heap_size, nodes)
                parent = &nodes[parent_id]
                _partition(&g, parent)
                for c in range(2):
                    child = &nodes[n_nodes + c]
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
                        child.sum_gradients = (parent.sum_gradients
                                               - parent.split.sum_gradient_left)
                        child.sum_hessians = (parent.sum_hessians
                                              - parent.split.sum_hessian_left)
                    # the last allowed split makes two leaves: no histogram needed
                    children_may_split[c] = (n_leaves + 1 < max_leaf_nodes
                                             and _may_split(&g, child, max_depth))
                n_leaves += 1
                small = n_nodes
                large = n_nodes + 1
                if nodes[large].stop - nodes[large].start < nodes[small].stop - nodes[small].start:
                    small, large = large, small
                if children_may_split[0] or children_may_split[1]:
                    nodes[small].histogram = _take_histogram(&g)
                    if nodes[small].histogram == NULL:
                        out_of_memory = True
                    else:
                        _build_histogram(&g, &nodes[small], False)
                        if children_may_split[large - n_nodes]:
                            # the parent's buffer becomes the larger child's
                            _subtract_histogram(&g, parent.histogram, nodes[small].histogram)
                            nodes[large].histogram = parent.histogram
                            parent.histogram = NULL
                        for c in range(2):
                            child = &nodes[n_nodes + c]
                            if children_may_split[c]:
                                _find_split(&g, child)
                                if child.split.gain > 0.0:
                                    _heap_push(heap, &heap_size, nodes, n_nodes + c)
                            if child.split.gain <= 0.0:
                                _release_histogram(&g, child)
                _release_histogram(&g, parent)
                parent.left = n_nodes
                n_nodes += 2
            # the nodes still waiting are leaves
            for i in range(heap_size):
                _release_histogram(&g, &nodes[heap[i]])
            for i in range(n_nodes):
                _write_node(&g, &nodes[i], i, node_feature, node_bin, node_missing_go_left,
                            node_left, node_right, node_value, node_start, node_stop,
                            node_gain, learning_rate)
    finally:
        for i in range(g.n_free_histograms):
            free(g.free_histograms[i])
        for i in range(n_nodes):
            if nodes[i].histogram != NULL:
                free(nodes[i].histogram)
        free(g.free_histograms)
        free(g.chunk_offsets)
        free(heap)
        free(nodes)
    if interrupt.stop:
        raise_pending()
    if out_of_memory:
        raise MemoryError("cannot allocate a histogram of a histogram tree")
    return n_nodes
