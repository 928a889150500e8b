"""Core numbers of every node of a batch of graphs: Batagelj & Zaversnik's O(n + m) peeling.

A node's core number is the largest ``k`` such that it belongs to a subgraph where every node
has degree ``>= k`` (the ``k``-core). Peeling removes the nodes in increasing order of their
current degree, kept sorted by a bucket sort: removing a node lowers each remaining
neighbour's degree by one, which moves it one bucket down in O(1). Graphs of a batch are the
blocks of one block-diagonal adjacency, and a node's core number depends only on its own
connected component, so one peeling of the whole batch gives every graph's core numbers.

The peeling is linear but reads the neighbours of each node at random places: a batch of tens of
millions of adjacency entries takes seconds, so it looks at the signals (_interrupt.pxd) every
``CHECK_WORK`` adjacency entries and Ctrl-C stops it.

V. Batagelj, M. Zaversnik. An O(m) algorithm for cores decomposition of networks.
arXiv:cs/0310049, 2003 (Algorithm "cores").
"""

from libc.stdlib cimport malloc, free

from _interrupt cimport (CHECK_WORK, INTERRUPTED, InterruptState, interrupt_init, interrupted,
                         raise_pending)
from _types cimport intp_t, int32_t


cdef int _core_numbers(
    const intp_t[::1] indptr, const int32_t[::1] indices, int32_t[::1] core,
    intp_t *bin_start, intp_t *position, intp_t *order, InterruptState *interrupt,
) noexcept nogil:
    """Fill ``core``; 0, or INTERRUPTED when a signal handler raised (``core`` then holds the
    final core numbers of the nodes peeled so far, current degrees elsewhere)."""
    cdef intp_t n = core.shape[0]
    cdef intp_t v, u, k, e, d, max_degree = 0, start, pu, pw, w, du
    cdef intp_t work = 0  # adjacency entries read since the last look at the signals
    for v in range(n):
        d = indptr[v + 1] - indptr[v]
        core[v] = <int32_t>d  # current degree while peeling, core number once v is removed
        if d > max_degree:
            max_degree = d
    for d in range(max_degree + 1):
        bin_start[d] = 0
    for v in range(n):
        bin_start[core[v]] += 1
    start = 0
    for d in range(max_degree + 1):  # counts -> first position of each degree
        k = bin_start[d]
        bin_start[d] = start
        start += k
    for v in range(n):
        position[v] = bin_start[core[v]]
        order[position[v]] = v
        bin_start[core[v]] += 1
    for d in range(max_degree, 0, -1):
        bin_start[d] = bin_start[d - 1]
    bin_start[0] = 0
    for k in range(n):
        v = order[k]  # the remaining node of least current degree: its core number is final
        for e in range(indptr[v], indptr[v + 1]):
            u = indices[e]
            if core[u] > core[v]:
                # swap u with the first node of its bucket, then shrink the bucket by one
                du = core[u]
                pu = position[u]
                pw = bin_start[du]
                w = order[pw]
                if u != w:
                    position[u] = pw
                    order[pu] = w
                    position[w] = pu
                    order[pw] = u
                bin_start[du] += 1
                core[u] -= 1
        work += indptr[v + 1] - indptr[v] + 1
        if work >= CHECK_WORK:
            work = 0
            if interrupted(interrupt):
                return INTERRUPTED
    return 0


def core_numbers(
    const intp_t[::1] indptr,   # IN  (n_nodes + 1,) CSR row pointers (symmetric, no loops)
    const int32_t[::1] indices,  # IN  (n_entries,) neighbour ids
    int32_t[::1] core,           # OUT (n_nodes,) core number of every node
):
    """Core number of every node of an undirected graph given as CSR.

    Parameters
    ----------
    indptr : ndarray of shape (n_nodes + 1,), intp
    indices : ndarray of shape (n_entries,), int32
        Each undirected edge stored in both directions, no self-loops.
    core : ndarray of shape (n_nodes,), int32
        Filled with the core numbers.
    """
    cdef intp_t n = core.shape[0]
    cdef intp_t max_degree = 0
    cdef intp_t v
    cdef int status
    cdef InterruptState interrupt
    for v in range(n):
        if indptr[v + 1] - indptr[v] > max_degree:
            max_degree = indptr[v + 1] - indptr[v]
    cdef intp_t *bin_start = <intp_t *>malloc((max_degree + 1) * sizeof(intp_t))
    cdef intp_t *position = <intp_t *>malloc((n + 1) * sizeof(intp_t))
    cdef intp_t *order = <intp_t *>malloc((n + 1) * sizeof(intp_t))
    try:
        if bin_start == NULL or position == NULL or order == NULL:
            raise MemoryError(f"core decomposition of {n} nodes: out of memory")
        interrupt_init(&interrupt)
        with nogil:
            status = _core_numbers(indptr, indices, core, bin_start, position, order,
                                   &interrupt)
        if status == INTERRUPTED:
            raise_pending()
    finally:
        free(bin_start)
        free(position)
        free(order)
