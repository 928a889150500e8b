# What the k-means steps share (_kmeans_lloyd.pyx, _kmeans_elkan.pyx, _kmeans_hamerly.pyx): the
# exact assignment rule, the bounds' margins, the chunk kernel that assigns by GEMM (Lloyd's step,
# and Hamerly's re-assignment of unsettled samples), the accumulation of cluster sums, and the
# driver pieces: samples cut into chunks of CHUNK rows, chunks into groups taken one at a time by
# the threads, each group with its own partial sums reduced in group order at the end.
#
# The assignment rule. A sample goes to the centre of smallest squared distance ``D(x, c)``
# computed by direct differences in double precision (`_squared_distance`, a fixed order of
# operations), lowest index on ties. Every step applies exactly this rule, so Lloyd, Elkan and
# Hamerly give the same labels, bit-identical centres and the same number of iterations.
#
# Determinism: the number of groups depends on the data shape only; each group accumulates its
# own partial sums, in sample order; the partials are then added group by group, in order. So the
# result is the same for any number of threads, and the same for the three algorithms (same
# labels, same order of sums).
#
# What the kernels are given: the step's `Problem` (sample weights, centres, sizes) and, for the
# bounded steps, the centres' `Geometry`, each filled once by the `def` entry and read through a
# `const` pointer; the rows of X they work on (typed pointers, which select the specialisation of
# the fused types); and a `Block`, where a chunk's results go. Each thread keeps its chunk's
# Block and its scratch in a `Workspace` of its own.
from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from _distances cimport (GEMM_AND_EXACT_TERMS, gemm_abt, gemm_rounding, squared_norm,
                         squared_norm_interleaved)
from _interrupt cimport InterruptState, interrupt_init, interrupted, next_item, raise_pending
from _types cimport floating, int32_t, int64_t, intp_t

# Type of the GEMM that ranks the centres before the exact check: float32 halves its cost, and
# the exact check of near ties keeps the result that of the double-precision rule.
ctypedef fused screen_t:
    float
    double

cdef enum:
    # Rows per chunk: the chunk's (CHUNK, n_clusters) dot products stay in L2 for usual k.
    CHUNK = 256
    # Budget (in doubles) for the per-group centre accumulators.
    GROUP_BUDGET = 1 << 22
    MAX_GROUPS = 64
    # Below this many flops of GEMM per thread, waking another thread costs more than it saves
    # (and on a busy machine a parallel region can wait a whole time slice for a descheduled
    # thread).
    MIN_FLOPS_PER_THREAD = 4000000
    # Rows of CHUNK values after a chunk's GEMM block in the scratch of `_assign_chunk`: each
    # sample's smallest and second smallest GEMM value, and the index of the smallest.
    SCAN_EXTRA_ROWS = 3


ctypedef struct Problem:
    # What every chunk of one step reads. The element types are fused (``floating`` for the
    # sample weights and centres, ``screen_t`` for the GEMM's copies of the centres), so the
    # arrays are held untyped: each kernel casts them to the types of its specialisation.
    const void *sample_weight           # (n_samples,) floating
    const void *centers                 # (n_clusters, n_features) floating
    const void *centers_screen          # (n_clusters, n_features) screen_t: the centres in the
                                        # GEMM's type (screen_centers; Lloyd, Hamerly)
    const void *center_squared_norms    # (n_clusters,) screen_t: of centers_screen
    double max_center_norm              # max_l ‖c_l‖ of the centres themselves
    intp_t n_samples
    int n_features
    int n_clusters
    int n_threads                       # asked for; groups_start caps it


ctypedef struct Geometry:
    # What the bounded steps know of the centres (center_geometry, _kmeans_elkan.pyx).
    const double *half_distances        # (n_clusters, n_clusters) lower bounds of ‖c_a − c_l‖/2
                                        # (Elkan's step; NULL for Hamerly's)
    const double *next_half             # (n_clusters,) min over l ≠ a of half_distances[a, l]
    const double *shifts                # (n_clusters,) upper bounds of the last centre moves
    double max_shift                    # max_l shifts[l] (Hamerly's step)


ctypedef struct Block:
    # Rows start .. start + n_rows − 1 of X and where their results go, row r of the block at
    # index r of each array. A step's outputs are one Block (start 0, the final sums); each
    # thread points a Block of its own at a chunk of them and at its group's partial sums
    # (chunk_block).
    intp_t start
    intp_t n_rows
    int32_t *labels                     # (n_rows,) OUT (Lloyd) or INOUT (Elkan, Hamerly)
    double *upper                       # (n_rows,) upper bounds of the distance to the own
                                        # centre (Elkan, Hamerly), or NULL
    float *lower                        # (n_rows, n_clusters) Elkan's lower bounds, or NULL
    double *second                      # (n_rows,) Hamerly's lower bound of the distance to
                                        # every other centre, or NULL
    double *sums                        # (n_clusters, n_features) Σ w x per cluster, or NULL:
                                        # assign only
    double *weights                     # (n_clusters,) Σ w per cluster, with sums


ctypedef struct Workspace:
    # One thread's chunk and scratch, allocated inside the thread's parallel block
    # (workspace_new), so that the pointer to it is private to the thread.
    Block chunk                         # the chunk being processed
    void *dist                          # screen_t (CHUNK (n_clusters + SCAN_EXTRA_ROWS),):
                                        # _assign_chunk's scratch (Lloyd, Hamerly), or NULL
    # Hamerly's step: the rows of a chunk its bounds do not settle, gathered for _assign_chunk
    Block gathered                      # their results: labels, upper, second (CHUNK,)
    void *gathered_rows                 # floating (CHUNK, n_features)
    void *gathered_screen               # screen_t (CHUNK, n_features): gathered_rows itself
                                        # when the GEMM runs on X
    int *gathered_index                 # (CHUNK,) their rows in the chunk


cdef inline intp_t _n_groups(intp_t n_chunks, intp_t n_clusters,
                             intp_t n_features) noexcept nogil:
    """Number of accumulation groups: a function of the shape only, never of the thread count."""
    cdef intp_t by_memory = GROUP_BUDGET // (n_clusters * (n_features + 1))
    cdef intp_t g = n_chunks
    if g > MAX_GROUPS:
        g = MAX_GROUPS
    if g > by_memory:
        g = by_memory
    return g if g > 0 else 1



cdef inline double _squared_distance(const floating *x, const floating *c,
                                     int n_features) noexcept nogil:
    """``‖x − c‖²`` by direct differences in double, four partial sums in a fixed order: the
    distance that decides every assignment (relative error below ``(n_features + 2) ε``)."""
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, t0, t1, t2, t3
    cdef int j = 0
    while j + 4 <= n_features:
        t0 = <double>x[j] - <double>c[j]
        t1 = <double>x[j + 1] - <double>c[j + 1]
        t2 = <double>x[j + 2] - <double>c[j + 2]
        t3 = <double>x[j + 3] - <double>c[j + 3]
        s0 += t0 * t0
        s1 += t1 * t1
        s2 += t2 * t2
        s3 += t3 * t3
        j += 4
    while j < n_features:
        t0 = <double>x[j] - <double>c[j]
        s0 += t0 * t0
        j += 1
    return (s0 + s1) + (s2 + s3)


cdef inline double _margin(int n_features) noexcept nogil:
    """Relative margin δ of the bounds: above the rounding of ``sqrt(D)`` and of the bound
    updates, so that bounds separated by it order the computed ``D`` strictly."""
    return (n_features + 16) * 2.220446049250313e-16     # the float64 machine epsilon


cdef inline float _down(double value) noexcept nogil:
    """A float32 lower bound of a non-negative ``value``.

    Lower bounds are stored as float32 (half the memory traffic of Elkan's n × k table), rounded
    down: scaling by (1 − 2⁻²¹) before the conversion outweighs its round-to-nearest (2⁻²⁴)."""
    return <float>(value * (1.0 - 4.76837158203125e-07))


cdef inline void _accumulate(const floating *xi, floating w, int best, int n_features,
                             double *sums, double *weights) noexcept nogil:
    """Add ``w x_i`` to cluster ``best``'s sums: the one accumulation every step uses."""
    cdef int j
    cdef double *s = sums + best * n_features
    weights[best] += w
    for j in range(n_features):
        s[j] += w * xi[j]


cdef extern from "_kmeans_scan.h" nogil:
    enum: KM_LANES
    void km_column_scan_float(const float *dist, int ld, const float *norms, int n_clusters,
                              float *smallest, float *second, int32_t *index)
    void km_column_scan_double(const double *dist, int ld, const double *norms, int n_clusters,
                               double *smallest, double *second, int64_t *index)


cdef inline double _value(const screen_t *column, int ld, const screen_t *center_squared_norms,
                          int j) noexcept nogil:
    """The GEMM value ``‖c_j‖² − 2x·c_j`` of a sample's column of ``−2c·x`` (row stride ``ld``),
    rounded once in the GEMM's type (the value every comparison of a sample's assignment uses)."""
    return <double>(column[j * ld] + center_squared_norms[j])


cdef inline void _assign_chunk(
    const Problem *pb,
    const floating *x,              # IN (n_rows, n_features), the block's rows of X
    const screen_t *x_screen,       # IN (n_rows, n_features): x, or x rounded to float32
    screen_t *dist,                 # scratch (CHUNK * (n_clusters + SCAN_EXTRA_ROWS),)
    const Block *block,             # OUT labels; INOUT sums, weights (if not NULL); OUT upper,
                                    # and lower (Elkan's) or second (Hamerly's) (if not NULL)
) noexcept nogil:
    """Assign a block of rows by GEMM (then exact ``D`` for near ties), add them to their
    clusters' sums and optionally initialise the bounds of Elkan's or Hamerly's step.

    The GEMM value ``A_l`` of ``‖c_l‖² − 2x·c_l`` is within ``E = (d + 4) u (‖x‖ + max‖c‖)²`` of
    the exact one (u the unit roundoff of the GEMM's type, 2⁻²⁴ or 2⁻⁵³, the rounding of x and c
    to float32 included; ``_distances.pxd``): a centre whose ``A_l`` exceeds the best by more
    than ``2E'`` (``E' = 8(d + 8) u (‖x‖² + max‖c‖²) ≥ 4(d + 8) u (‖x‖ + max‖c‖)²``, 8
    ``gemm_rounding`` with the terms of the exact ``D`` as well; no square root per sample) is
    strictly farther in computed ``D``, and the others are compared by ``D`` itself.

    The GEMM block has one row per centre and one column per sample (row stride ``ld``, the
    block's ``n_rows``
    rounded up to ``KM_LANES``), so that one scan in SIMD lanes of samples finds every sample's
    smallest and second smallest value (``_kmeans_scan.h``): a near tie is a second smallest
    within ``2E'`` of the smallest.

    Raw pointers, not memoryviews, copied out of the structs once: the inner accumulation loop
    must not reload strides or pointers after every store (the compiler cannot prove the stores
    leave a memoryview or a struct alone).
    """
    cdef int n_x = <int>block.n_rows, n_clusters = pb.n_clusters, n_features = pb.n_features
    cdef const floating *sample_weight = <const floating*>pb.sample_weight + block.start
    cdef const floating *centers = <const floating*>pb.centers
    cdef const screen_t *centers_screen = <const screen_t*>pb.centers_screen
    cdef const screen_t *center_squared_norms = <const screen_t*>pb.center_squared_norms
    cdef double max_center_norm = pb.max_center_norm
    cdef int32_t *labels = block.labels
    cdef double *sums = block.sums
    cdef double *weights = block.weights
    cdef double *upper = block.upper
    cdef float *lower = block.lower
    cdef double *second = block.second
    cdef int i, j, best, gemm_best
    cdef int ld = (n_x + KM_LANES - 1) // KM_LANES * KM_LANES
    cdef double scale = 8.0 * gemm_rounding(n_features, screen_t is float, GEMM_AND_EXACT_TERMS)
    cdef double x_sq, err, limit, d_best, d_j, delta = _margin(n_features)
    cdef double max_center_sq = max_center_norm * max_center_norm
    cdef screen_t *smallest = dist + CHUNK * n_clusters
    cdef screen_t *second_smallest = smallest + CHUNK
    cdef void *index = second_smallest + CHUNK
    cdef const screen_t *column
    cdef const floating *xi
    # dist[l, i] = −2 c_l·x_i by the GEMM (no prefilled output to read), ‖c_l‖² added where a
    # value is compared (_value): ‖x_i‖² does not change the argmin
    gemm_abt(centers_screen, n_clusters, x_screen, n_x, n_features, -2.0, 0.0, dist, ld)
    if screen_t is float:
        km_column_scan_float(dist, ld, center_squared_norms, n_clusters, smallest,
                             second_smallest, <int32_t*>index)
    else:
        km_column_scan_double(dist, ld, center_squared_norms, n_clusters, smallest,
                              second_smallest, <int64_t*>index)
    for i in range(n_x):
        column = dist + i
        xi = x + i * n_features
        x_sq = squared_norm_interleaved(xi, n_features)
        # (‖x‖ + max‖c‖)² ≤ 2‖x‖² + 2 max‖c‖²: the bound without a square root per sample
        err = scale * (x_sq + max_center_sq)
        # ties go to the lowest index (Sangnier, Property 55)
        if screen_t is float:
            gemm_best = (<int32_t*>index)[i]
        else:
            gemm_best = <int>(<int64_t*>index)[i]
        best = gemm_best
        limit = _value(column, ld, center_squared_norms, best) + 2.0 * err
        d_best = -1.0
        if second_smallest[i] <= limit:
            # a near tie for the GEMM: decide by the exact rule among the near centres
            d_best = _squared_distance(xi, centers + best * n_features, n_features)
            for j in range(n_clusters):
                if j != best and _value(column, ld, center_squared_norms, j) <= limit:
                    d_j = _squared_distance(xi, centers + j * n_features, n_features)
                    if d_j < d_best or (d_j == d_best and j < best):
                        d_best = d_j
                        best = j
        labels[i] = best
        if sums != NULL:
            _accumulate(xi, sample_weight[i], best, n_features, sums, weights)
        if upper != NULL:
            if d_best < 0.0:
                d_best = _value(column, ld, center_squared_norms, best) + x_sq + err
            upper[i] = sqrt(d_best) * (1.0 + delta)
            if lower != NULL:
                for j in range(n_clusters):
                    d_j = _value(column, ld, center_squared_norms, j) + x_sq - err
                    lower[i * n_clusters + j] = (_down(sqrt(d_j) * (1.0 - delta)) if d_j > 0
                                                 else 0.0)
            if second != NULL:
                # the smallest GEMM value of the other centres: the second smallest, or the
                # smallest if the exact rule chose another centre than the GEMM
                d_j = (<double>second_smallest[i] if best == gemm_best
                       else <double>smallest[i])
                d_j = d_j + x_sq - err
                second[i] = sqrt(d_j) * (1.0 - delta) if d_j > 0 else 0.0


# ------------------------------------------------------------------------------ driver pieces
cdef struct Groups:
    # The chunks of one step and the groups' partial sums.
    intp_t n_samples
    intp_t n_features
    intp_t n_clusters
    intp_t n_chunks
    intp_t n_groups
    intp_t next_group       # the threads' shared counter (groups taken one at a time)
    double *sums            # (n_groups, n_clusters, n_features), NULL without update
    double *weights         # (n_groups, n_clusters), NULL without update


cdef inline void groups_free(Groups *groups) noexcept nogil:
    free(groups.sums)
    free(groups.weights)
    groups.sums = NULL
    groups.weights = NULL


cdef inline int groups_start(Groups *groups, const Problem *pb, bint update,
                             InterruptState *interrupt) except -1:
    """Cut the problem's rows into chunks and groups (zeroed partial sums if ``update``; free
    them with :func:`groups_free`), start watching the signals, and return the number of threads
    worth waking: at most ``pb.n_threads``, one per group and per ``MIN_FLOPS_PER_THREAD`` of
    GEMM (Elkan's steps cost a fraction of the GEMM's flops: the same cap is conservative)."""
    cdef intp_t n_samples = pb.n_samples, n_features = pb.n_features, n_clusters = pb.n_clusters
    groups.n_samples = n_samples
    groups.n_features = n_features
    groups.n_clusters = n_clusters
    groups.n_chunks = (n_samples + CHUNK - 1) // CHUNK
    groups.n_groups = _n_groups(groups.n_chunks, n_clusters, n_features)
    groups.next_group = 0
    groups.sums = NULL
    groups.weights = NULL
    if update:
        groups.sums = <double*>calloc(groups.n_groups * n_clusters * n_features, sizeof(double))
        groups.weights = <double*>calloc(groups.n_groups * n_clusters, sizeof(double))
        if groups.sums == NULL or groups.weights == NULL:
            groups_free(groups)
            raise MemoryError()
    interrupt_init(interrupt)
    return <int>min(pb.n_threads, groups.n_groups,
                    max(1.0, 2.0 * n_samples * n_clusters * n_features / MIN_FLOPS_PER_THREAD))


cdef inline bint next_chunk(Groups *groups, intp_t *group, intp_t *chunk, intp_t *chunk_stop,
                            InterruptState *interrupt, const int *status) noexcept nogil:
    """Move this thread to its next chunk (``*chunk`` of group ``*group``); False when there is
    none left, a thread failed to allocate (``*status``) or a signal arrived. Start a thread
    with ``*chunk = *chunk_stop = 0``, all three variables assigned inside its ``parallel()``
    block (so that Cython makes them private to the thread).

    Groups hold equal numbers of chunks (±1); taken one at a time (a dynamic schedule, by hand)
    they keep both cores busy when the machine is shared, and cannot change the result (ordered
    reduction). One iteration over many samples and clusters may take seconds: the signals are
    looked at between chunks (the labels and bounds are then half updated; the caller's fit
    starts afresh). A thread out of chunks then waits in leave_team, where the first thread
    keeps looking at the signals."""
    chunk[0] += 1
    while chunk[0] >= chunk_stop[0]:
        group[0] = next_item(&groups.next_group)
        if group[0] >= groups.n_groups or status[0] != 0 or interrupt.stop:
            return False
        chunk[0] = group[0] * groups.n_chunks // groups.n_groups
        chunk_stop[0] = (group[0] + 1) * groups.n_chunks // groups.n_groups
    return not interrupted(interrupt)


cdef inline double *group_sums(const Groups *groups, intp_t group) noexcept nogil:
    return (groups.sums + group * groups.n_clusters * groups.n_features
            if groups.sums != NULL else NULL)


cdef inline double *group_weights(const Groups *groups, intp_t group) noexcept nogil:
    return groups.weights + group * groups.n_clusters if groups.weights != NULL else NULL


cdef inline void chunk_block(Block *block, const Block *out, const Groups *groups, intp_t group,
                             intp_t chunk) noexcept nogil:
    """Point ``block`` at chunk ``chunk`` of the step's outputs ``out`` and at the partial sums
    of group ``group`` (NULL without update)."""
    cdef intp_t start = chunk * CHUNK
    block.start = start
    block.n_rows = min(start + CHUNK, groups.n_samples) - start
    block.labels = out.labels + start
    block.upper = out.upper + start if out.upper != NULL else NULL
    block.lower = out.lower + start * groups.n_clusters if out.lower != NULL else NULL
    block.second = out.second + start if out.second != NULL else NULL
    block.sums = group_sums(groups, group)
    block.weights = group_weights(groups, group)


cdef inline int groups_finish(const Groups *groups, const InterruptState *interrupt, int status,
                              double *center_sums, double *weight_in_clusters) except -1:
    """After the parallel loop: raise for a signal or a failed allocation, else add the groups'
    partial sums in group order (independent of the thread count) into ``center_sums``
    (n_clusters, n_features) and ``weight_in_clusters`` (n_clusters,) if there are any."""
    cdef intp_t g, l, j
    cdef intp_t n_clusters = groups.n_clusters, n_features = groups.n_features
    cdef intp_t stride = n_clusters * n_features
    if interrupt.stop:
        raise_pending()
    if status != 0:
        raise MemoryError(f"k-means could not allocate {CHUNK}×{n_clusters} distances per "
                          "thread.")
    if groups.sums != NULL:
        with nogil:
            memset(center_sums, 0, stride * sizeof(double))
            memset(weight_in_clusters, 0, n_clusters * sizeof(double))
            for g in range(groups.n_groups):
                for l in range(n_clusters):
                    weight_in_clusters[l] += groups.weights[g * n_clusters + l]
                    for j in range(n_features):
                        center_sums[l * n_features + j] += groups.sums[g * stride
                                                                       + l * n_features + j]
    return 0


cdef inline int screen_centers(const floating *centers, intp_t n_clusters, intp_t n_features,
                               screen_t **centers_screen, screen_t **center_squared_norms,
                               double *max_center_norm) except -1:
    """Allocate (one buffer, to free at ``*centers_screen``) and fill the centres in the GEMM's
    type (rounded to float32, or copied) and the squared norms of those, summed in double; set
    ``*max_center_norm`` to ``max_l ‖c_l‖`` of the centres themselves."""
    cdef intp_t l, j
    cdef double norm, max_norm = 0.0
    cdef screen_t *rows = <screen_t*>malloc(n_clusters * (n_features + 1) * sizeof(screen_t))
    cdef screen_t *norms = rows + n_clusters * n_features
    centers_screen[0] = rows
    center_squared_norms[0] = norms
    if rows == NULL:
        raise MemoryError()
    with nogil:
        for l in range(n_clusters):
            norm = squared_norm(centers + l * n_features, n_features)
            if norm > max_norm:
                max_norm = norm
            for j in range(n_features):
                rows[l * n_features + j] = <screen_t>centers[l * n_features + j]
            norms[l] = <screen_t>squared_norm(rows + l * n_features, n_features)
    max_center_norm[0] = sqrt(max_norm)
    return 0


cdef inline void workspace_free(Workspace *ws) noexcept nogil:
    if ws == NULL:
        return
    free(ws.dist)
    if ws.gathered_screen != ws.gathered_rows:
        free(ws.gathered_screen)
    free(ws.gathered_rows)
    free(ws.gathered_index)
    free(ws.gathered.labels)
    free(ws.gathered.upper)
    free(ws)


cdef inline Workspace *workspace_new(intp_t n_clusters, intp_t n_features, size_t screen_size,
                                    size_t row_size, bint rounded) noexcept nogil:
    """A thread's Workspace (free it with :func:`workspace_free`), or NULL if an allocation
    failed: ``dist`` if ``screen_size`` (the GEMM's element size) is not 0; Hamerly's gathered
    rows if ``row_size`` (X's element size) is not 0, with a copy of their own in the GEMM's
    type if ``rounded``."""
    cdef Workspace *ws = <Workspace*>calloc(1, sizeof(Workspace))
    cdef bint failed = False
    if ws == NULL:
        return NULL
    if screen_size != 0:
        ws.dist = calloc(CHUNK * (n_clusters + SCAN_EXTRA_ROWS), screen_size)
        failed = ws.dist == NULL
    if row_size != 0:
        ws.gathered_rows = malloc(CHUNK * n_features * row_size)
        ws.gathered_screen = (malloc(CHUNK * n_features * screen_size) if rounded
                              else ws.gathered_rows)
        ws.gathered_index = <int*>malloc(CHUNK * sizeof(int))
        ws.gathered.labels = <int32_t*>malloc(CHUNK * sizeof(int32_t))
        ws.gathered.upper = <double*>malloc(2 * CHUNK * sizeof(double))
        ws.gathered.second = ws.gathered.upper + CHUNK if ws.gathered.upper != NULL else NULL
        failed = (failed or ws.gathered_rows == NULL or ws.gathered_screen == NULL
                  or ws.gathered_index == NULL or ws.gathered.labels == NULL
                  or ws.gathered.upper == NULL)
    if failed:
        workspace_free(ws)
        return NULL
    return ws


# ------------------------------------------------------------------------- the def entries' side
cdef inline void problem_init(Problem *pb, const void *sample_weight, const void *centers,
                              intp_t n_samples, intp_t n_features, intp_t n_clusters,
                              int n_threads) noexcept nogil:
    """Fill ``pb`` but for the centres' copies in the GEMM's type (:func:`screen_centers`)."""
    memset(pb, 0, sizeof(Problem))
    pb.sample_weight = sample_weight
    pb.centers = centers
    pb.n_samples = n_samples
    pb.n_features = <int>n_features
    pb.n_clusters = <int>n_clusters
    pb.n_threads = n_threads


cdef inline int block_init(Block *out, int32_t[::1] labels, dict sums, dict bounds) except -1:
    """Point ``out`` at a step's outputs: ``labels``; the group ``sums`` (``center_sums``
    (n_clusters, n_features) and ``weight_in_clusters`` (n_clusters,), float64; None: assign
    only); the group ``bounds`` (``upper`` (n_samples,) float64, and ``lower`` (n_samples,
    n_clusters) float32 or ``second`` (n_samples,) float64; None: no bounds). The arrays stay
    alive in the caller's dicts."""
    cdef double[:, ::1] center_sums
    cdef double[::1] weight_in_clusters, upper, second
    cdef float[:, ::1] lower
    memset(out, 0, sizeof(Block))
    out.n_rows = labels.shape[0]
    out.labels = &labels[0]
    if sums is not None:
        center_sums = sums["center_sums"]
        weight_in_clusters = sums["weight_in_clusters"]
        out.sums = &center_sums[0, 0]
        out.weights = &weight_in_clusters[0]
    if bounds is not None:
        upper = bounds["upper"]
        out.upper = &upper[0]
        if bounds.get("lower") is not None:
            lower = bounds["lower"]
            out.lower = &lower[0, 0]
        if bounds.get("second") is not None:
            second = bounds["second"]
            out.second = &second[0]
    return 0


cdef inline int geometry_init(Geometry *geo, dict geometry) except -1:
    """Point ``geo`` at the arrays of :func:`center_geometry` in ``geometry``
    (``half_distances`` optional) and find the largest shift. The arrays stay alive in the
    caller's dict."""
    cdef const double[:, ::1] half_distances
    cdef const double[::1] next_half = geometry["next_half"]
    cdef const double[::1] shifts = geometry["shifts"]
    cdef intp_t l
    geo.half_distances = NULL
    if geometry.get("half_distances") is not None:
        half_distances = geometry["half_distances"]
        geo.half_distances = &half_distances[0, 0]
    geo.next_half = &next_half[0]
    geo.shifts = &shifts[0]
    geo.max_shift = 0.0
    for l in range(shifts.shape[0]):
        if shifts[l] > geo.max_shift:
            geo.max_shift = shifts[l]
    return 0
