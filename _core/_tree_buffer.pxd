# The tree being grown by the CART builder (_tree_builder): flat node arrays (the layout of
# _tree.pxd) that double when full, and their hand-over to numpy without a copy. Inline pieces
# cimported by _tree_builder.
from cython.view cimport array as cvarray
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset

from _tree cimport TREE_LEAF, TREE_UNDEFINED, Split
from _types cimport int32_t, intp_t


cdef struct TreeBuffer:
    # Growing flat tree (see _tree.pxd); freed after conversion to numpy arrays.
    intp_t node_count
    intp_t capacity
    intp_t n_values
    intp_t max_depth
    int32_t *left
    int32_t *right
    int32_t *feature
    double *threshold
    double *value
    double *impurity
    int32_t *n_node_samples
    double *weighted_n_node_samples


cdef inline int _tree_init(TreeBuffer *t, intp_t n_values) noexcept nogil:
    memset(t, 0, sizeof(TreeBuffer))
    t.n_values = n_values
    return _tree_reserve(t, 64)


cdef inline int _resize(void **buffer, size_t size) noexcept nogil:
    """``realloc`` in place: 0, or -1 (the buffer unchanged) when out of memory."""
    cdef void *grown = realloc(buffer[0], size)
    if grown == NULL:
        return -1
    buffer[0] = grown
    return 0


cdef inline int _tree_reserve(TreeBuffer *t, intp_t capacity) noexcept nogil:
    if (_resize(<void **>&t.left, capacity * sizeof(int32_t))
            or _resize(<void **>&t.right, capacity * sizeof(int32_t))
            or _resize(<void **>&t.feature, capacity * sizeof(int32_t))
            or _resize(<void **>&t.threshold, capacity * sizeof(double))
            or _resize(<void **>&t.value, capacity * t.n_values * sizeof(double))
            or _resize(<void **>&t.impurity, capacity * sizeof(double))
            or _resize(<void **>&t.n_node_samples, capacity * sizeof(int32_t))
            or _resize(<void **>&t.weighted_n_node_samples, capacity * sizeof(double))):
        return -1
    t.capacity = capacity
    return 0


cdef inline void _tree_free(TreeBuffer *t) noexcept nogil:
    free(t.left)
    free(t.right)
    free(t.feature)
    free(t.threshold)
    free(t.value)
    free(t.impurity)
    free(t.n_node_samples)
    free(t.weighted_n_node_samples)
    memset(t, 0, sizeof(TreeBuffer))


cdef inline intp_t _add_node(TreeBuffer *t, intp_t parent, bint is_left, bint is_leaf,
                             const Split *split, double impurity, intp_t n_node_samples,
                             double weighted_n_node_samples, const double *value) noexcept nogil:
    """Append a node (a leaf, or a split node whose children come later); its id or -1."""
    cdef intp_t node = t.node_count
    if node == t.capacity and _tree_reserve(t, 2 * t.capacity) != 0:
        return -1
    t.left[node] = TREE_LEAF
    t.right[node] = TREE_LEAF
    if is_leaf:
        t.feature[node] = TREE_UNDEFINED
        t.threshold[node] = TREE_UNDEFINED
    else:
        t.feature[node] = <int32_t>split.feature
        t.threshold[node] = split.threshold
    t.impurity[node] = impurity
    t.n_node_samples[node] = <int32_t>n_node_samples
    t.weighted_n_node_samples[node] = weighted_n_node_samples
    memcpy(t.value + node * t.n_values, value, t.n_values * sizeof(double))
    if parent >= 0:
        if is_left:
            t.left[parent] = <int32_t>node
        else:
            t.right[parent] = <int32_t>node
    t.node_count += 1
    return node


# ------------------------------------------------------------------------------------------
# Hand-over to numpy

cdef inline cvarray _adopt(void *data, tuple shape, Py_ssize_t itemsize, str format):
    """An array over a malloc'ed buffer, which it frees when collected (no copy)."""
    cdef cvarray wrapper = cvarray(shape=shape, itemsize=itemsize, format=format, mode="c",
                                   allocate_buffer=False)
    wrapper.data = <char *>data
    wrapper.callback_free_data = free
    return wrapper


cdef inline tuple _tree_to_arrays(TreeBuffer *t):
    """The tree's arrays, taking over its buffers: the grown tree is not copied (its buffers
    live in the arena of the thread that grew it, so a copy would add to the peak memory)."""
    cdef intp_t n = t.node_count
    import numpy as np
    arrays = (
        np.asarray(_adopt(t.left, (n,), sizeof(int32_t), "i")),
        np.asarray(_adopt(t.right, (n,), sizeof(int32_t), "i")),
        np.asarray(_adopt(t.feature, (n,), sizeof(int32_t), "i")),
        np.asarray(_adopt(t.threshold, (n,), sizeof(double), "d")),
        np.asarray(_adopt(t.value, (n, t.n_values), sizeof(double), "d")),
        np.asarray(_adopt(t.impurity, (n,), sizeof(double), "d")),
        np.asarray(_adopt(t.n_node_samples, (n,), sizeof(int32_t), "i")),
        np.asarray(_adopt(t.weighted_n_node_samples, (n,), sizeof(double), "d")),
        t.max_depth,
    )
    memset(t, 0, sizeof(TreeBuffer))        # the arrays own the buffers now
    return arrays
