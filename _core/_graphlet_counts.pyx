"""Graphlet counts: every k-node induced subgraph (k = 3, 4) by enumeration, or uniform samples.

Shervashidze et al., AISTATS 2009; Mairal & Vert, "Example: Indexing by all subgraphs up to k
vertices". The induced subgraph on nodes ``x_0 < … < x_{k−1}`` is coded as a bitmask of its
``k (k − 1) / 2`` possible edges, pairs taken in the order (0, 1), (0, 2), …, (k − 2, k − 1);
the caller's table ``class_of_mask`` maps a mask to its isomorphism class. Enumeration costs
``C(n, k)`` adjacency tests per graph; sampling draws ``n_samples`` k-subsets per graph with a
splitmix64 stream (_random.pxd) seeded per graph, so results depend on the seeds, never on the
thread count. Enumeration of a large graph runs for hours: the loops look at the signals
(_interrupt.pxd), so Ctrl-C stops them.
"""

from cython.parallel cimport parallel

from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _random cimport splitmix64_below
from _types cimport intp_t, int32_t, int64_t, uint64_t


cdef inline bint _adjacent(const intp_t *indptr, const int32_t *indices, intp_t u, intp_t v) noexcept nogil:
    """Binary search of ``v`` in the sorted neighbour list of ``u`` (global ids)."""
    cdef intp_t lo = indptr[u], hi = indptr[u + 1], mid
    while lo < hi:
        mid = (lo + hi) // 2
        if indices[mid] == v:
            return True
        if indices[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return False


cdef inline intp_t _mask(const intp_t *indptr, const int32_t *indices, const intp_t *nodes,
                         int k) noexcept nogil:
    cdef intp_t mask = 0
    cdef int p, q, bit = 0
    for p in range(k):
        for q in range(p + 1, k):
            if _adjacent(indptr, indices, nodes[p], nodes[q]):
                mask |= (<intp_t>1) << bit
            bit += 1
    return mask


cdef void _enumerate(const intp_t *indptr, const int32_t *indices, intp_t first, intp_t n,
                     int k, const int32_t *class_of_mask, int64_t *counts,
                     InterruptState *interrupt) noexcept nogil:
    """All k-subsets (stops early, counts incomplete, when a signal handler raised)."""
    cdef intp_t nodes[4]
    cdef intp_t a, b, c, d
    for a in range(first, first + n):
        nodes[0] = a
        for b in range(a + 1, first + n):
            nodes[1] = b
            if interrupted(interrupt):     # O(n) masks of work (k = 3) between two looks
                return
            for c in range(b + 1, first + n):
                nodes[2] = c
                if k == 3:
                    counts[class_of_mask[_mask(indptr, indices, nodes, 3)]] += 1
                    continue
                if interrupted(interrupt):
                    return
                for d in range(c + 1, first + n):
                    nodes[3] = d
                    counts[class_of_mask[_mask(indptr, indices, nodes, 4)]] += 1


cdef void _sample(const intp_t *indptr, const int32_t *indices, intp_t first, intp_t n, int k,
                  const int32_t *class_of_mask, intp_t n_samples, uint64_t seed,
                  int64_t *counts, InterruptState *interrupt) noexcept nogil:
    cdef intp_t nodes[4]
    cdef intp_t s, p, q
    cdef uint64_t state = seed
    cdef bint distinct
    for s in range(n_samples):
        if s % 1024 == 0 and interrupted(interrupt):
            return
        # k distinct nodes, uniformly: redraw the whole tuple on a repeat (rejection).
        distinct = False
        while not distinct:
            distinct = True
            for p in range(k):
                nodes[p] = first + <intp_t>splitmix64_below(&state, <uint64_t>n)
                for q in range(p):
                    if nodes[q] == nodes[p]:
                        distinct = False
        counts[class_of_mask[_mask(indptr, indices, nodes, k)]] += 1


def graphlet_counts(
    const intp_t[::1] node_ptr,         # IN (n_graphs + 1,)
    const intp_t[::1] indptr,           # IN (n_nodes + 1,)
    const int32_t[::1] indices,         # IN (n_directed_edges,)
    int k,
    const int32_t[::1] class_of_mask,   # IN (2 ** (k (k - 1) / 2),)
    intp_t n_samples,
    const uint64_t[::1] seeds,          # IN (n_graphs,)
    int64_t[:, ::1] counts,             # OUT (n_graphs, n_classes), zeroed by the caller
    int n_threads=1,
):
    """Count the isomorphism classes of k-node induced subgraphs of every graph.

    Parameters
    ----------
    node_ptr, indptr, indices : ndarrays
        The batch (see ``kernelkit.kernels._graph_input.GraphBatch``).
    k : {3, 4}
    class_of_mask : ndarray of shape (2 ** (k (k - 1) / 2),), int32
        Isomorphism class of each edge bitmask.
    n_samples : int
        0 enumerates all ``C(n, k)`` node subsets; otherwise draws that many per graph.
    seeds : ndarray of shape (n_graphs,), uint64
        Per-graph seeds of the sampler (unused when enumerating).
    counts : ndarray of shape (n_graphs, n_classes), int64
        Output, zero on entry; graphs with fewer than k nodes keep zeros.
    n_threads : int
    """
    cdef intp_t n_graphs = node_ptr.shape[0] - 1
    cdef intp_t g, n
    cdef const int32_t *neighbours = &indices[0] if indices.shape[0] > 0 else NULL
    cdef InterruptState interrupt
    cdef intp_t next_graph = 0, n_done = 0
    if k != 3 and k != 4:
        raise ValueError(f"k must be 3 or 4, got {k}.")
    interrupt_init(&interrupt)
    with nogil, parallel(num_threads=n_threads):
        while True:
            g = next_item(&next_graph)
            if g >= n_graphs or interrupt.stop:
                break
            n = node_ptr[g + 1] - node_ptr[g]
            if n < k:
                continue
            if n_samples == 0:
                _enumerate(&indptr[0], neighbours, node_ptr[g], n, k, &class_of_mask[0],
                           &counts[g, 0], &interrupt)
            else:
                _sample(&indptr[0], neighbours, node_ptr[g], n, k, &class_of_mask[0],
                        n_samples, seeds[g], &counts[g, 0], &interrupt)
        leave_team(&interrupt, &n_done)
    if interrupt.stop:
        raise_pending()
