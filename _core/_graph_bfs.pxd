# Breadth-first search on one graph of a batch (the block-diagonal CSR of GraphBatch): the
# distances from a source in an unweighted graph, shared by the cores that need all of them
# (shortest-path features, GraphHopper's path counts).
from _types cimport int32_t, intp_t


cdef inline intp_t bfs(
    const intp_t *indptr,      # IN (n_nodes_batch + 1,) CSR row pointers of the batch
    const int32_t *indices,    # IN global neighbour ids
    intp_t first,              # the graph's first global node id
    intp_t s,                  # source, local id
    intp_t n,                  # nodes of the graph
    intp_t *dist,              # OUT (n,): distance from s, -1 where unreachable
    intp_t *queue,             # OUT (n,): the nodes reached, in visit order (queue[0] = s)
) noexcept nogil:
    """BFS from local node ``s``; returns the number of nodes reached. Nodes are visited by
    increasing distance, so the last one reached is a farthest one."""
    cdef intp_t t, head = 0, tail = 1, u, k, v
    for t in range(n):
        dist[t] = -1
    dist[s] = 0
    queue[0] = s
    while head < tail:
        u = queue[head]
        head += 1
        for k in range(indptr[first + u], indptr[first + u + 1]):
            v = indices[k] - first
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue[tail] = v
                tail += 1
    return tail
