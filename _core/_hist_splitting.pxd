# Split search of the boosting grower (_hist_grower): the best split of a node from its
# histogram, by XGBoost's second-order gain ``G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)``
# (Chen & Guestrin, KDD 2016) with scikit-learn's rules for missing values.
#
# Bins ``≤ b`` go left. A feature that had missing values at fit is scanned twice: left to right
# with the missing bin on the right, right to left with it on the left. Each side needs at least
# ``min_samples_leaf`` samples and ``min_hessian_to_split`` of Hessian. The features are scanned
# in order and a candidate must beat the best strictly: ties keep the first one found.
from _hist_grower cimport HIST_STRIDE, N_BINS, Grower, Node, SplitInfo
from _types cimport intp_t, uint8_t


cdef inline double _score(double sum_gradients, double sum_hessians,
                          double l2_regularization) noexcept nogil:
    return sum_gradients * sum_gradients / (sum_hessians + l2_regularization)


cdef inline void _consider(const Grower *g, SplitInfo *best, intp_t f, intp_t bin,
                           uint8_t missing_go_left, double parent_score, double g_left,
                           double h_left, intp_t n_left, const Node *node) noexcept nogil:
    """Keep the split if it beats ``best`` (strictly: ties keep the earlier candidate)."""
    cdef double gain = (_score(g_left, h_left, g.options.l2_regularization)
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


cdef inline void _find_split(const Grower *g, Node *node) noexcept nogil:
    """Best split of a node from its histogram (``node.split.gain < 0`` when there is none)."""
    cdef intp_t f, bin, n_bins, n_left, n_right
    cdef intp_t n_samples = node.stop - node.start, msl = g.options.min_samples_leaf
    cdef double g_left, h_left, g_right, h_right, min_h = g.options.min_hessian_to_split
    cdef double parent_score = _score(node.sum_gradients, node.sum_hessians,
                                      g.options.l2_regularization)
    cdef const double *hist
    cdef const uint8_t *has_missing_values = g.data.has_missing_values
    node.split.gain = -1.0
    node.split.feature = -1
    for f in range(g.data.n_features):
        hist = node.histogram + f * N_BINS * HIST_STRIDE
        n_bins = g.data.n_bins_non_missing[f]
        # left to right, missing values on the right; the last non-missing bin may go left
        # only when the missing values then make a right child
        g_left = 0.0
        h_left = 0.0
        n_left = 0
        for bin in range(n_bins - 1 + has_missing_values[f]):
            g_left += hist[HIST_STRIDE * bin]
            h_left += hist[HIST_STRIDE * bin + 1]
            n_left += <intp_t> hist[HIST_STRIDE * bin + 2]
            n_right = n_samples - n_left
            if n_left < msl or h_left < min_h:
                continue
            if n_right < msl or node.sum_hessians - h_left < min_h:
                break   # the right side only shrinks from here
            _consider(g, &node.split, f, bin, 0, parent_score, g_left, h_left, n_left, node)
        if not has_missing_values[f]:
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
