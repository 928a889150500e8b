"""k nearest neighbours by a KD-tree: exact search for data in few dimensions.

The tree (``_kd_tree.pxd``: median splits on the axis of largest spread, a bounding box per
node) is built once over a reordered copy of the training rows, so that a leaf's rows are
contiguous in memory. A query descends depth-first, nearer child first, and skips every node
whose box is farther than its current k-th neighbour (Friedman, Bentley and Finkel, "An
algorithm for finding best matches in logarithmic expected time", ACM Transactions on
Mathematical Software 3(3), 1977); the rows of a leaf it reaches are offered to its bounded
max-heap (``_knn_heap.pxd``). Distances are summed in double precision by direct differences in
feature order, float32 rows included (no float64 copy of them), the same values as the exact
pass of the brute-force search; since a box's distance never exceeds that of a row inside it,
even in floating point, and a node is skipped only when strictly farther, the neighbours are
those of the brute force, ties broken by the smaller training index whatever the visit order.
Queries are taken by blocks, in parallel, each by one thread: results do not depend on the
thread count.

Sangnier, *Introduction to machine learning*, §1.6.1; Peyré, *Mathematical Foundations of Data
Sciences*, ch. 16, §16.4.1 ("fast nearest neighbor search methods may replace sorting").
"""

from cython.parallel cimport parallel, prange, threadid
from libc.math cimport fabs
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _kd_tree cimport KDNodes, kd_tree_build, kd_tree_levels
from _knn_heap cimport heap_offer, heap_reset, heap_sorted
from _knn_lanes cimport leaf_distances
from _types cimport floating, intp_t, kk_team_for_work

cdef enum SearchLimits:
    # queries per unit of work: a block never runs long between two looks at the signals
    QUERY_BLOCK = 16
    # the depth-first stack holds at most one pending node per level
    MAX_LEVELS = 48
    # largest leaf: the distances of a leaf's rows are kept on the stack
    MAX_LEAF_SIZE = 128


cdef inline double _box_distance(const floating *q, const double *lo, const double *hi,
                                 intp_t d) noexcept nogil:
    """Squared distance from ``q`` to the box ``[lo, hi]``: a lower bound, in floating point
    too, of :func:`_knn_lanes.leaf_distances` for every row in the box (each gap is at most the row's,
    rounding is monotone, and the terms are summed in the same order)."""
    cdef intp_t j
    cdef double s = 0.0, below, above, gap
    for j in range(d):
        # at most one of the two gaps is positive (lo <= hi); the terms of the coordinates
        # inside the box add an exact 0. Branch-free: written `gap if gap > 0 else 0`, the
        # compiler skipped the addition of a zero term by a branch, mispredicted about every
        # other coordinate (the search took 1.8x its time). (g + |g|) / 2 is g exactly for
        # g > 0 (2g and its half are exact) and 0 otherwise.
        below = lo[j] - <double>q[j]
        above = <double>q[j] - hi[j]
        gap = below if below > above else above
        gap = 0.5 * (gap + fabs(gap))
        s += gap * gap
    return s


cdef struct Tree:
    # The arrays of a tree (build_kd_tree) and the search's sizes, shared by the threads.
    const intp_t *sample_at     # (n_train,) training index of each position
    const intp_t *node_start    # (n_nodes,) first position of each node
    const intp_t *node_end      # (n_nodes,) one past its last position
    const double *node_lo       # (n_nodes, d) bounding boxes
    const double *node_hi       # (n_nodes, d)
    intp_t first_leaf
    intp_t n_train
    intp_t d
    intp_t k


cdef intp_t _query(
    const Tree *tree,
    const floating *q,          # IN (d,) the query
    const floating *points,     # IN (n_train * d,) the rows, leaf by leaf (build_kd_tree)
    double *dist,               # OUT (k,) squared distances, nearest first
    intp_t *idx,                # OUT (k,) their training indices
) noexcept nogil:
    """The ``k`` nearest training rows of one query into ``dist``/``idx`` (sorted); returns the
    number of rows whose distance it computed."""
    cdef const intp_t *sample_at = tree.sample_at
    cdef const intp_t *node_start = tree.node_start
    cdef const intp_t *node_end = tree.node_end
    cdef const double *node_lo = tree.node_lo
    cdef const double *node_hi = tree.node_hi
    cdef intp_t first_leaf = tree.first_leaf, n_train = tree.n_train, d = tree.d, k = tree.k
    cdef intp_t stack_node[MAX_LEVELS]
    cdef double stack_bound[MAX_LEVELS]
    cdef double leaf_dist[MAX_LEAF_SIZE]
    cdef intp_t top = 0, node = 0, near, far, p, s, n_scanned = 0
    cdef double b_near, b_far
    heap_reset(dist, idx, k, n_train)
    while True:
        while node < first_leaf:
            near = 2 * node + 1
            far = near + 1
            b_near = _box_distance(q, node_lo + near * d, node_hi + near * d, d)
            b_far = _box_distance(q, node_lo + far * d, node_hi + far * d, d)
            if b_far < b_near:
                near, far = far, near
                b_near, b_far = b_far, b_near
            # skipped only when strictly farther: a row as far as the k-th with a smaller index
            # must still enter
            if b_far <= dist[0]:
                stack_node[top] = far
                stack_bound[top] = b_far
                top += 1
            if b_near > dist[0]:
                node = -1
                break
            node = near
        if node >= 0:
            s = node_start[node]
            leaf_distances(q, points + s * d, node_end[node] - s, d, leaf_dist)
            n_scanned += node_end[node] - s
            for p in range(node_end[node] - s):
                if leaf_dist[p] <= dist[0]:
                    heap_offer(dist, idx, k, leaf_dist[p], sample_at[s + p])
        node = -1
        while top > 0:
            top -= 1
            if stack_bound[top] <= dist[0]:
                node = stack_node[top]
                break
        if node < 0:
            break
    heap_sorted(dist, idx, k)
    return n_scanned


def kd_tree_n_nodes(intp_t n_samples, intp_t leaf_size):
    """Number of nodes of the tree over ``n_samples`` rows with leaves of at most ``leaf_size``
    rows (``2^levels − 1``), for the caller to allocate the node arrays."""
    if n_samples < 1 or not 1 <= leaf_size <= MAX_LEAF_SIZE:
        raise ValueError(f"a KD-tree needs at least one sample and a leaf size in [1, "
                         f"{MAX_LEAF_SIZE}], got {n_samples} samples and {leaf_size}")
    return (1 << kd_tree_levels(n_samples, leaf_size, MAX_LEVELS)) - 1


cdef int _check_leaves(intp_t n_nodes, const intp_t *node_start,
                       const intp_t *node_end) except -1:
    cdef intp_t node
    for node in range((n_nodes + 1) // 2 - 1, n_nodes):
        if not 0 <= node_end[node] - node_start[node] <= MAX_LEAF_SIZE:
            raise ValueError(f"a KD-tree leaf holds more than {MAX_LEAF_SIZE} rows")
    return 0


def build_kd_tree(
    const floating[:, ::1] X,       # IN (n_samples, n_features)
    intp_t[::1] sample_at,          # OUT (n_samples,) training index of each position
    intp_t[::1] node_start,         # OUT (n_nodes,) first position of each node
    intp_t[::1] node_end,           # OUT (n_nodes,) one past its last position
    double[:, ::1] node_lo,         # OUT (n_nodes, n_features) bounding boxes
    double[:, ::1] node_hi,         # OUT (n_nodes, n_features)
    floating[::1] points,           # OUT (n_samples * n_features,) the rows, leaf by leaf
    int n_threads=1,
    double min_work_per_thread=0.0,
):
    """Build the tree of ``n_nodes = kd_tree_n_nodes(n_samples, leaf_size)`` nodes over ``X``
    (the node count fixes the number of levels) and copy the rows leaf by leaf, each leaf's
    block by columns: the rows at positions ``[s, e)`` of a leaf, feature ``j`` of position
    ``s + p`` at ``points[s * n_features + j * (e − s) + p]``. The nodes of a level, then the
    leaves' copies, are shared by up to ``n_threads`` threads, one per ``min_work_per_thread``
    seconds of their work (``kernelkit.utils._threads.min_work_per_thread``; 0: all of them):
    the same arrays for any thread count."""
    cdef intp_t n = X.shape[0], d = X.shape[1], n_nodes = node_start.shape[0], n_levels = 0
    cdef intp_t node, s, m, j, p
    cdef int team
    cdef floating *blocks
    cdef floating *block
    while ((1 << (n_levels + 1)) - 1) <= n_nodes:
        n_levels += 1
    if (n < 1 or d < 1 or n_nodes != (1 << n_levels) - 1 or sample_at.shape[0] != n
            or node_end.shape[0] != n_nodes or node_lo.shape[0] != n_nodes
            or node_hi.shape[0] != n_nodes or node_lo.shape[1] != d or node_hi.shape[1] != d
            or points.shape[0] != n * d):
        raise ValueError("inconsistent KD-tree arrays")
    with nogil:
        kd_tree_build(&X[0, 0], n, d, n_levels, &points[0], &sample_at[0],
                      KDNodes(&node_start[0], &node_end[0], &node_lo[0, 0], &node_hi[0, 0]),
                      n_threads, min_work_per_thread)
    _check_leaves(n_nodes, &node_start[0], &node_end[0])
    # the build leaves the rows in position order: each leaf's block turned by columns, in place
    # through a copy in the thread's buffer (a value costs about a nanosecond)
    team = kk_team_for_work(1e-9 * n * d, min_work_per_thread, n_threads)
    blocks = <floating*>malloc(team * MAX_LEAF_SIZE * d * sizeof(floating))
    if blocks == NULL:
        raise MemoryError("could not allocate the KD-tree's leaf buffers")
    try:
        with nogil:
            for node in prange((n_nodes + 1) // 2 - 1, n_nodes, schedule='static',
                               num_threads=team):
                block = blocks + threadid() * MAX_LEAF_SIZE * d
                s = node_start[node]
                m = node_end[node] - s
                memcpy(block, &points[s * d], m * d * sizeof(floating))
                for j in range(d):
                    for p in range(m):
                        points[s * d + j * m + p] = block[p * d + j]
    finally:
        free(blocks)


def knn_kd_tree(
    const floating[:, ::1] Q,       # IN (n_queries, n_features)
    const floating[::1] points,     # IN (n_samples * n_features,) from build_kd_tree
    const intp_t[::1] sample_at,    # IN (n_samples,)
    const intp_t[::1] node_start,   # IN (n_nodes,)
    const intp_t[::1] node_end,     # IN (n_nodes,)
    const double[:, ::1] node_lo,   # IN (n_nodes, n_features)
    const double[:, ::1] node_hi,   # IN (n_nodes, n_features)
    intp_t[:, ::1] out_idx,         # OUT (n_queries, k) training indices, nearest first
    double[:, ::1] out_dist,        # OUT (n_queries, k) squared distances
    int n_threads,
):
    """The ``k = out_idx.shape[1]`` nearest training rows of every query (squared Euclidean
    distances, exact in double precision; see the module docstring). ``1 <= k <= n_samples``.
    Returns the number of (query, training row) distances computed: the search's work, against
    ``n_queries × n_samples`` for a brute force."""
    cdef intp_t n_q = Q.shape[0], n_train = sample_at.shape[0], d = node_lo.shape[1]
    cdef intp_t k = out_idx.shape[1], n_nodes = node_start.shape[0]
    cdef intp_t first_leaf = (n_nodes + 1) // 2 - 1
    cdef intp_t n_blocks = (n_q + QUERY_BLOCK - 1) // QUERY_BLOCK
    cdef intp_t b, qi, next_block = 0, n_done = 0, total = 0
    cdef Tree tree
    cdef InterruptState interrupt
    cdef intp_t *block_scanned
    if n_q == 0:
        return 0
    if (k < 1 or k > n_train or Q.shape[1] != d or out_dist.shape[1] != k
            or out_idx.shape[0] != n_q or out_dist.shape[0] != n_q
            or points.shape[0] != n_train * d or node_end.shape[0] != n_nodes
            or node_hi.shape[0] != n_nodes or node_lo.shape[0] != n_nodes):
        raise ValueError("inconsistent k-NN arrays")
    _check_leaves(n_nodes, &node_start[0], &node_end[0])
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    # counted per block and summed in block order: the same total for any thread count
    block_scanned = <intp_t*>calloc(n_blocks, sizeof(intp_t))
    if block_scanned == NULL:
        raise MemoryError("could not allocate the work counts of the KD-tree search")
    tree.sample_at = &sample_at[0]
    tree.node_start = &node_start[0]
    tree.node_end = &node_end[0]
    tree.node_lo = &node_lo[0, 0]
    tree.node_hi = &node_hi[0, 0]
    tree.first_leaf = first_leaf
    tree.n_train = n_train
    tree.d = d
    tree.k = k
    interrupt_init(&interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            # query blocks taken by hand (not prange): a thread out of blocks waits in
            # leave_team, where the first thread keeps looking at the signals
            while True:
                b = next_item(&next_block)
                if b >= n_blocks or interrupted(&interrupt):
                    break
                for qi in range(b * QUERY_BLOCK, min((b + 1) * QUERY_BLOCK, n_q)):
                    block_scanned[b] += _query(&tree, &Q[qi, 0], &points[0],
                                               &out_dist[qi, 0], &out_idx[qi, 0])
            leave_team(&interrupt, &n_done)
        if interrupt.stop:
            raise_pending()
        for b in range(n_blocks):
            total += block_scanned[b]
    finally:
        free(block_scanned)
    return total
