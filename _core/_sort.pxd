# The shared in-place sorts of the cores (k-mer codes, WL neighbour labels, shortest-path keys,
# DBSCAN cell keys, linkage merges).
#
# Quicksort with a median-of-three pivot and Hoare's partition down to runs of 16, then insertion
# sort; the recursion goes into the smaller part, so the stack depth is O(log n). Specialised per
# element type (fused types) because libc's qsort calls a comparison function per step, which
# made sorting the largest cost of building k-mer spectra. `sort_pairs` orders (key, value) pairs
# lexicographically; with distinct values (indices) that is a total order, so the result does
# not depend on the input order of equal keys: deterministic layouts.
from _types cimport intp_t, int32_t, int64_t, uint64_t

ctypedef fused sortable:
    int32_t
    int64_t
    uint64_t
    double

cdef enum:
    SORT_INSERTION_MAX = 16


cdef inline void sort(sortable *a, intp_t n) noexcept nogil:
    """Sort ``a[:n]`` in increasing order, in place."""
    cdef intp_t i, j, mid
    cdef sortable pivot, tmp
    while n > SORT_INSERTION_MAX:
        mid = n // 2
        # order a[0], a[mid], a[n-1]; the median becomes the pivot
        if a[mid] < a[0]:
            a[mid], a[0] = a[0], a[mid]
        if a[n - 1] < a[0]:
            a[n - 1], a[0] = a[0], a[n - 1]
        if a[n - 1] < a[mid]:
            a[n - 1], a[mid] = a[mid], a[n - 1]
        pivot = a[mid]
        i = -1
        j = n
        while True:
            i += 1
            while a[i] < pivot:
                i += 1
            j -= 1
            while a[j] > pivot:
                j -= 1
            if i >= j:
                break
            tmp = a[i]
            a[i] = a[j]
            a[j] = tmp
        # recurse into the smaller part, loop on the larger: O(log n) stack depth
        if j + 1 < n - j - 1:
            sort(a, j + 1)
            a = a + j + 1
            n = n - j - 1
        else:
            sort(a + j + 1, n - j - 1)
            n = j + 1
    for i in range(1, n):
        tmp = a[i]
        j = i - 1
        while j >= 0 and a[j] > tmp:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = tmp


cdef inline bint _pair_less(sortable key_a, intp_t value_a, sortable key_b,
                            intp_t value_b) noexcept nogil:
    return key_a < key_b or (key_a == key_b and value_a < value_b)


cdef inline void _swap_pairs(sortable *keys, intp_t *values, intp_t i, intp_t j) noexcept nogil:
    cdef sortable key = keys[i]
    cdef intp_t value = values[i]
    keys[i] = keys[j]
    values[i] = values[j]
    keys[j] = key
    values[j] = value


cdef inline void sort_pairs(sortable *keys, intp_t *values, intp_t n) noexcept nogil:
    """Sort the pairs ``(keys[i], values[i])`` lexicographically, in place."""
    cdef intp_t i, j, mid
    cdef sortable pivot_key, key
    cdef intp_t pivot_value, value
    while n > SORT_INSERTION_MAX:
        mid = n // 2
        if _pair_less(keys[mid], values[mid], keys[0], values[0]):
            _swap_pairs(keys, values, mid, 0)
        if _pair_less(keys[n - 1], values[n - 1], keys[0], values[0]):
            _swap_pairs(keys, values, n - 1, 0)
        if _pair_less(keys[n - 1], values[n - 1], keys[mid], values[mid]):
            _swap_pairs(keys, values, n - 1, mid)
        pivot_key = keys[mid]
        pivot_value = values[mid]
        i = -1
        j = n
        while True:
            i += 1
            while _pair_less(keys[i], values[i], pivot_key, pivot_value):
                i += 1
            j -= 1
            while _pair_less(pivot_key, pivot_value, keys[j], values[j]):
                j -= 1
            if i >= j:
                break
            _swap_pairs(keys, values, i, j)
        if j + 1 < n - j - 1:
            sort_pairs(keys, values, j + 1)
            keys = keys + j + 1
            values = values + j + 1
            n = n - j - 1
        else:
            sort_pairs(keys + j + 1, values + j + 1, n - j - 1)
            n = j + 1
    for i in range(1, n):
        key = keys[i]
        value = values[i]
        j = i - 1
        while j >= 0 and _pair_less(key, value, keys[j], values[j]):
            keys[j + 1] = keys[j]
            values[j + 1] = values[j]
            j -= 1
        keys[j + 1] = key
        values[j + 1] = value
