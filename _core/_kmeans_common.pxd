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
from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from _distances cimport GEMM_AND_EXACT_TERMS, gemm_abt, gemm_rounding, squared_norm
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


cdef inline double _squared_norm(const floating *x, int n_features) noexcept nogil:
    """``‖x‖²`` in double, four partial sums (independent additions: no chain of dependent
    adds per feature), for the rounding bound of a sample's GEMM values."""
    cdef double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
    cdef int j = 0
    while j + 4 <= n_features:
        s0 += <double>x[j] * x[j]
        s1 += <double>x[j + 1] * x[j + 1]
        s2 += <double>x[j + 2] * x[j + 2]
        s3 += <double>x[j + 3] * x[j + 3]
        j += 4
    while j < n_features:
        s0 += <double>x[j] * x[j]
        j += 1
    return (s0 + s1) + (s2 + s3)


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
    const floating *x,              # IN (n_x, n_features), a C-contiguous chunk of X
    const floating *sample_weight,  # IN (n_x,)
    const floating *centers,        # IN (n_clusters, n_features)
    const screen_t *x_screen,       # IN (n_x, n_features): x, or x rounded to float32
    const screen_t *centers_screen,  # IN (n_clusters, n_features): centers, or rounded
    const screen_t *center_squared_norms,  # IN (n_clusters,) of centers_screen
    double max_center_norm,         # IN max_l ‖c_l‖
    int n_x, int n_clusters, int n_features,
    screen_t *dist,                 # scratch (CHUNK * (n_clusters + SCAN_EXTRA_ROWS),)
    int32_t *labels,                # OUT (n_x,)
    double *sums,                   # INOUT (n_clusters, n_features), if update
    double *weights,                # INOUT (n_clusters,), if update
    bint update,
    double *upper,                  # OUT (n_x,) Elkan's upper bounds, or NULL
    float *lower,                   # OUT (n_x, n_clusters) Elkan's lower bounds, or NULL
    double *second,                 # OUT (n_x,) Hamerly's lower bound (to all other centres)
) noexcept nogil:
    """Assign a chunk of rows by GEMM (then exact ``D`` for near ties), add them to their
    clusters' sums and optionally initialise Elkan's bounds.

    The GEMM value ``A_l`` of ``‖c_l‖² − 2x·c_l`` is within ``E = (d + 4) u (‖x‖ + max‖c‖)²`` of
    the exact one (u the unit roundoff of the GEMM's type, 2⁻²⁴ or 2⁻⁵³, the rounding of x and c
    to float32 included; ``_distances.pxd``): a centre whose ``A_l`` exceeds the best by more
    than ``2E'`` (``E' = 8(d + 8) u (‖x‖² + max‖c‖²) ≥ 4(d + 8) u (‖x‖ + max‖c‖)²``, 8
    ``gemm_rounding`` with the terms of the exact ``D`` as well; no square root per sample) is
    strictly farther in computed ``D``, and the others are compared by ``D`` itself.

    The GEMM block has one row per centre and one column per sample (row stride ``ld``, ``n_x``
    rounded up to ``KM_LANES``), so that one scan in SIMD lanes of samples finds every sample's
    smallest and second smallest value (``_kmeans_scan.h``): a near tie is a second smallest
    within ``2E'`` of the smallest.

    Raw pointers, not memoryviews: the inner accumulation loop must not reload strides after
    every store (the compiler cannot prove the stores leave a memoryview struct alone).
    """
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
        x_sq = _squared_norm(xi, n_features)
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
        if update:
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


cdef inline int groups_start(Groups *groups, intp_t n_samples, intp_t n_features,
                             intp_t n_clusters, bint update, int n_threads,
                             InterruptState *interrupt) except -1:
    """Cut ``n_samples`` rows into chunks and groups (zeroed partial sums if ``update``; free
    them with :func:`groups_free`), start watching the signals, and return the number of threads
    worth waking: at most one per group and per ``MIN_FLOPS_PER_THREAD`` of GEMM (Elkan's steps
    cost a fraction of the GEMM's flops: the same cap is conservative)."""
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
    return <int>min(n_threads, groups.n_groups,
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


cdef inline int groups_finish(const Groups *groups, const InterruptState *interrupt, int status,
                              double[:, ::1] center_sums,
                              double[::1] weight_in_clusters) except -1:
    """After the parallel loop: raise for a signal or a failed allocation, else add the groups'
    partial sums in group order (independent of the thread count) if there are any."""
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
            memset(&center_sums[0, 0], 0, stride * sizeof(double))
            memset(&weight_in_clusters[0], 0, n_clusters * sizeof(double))
            for g in range(groups.n_groups):
                for l in range(n_clusters):
                    weight_in_clusters[l] += groups.weights[g * n_clusters + l]
                    for j in range(n_features):
                        center_sums[l, j] += groups.sums[g * stride + l * n_features + j]
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
