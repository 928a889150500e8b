# The frontier of best-first tree growth: a binary max-heap of ``(priority, id)`` entries, the
# node to split next at the root. Priorities are the nodes' split gains (the boosting grower,
# _hist_grower) or impurity decreases (CART's best-first builder, _tree_builder); ties go to the
# smaller id, the node created first. Ids are unique, so the order is total and the popped
# sequence depends only on the entries pushed, never on the heap's layout.
from libc.stdlib cimport free, malloc, realloc

from _types cimport intp_t


cdef struct HeapEntry:
    double priority
    intp_t id

cdef struct BestFirstHeap:
    HeapEntry *entries
    intp_t size
    intp_t capacity


cdef inline int heap_init(BestFirstHeap *heap, intp_t capacity) noexcept nogil:
    """An empty heap with room for ``capacity`` entries (it grows beyond); -1 when out of
    memory."""
    heap.size = 0
    heap.capacity = capacity if capacity > 0 else 1
    heap.entries = <HeapEntry *>malloc(heap.capacity * sizeof(HeapEntry))
    return -1 if heap.entries == NULL else 0


cdef inline void heap_free(BestFirstHeap *heap) noexcept nogil:
    free(heap.entries)
    heap.entries = NULL
    heap.size = 0
    heap.capacity = 0


cdef inline bint heap_before(const HeapEntry *a, const HeapEntry *b) noexcept nogil:
    """``a`` is popped before ``b``: a larger priority, or as large and a smaller id."""
    return a.priority > b.priority or (a.priority == b.priority and a.id < b.id)


cdef inline int heap_push(BestFirstHeap *heap, double priority, intp_t id) noexcept nogil:
    """Add ``(priority, id)``, sifting it up; -1 when the heap cannot grow (it is unchanged)."""
    cdef intp_t i = heap.size, parent
    cdef HeapEntry tmp
    cdef void *grown
    if heap.size == heap.capacity:
        grown = realloc(heap.entries, 2 * heap.capacity * sizeof(HeapEntry))
        if grown == NULL:
            return -1
        heap.entries = <HeapEntry *>grown
        heap.capacity *= 2
    heap.size += 1
    heap.entries[i].priority = priority
    heap.entries[i].id = id
    while i > 0:
        parent = (i - 1) // 2
        if not heap_before(&heap.entries[i], &heap.entries[parent]):
            break
        tmp = heap.entries[i]
        heap.entries[i] = heap.entries[parent]
        heap.entries[parent] = tmp
        i = parent
    return 0


cdef inline intp_t heap_pop(BestFirstHeap *heap) noexcept nogil:
    """Remove the first entry (the heap must not be empty) and return its id."""
    cdef intp_t top = heap.entries[0].id, i = 0, child, n
    cdef HeapEntry tmp
    heap.size -= 1
    n = heap.size
    heap.entries[0] = heap.entries[n]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and heap_before(&heap.entries[child + 1], &heap.entries[child]):
            child += 1
        if not heap_before(&heap.entries[child], &heap.entries[i]):
            break
        tmp = heap.entries[i]
        heap.entries[i] = heap.entries[child]
        heap.entries[child] = tmp
        i = child
    return top
