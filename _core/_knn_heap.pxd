# The k best neighbours of one query so far: a max-heap on ``(distance, index)`` pairs, the
# worst kept neighbour at the root, so that a candidate costs one comparison unless it enters.
# Pairs are ordered by distance, then by training index: the k kept are the same whatever the
# order in which candidates are offered (brute force by blocks, a KD-tree's visit, any thread).
# Shared by the brute-force and KD-tree searches (_knn_brute, _knn_kd_tree).
from libc.math cimport INFINITY

from _types cimport intp_t


cdef inline bint heap_after(double da, intp_t ia, double db, intp_t ib) noexcept nogil:
    """``(da, ia)`` ranks after ``(db, ib)``: farther, or as far with a larger index."""
    return da > db or (da == db and ia > ib)


cdef inline void heap_sift_down(double *dist, intp_t *idx, intp_t pos,
                                intp_t size) noexcept nogil:
    cdef intp_t child
    cdef double d = dist[pos]
    cdef intp_t i = idx[pos]
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and heap_after(dist[child + 1], idx[child + 1], dist[child],
                                           idx[child]):
            child += 1
        if not heap_after(dist[child], idx[child], d, i):
            break
        dist[pos] = dist[child]
        idx[pos] = idx[child]
        pos = child
    dist[pos] = d
    idx[pos] = i


cdef inline void heap_offer(double *dist, intp_t *idx, intp_t k, double d,
                            intp_t i) noexcept nogil:
    """Keep ``(d, i)`` among the ``k`` best if it beats the worst kept (the root)."""
    if heap_after(dist[0], idx[0], d, i):
        dist[0] = d
        idx[0] = i
        heap_sift_down(dist, idx, 0, k)


cdef inline void heap_sorted(double *dist, intp_t *idx, intp_t k) noexcept nogil:
    """Heap sort of a max-heap in place: ascending ``(distance, index)``."""
    cdef intp_t end
    cdef double d
    cdef intp_t i
    for end in range(k - 1, 0, -1):
        d = dist[0]
        i = idx[0]
        dist[0] = dist[end]
        idx[0] = idx[end]
        dist[end] = d
        idx[end] = i
        heap_sift_down(dist, idx, 0, end)


cdef inline void heap_reset(double *dist, intp_t *idx, intp_t k, intp_t sentinel) noexcept nogil:
    cdef intp_t j
    for j in range(k):
        dist[j] = INFINITY
        idx[j] = sentinel
