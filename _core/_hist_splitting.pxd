# Split search of the boosting grower (_hist_grower): the best split of a node from its
# histogram, by XGBoost's second-order gain ``G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)``
# (Chen & Guestrin, KDD 2016) with scikit-learn's rules for missing values and categories.
#
# A numeric feature: bins ``≤ b`` go left. A feature that had missing values at fit is scanned
# twice: left to right with the missing bin on the right, right to left with it on the left.
#
# A categorical feature (Fisher, "On Grouping for Maximum Homogeneity", JASA 1958, as LightGBM
# and scikit-learn): its categories with enough support (Hessian, in samples, at least
# CATEGORY_SMOOTHING), the missing bin among them when the feature had missing values at fit,
# are sorted by ``Σ g / (Σ h + CATEGORY_SMOOTHING)``; the left child takes the first ``k`` of that
# order, or the last ``k``, for ``k`` up to half of them; the other categories go right; fewer
# than two categories with support make no split. The left bins are kept in the split's bitset
# (``_bitset.pxd``). Ties of the order put the higher bin first: scikit-learn leaves them to the C
# library's qsort, and this is the order glibc's merge sort gives it, so that the trees agree
# where categories have equal sums (as early rounds of a classifier often make them).
#
# Each side needs at least ``min_samples_leaf`` samples and ``min_hessian_to_split`` of Hessian.
# Each feature's best split is found on its own (``_feature_split``, by the thread that built its
# histogram: candidates must beat the feature's best, and the best of the features of the same
# kind that thread scanned before it, strictly), then the node's is the best of them
# (``_best_split``) taken over the features in order, the categorical ones first (scikit-learn 1.9
# moves them before the numeric ones), strictly again: the split one scan of every candidate in
# that order keeps, ties to the first found. Under constraints
# (_hist_constraints.pxd) only the node's allowed features are scanned, and the gain of a
# candidate is that of its clipped children's values.
from _bitset cimport bitset_clear, bitset_set, bitset_test
from _hist_constraints cimport _bounded_gain, _node_features
from _hist_grower cimport HIST_STRIDE, N_BINS, Grower, Node, SplitInfo
from _sort cimport sort_pairs
from _types cimport intp_t, uint8_t

cdef enum:
    # smoothing of the categories' order and their least support (LightGBM's cat_smooth and
    # min_data_per_group; scikit-learn's MIN_CAT_SUPPORT)
    CATEGORY_SMOOTHING = 10


cdef inline double _score(double sum_gradients, double sum_hessians,
                          double l2_regularization) noexcept nogil:
    return sum_gradients * sum_gradients / (sum_hessians + l2_regularization)


cdef inline double _parent_score(const Grower *g, const Node *node) noexcept nogil:
    """The node's term of the gain: ``G²/(H+λ)``, or under monotonic constraints its loss
    ``G·v``."""
    if g.options.monotonic_cst != NULL:
        return node.sum_gradients * node.value
    return _score(node.sum_gradients, node.sum_hessians, g.options.l2_regularization)


cdef inline bint _consider(const Grower *g, const Node *node, SplitInfo *best, intp_t f,
                           intp_t bin, uint8_t missing_go_left, double parent_score,
                           double g_left, double h_left, intp_t n_left) noexcept nogil:
    """Keep the split in ``best`` if it beats it (strictly: ties keep the earlier candidate);
    returns whether it did."""
    cdef double gain
    if g.options.monotonic_cst != NULL:
        gain = _bounded_gain(g, node, f, g_left, h_left, parent_score)
    else:
        gain = (_score(g_left, h_left, g.options.l2_regularization)
                + _score(node.sum_gradients - g_left, node.sum_hessians - h_left,
                         g.options.l2_regularization)
                - parent_score)
    if gain > best.gain and gain > 0.0:
        best.gain = gain
        best.feature = f
        best.bin = bin
        best.missing_go_left = missing_go_left
        best.sum_gradient_left = g_left
        best.sum_hessian_left = h_left
        best.count_left = n_left
        return True
    return False


cdef inline intp_t _sorted_categories(const Grower *g, const Node *node, intp_t f,
                                      const double *hist, double *keys,
                                      intp_t *bins) noexcept nogil:
    """The bins of feature ``f`` with enough support in the node (the missing bin among them
    when the feature had missing values at fit) into ``bins``, sorted by
    ``Σ g / (Σ h + CATEGORY_SMOOTHING)`` (``keys``), ties by decreasing bin; returns their
    number."""
    cdef intp_t n_categories = g.data.n_bins_non_missing[f], n_used = 0, b, j
    # Hessian in samples: 1 for constant Hessians
    cdef double support_factor = (node.stop - node.start) / node.sum_hessians
    for j in range(n_categories + g.data.has_missing_values[f]):
        b = j if j < n_categories else g.data.missing_bin
        if hist[HIST_STRIDE * b + 1] * support_factor >= CATEGORY_SMOOTHING:
            keys[n_used] = hist[HIST_STRIDE * b] / (hist[HIST_STRIDE * b + 1]
                                                    + CATEGORY_SMOOTHING)
            bins[n_used] = -b   # ties: the higher bin first (sorted as −b)
            n_used += 1
    sort_pairs(keys, bins, n_used)
    for j in range(n_used):
        bins[j] = -bins[j]
    return n_used


cdef inline void _categorical_split(const Grower *g, const Node *node, intp_t f,
                                    const double *hist, double parent_score,
                                    SplitInfo *best) noexcept nogil:
    """The best set of categories of feature ``f`` to send left, kept in ``best`` if it beats
    it: the first or last ``k`` categories of the sorted order."""
    cdef double keys[N_BINS]
    cdef intp_t bins[N_BINS]
    cdef intp_t n_used = _sorted_categories(g, node, f, hist, keys, bins)
    cdef intp_t n_samples = node.stop - node.start, msl = g.options.min_samples_leaf
    cdef intp_t direction, i, k, best_i = -1, best_direction = 1, n_left
    cdef double g_left, h_left, min_h = g.options.min_hessian_to_split
    if n_used <= 1:
        return
    for direction in range(1, -2, -2):   # the first k categories, then the last k
        g_left = 0.0
        h_left = 0.0
        n_left = 0
        for i in range((n_used + 1) // 2 if direction == 1 else (n_used + 1) // 2 - 1):
            k = i if direction == 1 else n_used - 1 - i
            g_left += hist[HIST_STRIDE * bins[k]]
            h_left += hist[HIST_STRIDE * bins[k] + 1]
            n_left += <intp_t> hist[HIST_STRIDE * bins[k] + 2]
            if n_left < msl or h_left < min_h:
                continue
            if n_samples - n_left < msl or node.sum_hessians - h_left < min_h:
                break   # the right side only shrinks from here
            if _consider(g, node, best, f, 0, 0, parent_score, g_left, h_left, n_left):
                best_i = i
                best_direction = direction
    if best_i < 0:
        return
    bitset_clear(best.left_bins)
    for i in range(best_i + 1):
        bitset_set(best.left_bins, bins[i if best_direction == 1 else n_used - 1 - i])
    best.missing_go_left = bitset_test(best.left_bins, g.data.missing_bin)


cdef inline void _numeric_split(const Grower *g, const Node *node, intp_t f, const double *hist,
                                double parent_score, SplitInfo *best) noexcept nogil:
    """The best threshold of numeric feature ``f``, kept in ``best`` if it beats it."""
    cdef intp_t bin, n_left, n_right, n_bins = g.data.n_bins_non_missing[f]
    cdef intp_t n_samples = node.stop - node.start, msl = g.options.min_samples_leaf
    cdef double g_left, h_left, g_right, h_right, min_h = g.options.min_hessian_to_split
    cdef bint has_missing = g.data.has_missing_values[f]
    # left to right, missing values on the right; the last non-missing bin may go left only when
    # the missing values then make a right child
    g_left = 0.0
    h_left = 0.0
    n_left = 0
    for bin in range(n_bins - 1 + has_missing):
        g_left += hist[HIST_STRIDE * bin]
        h_left += hist[HIST_STRIDE * bin + 1]
        n_left += <intp_t> hist[HIST_STRIDE * bin + 2]
        n_right = n_samples - n_left
        if n_left < msl or h_left < min_h:
            continue
        if n_right < msl or node.sum_hessians - h_left < min_h:
            break   # the right side only shrinks from here
        _consider(g, node, best, f, bin, 0, parent_score, g_left, h_left, n_left)
    if not has_missing:
        return
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
        _consider(g, node, best, f, bin, 1, parent_score, node.sum_gradients - g_right,
                  node.sum_hessians - h_right, n_left)


cdef inline void _feature_split(const Grower *g, const Node *node, intp_t f, double bar,
                                SplitInfo *best) noexcept nogil:
    """The best split of ``node`` on feature ``f`` from its histogram into ``best``, if its gain
    beats ``bar`` (≥ 0: the best gain of the features of the same kind scanned before it by the
    same thread, which the node's split must beat anyway); else ``best.gain = −1``. The bar
    spares the updates of a best that cannot win (one thread on 1 000 samples: 9 % of a tree)."""
    cdef const double *hist = node.histogram + f * N_BINS * HIST_STRIDE
    best.gain = bar
    best.feature = -1
    if g.data.is_categorical[f]:
        _categorical_split(g, node, f, hist, _parent_score(g, node), best)
    else:
        _numeric_split(g, node, f, hist, _parent_score(g, node), best)
    if best.feature < 0:
        best.gain = -1.0


cdef inline void _best_split(const Grower *g, Node *node,
                             const SplitInfo *candidates) noexcept nogil:
    """``node.split``: the best of the features' splits ``candidates[f]`` (``node.split.gain <
    0`` when there is none), over the features the node may split on, the categorical ones
    first, ties to the first."""
    cdef intp_t k, f, n_candidates, categorical_pass
    cdef const intp_t *features = _node_features(g, node, &n_candidates)
    node.split.gain = -1.0
    node.split.feature = -1
    for categorical_pass in range(1, -1, -1):
        for k in range(n_candidates):
            f = k if features == NULL else features[k]
            if (g.data.is_categorical[f] == categorical_pass
                    and candidates[f].gain > node.split.gain and candidates[f].gain > 0.0):
                node.split = candidates[f]
