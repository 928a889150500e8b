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
from _random cimport splitmix64_mix
from _sort cimport count_runs, sort, sort_pairs
from _types cimport intp_t, int32_t, int64_t, uint64_t

cdef uint64_t GOLDEN = <uint64_t>0x9E3779B97F4A7C15
cdef intp_t SIZE_LIMIT = (<intp_t>1) << 61

# The decompositions by code, also module attributes (``_graph_decompositions.NSPDK``, ...: a
# kernel class names its own).
cpdef enum:
    NSPDK = 0
    ODDST = 1


cdef struct Problem:
    # the batch (block-diagonal CSR, global node ids; see the entry's docstring)
    intp_t n_graphs
    const intp_t *node_ptr
    const intp_t *indptr
    const int32_t *indices          # NULL when the batch has no edge
    const int32_t *node_labels
    const int32_t *edge_labels
    # the decomposition
    int kind
    intp_t r
    intp_t d
    # the outputs: the counting pass writes n_distinct only
    bint counting
    const int64_t *key_ptr
    uint64_t *keys
    intp_t *values
    int64_t *counts
    int64_t *n_distinct
    # a thread's buffer: its regions' byte offsets and size (see _scratch)
    size_t off_work
    size_t off_hashes
    size_t off_codes
    size_t off_sequence
    size_t per_thread


cdef struct Graph:
    # one graph of the batch: its global nodes first .. first + n - 1
    const intp_t *indptr
    const int32_t *indices
    const int32_t *node_labels
    const int32_t *edge_labels
    intp_t first
    intp_t n


cdef struct Scratch:
    # a thread's work space, sized for the batch's largest graph
    intp_t *dist                    # NSPDK: (n, n) distances; ODD-ST: the BFS depths
    intp_t *queue                   # the BFS queue; NSPDK: the ball
    uint64_t *hashes                # NSPDK: (r + 1, n) neighbourhood invariants
    intp_t *sizes                   # ODD-ST: the tree sizes (the region of hashes)
    uint64_t *codes                 # per node
    uint64_t *sequence              # max(n, edges) values to sort


cdef inline uint64_t _combine(uint64_t h, uint64_t x) noexcept nogil:
    return splitmix64_mix(h ^ splitmix64_mix(x + GOLDEN))


cdef inline uint64_t _hash_sequence(uint64_t h, const uint64_t *values, intp_t n) noexcept nogil:
    cdef intp_t i
    h = _combine(h, <uint64_t>n)
    for i in range(n):
        h = _combine(h, values[i])
    return h


cdef void _distances(const Graph *g, intp_t max_depth, intp_t *dist, intp_t *queue,
                     InterruptState *interrupt) noexcept nogil:
    """``dist[s n + t]``: distance from ``s`` to ``t`` when at most ``max_depth``, else -1
    (stops early on a signal)."""
    cdef intp_t s, n = g.n
    for s in range(n):
        if interrupted(interrupt):
            return
        bfs_depths(g.indptr, g.indices, g.first, n, s, max_depth, dist + s * n, queue)


cdef uint64_t _neighbourhood_hash(const Graph *g, const Scratch *scratch, intp_t v,
                                  intp_t radius) noexcept nogil:
    """Invariant of the subgraph of radius ``radius`` rooted at ``v`` (from the distances
    ``scratch.dist``; ``scratch.codes``: per node, ``scratch.queue`` (the ball) and
    ``scratch.sequence``: work space)."""
    cdef const intp_t *indptr = g.indptr
    cdef const int32_t *indices = g.indices
    cdef const int32_t *node_labels = g.node_labels
    cdef const int32_t *edge_labels = g.edge_labels
    cdef intp_t first = g.first, n = g.n
    cdef const intp_t *dist = scratch.dist
    cdef intp_t *ball = scratch.queue
    cdef uint64_t *codes = scratch.codes
    cdef uint64_t *sequence = scratch.sequence
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
    const Graph *g, intp_t r, intp_t d, const Scratch *scratch, uint64_t *keys, intp_t *levels,
    int64_t *counts, InterruptState *interrupt,
) noexcept nogil:
    """NSPDK: distinct features of one graph, sorted by key, with their levels and counts;
    returns their number (-1 when a signal handler raised)."""
    cdef intp_t n = g.n
    cdef intp_t *dist = scratch.dist
    cdef uint64_t *hashes = scratch.hashes
    cdef intp_t v, rho, a, b, delta, level
    cdef intp_t m = 0
    _distances(g, max(2 * r, d), dist, scratch.queue, interrupt)
    for v in range(n):
        if interrupted(interrupt):
            return -1
        for rho in range(r + 1):
            hashes[rho * n + v] = _neighbourhood_hash(g, scratch, v, rho)
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
    const Graph *g, intp_t h, const Scratch *scratch, uint64_t *keys, intp_t *tree_sizes,
    int64_t *counts, InterruptState *interrupt,
) noexcept nogil:
    """ODD-ST_h: distinct tree visits of one graph, sorted by code, with their sizes and counts;
    returns their number (-1 when a signal handler raised)."""
    cdef const intp_t *indptr = g.indptr
    cdef const int32_t *indices = g.indices
    cdef const int32_t *node_labels = g.node_labels
    cdef intp_t first = g.first, n = g.n
    cdef intp_t *depth = scratch.dist
    cdef intp_t *queue = scratch.queue
    cdef intp_t *sizes = scratch.sizes
    cdef uint64_t *codes = scratch.codes
    cdef uint64_t *sequence = scratch.sequence
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


cdef int64_t _n_pairs_within(const Graph *g, intp_t d, intp_t *depth, intp_t *queue,
                             InterruptState *interrupt) noexcept nogil:
    """Ordered pairs of one graph's nodes at distance at most ``d`` (BFS cut at ``d``)."""
    cdef intp_t s
    cdef int64_t total = 0
    for s in range(g.n):
        if interrupted(interrupt):
            return total
        total += bfs_depths(g.indptr, g.indices, g.first, g.n, s, d, depth, queue)
    return total


cdef Scratch _scratch(const Problem *pb, char *mine) noexcept nogil:
    """A thread's regions of its buffer ``mine`` (``pb.per_thread`` bytes)."""
    cdef Scratch scratch
    scratch.dist = <intp_t *>mine
    scratch.queue = <intp_t *>(mine + pb.off_work)
    scratch.hashes = <uint64_t *>(mine + pb.off_hashes)
    scratch.sizes = <intp_t *>(mine + pb.off_hashes)
    scratch.codes = <uint64_t *>(mine + pb.off_codes)
    scratch.sequence = <uint64_t *>(mine + pb.off_sequence)
    return scratch


cdef void _take_graphs(const Problem *pb, char *mine, intp_t *next_graph,
                       InterruptState *interrupt) noexcept nogil:
    """One thread's share: graphs taken off the shared counter ``next_graph`` until none is
    left or a signal stopped the team; the thread's work space is its buffer ``mine``."""
    cdef intp_t n_graphs = pb.n_graphs
    cdef Scratch scratch = _scratch(pb, mine)
    cdef Graph graph
    cdef intp_t g, found
    cdef int64_t slot
    graph.indptr = pb.indptr
    graph.indices = pb.indices
    graph.node_labels = pb.node_labels
    graph.edge_labels = pb.edge_labels
    while True:
        g = next_item(next_graph)
        if g >= n_graphs or interrupt.stop:
            break
        graph.first = pb.node_ptr[g]
        graph.n = pb.node_ptr[g + 1] - graph.first
        if pb.counting:
            pb.n_distinct[g] = _n_pairs_within(&graph, pb.d, scratch.dist, scratch.queue,
                                               interrupt)
            continue
        slot = pb.key_ptr[g]
        if pb.kind == NSPDK:
            found = _nspdk_graph(&graph, pb.r, pb.d, &scratch, pb.keys + slot,
                                 pb.values + slot, pb.counts + slot, interrupt)
        else:
            found = _oddst_graph(&graph, pb.d, &scratch, pb.keys + slot, pb.values + slot,
                                 pb.counts + slot, interrupt)
        pb.n_distinct[g] = max(found, 0)


def decomposition_features(
    object batch,                   # IN node_ptr, indptr, indices, node_labels, edge_labels
    dict decomposition,             # IN kind, r, d
    dict features,                  # IN key_ptr; OUT keys, values, counts; None: counting pass
    int64_t[::1] n_distinct,        # OUT (n_graphs,)
    int n_threads=1,
):
    """Count the features of every graph, in two passes.

    The first pass (``features=None``) writes into ``n_distinct[g]`` the number of ordered node
    pairs ``(a, b)`` of graph ``g`` at distance at most ``d`` (``a == b`` included): graph ``g``
    then needs ``r + 1`` times that many slots (NSPDK), or that many (ODD-ST, one per node of
    each DAG visit). The second pass writes the features.

    Parameters
    ----------
    batch : GraphBatch
        The batch (``kernelkit.kernels._graphs._encoding.GraphBatch``): its attributes
        ``node_ptr`` (n_graphs + 1,) and ``indptr`` (n_nodes + 1,), intp; ``indices`` and
        ``edge_labels`` (n_directed_edges,) and ``node_labels`` (n_nodes,), int32. ODD-ST does
        not read the edge labels.
    decomposition : dict
        ``kind``: ``NSPDK`` or ``ODDST``, the module's codes; ``r``, ``d`` (int): NSPDK's
        largest radius and largest distance; ODD-ST: ``r`` unused (0), ``d`` the depth ``h`` of
        the DAG visits.
    features : dict or None
        None for the first pass. Else ``key_ptr`` (n_graphs + 1,), int64: graph ``g`` owns the
        slots ``key_ptr[g]:key_ptr[g + 1]``; and the outputs, each of shape (key_ptr[-1],):
        ``keys``, uint64: graph ``g``'s distinct feature keys, increasing, in the first
        ``n_distinct[g]`` slots of its range; ``values``, intp: what each key carries, its
        level ``rho (d + 1) + delta`` (NSPDK) or the size of its tree (ODD-ST); ``counts``,
        int64: the number of occurrences of each key.
    n_distinct : ndarray of shape (n_graphs,), int64
        Output: the number of pairs (first pass) or of distinct keys (second pass) per graph.
    n_threads : int
    """
    cdef const intp_t[::1] node_ptr = batch.node_ptr
    cdef const intp_t[::1] indptr = batch.indptr
    cdef const int32_t[::1] indices = batch.indices
    cdef const int32_t[::1] node_labels = batch.node_labels
    cdef const int32_t[::1] edge_labels = batch.edge_labels
    cdef const int64_t[::1] key_ptr
    cdef uint64_t[::1] keys
    cdef intp_t[::1] values
    cdef int64_t[::1] counts
    cdef Problem pb
    cdef intp_t n_graphs = node_ptr.shape[0] - 1
    cdef intp_t max_nodes = 1, max_edges = 1
    cdef intp_t g
    cdef char *buffers
    cdef InterruptState interrupt
    cdef intp_t next_graph = 0, n_done = 0
    pb.kind = decomposition["kind"]
    pb.r = decomposition["r"]
    pb.d = decomposition["d"]
    if pb.kind != NSPDK and pb.kind != ODDST:
        raise ValueError(f"unknown decomposition {pb.kind}.")
    pb.counting = features is None
    pb.key_ptr, pb.keys, pb.values, pb.counts = NULL, NULL, NULL, NULL
    if not pb.counting:
        key_ptr, keys = features["key_ptr"], features["keys"]
        values, counts = features["values"], features["counts"]
        if (keys.shape[0] < key_ptr[n_graphs] or values.shape[0] < keys.shape[0]
                or counts.shape[0] < keys.shape[0]):
            raise ValueError("keys, values and counts need key_ptr[-1] slots.")
        pb.key_ptr = &key_ptr[0]
        pb.keys = &keys[0] if keys.shape[0] > 0 else NULL
        pb.values = &values[0] if values.shape[0] > 0 else NULL
        pb.counts = &counts[0] if counts.shape[0] > 0 else NULL
    pb.n_graphs = n_graphs
    pb.node_ptr = &node_ptr[0]
    pb.indptr = &indptr[0]
    pb.indices = &indices[0] if indices.shape[0] > 0 else NULL
    pb.node_labels = &node_labels[0] if node_labels.shape[0] > 0 else NULL
    pb.edge_labels = &edge_labels[0] if edge_labels.shape[0] > 0 else NULL
    pb.n_distinct = &n_distinct[0] if n_distinct.shape[0] > 0 else NULL
    for g in range(n_graphs):
        max_nodes = max(max_nodes, node_ptr[g + 1] - node_ptr[g])
        max_edges = max(max_edges, indptr[node_ptr[g + 1]] - indptr[node_ptr[g]])
    n_threads = max(1, min(n_threads, n_graphs))
    # NSPDK: distances (n² intp), BFS queue / ball (n), hashes per radius ((r + 1) n), node
    # codes (n), a sequence to sort (max(n, edges)); ODD-ST: depths and tree sizes in the first
    # and third regions (r = 0)
    pb.off_work = max_nodes * max_nodes * sizeof(intp_t)
    pb.off_hashes = pb.off_work + max_nodes * sizeof(intp_t)
    pb.off_codes = pb.off_hashes + (pb.r + 1) * max_nodes * sizeof(uint64_t)
    pb.off_sequence = pb.off_codes + max_nodes * sizeof(uint64_t)
    pb.per_thread = pb.off_sequence + max(max_nodes, max_edges) * sizeof(uint64_t)
    buffers = <char*>malloc(n_threads * pb.per_thread)
    if buffers == NULL:
        raise MemoryError()
    interrupt_init(&interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            _take_graphs(&pb, buffers + threadid() * pb.per_thread, &next_graph, &interrupt)
            leave_team(&interrupt, &n_done)
    finally:
        free(buffers)
    if interrupt.stop:
        raise_pending()
