# Declarations shared by the decision-tree cores (_tree_builder grows, _tree_predict reads).
#
# A tree is a set of parallel arrays indexed by node id (node 0 is the root):
#   children_left, children_right  int32   child ids, TREE_LEAF (-1) for a leaf
#   feature                        int32   split feature, TREE_UNDEFINED (-2) for a leaf
#   threshold                      float64 x[feature] <= threshold goes left
#   value                          float64 (n_nodes, n_values): class fractions, mean, median or
#                                          Newton step of the node
# The growth-only arrays (impurity, n_node_samples, weighted_n_node_samples) are built by
# _tree_builder alone.

cdef enum:
    TREE_LEAF = -1
    TREE_UNDEFINED = -2


# Software prefetch (GCC/Clang builtin; a no-op elsewhere): the split scans read samples' values
# and statistics in feature order, i.e. at random addresses, a few entries ahead of their use.
cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define kk_prefetch(address) __builtin_prefetch(address)
    #else
    #define kk_prefetch(address) ((void)0)
    #endif
    """
    void kk_prefetch(const void *address) noexcept nogil
