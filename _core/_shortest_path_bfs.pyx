"""Shortest-path features: all-pairs BFS per graph, then counted ``(label_u, label_v, d)`` keys.

Borgwardt & Kriegel (2005); Mairal & Vert, "Example: Indexing by all shortest paths". For unweighted
graphs one BFS per source gives every distance in ``O(n m)`` per graph, which is what the slide's
``O(n^4)`` Floyd–Warshall becomes without weights.

A feature is packed in one int64 key ``label_u << 42 | label_v << 21 | d`` (labels and distances
below 2^21, checked by the caller), so keys mean the same thing in every batch and need no
per-batch vocabulary. Each graph sorts and counts its own keys, independently of the others: the
result does not depend on the thread count. The BFS loops look at the signals (_interrupt.pxd):
Ctrl-C stops a batch of large graphs.
"""

from cython.parallel cimport parallel, threadid
from libc.stdlib cimport malloc, free

from _bfs cimport bfs_depths
from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _sort cimport count_runs, sort
from _types cimport intp_t, int32_t, int64_t

cdef int LABEL_SHIFT = 42
cdef int SECOND_LABEL_SHIFT = 21


cdef intp_t _graph_keys(
    const intp_t *indptr, const int32_t *indices, const int32_t[::1] labels,
    intp_t first, intp_t n, intp_t *dist, intp_t *queue, int64_t *keys,
    InterruptState *interrupt,
) noexcept nogil:
    """BFS from every node of one graph; writes one key per ordered reachable pair u != v
    (stops early, keys incomplete, when a signal handler raised)."""
    cdef intp_t s, t, tail, v
    cdef intp_t n_keys = 0
    cdef int64_t source_part
    for s in range(n):
        if interrupted(interrupt):
            return n_keys
        tail = bfs_depths(indptr, indices, first, n, s, n, dist, queue)
        source_part = (<int64_t>labels[first + s]) << LABEL_SHIFT
        # Ordered pairs, as GraKeL: (u, v) and (v, u) are both counted.
        for t in range(1, tail):
            v = queue[t]
            keys[n_keys] = (source_part | ((<int64_t>labels[first + v]) << SECOND_LABEL_SHIFT)
                            | dist[v])
            n_keys += 1
    return n_keys


cdef int64_t _count_sorted(int64_t *keys, int64_t *counts, intp_t m) noexcept nogil:
    """Sort ``keys[:m]``, then compact in place: distinct keys first, their counts beside."""
    sort(keys, m)
    return count_runs(keys, NULL, counts, m)


def shortest_path_counts(
    const intp_t[::1] node_ptr,     # IN (n_graphs + 1,)
    const intp_t[::1] indptr,       # IN (n_nodes + 1,)
    const int32_t[::1] indices,     # IN (n_directed_edges,)
    const int32_t[::1] labels,      # IN (n_nodes,)
    const int64_t[::1] key_ptr,     # IN (n_graphs + 1,): graph g may use n_g (n_g - 1) slots
    int64_t[::1] keys,              # OUT (key_ptr[-1],)
    int64_t[::1] counts,            # OUT (key_ptr[-1],)
    int64_t[::1] n_distinct,        # OUT (n_graphs,)
    int n_threads=1,
):
    """Count the shortest-path features of every graph.

    Parameters
    ----------
    node_ptr, indptr, indices, labels : ndarrays
        The batch (see ``kernelkit.kernels._graph_input.GraphBatch``).
    key_ptr : ndarray of shape (n_graphs + 1,), int64
        Graph ``g`` owns the slots ``key_ptr[g]:key_ptr[g + 1]`` (at least ``n_g (n_g - 1)``).
    keys, counts : ndarrays of shape (key_ptr[-1],), int64
        Output: graph ``g``'s distinct keys, increasing, and their counts, in the first
        ``n_distinct[g]`` slots of its range.
    n_distinct : ndarray of shape (n_graphs,), int64
        Output: number of distinct keys of each graph.
    n_threads : int
    """
    cdef intp_t n_graphs = node_ptr.shape[0] - 1
    cdef intp_t max_nodes = 0
    cdef intp_t g, n, m, start
    cdef intp_t *buffers
    cdef intp_t *dist
    cdef intp_t *queue
    cdef int64_t *key_base
    cdef int64_t *count_base
    cdef const int32_t *edges = &indices[0] if indices.shape[0] > 0 else NULL
    cdef InterruptState interrupt
    cdef intp_t next_graph = 0, n_done = 0
    if keys.shape[0] == 0 or counts.shape[0] < keys.shape[0]:
        raise ValueError("keys and counts need at least one slot, and the same length.")
    key_base = &keys[0]
    count_base = &counts[0]
    for g in range(n_graphs):
        max_nodes = max(max_nodes, node_ptr[g + 1] - node_ptr[g])
    n_threads = max(1, min(n_threads, n_graphs))
    buffers = <intp_t*>malloc(n_threads * 2 * max(max_nodes, 1) * sizeof(intp_t))
    if buffers == NULL:
        raise MemoryError()
    interrupt_init(&interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            dist = buffers + threadid() * 2 * max_nodes
            queue = dist + max_nodes
            while True:
                g = next_item(&next_graph)
                if g >= n_graphs or interrupt.stop:
                    break
                n = node_ptr[g + 1] - node_ptr[g]
                start = key_ptr[g]
                m = _graph_keys(&indptr[0], edges, labels, node_ptr[g], n, dist, queue,
                                key_base + start, &interrupt)
                n_distinct[g] = _count_sorted(key_base + start, count_base + start, m)
            leave_team(&interrupt, &n_done)
    finally:
        free(buffers)
    if interrupt.stop:
        raise_pending()
