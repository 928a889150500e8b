# Split criteria of the CART builder: impurities, node values and the proxies the split scans
# maximise, with their division-free screens. Inline pieces cimported by _tree_builder (the scans
# call them once per candidate position: in the builder's translation unit the compiler inlines
# them; across modules they would be calls through a function-pointer table).
#
# What the search maximises. For every criterion the argmin of ``W_L D(L) + W_R D(R)`` is found
# by maximising a *proxy* that differs from ``−(W_L D(L) + W_R D(R))`` by a constant of the
# node (W: summed weights): Gini ``−W_R(1 − Σ_c n_Rc²/W_R²) − W_L(1 − Σ_c n_Lc²/W_L²)``;
# entropy (bits) ``−W_R H(R) − W_L H(L)``; squared error ``S_L²/W_L + S_R²/W_R`` (S: weighted
# sums of y, since ``W·MSE = Σ w y² − S²/W``); Friedman's criterion ``(W_R S_L − W_L S_R)²/(W_L
# W_R) = W (W_L W_R/W)(ȳ_L − ȳ_R)²``, which the course prints as an argmin but must be
# *maximised*: parent SSE = children SSE + ``W_L W_R/W (ȳ_L − ȳ_R)²``, so the Friedman argmax is
# the squared-error argmin; absolute error ``−(AE_L + AE_R)`` (AE: weighted absolute deviation
# from the weighted median, prefix/suffix values from a Fenwick tree over node-local ranks of y,
# O(n log n) per feature: _tree_absolute_error.pxd); Newton (gradient boosting, not in the course)
# ``G_L²/(H_L + λ) + G_R²/(H_R + λ)`` for negative gradient sums G and hessian sums H. The
# formulas are scikit-learn's, term by term, so that where the sums are exact (classification
# or integer targets, integer weights) both libraries compare the same floating-point numbers
# and grow the same tree. Candidates are first screened without divisions (``_gini_may_win``,
# ``_regression_may_win``): only those within a relative 1e-9 of the best so far get the exact
# expression, which keeps the result bit for bit.
from libc.math cimport log

from _tree cimport NodeStats, Problem, Workspace
from _types cimport int32_t, intp_t

# Criterion codes (kernelkit.tree._growth.CRITERIA).
cdef enum:
    GINI = 0
    ENTROPY = 1
    SQUARED_ERROR = 2
    FRIEDMAN_MSE = 3
    ABSOLUTE_ERROR = 4
    NEWTON = 5

cdef extern from *:
    """
    #define KK_LOG2 0.6931471805599453
    #define KK_SCREEN 1e-9
    """
    const double LOG2 "KK_LOG2"
    # Screening margin of the split scans: a candidate whose division-free score is below the
    # best one's by more than this relative amount cannot win, whatever the rounding (the
    # rounding errors are ~1e-16 relative; see _gini_may_win).
    const double SCREEN "KK_SCREEN"


# ------------------------------------------------------------------------------------------
# Impurities and values of a node

cdef inline double _impurity(const Problem *pb, const NodeStats *st,
                             const double *counts) noexcept nogil:
    """D(A) of the course (Gini, entropy in bits, MSE), or the Newton objective
    ``−G²/(H(H + λ))`` (its decrease weighted by H is the second-order gain). Not for absolute
    error, whose impurity needs the node's samples."""
    cdef intp_t c
    cdef double sq = 0.0, entropy = 0.0, fraction, impurity
    if pb.criterion == GINI:
        for c in range(pb.n_classes):
            sq += counts[c] * counts[c]
        return 1.0 - sq / (st.weight * st.weight)
    if pb.criterion == ENTROPY:
        for c in range(pb.n_classes):
            if counts[c] > 0.0:
                fraction = counts[c] / st.weight
                entropy -= fraction * (log(fraction) / LOG2)
        return entropy
    if pb.criterion == NEWTON:
        if st.sum_h + pb.l2_regularization <= 0.0 or st.sum_h <= 0.0:
            return 0.0
        return -(st.sum_v * st.sum_v) / (st.sum_h * (st.sum_h + pb.l2_regularization))
    impurity = st.sum_sq / st.sum_h
    impurity -= (st.sum_v / st.sum_h) * (st.sum_v / st.sum_h)
    return impurity


cdef inline void _node_value(const Problem *pb, const NodeStats *st, const double *counts,
                      double median, double *out) noexcept nogil:
    cdef intp_t c
    if pb.classification:
        for c in range(pb.n_classes):
            out[c] = counts[c] / st.weight
    elif pb.criterion == ABSOLUTE_ERROR:
        out[0] = median
    elif pb.criterion == NEWTON:
        out[0] = (st.sum_v / (st.sum_h + pb.l2_regularization)
                  if st.sum_h + pb.l2_regularization > 0.0 else 0.0)
    else:
        out[0] = st.sum_v / st.sum_h


cdef inline void _add_sample_stats(const Problem *pb, const Workspace *ws, int32_t s,
                                   NodeStats *st, double *counts) noexcept nogil:
    """Add sample ``s`` to a node's sums ``st`` (class weights into ``counts``; ``st.sum_h`` of a
    classification node is set to its weight once all are added)."""
    if pb.classification:
        st.weight += ws.stat[s].h               # a sample's weight (h = w)
        counts[<intp_t>ws.stat[s].v] += ws.stat[s].h
        return
    st.weight += ws.weight[s]
    st.sum_h += ws.stat[s].h
    st.sum_v += ws.stat[s].v
    if pb.criterion == SQUARED_ERROR or pb.criterion == FRIEDMAN_MSE:
        st.sum_sq += ws.stat[s].v * pb.y[s]      # (w y) y, as scikit-learn


# ------------------------------------------------------------------------------------------
# Split proxies (see the module docstring)

cdef inline bint _gini_may_win(const Problem *pb, const double *left, const double *node,
                               double w_left, double w_right, double best) noexcept nogil:
    """Division-free screen of a Gini candidate against the best proxy so far.

    ``proxy + W = Σ_c n_Lc²/W_L + Σ_c n_Rc²/W_R``, so the candidate can only win if
    ``Σ n_Lc² W_R + Σ n_Rc² W_L ≥ (best + W) W_L W_R`` up to rounding; both sides are sums of
    positive terms and ``best + W ≥ W/K``, so a relative margin of 1e-9 covers every rounding.
    """
    cdef intp_t c
    cdef double sq_left = 0.0, sq_right = 0.0, right
    for c in range(pb.n_classes):
        right = node[c] - left[c]
        sq_left += left[c] * left[c]
        sq_right += right * right
    return (sq_left * w_right + sq_right * w_left
            >= (best + w_left + w_right) * w_left * w_right * (1.0 - SCREEN))


cdef inline bint _regression_may_win(int criterion, double v_left, double v_right,
                                     double h_left, double h_right, double l2,
                                     double best) noexcept nogil:
    """Division-free screen of a regression candidate (all three proxies are ≥ 0): its proxy
    times the denominators against the best proxy times the same denominators."""
    cdef double diff
    if criterion == FRIEDMAN_MSE:
        diff = h_right * v_left - h_left * v_right
        return diff * diff >= best * h_left * h_right * (1.0 - SCREEN)
    if criterion == NEWTON:
        return (v_left * v_left * (h_right + l2) + v_right * v_right * (h_left + l2)
                >= best * (h_left + l2) * (h_right + l2) * (1.0 - SCREEN))
    return (v_left * v_left * h_right + v_right * v_right * h_left
            >= best * h_left * h_right * (1.0 - SCREEN))


cdef inline double _classification_proxy(const Problem *pb, const double *left,
                                         const double *node, double w_left,
                                         double w_right) noexcept nogil:
    cdef intp_t c
    cdef double sq_left = 0.0, sq_right = 0.0, right, e_left = 0.0, e_right = 0.0, fraction
    if pb.criterion == GINI:
        for c in range(pb.n_classes):
            right = node[c] - left[c]
            sq_left += left[c] * left[c]
            sq_right += right * right
        return (-w_right * (1.0 - sq_right / (w_right * w_right))
                - w_left * (1.0 - sq_left / (w_left * w_left)))
    for c in range(pb.n_classes):
        if left[c] > 0.0:
            fraction = left[c] / w_left
            e_left -= fraction * (log(fraction) / LOG2)
        right = node[c] - left[c]
        if right > 0.0:
            fraction = right / w_right
            e_right -= fraction * (log(fraction) / LOG2)
    return -w_right * e_right - w_left * e_left


cdef inline double _regression_proxy(int criterion, double v_left, double v_right, double h_left,
                                     double h_right, double l2) noexcept nogil:
    cdef double diff
    if criterion == FRIEDMAN_MSE:
        diff = h_right * v_left - h_left * v_right
        return diff * diff / (h_left * h_right)
    if criterion == NEWTON:
        return v_left * v_left / (h_left + l2) + v_right * v_right / (h_right + l2)
    return v_left * v_left / h_left + v_right * v_right / h_right

