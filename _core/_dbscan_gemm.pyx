"""DBSCAN on blocked GEMM distances: clusters as the components of core points (Euclidean data
of many features).

Sangnier, §2.4, Algorithm 14 (with the fixes of ``_dbscan_expansion``), without a search order:
the same labels as the breadth-first expansion, reached another way. A first pass over blocks of
rows counts the neighbours of every sample (the upper triangle of the distances, in parallel);
clusters are then the connected components of core points (union-find, ``_union_find.pxd``),
numbered by their smallest sample index (the order in which the expansion starts them), and a
border point joins the lowest-numbered cluster among its core neighbours (the first cluster that
reaches it).

Distances: ``‖x‖² + ‖y‖² − 2x·y`` for a block of rows against the columns by one GEMM
(``_distances.pxd``; float32 products when ``X32`` is given), the pairs within the GEMM's
rounding bound of ε² recomputed by the exact rule of the streamed search
(``_dbscan_common.pxd``): the neighbourhoods are exactly those of ``_dbscan_expansion``.

Memory: O(n) for norms, labels and the union-find, ``n_threads × n`` counts, and per thread a
block of at most ``GEMM_BLOCK_BUDGET`` distances (16 MiB in float64); on top of that the ε-graph
is kept as an ``n²/8``-byte bitmap when that fits in ``max_graph_bytes`` (32 MiB by default,
n ≤ 16 384), from which clusters and border points are read, and otherwise two more passes
compare the samples with a copy of the core points instead of storing the graph.

Progress: given a callable ``progress``, each pass runs in chunks (``_progress_hook.pxd``) and
calls ``progress(stage, done, total)`` after each one (``_dbscan_expansion.STAGES``).
"""

from cython.parallel cimport parallel, prange, threadid
from libc.math cimport sqrt
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from _dbscan_common cimport BORDERS, COUNTING, EUCLIDEAN, GROWING, _reduced_distance
from _distances cimport GEMM_TERMS, gemm_abt, gemm_rounding, row_squared_norms
from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _progress_hook cimport progress_chunk, report_progress
from _types cimport floating, intp_t, uint8_t, uint64_t
from _union_find cimport uf_find, uf_union

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

# Euclidean DBSCAN with at least this many features runs on blocked GEMM distances (see
# uses_gemm). Measured 2026-11-24, 2 shared cores, uniform points with ~20 neighbours, KD-tree
# vs GEMM: d=8, n=5000: 128 vs 141 ms; d=16: 441 vs 106 ms (n=5000), 6.5 vs 2.0 s (n=20000);
# d=32: 884 vs 164 ms; digits (d=64): 100-157 vs 25-36 ms.
GEMM_MIN_FEATURES = 16
# Budget, in doubles, of one thread's block of distances (rows × n_samples).
cdef intp_t GEMM_BLOCK_BUDGET = 1 << 21
# Up to this many bytes, the counting pass also keeps the upper triangle of the ε-graph as a
# bitmap (n²/8 bytes: 0.4 MiB for the 1797 digits, 32 MiB at n = 16 384), and clusters and
# border points are read from it instead of two more GEMM passes (measured 2026-11-24, digits,
# ε = 20: 6.0 -> 3.2 ms with 2 threads). Beyond, memory stays O(n + blocks).
cdef intp_t ADJACENCY_BUDGET = 32 << 20


cdef struct GemmProblem:
    # The samples and the options of a run, set once (dbscan_gemm, _dbscan_gemm).
    const double *X             # (n, d) the samples
    const double *squared       # (n,) ‖x‖²
    const double *norms         # (n,) ‖x‖
    double largest              # max of norms
    intp_t n
    intp_t d
    double radius               # ε²
    intp_t block                # rows per block of distances
    int n_threads
    void *progress
    InterruptState *interrupt


cdef struct Columns:
    # The candidate neighbours of a block of rows: points in float64 and in the GEMM's precision
    # (the `floating` of the function that reads them), with their norms.
    const double *Y             # (n_cols, d)
    const void *Yg              # (n_cols, d) in the GEMM's precision
    const double *squared       # (n_cols,) ‖y‖²
    const double *norms         # (n_cols,) ‖y‖
    double largest              # max of norms
    intp_t n_cols


cdef struct BlockPass:
    # One chunked parallel pass over blocks of rows against columns (_block_pass), by stage:
    # COUNTING, the samples against themselves from each block's first row on (the upper
    # triangle of their distances); BORDERS, non-core samples against the core points.
    int stage
    const intp_t *rows          # (n_rows,) the sample of each row
    intp_t n_rows
    const Columns *cols
    intp_t *thread_counts       # COUNTING: (n_threads, n) neighbour counts, zeroed
    uint64_t *adjacency         # COUNTING: the ε-graph's bitmap (n rows of ⌈n/64⌉ words), or NULL
    const intp_t *column_sample  # BORDERS: (n_cols,) the sample of each column
    intp_t *labels              # BORDERS: (n,) clusters of the core points in, of the rows out


def uses_gemm(str metric, str algorithm, intp_t n_features):
    """Whether DBSCAN runs on blocked GEMM distances (:func:`dbscan_gemm`) rather than on the
    streamed neighbourhoods of ``_dbscan_expansion.dbscan_dense``: Euclidean, and ``"brute"``,
    or ``"auto"`` with at least ``GEMM_MIN_FEATURES`` features."""
    return metric == "euclidean" and (algorithm == "brute" or (
        algorithm == "auto" and n_features >= GEMM_MIN_FEATURES))


def dbscan_gemm(
    const double[:, ::1] X,       # IN (n_samples, n_features)
    double eps,
    intp_t min_samples,
    intp_t[::1] labels,           # OUT (n_samples,)
    uint8_t[::1] is_core,         # OUT (n_samples,)
    int n_threads=1,
    const float[:, ::1] X32=None,  # IN X rounded to float32 for the GEMM, or None
    intp_t max_graph_bytes=-1,
    progress=None,
):
    """Euclidean DBSCAN on blocked GEMM distances: the labels of ``_dbscan_expansion``'s
    ``dbscan_dense`` (Sangnier, Algorithm 14, fixed), from the components of core points.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64, C-contiguous
        Finite samples.
    eps : float
        Neighbourhood radius ``ε > 0``; ``x`` and ``y`` are neighbours when ``‖x − y‖ ≤ ε``.
    min_samples : int
        ``m ≥ 1``: a point is a core point when it has at least ``m`` neighbours, itself included.
    labels : ndarray of shape (n_samples,), intp
        Output: cluster index, clusters numbered by their smallest core sample, ``-1`` for
        noise.
    is_core : ndarray of shape (n_samples,), uint8
        Output: 1 for core points.
    n_threads : int
        OpenMP threads. The result does not depend on it.
    X32 : ndarray of shape (n_samples, n_features), float32, C-contiguous, or None
        ``X`` rounded to float32 (:func:`kernelkit.utils._screening.float32_screening_copy`):
        the pairs are then screened in float32; the result is the same.
    max_graph_bytes : int
        The ε-graph is kept as a bitmap up to this size (negative: 32 MiB); beyond, distances to
        the core points are recomputed instead. The result is the same.
    progress : callable or None
        ``progress(stage, done, total)``, called with the GIL after each twentieth of each pass
        (``_dbscan_expansion.STAGES``); what it raises stops the run and propagates. The result
        is the same.

    Returns
    -------
    n_clusters : int
    """
    cdef intp_t n = X.shape[0], d = X.shape[1]
    cdef intp_t n_clusters
    cdef GemmProblem pb
    if n == 0:
        return 0
    if X32 is not None and (X32.shape[0] != n or X32.shape[1] != d):
        raise ValueError(f"X32 must have the shape of X {(n, d)}, got {X32.shape}.")
    if max_graph_bytes < 0:
        max_graph_bytes = ADJACENCY_BUDGET
    pb.X = &X[0, 0]
    pb.n = n
    pb.d = d
    pb.radius = eps * eps
    pb.n_threads = n_threads
    pb.progress = NULL if progress is None else <void*>progress
    with nogil:
        if X32 is not None:
            n_clusters = _dbscan_gemm(&pb, &X32[0, 0], min_samples, &labels[0], &is_core[0],
                                      max_graph_bytes)
        else:
            n_clusters = _dbscan_gemm(&pb, &X[0, 0], min_samples, &labels[0], &is_core[0],
                                      max_graph_bytes)
    if n_clusters == INTERRUPTED:
        raise_pending()
    if n_clusters < 0:
        raise MemoryError("DBSCAN could not allocate its blocks of distances.")
    return n_clusters


cdef intp_t _dbscan_gemm(
    GemmProblem *pb,            # INOUT samples and options in; block, norms, interrupt set here
    const floating *Xg,         # IN (n, d) the samples in the GEMM's precision (X for float64)
    intp_t min_samples,
    intp_t *labels,             # OUT (n,)
    uint8_t *is_core,           # OUT (n,)
    intp_t max_graph_bytes,
) noexcept nogil:
    """Neighbour counts, then clusters and border points from the ε-graph's bitmap (within
    ``max_graph_bytes``) or from two passes against the core points
    (:func:`_clusters_by_core_passes`). Returns the number of clusters, -1 (allocation failure)
    or INTERRUPTED."""
    cdef intp_t n = pb.n
    cdef intp_t block = GEMM_BLOCK_BUDGET // n if n > 0 else 1
    cdef intp_t words = (n + 63) // 64
    cdef intp_t i, n_clusters = 0
    cdef int status = 0
    cdef double *norms = <double*>malloc(2 * n * sizeof(double))
    cdef intp_t *parent = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *cluster_of = <intp_t*>malloc(n * sizeof(intp_t))
    cdef uint64_t *adjacency = NULL
    cdef double largest = 0.0
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    if block < 1:
        block = 1
    if block > 256:
        block = 256
    if pb.n_threads < 1:
        pb.n_threads = 1
    if n * words * <intp_t>sizeof(uint64_t) <= max_graph_bytes:
        # NULL (allocation failed) falls back to the passes that need no bitmap
        adjacency = <uint64_t*>calloc(n * words, sizeof(uint64_t))
    if norms == NULL or parent == NULL or cluster_of == NULL:
        status = -1
    if status == 0:
        row_squared_norms(pb.X, n, pb.d, norms)
        for i in range(n):
            norms[n + i] = sqrt(norms[i])
            if norms[n + i] > largest:
                largest = norms[n + i]
            parent[i] = i
            cluster_of[i] = -1
        pb.squared = norms
        pb.norms = norms + n
        pb.largest = largest
        pb.block = block
        pb.interrupt = &interrupt
        # neighbour counts (in labels for now)
        status = _count_pass(pb, Xg, labels, adjacency)
    if status == 0:
        for i in range(n):
            is_core[i] = labels[i] >= min_samples
        if adjacency != NULL:
            _clusters_from_adjacency(n, adjacency, is_core, parent, cluster_of, labels,
                                     &n_clusters)
        else:
            status = _clusters_by_core_passes(pb, Xg, is_core, parent, cluster_of, labels,
                                              &n_clusters)
    free(norms)
    free(parent)
    free(cluster_of)
    free(adjacency)
    return n_clusters if status == 0 else status


# ---------------------------------------------------------------------------------------------
# Blocks of neighbours and the chunked parallel pass over them.

cdef void _neighbour_block(
    const GemmProblem *pb,
    const floating *Xg,         # IN (n, d) the samples in the GEMM's precision
    const intp_t *rows,         # IN (n_rows,) the block's samples
    intp_t n_rows,
    const Columns *cols,
    intp_t first_col,           # the block meets the columns [first_col, n_cols)
    floating *rows_copy,        # scratch (n_rows, d)
    floating *dist,             # OUT (n_rows, n_cols − first_col): 1 for neighbours, else 0
) noexcept nogil:
    """Which columns are within ε of each row of the block: ``‖x‖² + ‖y‖² − 2x·y`` by one GEMM
    (float32 for float64 data when :func:`kernelkit.utils._screening.float32_screening_copy`
    allows it, else float64), then the exact rule of the streamed path (``_reduced_distance ≤
    ε²``, direct differences in double) for the pairs whose GEMM value is within its error
    bound of ε². That bound, ``(d + 4) u (‖x‖ + ‖y‖)²`` for the GEMM with unit roundoff ``u``
    (the inputs' rounding to float32 included) plus ``d ε₆₄ (‖x‖ + ‖y‖)²`` for the direct sum,
    is covered four times over by ``8 (d + 4) u (‖x‖ + ‖y‖)²`` (8 ``gemm_rounding``,
    ``_distances.pxd``): outside it both sides agree. A
    row's test is first made against the widest bound (its norm plus the largest column norm),
    so most pairs cost one addition and one comparison."""
    cdef intp_t d = pb.d, n_cols = cols.n_cols - first_col
    cdef double radius = pb.radius, y_largest = cols.largest
    cdef const double *X = pb.X
    cdef const double *x_squared = pb.squared
    cdef const double *x_norms = pb.norms
    cdef const double *Y = cols.Y + first_col * d
    cdef const floating *Yg = <const floating*>cols.Yg + first_col * d
    cdef const double *y_squared = cols.squared + first_col
    cdef const double *y_norms = cols.norms + first_col
    cdef intp_t r, j, i
    cdef double v, lo, hi, xn, xs, err, wide
    cdef double scale = 8.0 * gemm_rounding(d, floating is float, GEMM_TERMS)
    cdef floating *out
    for r in range(n_rows):
        memcpy(rows_copy + r * d, Xg + rows[r] * d, d * sizeof(floating))
    # dist[r, j] = −2 rows_copy[r]·Y[j]
    gemm_abt(rows_copy, <int>n_rows, Yg, <int>n_cols, <int>d, -2.0, 0.0, dist, <int>n_cols)
    for r in range(n_rows):
        i = rows[r]
        out = dist + r * n_cols
        xn = x_norms[i]
        xs = x_squared[i]
        wide = scale * (xn + y_largest) * (xn + y_largest)
        lo = radius - xs - wide
        hi = radius - xs + wide
        for j in range(n_cols):
            v = <double>out[j] + y_squared[j]
            if v < lo:
                out[j] = 1
            elif v > hi:
                out[j] = 0
            else:
                err = scale * (xn + y_norms[j]) * (xn + y_norms[j])
                v = v + xs
                if v < radius - err:
                    out[j] = 1
                elif v > radius + err:
                    out[j] = 0
                else:
                    out[j] = 1 if _reduced_distance(X + i * d, Y + j * d, d, EUCLIDEAN) \
                        <= radius else 0


cdef int _block_pass(const GemmProblem *pb, const floating *Xg,
                     const BlockPass *ps) noexcept nogil:
    """Blocks of ``pb.block`` rows in parallel (dynamic schedule), each compared with its
    columns (:func:`_neighbour_block`) into the thread's own buffers and then counted
    (:func:`_count_rows`) or labelled (:func:`_border_rows`); in chunks that report
    ``ps.stage``'s progress. Returns -1 when a thread could not allocate its buffers, or
    INTERRUPTED."""
    cdef intp_t block = pb.block, n_rows = ps.n_rows, n_cols = ps.cols.n_cols
    cdef intp_t n_blocks = (n_rows + block - 1) // block
    cdef intp_t b, start, stop, first_col, first = 0, last
    cdef intp_t chunk = progress_chunk(pb.progress, n_blocks, 1)
    cdef bint counting = ps.stage == COUNTING
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef intp_t *mine = NULL
    cdef floating *dist = NULL
    cdef floating *rows_copy = NULL
    while first < n_blocks and status == 0 and not pb.interrupt.stop:
        last = first + chunk if first + chunk < n_blocks else n_blocks
        with parallel(num_threads=pb.n_threads):
            mine = ps.thread_counts + threadid() * pb.n if counting else NULL
            dist = <floating*>malloc(block * n_cols * sizeof(floating))
            rows_copy = <floating*>malloc(block * pb.d * sizeof(floating))
            if dist == NULL or rows_copy == NULL:
                status_ptr[0] = -1
            for b in prange(first, last, schedule='dynamic'):
                if dist == NULL or rows_copy == NULL or interrupted(pb.interrupt):
                    continue
                start = b * block
                stop = start + block if start + block < n_rows else n_rows
                # counting: the upper triangle, the samples from the block's first row on
                first_col = start if counting else 0
                _neighbour_block(pb, Xg, ps.rows + start, stop - start, ps.cols, first_col,
                                 rows_copy, dist)
                if counting:
                    _count_rows(ps, start, stop - start, dist, mine)
                else:
                    _border_rows(ps, start, stop - start, dist)
            free(dist)
            free(rows_copy)
        first = last
        if report_progress(pb.progress, ps.stage,
                           last * block if last * block < n_rows else n_rows, n_rows):
            pb.interrupt.stop = 1
    return INTERRUPTED if pb.interrupt.stop and status == 0 else status


cdef inline void _count_rows(const BlockPass *ps, intp_t start, intp_t n_rows,
                             const floating *dist, intp_t *mine) noexcept nogil:
    """Rows ``[start, start + n_rows)`` of the counting pass (row ``r`` is sample
    ``start + r``, column ``j`` sample ``start + j``): each pair ``i < j`` of neighbours counts
    for both of its samples in the thread's ``mine`` and sets bit ``j`` of row ``i`` of the
    bitmap (unless NULL; a row is written by the thread of its block only)."""
    cdef intp_t n = ps.cols.n_cols, n_cols = n - start, words = (n + 63) // 64
    cdef uint64_t *adjacency = ps.adjacency
    cdef intp_t r, j, i
    for r in range(n_rows):
        i = start + r
        mine[i] += 1  # itself
        for j in range(r + 1, n_cols):
            if dist[r * n_cols + j] != 0:
                mine[i] += 1
                mine[start + j] += 1
                if adjacency != NULL:
                    adjacency[i * words + (start + j) // 64] |= \
                        (<uint64_t>1) << ((start + j) % 64)


cdef inline void _border_rows(const BlockPass *ps, intp_t start, intp_t n_rows,
                              const floating *dist) noexcept nogil:
    """Rows ``[start, start + n_rows)`` of the border pass: each (a non-core point) takes the
    lowest label of its neighbouring columns, or -1; rows are independent of one another."""
    cdef intp_t n_cols = ps.cols.n_cols
    cdef const intp_t *selected = ps.rows
    cdef const intp_t *column_sample = ps.column_sample
    cdef intp_t *labels = ps.labels
    cdef intp_t r, j, best, v
    for r in range(n_rows):
        best = -1
        for j in range(n_cols):
            if dist[r * n_cols + j] != 0:
                v = labels[column_sample[j]]
                if best == -1 or v < best:
                    best = v
        labels[selected[start + r]] = best


cdef int _count_pass(const GemmProblem *pb, const floating *Xg, intp_t *counts,
                     uint64_t *adjacency) noexcept nogil:
    """``counts[i]`` = number of neighbours of sample ``i`` (itself included), from the upper
    triangle of the distance matrix only: block ``b`` of rows is compared with the samples from
    its first row on, and each pair found counts for both of its samples in the thread's own
    counts (summed at the end, so the result does not depend on the schedule). Unless NULL,
    ``adjacency`` (n rows of ``⌈n/64⌉`` zeroed words) receives bit ``j`` of row ``i`` for every
    pair ``i < j`` of neighbours. Returns -1 when an allocation failed, or INTERRUPTED."""
    cdef intp_t n = pb.n, i, t, total
    cdef int status
    cdef Columns samples
    cdef BlockPass ps
    cdef intp_t *identity = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *thread_counts = <intp_t*>calloc(pb.n_threads * n, sizeof(intp_t))
    if identity == NULL or thread_counts == NULL:
        free(identity)
        free(thread_counts)
        return -1
    for i in range(n):
        identity[i] = i
    samples.Y = pb.X
    samples.Yg = Xg
    samples.squared = pb.squared
    samples.norms = pb.norms
    samples.largest = pb.largest
    samples.n_cols = n
    ps.stage = COUNTING
    ps.rows = identity
    ps.n_rows = n
    ps.cols = &samples
    ps.thread_counts = thread_counts
    ps.adjacency = adjacency
    ps.column_sample = NULL
    ps.labels = NULL
    status = _block_pass(pb, Xg, &ps)
    for i in range(n):
        total = 0
        for t in range(pb.n_threads):
            total = total + thread_counts[t * n + i]
        counts[i] = total
    free(identity)
    free(thread_counts)
    return status


# ---------------------------------------------------------------------------------------------
# Clusters: components of core points, then border points.

cdef void _number_clusters(intp_t n, const uint8_t *is_core, intp_t *parent, intp_t *cluster_of,
                           intp_t *labels, intp_t *n_clusters) noexcept nogil:
    """``labels`` of core points = their component, numbered by first sample (the order in which
    the expansion starts clusters); -1 elsewhere."""
    cdef intp_t i, root
    for i in range(n):
        labels[i] = -1
        if is_core[i]:
            root = uf_find(parent, i)
            if cluster_of[root] == -1:
                cluster_of[root] = n_clusters[0]
                n_clusters[0] += 1
            labels[i] = cluster_of[root]


cdef void _clusters_from_adjacency(intp_t n, const uint64_t *adjacency, const uint8_t *is_core,
                                   intp_t *parent, intp_t *cluster_of, intp_t *labels,
                                   intp_t *n_clusters) noexcept nogil:
    """Clusters and border points from the bitmap of neighbouring pairs ``i < j``: unions of
    core pairs, then each border point takes the lowest cluster among its core neighbours."""
    cdef intp_t words = (n + 63) // 64
    cdef intp_t i, j, w, a, b
    cdef uint64_t word
    for i in range(n):
        if is_core[i]:
            for w in range(i // 64, words):
                word = adjacency[i * words + w]
                while word:
                    j = w * 64 + __builtin_ctzll(word)
                    word = word & (word - 1)
                    if is_core[j]:
                        uf_union(parent, i, j)
    _number_clusters(n, is_core, parent, cluster_of, labels, n_clusters)
    for i in range(n):
        for w in range(i // 64, words):
            word = adjacency[i * words + w]
            while word:
                j = w * 64 + __builtin_ctzll(word)
                word = word & (word - 1)
                if is_core[i] == is_core[j]:
                    continue
                # a: the border point, b: its core neighbour
                a, b = (j, i) if is_core[i] else (i, j)
                if labels[a] == -1 or labels[b] < labels[a]:
                    labels[a] = labels[b]


cdef int _core_unions(const GemmProblem *pb, const floating *Xg, const Columns *core,
                      const intp_t *core_sample, intp_t *parent, floating *dists,
                      floating *rows_copies) noexcept nogil:
    """Unions of neighbouring core points (upper triangle): each round computes ``n_threads``
    blocks of core rows in parallel, into ``dists`` and ``rows_copies`` (one block each), then
    merges them sequentially (union-find is order-free: the components, hence the labels, do
    not depend on the rounds). Returns 0 or INTERRUPTED."""
    cdef intp_t block = pb.block, d = pb.d, n_core = core.n_cols
    cdef intp_t n_blocks = (n_core + block - 1) // block
    cdef intp_t chunk = progress_chunk(pb.progress, n_blocks, pb.n_threads)
    cdef intp_t next_report = chunk, round_start = 0, n_round, b, r, j, start, stop, n_cols
    while round_start < n_blocks:
        if interrupted(pb.interrupt):       # between rounds, outside the threads
            return INTERRUPTED
        n_round = (n_blocks - round_start if n_blocks - round_start < pb.n_threads
                   else pb.n_threads)
        for b in prange(n_round, schedule='static', num_threads=n_round):
            start = (round_start + b) * block
            stop = start + block if start + block < n_core else n_core
            # the upper triangle: core points from the block's first row on
            _neighbour_block(pb, Xg, core_sample + start, stop - start, core, start,
                             rows_copies + b * block * d, dists + b * block * n_core)
        for b in range(n_round):
            start = (round_start + b) * block
            stop = start + block if start + block < n_core else n_core
            n_cols = n_core - start
            for r in range(stop - start):
                for j in range(r + 1, n_cols):
                    if dists[b * block * n_core + r * n_cols + j] != 0:
                        uf_union(parent, core_sample[start + r], core_sample[start + j])
        round_start += pb.n_threads
        if round_start >= next_report or round_start >= n_blocks:
            next_report = round_start + chunk
            if report_progress(pb.progress, GROWING, round_start * block
                               if round_start * block < n_core else n_core, n_core):
                return INTERRUPTED
    return 0


cdef int _clusters_by_core_passes(const GemmProblem *pb, const floating *Xg,
                                  const uint8_t *is_core, intp_t *parent, intp_t *cluster_of,
                                  intp_t *labels, intp_t *n_clusters) noexcept nogil:
    """Clusters and border points in two more GEMM passes, against a copy of the core points
    only (memory O(n + block · n)): :func:`_core_unions`, then the border points, each taking
    the lowest cluster among its core neighbours. ``labels`` holds the neighbour counts on
    entry. Returns -1 when an allocation failed, or INTERRUPTED."""
    cdef intp_t n = pb.n, d = pb.d, block = pb.block, n_threads = pb.n_threads
    cdef intp_t r, i, n_rows, n_core = 0
    cdef int status = 0
    cdef Columns core
    cdef BlockPass ps
    cdef intp_t *selected = <intp_t*>malloc(n * sizeof(intp_t))
    cdef intp_t *core_sample = <intp_t*>malloc(n * sizeof(intp_t))
    cdef double *core_points = NULL  # (n_core, d) copies of the core points
    cdef floating *core_points_g = NULL  # the same in the GEMM's precision
    cdef double *core_norms = NULL   # (2 n_core,)
    cdef floating *dists = NULL      # (n_threads blocks) × block × n_core, for the union pass
    cdef floating *rows_copies = NULL
    cdef double core_largest = 0.0
    if selected == NULL or core_sample == NULL:
        status = -1
    else:
        for i in range(n):
            if is_core[i]:
                core_sample[n_core] = i
                n_core += 1
        core_points = <double*>malloc((n_core * d if n_core > 0 else 1) * sizeof(double))
        core_points_g = <floating*>malloc((n_core * d if n_core > 0 else 1) * sizeof(floating))
        core_norms = <double*>malloc((2 * n_core if n_core > 0 else 1) * sizeof(double))
        dists = <floating*>malloc((n_threads * block * n_core if n_core > 0 else 1)
                                  * sizeof(floating))
        rows_copies = <floating*>malloc(n_threads * block * d * sizeof(floating))
        if core_points == NULL or core_points_g == NULL or core_norms == NULL or dists == NULL \
                or rows_copies == NULL:
            status = -1
    if status == 0:
        for r in range(n_core):
            i = core_sample[r]
            memcpy(core_points + r * d, pb.X + i * d, d * sizeof(double))
            memcpy(core_points_g + r * d, Xg + i * d, d * sizeof(floating))
            core_norms[r] = pb.squared[i]
            core_norms[n_core + r] = pb.norms[i]
            if pb.norms[i] > core_largest:
                core_largest = pb.norms[i]
        core.Y = core_points
        core.Yg = core_points_g
        core.squared = core_norms
        core.norms = core_norms + n_core
        core.largest = core_largest
        core.n_cols = n_core
        status = _core_unions(pb, Xg, &core, core_sample, parent, dists, rows_copies)
    if status == 0:
        # border candidates: non-core points with a neighbour besides themselves
        n_rows = 0
        for i in range(n):
            if not is_core[i] and labels[i] > 1:
                selected[n_rows] = i
                n_rows += 1
        _number_clusters(n, is_core, parent, cluster_of, labels, n_clusters)
        if n_core > 0:
            ps.stage = BORDERS
            ps.rows = selected
            ps.n_rows = n_rows
            ps.cols = &core
            ps.thread_counts = NULL
            ps.adjacency = NULL
            ps.column_sample = core_sample
            ps.labels = labels
            status = _block_pass(pb, Xg, &ps)
    free(selected)
    free(core_sample)
    free(core_points)
    free(core_points_g)
    free(core_norms)
    free(dists)
    free(rows_copies)
    return status
