"""Presort of the exact CART splitter: every feature sorted once per fit.

A stable LSD radix argsort of the float32 values (``_sort.pxd``), one feature per thread; the
builder (``_tree_builder``) then keeps every node's samples in these orders by stable partitions
and never sorts again.
"""

from cython.parallel cimport prange
from libc.stdint cimport uint32_t
from libc.stdlib cimport free, malloc

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport radix_argsort_float32
from _tree cimport PARALLEL_MIN_WORK, index_t
from _types cimport int32_t, intp_t


cdef int _presort_feature(const float *values, intp_t n, index_t *sorted_samples) noexcept nogil:
    cdef uint32_t *keys = <uint32_t *>malloc(2 * n * sizeof(uint32_t))
    cdef int32_t *order = <int32_t *>malloc(2 * n * sizeof(int32_t))
    cdef intp_t i
    if keys == NULL or order == NULL:
        free(keys)
        free(order)
        return -1
    radix_argsort_float32(values, n, keys, keys + n, order + n, order)
    for i in range(n):
        sorted_samples[i] = <index_t>order[i]
    free(keys)
    free(order)
    return 0


def presort(
    const float[:, ::1] X_T,                # IN (n_features, n_samples), finite
    index_t[:, ::1] sorted_samples,         # OUT (n_features, n_samples), uint16 or int32
    int n_threads,
):
    """Sort every feature once: ``sorted_samples[f]`` are the sample ids in increasing order of
    ``X_T[f]`` (stable: ties by increasing id). Ctrl-C is looked at between features."""
    cdef intp_t n_features = X_T.shape[0], n_samples = X_T.shape[1], f
    cdef int failed = 0
    cdef int *failed_ptr = &failed
    cdef InterruptState interrupt
    if n_samples == 0 or n_features == 0:
        return
    if n_threads > n_features:
        n_threads = <int>n_features
    if n_samples * n_features < PARALLEL_MIN_WORK:
        n_threads = 1
    interrupt_init(&interrupt)
    with nogil:
        for f in prange(n_features, num_threads=n_threads, schedule='dynamic'):
            if interrupted(&interrupt):
                continue
            if _presort_feature(&X_T[f, 0], n_samples, &sorted_samples[f, 0]) != 0:
                failed_ptr[0] = 1
    if interrupt.stop:
        raise_pending()
    if failed:
        raise MemoryError("out of memory while sorting the features")
