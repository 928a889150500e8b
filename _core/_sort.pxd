# The shared in-place sorts of the cores (k-mer codes, WL neighbour labels, shortest-path keys,
# DBSCAN cell keys, linkage merges), the stable radix argsort of float32 keys (the decision
# trees' presort), and the bisection of sorted keys.
#
# Quicksort with a median-of-three pivot and Hoare's partition down to runs of 16, then insertion
# sort; the recursion goes into the smaller part, so the stack depth is O(log n). Specialised per
# element type (fused types) because libc's qsort calls a comparison function per step, which
# made sorting the largest cost of building k-mer spectra. `sort_pairs` orders (key, value) pairs
# lexicographically; with distinct values (indices) that is a total order, so the result does
# not depend on the input order of equal keys: deterministic layouts.
from libc.stdint cimport uint32_t
from libc.string cimport memcpy, memset

from _types cimport intp_t, int32_t, int64_t, uint64_t

ctypedef fused sortable:
    int32_t
    int64_t
    uint64_t
    double

cdef enum:
    SORT_INSERTION_MAX = 16

# What the cores permute in place besides sorting (SMO's variables, the trees' features).
ctypedef fused swappable:
    intp_t
    double


cdef inline void swap(swappable *a, intp_t i, intp_t j) noexcept nogil:
    """Exchange ``a[i]`` and ``a[j]``."""
    cdef swappable t = a[i]
    a[i] = a[j]
    a[j] = t


cdef inline double median_of_three(double a, double b, double c) noexcept nogil:
    """The middle one of three values: the pivot of the quickselects of the KD-tree's splits and
    of k-medians' centres."""
    if (a <= b <= c) or (c <= b <= a):
        return b
    if (b <= a <= c) or (c <= a <= b):
        return a
    return c


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


cdef inline intp_t first_at_least(const sortable *keys, intp_t lo, intp_t hi,
                                  sortable value) noexcept nogil:
    """The first index in ``[lo, hi)`` whose key is ``≥ value`` (``hi`` if none), the keys
    being sorted (bisection)."""
    cdef intp_t mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if keys[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline intp_t count_runs(sortable *keys, intp_t *values, int64_t *counts,
                              intp_t n) noexcept nogil:
    """Compact the sorted ``keys[:n]`` in place to their distinct entries, returning their
    number: ``counts[i]`` is how often the ``i``-th one occurred. With ``values`` (NULL: none),
    sorted with the keys by :func:`sort_pairs`, the distinct entries are the pairs."""
    cdef intp_t i, n_distinct = 0
    for i in range(n):
        if (i == 0 or keys[i] != keys[i - 1]
                or (values != NULL and values[i] != values[i - 1])):
            keys[n_distinct] = keys[i]
            if values != NULL:
                values[n_distinct] = values[i]
            counts[n_distinct] = 1
            n_distinct += 1
        else:
            counts[n_distinct - 1] += 1
    return n_distinct


# Stable argsort of float32 keys: LSD radix sort

cdef inline uint32_t _float32_order_key(float x) noexcept nogil:
    """Map a float32 to a uint32 with the same order (negatives: all bits flipped; others: the
    sign bit set)."""
    cdef uint32_t u
    memcpy(&u, &x, sizeof(uint32_t))
    if u & 0x80000000u:
        return ~u
    return u | 0x80000000u


cdef inline void radix_argsort_float32(const float *values, intp_t n, uint32_t *keys,
                                       uint32_t *keys_tmp, int32_t *order_tmp,
                                       int32_t *out) noexcept nogil:
    """Indices that sort ``values`` stably (ties keep increasing index) into ``out``: LSD radix
    sort, 8 bits per pass, passes where every key has the same byte skipped."""
    cdef intp_t i, shift, b, total
    cdef intp_t counts[256]
    cdef uint32_t *ka = keys
    cdef uint32_t *kb = keys_tmp
    cdef int32_t *oa = out
    cdef int32_t *ob = order_tmp
    cdef uint32_t *kswap
    cdef int32_t *oswap
    for i in range(n):
        ka[i] = _float32_order_key(values[i])
        oa[i] = <int32_t>i
    for shift in range(0, 32, 8):
        memset(counts, 0, sizeof(counts))
        for i in range(n):
            counts[(ka[i] >> shift) & 0xFF] += 1
        if counts[(ka[0] >> shift) & 0xFF] == n:
            continue
        total = 0
        for b in range(256):
            total += counts[b]
            counts[b] = total - counts[b]
        for i in range(n):
            b = (ka[i] >> shift) & 0xFF
            kb[counts[b]] = ka[i]
            ob[counts[b]] = oa[i]
            counts[b] += 1
        kswap = ka
        ka = kb
        kb = kswap
        oswap = oa
        oa = ob
        ob = oswap
    if oa != out:
        memcpy(out, oa, n * sizeof(int32_t))
