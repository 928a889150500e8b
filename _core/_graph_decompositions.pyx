"""Features of the kernels that decompose graphs into rooted pieces: the neighbourhood subgraph
pairwise distance kernel (NSPDK) and the ODD-ST_h kernel. Each graph is processed by one thread,
sorts and counts its own feature occurrences, so the result does not depend on the thread count;
the loops look at the signals (_interrupt.pxd).

NSPDK (Costa & De Grave, "Fast neighborhood subgraph pairwise distance kernel", ICML 2010). For
every graph: the distances of all node pairs up to ``max(2 r, d)`` (one BFS per node, cut at that
depth), then for every root ``v`` and radius ``rho <= r`` a 64-bit invariant ``H[rho, v]`` of the
rooted neighbourhood subgraph ``N_rho(v)`` (the nodes at distance ``<= rho`` from ``v`` and the
edges between them):

- each node ``u`` of the ball gets the code ``hash(dist(v, u), sorted [(dist(u, w), label(w))
  for w in the ball])`` (distances in the whole graph, as GraKeL's);
- the neighbourhood gets ``hash(sorted node codes, sorted [(min code, max code, edge label)
  for each edge of the ball])``.

Each ordered pair ``(A, B)`` of nodes at distance ``delta <= d`` then gives, for every radius, one
occurrence of the feature ``hash(level, H[rho, A], H[rho, B])``, carried with its level
``rho (d + 1) + delta``.

ODD-ST_h (Da San Martino, Navarin & Sperduti, "A tree-based kernel for graphs", SDM 2012). For
every root ``v``, the DAG of the BFS from ``v`` cut at depth ``h`` (an edge ``u -> w`` for every
graph edge with ``depth(w) = depth(u) + 1``); every node ``u`` of it gives one occurrence of its
tree visit (the DAG unfolded from ``u``), coded bottom-up as ``hash(label(u), sorted codes of
its children)``: the ordering of the children by their codes is the canonical order that makes
the code an invariant. It is carried with the number of nodes of the unfolded tree (saturated at
2⁶¹: it grows like the number of paths), the exponent of the kernel's weight.

The hash chains the splitmix64 finaliser (Steele, Lea & Flood, OOPSLA 2014) over a sequence:
``h <- fmix(h ^ fmix(x + golden))``, started from the sequence's length. Two different
invariants share a 64-bit code with probability about ``n² / 2⁶⁵`` for ``n`` distinct ones
(below 10⁻⁷ for a million); the readable twins in ``kernelkit.reference.graph_decompositions``
compare the exact sorted tuples instead.
"""

from cython.parallel cimport parallel, threadid
from libc.stdint cimport uint32_t
from libc.stdlib cimport malloc, free

from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _bfs cimport bfs_depths
from _sort cimport count_runs, sort, sort_pairs
from _types cimport intp_t, int32_t, int64_t, uint64_t

cdef uint64_t GOLDEN = <uint64_t>0x9E3779B97F4A7C15
cdef intp_t SIZE_LIMIT = (<intp_t>1) << 61

cdef enum:
    NSPDK = 0
    ODDST = 1

DECOMPOSITIONS = {"nspdk": NSPDK, "oddst": ODDST}


cdef inline uint64_t _fmix(uint64_t z) noexcept nogil:
    """splitmix64's output function: a bijection of 64-bit words that mixes every bit."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t _combine(uint64_t h, uint64_t x) noexcept nogil:
    return _fmix(h ^ _fmix(x + GOLDEN))


cdef inline uint64_t _hash_sequence(uint64_t h, const uint64_t *values, intp_t n) noexcept nogil:
    cdef intp_t i
    h = _combine(h, <uint64_t>n)
    for i in range(n):
        h = _combine(h, values[i])
    return h


cdef void _distances(const intp_t[::1] indptr, const int32_t[::1] indices, intp_t first,
                     intp_t n, intp_t max_depth, intp_t *dist, intp_t *queue) noexcept nogil:
    """``dist[s n + t]``: distance from ``s`` to ``t`` when at most ``max_depth``, else -1."""
    cdef intp_t s
    for s in range(n):
        bfs_depths(indptr, indices, first, n, s, max_depth, dist + s * n, queue)


cdef uint64_t _neighbourhood_hash(
    const intp_t[::1] indptr, const int32_t[::1] indices, const int32_t[::1] node_labels,
    const int32_t[::1] edge_labels, intp_t first, intp_t n, const intp_t *dist, intp_t v,
    intp_t radius, intp_t *ball, uint64_t *codes, uint64_t *sequence,
) noexcept nogil:
    """Invariant of the subgraph of radius ``radius`` rooted at ``v`` (``codes``: per node of
    the graph, ``ball`` and ``sequence``: work space of ``n`` and ``max(n, edges)`` entries)."""
    cdef const intp_t *root_row = dist + v * n
    cdef const intp_t *row
    cdef intp_t n_ball = 0, i, j, u, w, k, n_edges = 0
    cdef uint64_t a, b, h_nodes
    for u in range(n):
        if 0 <= root_row[u] <= radius:
            ball[n_ball] = u
            n_ball += 1
    for i in range(n_ball):
        u = ball[i]
        row = dist + u * n
        for j in range(n_ball):
            w = ball[j]
            # every pair of the ball is within 2 radius <= the BFS depth: row[w] >= 0
            sequence[j] = ((<uint64_t>row[w]) << 32) | <uint64_t><uint32_t>node_labels[first + w]
        sort(sequence, n_ball)
        codes[u] = _hash_sequence(<uint64_t>root_row[u], sequence, n_ball)
    for i in range(n_ball):
        sequence[i] = codes[ball[i]]
    sort(sequence, n_ball)
    h_nodes = _hash_sequence(0, sequence, n_ball)
    for i in range(n_ball):
        u = ball[i]
        for k in range(indptr[first + u], indptr[first + u + 1]):
            w = indices[k] - first
            if w > u and 0 <= root_row[w] <= radius:
                a = codes[u]
                b = codes[w]
                if a > b:
                    a, b = b, a
                sequence[n_edges] = _combine(_combine(a, b), <uint64_t><uint32_t>edge_labels[k])
                n_edges += 1
    sort(sequence, n_edges)
    return _hash_sequence(h_nodes, sequence, n_edges)


cdef intp_t _nspdk_graph(
    const intp_t[::1] indptr, const int32_t[::1] indices, const int32_t[::1] node_labels,
    const int32_t[::1] edge_labels, intp_t first, intp_t n, intp_t r, intp_t d,
    intp_t *dist, intp_t *work, uint64_t *hashes, uint64_t *codes, uint64_t *sequence,
    uint64_t *keys, intp_t *levels, int64_t *counts, InterruptState *interrupt,
) noexcept nogil:
    """NSPDK: distinct features of one graph, sorted by key, with their levels and counts;
    returns their number (-1 when a signal handler raised)."""
    cdef intp_t v, rho, a, b, delta, level
    cdef intp_t m = 0
    _distances(indptr, indices, first, n, max(2 * r, d), dist, work)
    for v in range(n):
        if interrupted(interrupt):
            return -1
        for rho in range(r + 1):
            hashes[rho * n + v] = _neighbourhood_hash(
                indptr, indices, node_labels, edge_labels, first, n, dist, v, rho, work, codes,
                sequence)
    for a in range(n):
        for b in range(n):
            delta = dist[a * n + b]
            if delta < 0 or delta > d:
                continue
            for rho in range(r + 1):
                level = rho * (d + 1) + delta
                keys[m] = _combine(_combine(<uint64_t>level, hashes[rho * n + a]),
                                   hashes[rho * n + b])
                levels[m] = level
                m += 1
    sort_pairs(keys, levels, m)
    return count_runs(keys, levels, counts, m)


cdef intp_t _oddst_graph(
    const intp_t[::1] indptr, const int32_t[::1] indices, const int32_t[::1] node_labels,
    intp_t first, intp_t n, intp_t h, intp_t *depth, intp_t *queue, intp_t *sizes,
    uint64_t *codes, uint64_t *sequence, uint64_t *keys, intp_t *tree_sizes, int64_t *counts,
    InterruptState *interrupt,
) noexcept nogil:
    """ODD-ST_h: distinct tree visits of one graph, sorted by code, with their sizes and counts;
    returns their number (-1 when a signal handler raised)."""
    cdef intp_t v, t, u, k, w, tail, n_children, size
    cdef intp_t m = 0
    for v in range(n):
        if interrupted(interrupt):
            return -1
        tail = bfs_depths(indptr, indices, first, n, v, h, depth, queue)
        # reverse BFS order: the children (one level deeper) are coded before their parent
        for t in range(tail - 1, -1, -1):
            u = queue[t]
            n_children = 0
            size = 1
            for k in range(indptr[first + u], indptr[first + u + 1]):
                w = indices[k] - first
                if depth[w] == depth[u] + 1:
                    sequence[n_children] = codes[w]
                    n_children += 1
                    # saturating: both terms are at most SIZE_LIMIT = 2⁶¹, their sum fits in 63 bits
                    size = min(size + sizes[w], SIZE_LIMIT)
            sort(sequence, n_children)
            codes[u] = _hash_sequence(_combine(GOLDEN, <uint64_t><uint32_t>node_labels[first + u]),
                                      sequence, n_children)
            sizes[u] = size
            keys[m] = codes[u]
            tree_sizes[m] = size
            m += 1
    sort_pairs(keys, tree_sizes, m)
    return count_runs(keys, tree_sizes, counts, m)


cdef int64_t _n_pairs_within(const intp_t[::1] indptr, const int32_t[::1] indices, intp_t first,
                             intp_t n, intp_t d, intp_t *depth, intp_t *queue,
                             InterruptState *interrupt) noexcept nogil:
    """Ordered pairs of one graph's nodes at distance at most ``d`` (BFS cut at ``d``)."""
    cdef intp_t s
    cdef int64_t total = 0
    for s in range(n):
        if interrupted(interrupt):
            return total
        total += bfs_depths(indptr, indices, first, n, s, d, depth, queue)
    return total


def decomposition_features(
    int kind,
    intp_t r,
    intp_t d,
    const intp_t[::1] node_ptr,     # IN (n_graphs + 1,)
    const intp_t[::1] indptr,       # IN (n_nodes + 1,)
    const int32_t[::1] indices,     # IN (n_directed_edges,)
    const int32_t[::1] node_labels,  # IN (n_nodes,)
    const int32_t[::1] edge_labels,  # IN (n_directed_edges,)
    const int64_t[::1] key_ptr,     # IN (n_graphs + 1,)
    uint64_t[::1] keys,             # OUT (key_ptr[-1],)
    intp_t[::1] values,             # OUT (key_ptr[-1],)
    int64_t[::1] counts,            # OUT (key_ptr[-1],)
    int64_t[::1] n_distinct,        # OUT (n_graphs,)
    bint counting=False,
    int n_threads=1,
):
    """Count the features of every graph, in two passes.

    The first pass (``counting=True``) writes into ``n_distinct[g]`` the number of ordered node
    pairs ``(a, b)`` of graph ``g`` at distance at most ``d`` (``a == b`` included) and leaves
    ``key_ptr``, ``keys``, ``values``, ``counts`` alone: graph ``g`` then needs ``r + 1`` times
    that many slots (NSPDK), or that many (ODD-ST, one per node of each DAG visit). The second
    pass writes the features.

    Parameters
    ----------
    kind : int
        ``DECOMPOSITIONS["nspdk"]`` or ``DECOMPOSITIONS["oddst"]``.
    r, d : int
        NSPDK: largest radius and largest distance. ODD-ST: ``r`` unused (0), ``d`` the depth
        ``h`` of the DAG visits.
    node_ptr, indptr, indices, node_labels, edge_labels : ndarrays
        The batch (see ``kernelkit.kernels._graphs._input.GraphBatch``); ODD-ST does not read
        the edge labels.
    key_ptr : ndarray of shape (n_graphs + 1,), int64
        Graph ``g`` owns the slots ``key_ptr[g]:key_ptr[g + 1]``.
    keys : ndarray of shape (key_ptr[-1],), uint64
        Output: graph ``g``'s distinct feature keys, increasing, in the first ``n_distinct[g]``
        slots of its range.
    values : ndarray of shape (key_ptr[-1],), intp
        Output: what each key carries: its level ``rho (d + 1) + delta`` (NSPDK), the size of
        its tree (ODD-ST).
    counts : ndarray of shape (key_ptr[-1],), int64
        Output: the number of occurrences of each key.
    n_distinct : ndarray of shape (n_graphs,), int64
        Output: the number of pairs (first pass) or of distinct keys (second pass) per graph.
    counting : bool
        The first pass.
    n_threads : int
    """
    cdef intp_t n_graphs = node_ptr.shape[0] - 1
    cdef intp_t max_nodes = 1, max_edges = 1
    cdef intp_t g, n, first, found
    cdef size_t per_thread, off_work, off_hashes, off_codes, off_sequence
    cdef char *buffers
    cdef char *mine
    cdef InterruptState interrupt
    cdef intp_t next_graph = 0, n_done = 0
    if kind != NSPDK and kind != ODDST:
        raise ValueError(f"unknown decomposition {kind}.")
    if not counting and (keys.shape[0] < key_ptr[n_graphs] or values.shape[0] < keys.shape[0]
                         or counts.shape[0] < keys.shape[0]):
        raise ValueError("keys, values and counts need key_ptr[-1] slots.")
    for g in range(n_graphs):
        max_nodes = max(max_nodes, node_ptr[g + 1] - node_ptr[g])
        max_edges = max(max_edges, indptr[node_ptr[g + 1]] - indptr[node_ptr[g]])
    n_threads = max(1, min(n_threads, n_graphs))
    # NSPDK: distances (n² intp), BFS queue / ball (n), hashes per radius ((r + 1) n), node
    # codes (n), a sequence to sort (max(n, edges)); ODD-ST: depths and tree sizes in the first
    # two regions (r = 0)
    off_work = max_nodes * max_nodes * sizeof(intp_t)
    off_hashes = off_work + max_nodes * sizeof(intp_t)
    off_codes = off_hashes + (r + 1) * max_nodes * sizeof(uint64_t)
    off_sequence = off_codes + max_nodes * sizeof(uint64_t)
    per_thread = off_sequence + max(max_nodes, max_edges) * sizeof(uint64_t)
    buffers = <char*>malloc(n_threads * per_thread)
    if buffers == NULL:
        raise MemoryError()
    interrupt_init(&interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            mine = buffers + threadid() * per_thread
            while True:
                g = next_item(&next_graph)
                if g >= n_graphs or interrupt.stop:
                    break
                first = node_ptr[g]
                n = node_ptr[g + 1] - first
                if counting:
                    n_distinct[g] = _n_pairs_within(indptr, indices, first, n, d,
                                                    <intp_t*>mine, <intp_t*>(mine + off_work),
                                                    &interrupt)
                    continue
                if kind == NSPDK:
                    found = _nspdk_graph(
                        indptr, indices, node_labels, edge_labels, first, n, r, d,
                        <intp_t*>mine, <intp_t*>(mine + off_work),
                        <uint64_t*>(mine + off_hashes), <uint64_t*>(mine + off_codes),
                        <uint64_t*>(mine + off_sequence), &keys[key_ptr[g]],
                        &values[key_ptr[g]], &counts[key_ptr[g]], &interrupt)
                else:
                    found = _oddst_graph(
                        indptr, indices, node_labels, first, n, d, <intp_t*>mine,
                        <intp_t*>(mine + off_work), <intp_t*>(mine + off_hashes),
                        <uint64_t*>(mine + off_codes), <uint64_t*>(mine + off_sequence),
                        &keys[key_ptr[g]], &values[key_ptr[g]], &counts[key_ptr[g]],
                        &interrupt)
                n_distinct[g] = max(found, 0)
            leave_team(&interrupt, &n_done)
    finally:
        free(buffers)
    if interrupt.stop:
        raise_pending()
