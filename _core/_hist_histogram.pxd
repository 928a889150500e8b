# Histograms of the boosting grower (_hist_grower): a node's ``(Σ g, Σ h, count)`` per (feature,
# bin), their buffers, the gather of a node's gradients, the build and the sibling subtraction.
#
# Determinism: a feature's histogram is summed by one thread, in the order of the node's samples,
# so it does not depend on the thread count. Ctrl-C: the signals are looked at before each
# feature's histogram and every CHECK_WORK samples inside one, and between two chunks of the
# gather (an interrupted build leaves the histogram unfinished; the grower then stops).
from cython.parallel cimport parallel, prange
from libc.stdlib cimport malloc
from libc.string cimport memset

from _hist_constraints cimport _node_features
from _hist_grower cimport (CHUNK, GATHER_COST, HIST_STRIDE, HISTOGRAM_COST, N_BINS, Grower,
                           Node)
from _interrupt cimport CHECK_WORK, interrupted
from _types cimport int32_t, intp_t, kk_team_for_work, uint8_t


cdef inline double *_take_histogram(Grower *g) noexcept nogil:
    """A histogram buffer from the free stack, or a new one (NULL if memory runs out)."""
    if g.work.n_free_histograms > 0:
        g.work.n_free_histograms -= 1
        return g.work.free_histograms[g.work.n_free_histograms]
    return <double *> malloc(g.data.n_features * N_BINS * HIST_STRIDE * sizeof(double))


cdef inline void _release_histogram(Grower *g, Node *node) noexcept nogil:
    """Give the node's buffer back to the free stack."""
    if node.histogram != NULL:
        g.work.free_histograms[g.work.n_free_histograms] = node.histogram
        g.work.n_free_histograms += 1
        node.histogram = NULL


cdef inline void _gather_chunk(Grower *g, intp_t start, intp_t stop, intp_t c) noexcept nogil:
    """``ordered_*[j] = *[sample_indices[start + j]]`` over the chunk ``c`` of the node's samples:
    the node's gradients read once in order, so that each feature's histogram then streams them
    instead of jumping through memory."""
    cdef intp_t j, j1 = min(stop - start, (c + 1) * CHUNK)
    cdef const int32_t *idx = g.work.sample_indices + start
    for j in range(c * CHUNK, j1):
        g.work.ordered_gradients[j] = g.data.gradients[idx[j]]
    if not g.data.hessians_are_constant:
        for j in range(c * CHUNK, j1):
            g.work.ordered_hessians[j] = g.data.hessians[idx[j]]


cdef inline void _feature_histogram(const Grower *g, intp_t f, intp_t start, intp_t stop,
                                    bint is_root, double *hist) noexcept nogil:
    """Histogram of feature ``f`` over the node's samples (one thread, in sample order)."""
    cdef const uint8_t *column = g.data.X_binned + f * g.data.n_samples
    cdef const int32_t *idx = g.work.sample_indices + start
    cdef intp_t n = stop - start, j, j0, j1, block
    cdef double *b
    # the root reads the data in place; other nodes read the gathered gradients
    cdef const float *grad = g.data.gradients if is_root else g.work.ordered_gradients
    cdef const float *hess = g.data.hessians if is_root else g.work.ordered_hessians
    cdef bint constant = g.data.hessians_are_constant
    memset(hist, 0, N_BINS * HIST_STRIDE * sizeof(double))
    if is_root:
        # the root's counts are the same for every tree: copied, not summed again
        for j in range(N_BINS):
            hist[HIST_STRIDE * j + 2] = g.data.root_counts[f * N_BINS + j]
    for block in range((n + CHECK_WORK - 1) // CHECK_WORK):
        if interrupted(g.work.interrupt):
            return
        j0 = block * CHECK_WORK
        j1 = min(n, j0 + CHECK_WORK)
        if is_root:
            if constant:
                for j in range(j0, j1):
                    hist[HIST_STRIDE * column[j]] += grad[j]
            else:
                for j in range(j0, j1):
                    b = hist + HIST_STRIDE * column[j]
                    b[0] += grad[j]
                    b[1] += hess[j]
        elif constant:
            for j in range(j0, j1):
                b = hist + HIST_STRIDE * column[idx[j]]
                b[0] += grad[j]
                b[2] += 1.0
        else:
            for j in range(j0, j1):
                b = hist + HIST_STRIDE * column[idx[j]]
                b[0] += grad[j]
                b[1] += hess[j]
                b[2] += 1.0
    if constant:   # a constant Hessian of 1 sums to the count
        for j in range(N_BINS):
            hist[HIST_STRIDE * j + 1] = hist[HIST_STRIDE * j + 2]


cdef inline void _node_step(Grower *g, Node *node, const intp_t *features, bint is_root,
                            intp_t n_chunks, intp_t item) noexcept nogil:
    """Item ``item`` of a node's histogram build: a chunk of the gather (the first
    ``n_chunks`` items), then one feature's histogram."""
    cdef intp_t k = item - n_chunks, f
    if interrupted(g.work.interrupt):
        return
    if k < 0:
        _gather_chunk(g, node.start, node.stop, item)
        return
    f = k if features == NULL else features[k]
    _feature_histogram(g, f, node.start, node.stop, is_root,
                       node.histogram + f * N_BINS * HIST_STRIDE)


cdef inline void _build_histogram(Grower *g, Node *node, bint is_root) noexcept nogil:
    """The histograms of the features the node may split on (every feature without interaction
    constraints): the gather of the node's gradients (but at the root), then the features, on
    a team sized by the work (``kk_team_for_work``) in one parallel region, or by this thread
    alone."""
    cdef intp_t k, c, n_build
    cdef intp_t n = node.stop - node.start, n_chunks = 0 if is_root else (n + CHUNK - 1) // CHUNK
    cdef const intp_t *features = _node_features(g, node, &n_build)
    cdef int team = kk_team_for_work(0.5e-9 * n * (HISTOGRAM_COST * n_build
                                                   + (0 if is_root else GATHER_COST)),
                                     g.work.min_work_per_thread, g.work.n_threads)
    if team == 1:
        for k in range(n_chunks + n_build):
            _node_step(g, node, features, is_root, n_chunks, k)
        return
    with parallel(num_threads=team):
        for c in prange(n_chunks, schedule='static'):
            _node_step(g, node, features, is_root, n_chunks, c)
        for k in prange(n_build, schedule='static', chunksize=1):
            _node_step(g, node, features, is_root, n_chunks, n_chunks + k)


cdef inline void _subtract_histogram(const Grower *g, const Node *child, double *parent,
                                     const double *child_histogram) noexcept nogil:
    """``parent ← parent − child``: the sibling's histogram without a pass over its samples
    (over the features ``child`` may split on, which its sibling shares)."""
    cdef intp_t j, k, n_features, size = N_BINS * HIST_STRIDE
    cdef const intp_t *features = _node_features(g, child, &n_features)
    if features == NULL:
        for j in range(g.data.n_features * size):
            parent[j] -= child_histogram[j]
        return
    for k in range(n_features):
        for j in range(features[k] * size, (features[k] + 1) * size):
            parent[j] -= child_histogram[j]
