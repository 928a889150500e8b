"""GraphHopper kernel (Feragen, Kasenburg, Petersen, de Bruijne & Borgwardt, NeurIPS 2013): the
per-node shortest-path position counts and the pair sum of the Gaussian node kernel.

``M_v[a, b]`` counts the shortest paths of length ``b`` (over all ordered pairs of end points,
the path of length 0 from ``v`` to itself included) on which ``v`` sits at position ``a``. On an
unweighted graph one BFS per source ``s`` gives them all: with ``σ_s(v)`` the number of shortest
paths from ``s`` to ``v`` (summed over the BFS parents) and ``δ_s(v)[l]`` the number of
downward paths of length ``l`` from ``v`` in the shortest-path DAG of ``s`` (summed over the
children, in reverse BFS order), ``M_v[d(s, v), d(s, v) + l] += σ_s(v) δ_s(v)[l]`` — the paper's
occurrence and descendant vectors, ``O(n m δ)`` per graph.

Only ``a <= b < δ_g`` (``δ_g`` = diameter + 1 of graph ``g``) can be non-zero: a node's ``M`` is
stored as the packed upper triangle, entry ``(a, b)`` at ``b (b + 1) / 2 + a``, so ``T_g =
δ_g (δ_g + 1) / 2`` doubles per node. Ordering by ``b`` first makes the entries of every shorter
diameter a prefix: two graphs' ``⟨M_v, M_v'⟩_F`` is a dot product over the shorter prefix, with
no padding to a batch-wide diameter.
"""

from cython.parallel cimport parallel, threadid
from libc.math cimport exp
from libc.stdlib cimport free, malloc

from _bfs cimport bfs_depths
from _distances cimport gemm_abt, gemm_abt_strided, squared_distance_from_dot
from _pair_gram cimport fill_diagonal, fill_gram_rows
from _interrupt cimport (INTERRUPTED, InterruptState, interrupt_init, interrupted, leave_team,
                        next_item, raise_pending)
from _types cimport int32_t, intp_t

cdef enum Task:
    DIAMETERS
    WEIGHTS


cdef struct Batch:
    # what _each_graph runs, on which graphs (block-diagonal CSR, global node ids), into what
    Task task
    intp_t n_graphs
    const intp_t *node_ptr          # (n_graphs + 1,)
    const intp_t *indptr            # (n_nodes + 1,)
    const int32_t *indices          # NULL when the batch has no edge
    intp_t *diameters               # DIAMETERS: (n_graphs,) output
    const intp_t *n_lengths         # WEIGHTS: (n_graphs,) δ_g
    const intp_t *weight_ptr        # WEIGHTS: (n_graphs + 1,)
    double *weights                 # WEIGHTS: output, zero on entry
    # a thread's buffer (see _scratch)
    intp_t max_nodes
    intp_t max_lengths


cdef struct Scratch:
    # a thread's work space, sized for the batch's largest graph
    intp_t *dist                    # BFS distances
    intp_t *queue                   # BFS queue
    double *paths_in                # σ_s, per node
    double *paths_down              # δ_s, max_lengths per node


cdef intp_t _diameter(const Batch *batch, intp_t g, const Scratch *scratch,
                      InterruptState *interrupt) noexcept nogil:
    """Largest finite distance in graph ``g`` (stops early on a signal)."""
    cdef intp_t first = batch.node_ptr[g], n = batch.node_ptr[g + 1] - first
    cdef intp_t *dist = scratch.dist
    cdef intp_t *queue = scratch.queue
    cdef intp_t s, reached, largest = 0
    for s in range(n):
        if interrupted(interrupt):
            break
        reached = bfs_depths(batch.indptr, batch.indices, first, n, s, n, dist, queue)
        largest = max(largest, dist[queue[reached - 1]])    # the last node reached is farthest
    return largest


cdef void _graph_weights(const Batch *batch, intp_t g, const Scratch *scratch,
                         InterruptState *interrupt) noexcept nogil:
    """Add every source's counts to the packed ``M`` rows of graph ``g`` (``n`` rows of
    ``n_lengths (n_lengths + 1) / 2`` at ``batch.weights + batch.weight_ptr[g]``, zeroed); stops
    early on a signal."""
    cdef const intp_t *indptr = batch.indptr
    cdef const int32_t *indices = batch.indices
    cdef intp_t first = batch.node_ptr[g], n = batch.node_ptr[g + 1] - first
    cdef intp_t n_lengths = batch.n_lengths[g]
    cdef double *weights = batch.weights + batch.weight_ptr[g]
    cdef intp_t *dist = scratch.dist
    cdef intp_t *queue = scratch.queue
    cdef double *paths_in = scratch.paths_in
    cdef double *paths_down = scratch.paths_down
    cdef intp_t n_entries = n_lengths * (n_lengths + 1) // 2
    cdef intp_t s, t, u, v, k, l, a, b, reached, depth
    cdef double *down_u
    cdef double *down_v
    cdef double *row
    for s in range(n):
        if interrupted(interrupt):
            return
        reached = bfs_depths(indptr, indices, first, n, s, n, dist, queue)
        # σ_s: BFS order visits every parent (one step closer to s) before its children
        for t in range(reached):
            paths_in[queue[t]] = 0.0
        paths_in[s] = 1.0
        for t in range(reached):
            u = queue[t]
            for k in range(indptr[first + u], indptr[first + u + 1]):
                v = indices[k] - first
                if dist[v] == dist[u] + 1:
                    paths_in[v] += paths_in[u]
        # δ_s: reverse BFS order sees every child before its parents
        for t in range(reached - 1, -1, -1):
            u = queue[t]
            depth = n_lengths - 1 - dist[u]     # longest downward path that fits the diameter
            down_u = paths_down + u * n_lengths
            down_u[0] = 1.0
            for l in range(1, depth + 1):
                down_u[l] = 0.0
            for k in range(indptr[first + u], indptr[first + u + 1]):
                v = indices[k] - first
                if dist[v] == dist[u] + 1:
                    down_v = paths_down + v * n_lengths
                    for l in range(1, depth + 1):
                        down_u[l] += down_v[l - 1]
            a = dist[u]
            row = weights + u * n_entries
            for l in range(depth + 1):
                b = a + l
                row[b * (b + 1) // 2 + a] += paths_in[u] * down_u[l]


cdef void _take_graphs(const Batch *batch, char *mine, intp_t *next_graph,
                       InterruptState *interrupt) noexcept nogil:
    """One thread's share of ``batch.task``: graphs taken off the shared counter ``next_graph``
    until none is left or a signal stopped the team; its work space is its buffer ``mine``."""
    cdef Scratch scratch
    cdef intp_t g
    # σ and δ (doubles, first: aligned), then the BFS distances and queue
    scratch.paths_in = <double *>mine
    scratch.paths_down = scratch.paths_in + batch.max_nodes
    scratch.dist = <intp_t *>(scratch.paths_down + batch.max_nodes * batch.max_lengths)
    scratch.queue = scratch.dist + batch.max_nodes
    while True:
        g = next_item(next_graph)
        if g >= batch.n_graphs or interrupt.stop:
            break
        if batch.task == DIAMETERS:
            batch.diameters[g] = _diameter(batch, g, &scratch, interrupt)
        else:
            _graph_weights(batch, g, &scratch, interrupt)


cdef void _each_graph(Batch *batch, const intp_t[::1] node_ptr, const intp_t[::1] indptr,
                      const int32_t[::1] indices, int n_threads) except *:
    """Run ``batch.task`` (its outputs set by the caller) on every graph of the batch, in
    parallel over graphs (each writes its own outputs, so the result does not depend on the
    thread count); raises on a signal."""
    cdef intp_t g, per_thread
    cdef char *buffers
    cdef InterruptState interrupt
    cdef intp_t next_graph = 0, n_done = 0
    batch.n_graphs = node_ptr.shape[0] - 1
    batch.node_ptr = &node_ptr[0]
    batch.indptr = &indptr[0]
    batch.indices = &indices[0] if indices.shape[0] > 0 else NULL
    batch.max_nodes = max(_max_nodes(node_ptr), 1)
    batch.max_lengths = 1
    if batch.task == WEIGHTS:
        for g in range(batch.n_graphs):
            batch.max_lengths = max(batch.max_lengths, batch.n_lengths[g])
    per_thread = batch.max_nodes * ((1 + batch.max_lengths) * sizeof(double)
                                    + 2 * sizeof(intp_t))
    n_threads = max(1, min(n_threads, batch.n_graphs))
    buffers = <char *>malloc(n_threads * per_thread)
    if buffers == NULL:
        raise MemoryError(f"could not allocate {n_threads * per_thread} bytes of BFS scratch")
    interrupt_init(&interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            _take_graphs(batch, buffers + threadid() * per_thread, &next_graph, &interrupt)
            leave_team(&interrupt, &n_done)
    finally:
        free(buffers)
    if interrupt.stop:
        raise_pending()


def graph_diameters(
    const intp_t[::1] node_ptr,     # IN (n_graphs + 1,)
    const intp_t[::1] indptr,       # IN (n_nodes + 1,)
    const int32_t[::1] indices,     # IN (n_directed_edges,)
    intp_t[::1] diameters,          # OUT (n_graphs,)
    int n_threads=1,
):
    """Largest finite shortest-path distance within each graph (0 for a graph without edges).

    Parameters
    ----------
    node_ptr, indptr, indices : ndarrays
        The batch (``GraphBatch`` of ``kernelkit.kernels._graphs._encoding``).
    diameters : ndarray of shape (n_graphs,), intp
        Output.
    n_threads : int
    """
    cdef Batch batch
    batch.task = DIAMETERS
    batch.diameters = &diameters[0] if diameters.shape[0] > 0 else NULL
    batch.n_lengths = batch.weight_ptr = NULL
    batch.weights = NULL
    _each_graph(&batch, node_ptr, indptr, indices, n_threads)


def hopper_weights(
    const intp_t[::1] node_ptr,     # IN (n_graphs + 1,)
    const intp_t[::1] indptr,       # IN (n_nodes + 1,)
    const int32_t[::1] indices,     # IN (n_directed_edges,)
    const intp_t[::1] n_lengths,    # IN (n_graphs,): δ_g = diameter + 1
    const intp_t[::1] weight_ptr,   # IN (n_graphs + 1,): graph g's rows start at weight_ptr[g]
    double[::1] weights,            # OUT (weight_ptr[-1],), zeroed by the caller
    int n_threads=1,
):
    """The packed ``M`` matrices of every node, graph by graph (in parallel over graphs).

    Parameters
    ----------
    node_ptr, indptr, indices : ndarrays
        The batch (``GraphBatch`` of ``kernelkit.kernels._graphs._encoding``).
    n_lengths : ndarray of shape (n_graphs,), intp
        ``δ_g``: one more than the diameter of each graph (:func:`graph_diameters`).
    weight_ptr : ndarray of shape (n_graphs + 1,), intp
        Graph ``g`` owns ``weights[weight_ptr[g]:weight_ptr[g + 1]]``: ``n_g`` rows of
        ``δ_g (δ_g + 1) / 2`` entries, row-major.
    weights : ndarray of shape (weight_ptr[-1],), float64
        Output, zero on entry.
    n_threads : int
    """
    cdef Batch batch
    if weight_ptr.shape[0] != node_ptr.shape[0] or n_lengths.shape[0] + 1 != node_ptr.shape[0]:
        raise ValueError("n_lengths and weight_ptr must describe the batch's graphs.")
    if weights.shape[0] < weight_ptr[weight_ptr.shape[0] - 1]:
        raise ValueError("weights is shorter than weight_ptr[-1].")
    batch.task = WEIGHTS
    batch.diameters = NULL
    batch.n_lengths = &n_lengths[0] if n_lengths.shape[0] > 0 else NULL
    batch.weight_ptr = &weight_ptr[0]
    batch.weights = &weights[0] if weights.shape[0] > 0 else NULL
    _each_graph(&batch, node_ptr, indptr, indices, n_threads)


cdef struct Graphs:
    const intp_t *node_ptr          # (n_graphs + 1,)
    const intp_t *n_entries         # (n_graphs,): T_g
    const intp_t *weight_ptr        # (n_graphs + 1,)
    const double *weights           # packed M rows
    const double *attributes        # (n_nodes, n_attributes)
    const double *squared_norms     # (n_nodes,)
    int n_attributes
    intp_t max_nodes                # of a graph


cdef struct Context:
    Graphs a
    Graphs b
    double gamma


cdef int _gaussian_pair(const void *ctx, intp_t i, intp_t j, double *work, double *value,
                        InterruptState *interrupt) noexcept nogil:
    """``Σ_{v ∈ G_i, v' ∈ G_j} ⟨M_v, M_v'⟩ exp(-γ ‖x_v − x_v'‖²)``: the two inner-product
    matrices by GEMM, then one exponential per node pair with a non-zero weight."""
    cdef const Context *c = <const Context *>ctx
    cdef intp_t first_i = c.a.node_ptr[i], first_j = c.b.node_ptr[j]
    cdef int n_i = <int>(c.a.node_ptr[i + 1] - first_i), n_j = <int>(c.b.node_ptr[j + 1] - first_j)
    cdef int t_i = <int>c.a.n_entries[i], t_j = <int>c.b.n_entries[j]
    cdef int d = c.a.n_attributes
    cdef double *hop = work
    cdef double *dot = work + n_i * n_j
    cdef const double *norms_i = c.a.squared_norms + first_i
    cdef const double *norms_j = c.b.squared_norms + first_j
    cdef double total = 0.0, squared
    cdef intp_t u, v
    # entries past the shorter prefix are zero in that graph's M: the common prefix suffices
    gemm_abt_strided(c.a.weights + c.a.weight_ptr[i], n_i, t_i,
                     c.b.weights + c.b.weight_ptr[j], n_j, t_j, min(t_i, t_j), hop)
    gemm_abt(c.a.attributes + first_i * d, n_i, c.b.attributes + first_j * d, n_j, d, 1.0, 0.0,
             dot, n_j)
    for u in range(n_i):
        for v in range(n_j):
            if hop[u * n_j + v] != 0.0:
                squared = squared_distance_from_dot(norms_i[u], norms_j[v], dot[u * n_j + v])
                total += hop[u * n_j + v] * exp(-c.gamma * squared)
    value[0] = total
    return 0


cdef Graphs _graphs(tuple arrays):
    """The struct of one batch's arrays ``(node_ptr, n_entries, weight_ptr, weights,
    attributes, squared_norms)`` (``_HopperWeights.core_arrays()`` of
    ``kernelkit.kernels._graphs._graphhopper``), which the tuple keeps alive."""
    cdef const intp_t[::1] node_ptr, n_entries, weight_ptr
    cdef const double[::1] weights, squared_norms
    cdef const double[:, ::1] attributes
    cdef Graphs graphs
    node_ptr, n_entries, weight_ptr, weights, attributes, squared_norms = arrays
    graphs.node_ptr = &node_ptr[0]
    graphs.n_entries = &n_entries[0] if n_entries.shape[0] > 0 else NULL
    graphs.weight_ptr = &weight_ptr[0]
    graphs.weights = &weights[0] if weights.shape[0] > 0 else NULL
    graphs.attributes = &attributes[0, 0] if attributes.shape[0] > 0 else NULL
    graphs.squared_norms = &squared_norms[0] if squared_norms.shape[0] > 0 else NULL
    graphs.n_attributes = <int>attributes.shape[1]
    graphs.max_nodes = _max_nodes(node_ptr)
    return graphs


cdef intp_t _max_nodes(const intp_t[::1] node_ptr) noexcept:
    cdef intp_t g, m = 0
    for g in range(node_ptr.shape[0] - 1):
        m = max(m, node_ptr[g + 1] - node_ptr[g])
    return m


def gaussian_hopper_gram(
    tuple graphs_a,                      # IN batch A (below)
    tuple graphs_b,                      # IN batch B, the same; ignored when symmetric
    bint symmetric,                      # B is A: each pair once, mirrored
    double gamma,
    double[:, ::1] out,                  # OUT (n_a, n_b): rows [row_start, row_stop)
    intp_t row_start,
    intp_t row_stop,
    int n_threads=1,
):
    """Rows ``[row_start, row_stop)`` of the GraphHopper Gram matrix with the Gaussian node
    kernel ``exp(-gamma ‖x − x'‖²)``, through the pair driver (``_pair_gram.pxd``).

    Parameters
    ----------
    graphs_a, graphs_b : tuple of ndarrays
        Each batch as ``(node_ptr, n_entries, weight_ptr, weights, attributes,
        squared_norms)``: the graph node offsets (n + 1,), intp; the packed ``M`` rows of
        :func:`hopper_weights` (``n_entries[g] = δ_g (δ_g + 1) / 2``, (n,), intp; ``weight_ptr``
        (n + 1,), intp; ``weights``, float64); the node attributes (n_nodes, n_attributes) and
        their squared norms (n_nodes,), float64.
    symmetric : bool
    gamma : float
    out : ndarray of shape (n_a, n_b), float64
    row_start, row_stop : int
    n_threads : int
    """
    cdef Context ctx
    cdef intp_t n_marked
    cdef int status
    ctx.a = _graphs(graphs_a)
    ctx.b = ctx.a if symmetric else _graphs(graphs_b)
    ctx.gamma = gamma
    cdef intp_t work_size = 2 * ctx.a.max_nodes * ctx.b.max_nodes
    with nogil:
        status = fill_gram_rows(_gaussian_pair, &ctx, out, row_start, row_stop, symmetric,
                                work_size, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError(f"could not allocate {work_size} doubles of scratch per thread")


def gaussian_hopper_diagonal(
    tuple graphs,                        # IN the batch, as graphs_a of gaussian_hopper_gram
    double gamma,
    double[::1] out,                     # OUT (n,): k(G_i, G_i)
    int n_threads=1,
):
    """Self-similarities ``k(G_i, G_i)`` (arguments as :func:`gaussian_hopper_gram`)."""
    cdef Context ctx
    cdef intp_t n_marked
    cdef int status
    ctx.a = _graphs(graphs)
    ctx.b = ctx.a
    ctx.gamma = gamma
    cdef intp_t work_size = 2 * ctx.a.max_nodes * ctx.a.max_nodes
    with nogil:
        status = fill_diagonal(_gaussian_pair, &ctx, out, work_size, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError(f"could not allocate {work_size} doubles of scratch per thread")
