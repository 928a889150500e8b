# Breadth-first search in one graph of a batch (block-diagonal CSR, global node ids): the
# distances of the unweighted graph kernels (shortest paths, NSPDK's neighbourhoods).
from _types cimport intp_t, int32_t


cdef inline intp_t bfs_depths(const intp_t *indptr, const int32_t *indices,
                              intp_t first, intp_t n, intp_t source, intp_t max_depth,
                              intp_t *depth, intp_t *queue) noexcept nogil:
    """BFS from local node ``source`` of the graph owning the global nodes ``first`` to
    ``first + n - 1``, not expanding beyond ``max_depth``: ``depth[t]`` is the distance to
    ``t`` when at most ``max_depth``, else -1; ``queue[:returned]`` holds the nodes reached, in
    order of distance (``source`` first). ``indptr`` and ``indices``: the batch's CSR arrays
    (pointers, so that a core can keep them in a struct; ``indices`` may be NULL when the batch
    has no edge)."""
    cdef intp_t t, head = 0, tail = 1, u, k, w
    for t in range(n):
        depth[t] = -1
    depth[source] = 0
    queue[0] = source
    while head < tail:
        u = queue[head]
        head += 1
        if depth[u] >= max_depth:
            continue
        for k in range(indptr[first + u], indptr[first + u + 1]):
            w = indices[k] - first
            if depth[w] < 0:
                depth[w] = depth[u] + 1
                queue[tail] = w
                tail += 1
    return tail
