# Monotonic and interaction constraints of the boosting grower (_hist_grower), with
# scikit-learn's semantics.
#
# Monotonic (``monotonic_cst[f]`` = 1: increasing, -1: decreasing, 0: free). A node's value is
# ``−G/(H+λ)`` clipped to the bounds it was made in (the root's: none). A candidate split is
# scored by the loss ``G·v`` of each node at its clipped value (XGBoost's Eq. 6 with the values
# fixed): ``gain = G·v − G_L·v_L − G_R·v_R``, and rejected on a constrained feature when its
# children's clipped values are in the wrong order. After a split on a constrained feature, the
# values below the left child and those below the right child are separated by the midpoint of
# their two values, so every leaf left of the split stays below (above, for -1) every leaf right
# of it; a split on a free feature passes its bounds on unchanged.
#
# Interaction (groups of features): on the path from the root to a node, the groups that contain
# every feature split on are open, and the node splits only on the features of its open groups
# (the root: every feature). A split on ``f`` keeps the open groups containing ``f`` (LightGBM's
# and scikit-learn's rule for overlapping groups); both children share the result, a FeatureSet
# in the grower's work space.
from libc.stdint cimport int8_t
from libc.stdlib cimport realloc

from _hist_grower cimport FeatureSet, Grower, Node
from _types cimport intp_t


cdef inline double _bounded_value(double sum_gradients, double sum_hessians, double lower,
                                  double upper, double l2_regularization) noexcept nogil:
    """``−G/(H+λ)`` clipped to ``[lower, upper]`` (with scikit-learn's 1e-15 added to the
    denominator, so that near-ties between clipped candidates round alike)."""
    cdef double value = -sum_gradients / (sum_hessians + l2_regularization + 1e-15)
    if value < lower:
        return lower
    if value > upper:
        return upper
    return value


cdef inline double _bounded_gain(const Grower *g, const Node *node, intp_t f, double g_left,
                                 double h_left, double node_loss) noexcept nogil:
    """Gain of a candidate split of ``node`` (whose loss ``G·v`` is ``node_loss``) on feature
    ``f`` under monotonic constraints; -1 when the split breaks ``f``'s constraint."""
    cdef double l2 = g.options.l2_regularization
    cdef double g_right = node.sum_gradients - g_left
    cdef double v_left = _bounded_value(g_left, h_left, node.lower_bound, node.upper_bound, l2)
    cdef double v_right = _bounded_value(g_right, node.sum_hessians - h_left, node.lower_bound,
                                         node.upper_bound, l2)
    cdef int8_t cst = g.options.monotonic_cst[f]
    if (cst > 0 and v_left > v_right) or (cst < 0 and v_left < v_right):
        return -1.0
    return node_loss - g_left * v_left - g_right * v_right


cdef inline void _bound_children(const Grower *g, const Node *parent, Node *left,
                                 Node *right) noexcept nogil:
    """The children's clipped values, and the bounds of their own children's values."""
    cdef double l2 = g.options.l2_regularization, middle
    cdef int8_t cst = g.options.monotonic_cst[parent.split.feature]
    left.value = _bounded_value(left.sum_gradients, left.sum_hessians, parent.lower_bound,
                                parent.upper_bound, l2)
    right.value = _bounded_value(right.sum_gradients, right.sum_hessians, parent.lower_bound,
                                 parent.upper_bound, l2)
    left.lower_bound = right.lower_bound = parent.lower_bound
    left.upper_bound = right.upper_bound = parent.upper_bound
    if cst == 0:
        return
    middle = (left.value + right.value) / 2
    if cst > 0:
        left.upper_bound = middle
        right.lower_bound = middle
    else:
        left.lower_bound = middle
        right.upper_bound = middle


cdef inline const intp_t *_node_features(const Grower *g, const Node *node,
                                         intp_t *n_features) noexcept nogil:
    """The features ``node`` may split on, in increasing order: a list of ``n_features[0]``,
    or NULL for every feature."""
    cdef const FeatureSet *s
    if node.feature_set < 0:
        n_features[0] = g.data.n_features
        return NULL
    s = &g.work.sets[node.feature_set]
    n_features[0] = s.n_features
    return g.work.set_items + s.features


cdef inline int _reserve(void **buffer, intp_t *capacity, intp_t needed,
                         size_t item_size) noexcept nogil:
    """Room for ``needed`` items in a growing buffer; -1 when out of memory."""
    cdef intp_t grown = 2 * capacity[0] if capacity[0] > 0 else 16
    cdef void *p
    if needed <= capacity[0]:
        return 0
    if grown < needed:
        grown = needed
    p = realloc(buffer[0], grown * item_size)
    if p == NULL:
        return -1
    buffer[0] = p
    capacity[0] = grown
    return 0


cdef inline int _split_feature_set(Grower *g, const Node *parent,
                                   intp_t *feature_set) noexcept nogil:
    """The FeatureSet of the children of ``parent``: its open groups that contain its split
    feature, and their features. Returns -1 when out of memory."""
    cdef intp_t f = parent.split.feature, n_features = g.data.n_features
    cdef intp_t first = g.options.feature_group_ptr[f]
    cdef intp_t n_of_f = g.options.feature_group_ptr[f + 1] - first, i, j, k, n
    cdef const intp_t *of_f = g.options.feature_groups + first
    cdef const intp_t *open_groups
    cdef intp_t *items
    cdef FeatureSet s
    if (_reserve(<void **>&g.work.set_items, &g.work.set_items_capacity,
                 g.work.n_set_items + n_of_f + n_features, sizeof(intp_t)) != 0
            or _reserve(<void **>&g.work.sets, &g.work.sets_capacity, g.work.n_sets + 1,
                        sizeof(FeatureSet)) != 0):
        return -1
    items = g.work.set_items
    s.groups = g.work.n_set_items
    n = 0
    if parent.feature_set < 0:
        for k in range(n_of_f):
            items[s.groups + k] = of_f[k]
        n = n_of_f
    else:
        # both lists are sorted: their intersection by a merge
        open_groups = items + g.work.sets[parent.feature_set].groups
        i = 0
        j = 0
        while i < g.work.sets[parent.feature_set].n_groups and j < n_of_f:
            if open_groups[i] < of_f[j]:
                i += 1
            elif open_groups[i] > of_f[j]:
                j += 1
            else:
                items[s.groups + n] = of_f[j]
                n += 1
                i += 1
                j += 1
    s.n_groups = n
    for k in range(s.groups, s.groups + n):
        for j in range(g.options.group_ptr[items[k]], g.options.group_ptr[items[k] + 1]):
            g.work.feature_marks[g.options.group_features[j]] = 1
    s.features = s.groups + n
    s.n_features = 0
    for f in range(n_features):
        if g.work.feature_marks[f]:
            g.work.feature_marks[f] = 0
            items[s.features + s.n_features] = f
            s.n_features += 1
    g.work.n_set_items = s.features + s.n_features
    g.work.sets[g.work.n_sets] = s
    feature_set[0] = g.work.n_sets
    g.work.n_sets += 1
    return 0
