"""Lloyd iterations for k-means: chunked assignment by GEMM, and Elkan's bounded steps.

Sangnier, Algorithm 9 (k-means) and §2.2; Peyré, §16.1.2 eqs (16.3)-(16.4). C. Elkan, "Using the
triangle inequality to accelerate k-means", ICML 2003.

**The assignment rule.** A sample goes to the centre of smallest squared distance ``D(x, c)``
computed by direct differences in double precision (:func:`_squared_distance`, a fixed order of
operations), lowest index on ties. Both algorithms apply exactly this rule, so they give the
same labels, bit-identical centres and the same number of iterations:

- Lloyd (:func:`lloyd_iter`) ranks the centres of a chunk of samples with one GEMM,
  ``‖c‖² − 2x·c`` (``‖x‖²`` does not change the argmin), then recomputes ``D`` directly for the
  few centres whose GEMM value lies within the GEMM's rounding bound of the best (usually none
  but the best itself).
- Elkan (:func:`elkan_iter`) keeps an upper bound on each sample's distance to its centre and a
  lower bound to every other centre, moved by the centre shifts after each step (triangle
  inequality), and computes ``D`` only for centres the bounds cannot exclude. Every bound and
  every pruning test carries a relative margin ``δ`` larger than the rounding of ``D``, so a
  pruned centre is strictly farther than the current one in computed ``D`` too.

Determinism: samples are cut into fixed chunks of ``CHUNK`` rows, chunks into ``n_groups`` groups
whose number depends on the data shape only. Each group accumulates its own partial sums, in
sample order; the partials are then added group by group, in order. So the result is the same
for any number of threads, and the same for both algorithms (same labels, same order of sums).
"""

from cython.parallel cimport parallel, prange
from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy, memset

from _distances cimport GEMM_AND_EXACT_TERMS, gemm_abt, gemm_rounding, row_squared_norms
from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _types cimport floating, intp_t, int32_t

# Type of the GEMM that ranks the centres before the exact check: float32 halves its cost, and
# the exact check of near ties keeps the result that of the double-precision rule.
ctypedef fused screen_t:
    float
    double

# Rows per chunk: the chunk's (CHUNK, n_clusters) dot products stay in L2 for usual k.
cdef intp_t CHUNK = 256
# Budget (in doubles) for the per-group centre accumulators.
cdef intp_t GROUP_BUDGET = 1 << 22
cdef intp_t MAX_GROUPS = 64
# Below this many flops of GEMM per thread, waking another thread costs more than it saves
# (and on a busy machine a parallel region can wait a whole time slice for a descheduled thread).
cdef double MIN_FLOPS_PER_THREAD = 4e6
cdef double DOUBLE_EPS = 2.220446049250313e-16
# Lower bounds are stored as float32 (half the memory traffic of Elkan's n × k table), rounded
# down: scaling by (1 − 2⁻²¹) before the conversion outweighs its round-to-nearest (2⁻²⁴).
cdef double FLOAT_DOWN = 1.0 - 4.76837158203125e-07


cdef intp_t _n_groups(intp_t n_chunks, intp_t n_clusters, intp_t n_features) noexcept nogil:
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
    return (n_features + 16) * DOUBLE_EPS


cdef inline float _down(double value) noexcept nogil:
    """A float32 lower bound of a non-negative ``value``."""
    return <float>(value * FLOAT_DOWN)


cdef inline void _accumulate(const floating *xi, floating w, int best, int n_features,
                             double *sums, double *weights) noexcept nogil:
    """Add ``w x_i`` to cluster ``best``'s sums: the one accumulation both algorithms use."""
    cdef int j
    cdef double *s = sums + best * n_features
    weights[best] += w
    for j in range(n_features):
        s[j] += w * xi[j]


cdef void _assign_chunk(
    const floating *x,              # IN (n_x, n_features), a C-contiguous chunk of X
    const floating *sample_weight,  # IN (n_x,)
    const floating *centers,        # IN (n_clusters, n_features)
    const screen_t *x_screen,       # IN (n_x, n_features): x, or x rounded to float32
    const screen_t *centers_screen,  # IN (n_clusters, n_features): centers, or rounded
    const screen_t *center_squared_norms,  # IN (n_clusters,) of centers_screen
    double max_center_norm,         # IN max_l ‖c_l‖
    int n_x, int n_clusters, int n_features,
    screen_t *dist,                 # scratch (n_x, n_clusters)
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

    Raw pointers, not memoryviews: the inner accumulation loop must not reload strides after
    every store (the compiler cannot prove the stores leave a memoryview struct alone).
    """
    cdef int i, j, best, n_near
    cdef screen_t best_d
    cdef double scale = 8.0 * gemm_rounding(n_features, screen_t is float, GEMM_AND_EXACT_TERMS)
    cdef double x_sq, err, limit, d_best, d_j, delta = _margin(n_features)
    cdef double max_center_sq = max_center_norm * max_center_norm
    cdef const screen_t *row
    cdef const floating *xi
    # dist[i, l] = ‖c_l‖² − 2 x_i·c_l: the GEMM adds −2 x·cᵀ to rows pre-filled with ‖c‖²
    for i in range(n_x):
        memcpy(dist + i * n_clusters, center_squared_norms, n_clusters * sizeof(screen_t))
    gemm_abt(x_screen, n_x, centers_screen, n_clusters, n_features, -2.0, 1.0, dist, n_clusters)
    for i in range(n_x):
        row = dist + i * n_clusters
        xi = x + i * n_features
        best = 0
        best_d = row[0]
        for j in range(1, n_clusters):
            # strict '<' sends ties to the lowest index (Sangnier, Property 55)
            if row[j] < best_d:
                best_d = row[j]
                best = j
        row_squared_norms(xi, 1, n_features, &x_sq)
        # (‖x‖ + max‖c‖)² ≤ 2‖x‖² + 2 max‖c‖²: the bound without a square root per sample
        err = scale * (x_sq + max_center_sq)
        limit = <double>best_d + 2.0 * err
        n_near = 0
        for j in range(n_clusters):
            if row[j] <= limit:
                n_near += 1
        d_best = -1.0
        if n_near > 1:
            # a near tie for the GEMM: decide by the exact rule among the near centres
            d_best = _squared_distance(xi, centers + best * n_features, n_features)
            for j in range(n_clusters):
                if j != best and row[j] <= limit:
                    d_j = _squared_distance(xi, centers + j * n_features, n_features)
                    if d_j < d_best or (d_j == d_best and j < best):
                        d_best = d_j
                        best = j
        labels[i] = best
        if update:
            _accumulate(xi, sample_weight[i], best, n_features, sums, weights)
        if upper != NULL:
            if d_best < 0.0:
                d_best = <double>best_d + x_sq + err
            upper[i] = sqrt(d_best) * (1.0 + delta)
            if lower != NULL:
                for j in range(n_clusters):
                    d_j = <double>row[j] + x_sq - err
                    lower[i * n_clusters + j] = (_down(sqrt(d_j) * (1.0 - delta)) if d_j > 0
                                                 else 0.0)
            if second != NULL:
                d_j = INFINITY
                for j in range(n_clusters):
                    if j != best and row[j] < d_j:
                        d_j = row[j]
                d_j = d_j + x_sq - err
                second[i] = sqrt(d_j) * (1.0 - delta) if d_j > 0 else 0.0


cdef void _elkan_chunk(
    const floating *x,              # IN (n_x, n_features)
    const floating *sample_weight,  # IN (n_x,)
    const floating *centers,        # IN (n_clusters, n_features)
    const double *half_distances,   # IN (n_clusters, n_clusters) lower bounds of ‖c_a − c_l‖/2
    const double *next_half,        # IN (n_clusters,) min over l ≠ a of half_distances[a, l]
    const double *shifts,           # IN (n_clusters,) upper bounds of the last centre moves
    int n_x, int n_clusters, int n_features,
    int32_t *labels,                # INOUT (n_x,)
    double *upper,                  # INOUT (n_x,)
    float *lower,                   # INOUT (n_x, n_clusters)
    double *sums, double *weights, bint update,
) noexcept nogil:
    """One Elkan step on a chunk: move the bounds by the centre shifts, then re-examine only the
    centres the bounds cannot exclude (Elkan 2003, steps 1-3 and 5-6, with margins δ)."""
    cdef int i, j, a
    cdef bint tight
    cdef double u, lj, d_a, d_j, delta = _margin(n_features)
    cdef double grow = 1.0 + delta, shrink = 1.0 - delta
    cdef const floating *xi
    cdef float *lo
    for i in range(n_x):
        xi = x + i * n_features
        lo = lower + i * n_clusters
        a = labels[i]
        # the centres moved by at most shifts[l]: widen the bounds (rounded outwards)
        u = (upper[i] + shifts[a]) * grow
        for j in range(n_clusters):
            lj = (lo[j] - shifts[j]) * shrink
            lo[j] = _down(lj) if lj > 0 else 0.0
        if u < next_half[a]:
            # every other centre is at least 2·next_half − u > u away
            upper[i] = u
        else:
            tight = False
            d_a = 0.0
            for j in range(n_clusters):
                if j == a or u < half_distances[a * n_clusters + j] or u * grow < lo[j] * shrink:
                    continue
                if not tight:
                    d_a = _squared_distance(xi, centers + a * n_features, n_features)
                    u = sqrt(d_a) * grow
                    lo[a] = _down(sqrt(d_a) * shrink)
                    tight = True
                    if u < half_distances[a * n_clusters + j] or u * grow < lo[j] * shrink:
                        continue
                d_j = _squared_distance(xi, centers + j * n_features, n_features)
                lo[j] = _down(sqrt(d_j) * shrink)
                if d_j < d_a or (d_j == d_a and j < a):
                    a = j
                    d_a = d_j
                    u = sqrt(d_j) * grow
            labels[i] = a
            upper[i] = u
        if update:
            _accumulate(xi, sample_weight[i], a, n_features, sums, weights)


cdef void _hamerly_chunk(
    const floating *x,              # IN (n_x, n_features)
    const floating *sample_weight,  # IN (n_x,)
    const floating *centers,        # IN (n_clusters, n_features)
    const screen_t *x_screen,       # IN (n_x, n_features): x, or x rounded to float32
    const screen_t *centers_screen,  # IN (n_clusters, n_features)
    const screen_t *center_squared_norms,  # IN (n_clusters,)
    double max_center_norm,
    const double *next_half,        # IN (n_clusters,) as in Elkan's step
    const double *shifts,           # IN (n_clusters,)
    double max_shift,               # IN max_l shifts[l]
    int n_x, int n_clusters, int n_features,
    int32_t *labels, double *upper, double *second,   # INOUT (n_x,)
    screen_t *dist,                 # scratch (CHUNK, n_clusters)
    screen_t *gathered_screen,      # scratch (CHUNK, n_features)
    floating *gathered,             # scratch (CHUNK, n_features)
    int *gathered_index,            # scratch (CHUNK,)
    int32_t *gathered_labels,       # scratch (CHUNK,)
    double *gathered_upper,         # scratch (CHUNK,)
    double *gathered_second,        # scratch (CHUNK,)
    double *sums, double *weights, bint update,
) noexcept nogil:
    """One Hamerly step on a chunk (Hamerly, SDM 2010): an upper bound of the distance to the
    own centre and one lower bound to all the others, moved by the shifts. The samples they
    cannot settle are gathered and re-assigned together by Lloyd's chunk kernel (GEMM, exact
    check of near ties), which also gives their new bounds. Margins as in Elkan's step."""
    cdef int i, r, a, m = 0
    cdef double u, l, d_a, delta = _margin(n_features)
    cdef double grow = 1.0 + delta, shrink = 1.0 - delta
    cdef const floating *xi
    for i in range(n_x):
        xi = x + i * n_features
        a = labels[i]
        u = (upper[i] + shifts[a]) * grow
        l = (second[i] - max_shift) * shrink
        if l < 0.0:
            l = 0.0
        second[i] = l
        if u < next_half[a] or u * grow < l * shrink:
            upper[i] = u
            continue
        d_a = _squared_distance(xi, centers + a * n_features, n_features)
        u = sqrt(d_a) * grow
        upper[i] = u
        if u < next_half[a] or u * grow < l * shrink:
            continue
        gathered_index[m] = i
        memcpy(gathered + m * n_features, xi, n_features * sizeof(floating))
        memcpy(gathered_screen + m * n_features, x_screen + i * n_features,
               n_features * sizeof(screen_t))
        m += 1
    if m > 0:
        _assign_chunk(gathered, sample_weight, centers, gathered_screen, centers_screen,
                      center_squared_norms, max_center_norm, m, n_clusters, n_features, dist,
                      gathered_labels, NULL, NULL, False, gathered_upper, NULL, gathered_second)
        for r in range(m):
            i = gathered_index[r]
            labels[i] = gathered_labels[r]
            upper[i] = gathered_upper[r]
            second[i] = gathered_second[r]
    if update:
        # in sample order, as Lloyd's step adds them: the same sums to the last bit
        for i in range(n_x):
            _accumulate(x + i * n_features, sample_weight[i], labels[i], n_features, sums,
                        weights)


cdef int _run_chunks(
    const floating[:, ::1] X, const floating[::1] sample_weight, const floating[:, ::1] centers,
    double[:, ::1] center_sums, double[::1] weight_in_clusters, int32_t[::1] labels,
    bint update_centers, int n_threads, const float[:, ::1] X_screen,
    double *upper, float *lower, double *second,
    const double *half_distances, const double *next_half, const double *shifts,
) except -1:
    """Run the chunk kernel (Lloyd's if ``shifts`` is NULL, else Hamerly's if ``second`` is
    given, else Elkan's) over all samples in parallel groups, then reduce the groups' sums in
    order. Lloyd's GEMM runs on ``X_screen`` and float32 centres when ``X_screen`` is given."""
    cdef intp_t n_samples = X.shape[0]
    cdef intp_t n_features = X.shape[1]
    cdef intp_t n_clusters = centers.shape[0]
    cdef intp_t n_chunks = (n_samples + CHUNK - 1) // CHUNK
    cdef intp_t n_groups = _n_groups(n_chunks, n_clusters, n_features)
    cdef intp_t g, c, j, l, start, stop
    cdef intp_t stride = n_clusters * n_features
    cdef bint hamerly = shifts != NULL and second != NULL
    cdef bint elkan = shifts != NULL and second == NULL
    cdef bint screen32 = X_screen is not None and not elkan
    cdef floating *dist = NULL     # allocated per thread inside the parallel block
    cdef float *dist32 = NULL      # the same, for the float32 GEMM
    cdef floating *gathered = NULL  # Hamerly's gathered rows, per thread
    cdef float *gathered32 = NULL
    cdef int *gathered_index = NULL
    cdef double *gathered_bounds = NULL
    cdef double norm, max_center_norm = 0.0, max_shift = 0.0
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef InterruptState interrupt
    cdef intp_t next_group = 0, n_done = 0
    cdef floating *center_squared_norms = <floating*>malloc(n_clusters * sizeof(floating))
    cdef float *centers32 = NULL
    cdef float *center_squared_norms32 = NULL
    cdef double *group_sums = NULL
    cdef double *group_weights = NULL
    if update_centers:
        group_sums = <double*>calloc(n_groups * stride, sizeof(double))
        group_weights = <double*>calloc(n_groups * n_clusters, sizeof(double))
    if screen32:
        centers32 = <float*>malloc(stride * sizeof(float))
        center_squared_norms32 = <float*>malloc(n_clusters * sizeof(float))
    try:
        if center_squared_norms == NULL or (update_centers and (group_sums == NULL
                                                                or group_weights == NULL)):
            raise MemoryError()
        if screen32 and (centers32 == NULL or center_squared_norms32 == NULL):
            raise MemoryError()
        with nogil:
            for l in range(n_clusters):
                norm = 0.0
                for j in range(n_features):
                    norm += <double>centers[l, j] * centers[l, j]
                center_squared_norms[l] = <floating>norm
                if norm > max_center_norm:
                    max_center_norm = norm
                if screen32:
                    norm = 0.0
                    for j in range(n_features):
                        centers32[l * n_features + j] = <float>centers[l, j]
                        norm += <double>centers32[l * n_features + j] ** 2
                    center_squared_norms32[l] = <float>norm
            max_center_norm = sqrt(max_center_norm)
            if hamerly:
                for l in range(n_clusters):
                    if shifts[l] > max_shift:
                        max_shift = shifts[l]
        # Elkan's steps cost a fraction of the GEMM's flops: the same cap is conservative.
        n_threads = <int>min(n_threads, n_groups,
                             max(1.0, 2.0 * n_samples * n_clusters * n_features
                                 / MIN_FLOPS_PER_THREAD))
        interrupt_init(&interrupt)
        with nogil, parallel(num_threads=n_threads):
            dist = NULL
            dist32 = NULL
            if screen32:
                dist32 = <float*>malloc(CHUNK * n_clusters * sizeof(float))
                if dist32 == NULL:
                    status_ptr[0] = -1
            elif not elkan:
                dist = <floating*>malloc(CHUNK * n_clusters * sizeof(floating))
                if dist == NULL:
                    status_ptr[0] = -1
            gathered = NULL
            gathered32 = NULL
            gathered_index = NULL
            gathered_bounds = NULL
            if hamerly:
                gathered = <floating*>malloc(CHUNK * n_features * sizeof(floating))
                gathered_index = <int*>malloc(2 * CHUNK * sizeof(int))
                gathered_bounds = <double*>malloc(2 * CHUNK * sizeof(double))
                if screen32:
                    gathered32 = <float*>malloc(CHUNK * n_features * sizeof(float))
                if (gathered == NULL or gathered_index == NULL or gathered_bounds == NULL
                        or (screen32 and gathered32 == NULL)):
                    status_ptr[0] = -1
            # Groups hold equal numbers of chunks (±1); taken one at a time (a dynamic schedule,
            # by hand) they keep both cores busy when the machine is shared, and cannot change
            # the result (ordered reduction). A thread out of groups waits in leave_team, where
            # the first thread keeps looking at the signals.
            while True:
                g = next_item(&next_group)
                if g >= n_groups or status_ptr[0] != 0 or interrupt.stop:
                    break
                for c in range(g * n_chunks // n_groups, (g + 1) * n_chunks // n_groups):
                    # one iteration over many samples and clusters may take seconds: look at
                    # the signals between chunks (the labels and bounds are then half updated;
                    # the caller's fit starts afresh)
                    if interrupted(&interrupt):
                        break
                    start = c * CHUNK
                    stop = min(start + CHUNK, n_samples)
                    if hamerly and screen32:
                        _hamerly_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                                       &X_screen[start, 0], centers32, center_squared_norms32,
                                       max_center_norm, next_half, shifts, max_shift,
                                       <int>(stop - start), <int>n_clusters, <int>n_features,
                                       &labels[start], upper + start, second + start, dist32,
                                       gathered32, gathered, gathered_index,
                                       <int32_t*>(gathered_index + CHUNK), gathered_bounds,
                                       gathered_bounds + CHUNK,
                                       group_sums + g * stride if update_centers else NULL,
                                       group_weights + g * n_clusters if update_centers else NULL,
                                       update_centers)
                    elif hamerly:
                        _hamerly_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                                       &X[start, 0], &centers[0, 0], center_squared_norms,
                                       max_center_norm, next_half, shifts, max_shift,
                                       <int>(stop - start), <int>n_clusters, <int>n_features,
                                       &labels[start], upper + start, second + start, dist,
                                       gathered, gathered, gathered_index,
                                       <int32_t*>(gathered_index + CHUNK), gathered_bounds,
                                       gathered_bounds + CHUNK,
                                       group_sums + g * stride if update_centers else NULL,
                                       group_weights + g * n_clusters if update_centers else NULL,
                                       update_centers)
                    elif elkan:
                        _elkan_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                                     half_distances, next_half, shifts, <int>(stop - start),
                                     <int>n_clusters, <int>n_features, &labels[start],
                                     upper + start, lower + start * n_clusters,
                                     group_sums + g * stride if update_centers else NULL,
                                     group_weights + g * n_clusters if update_centers else NULL,
                                     update_centers)
                    elif screen32:
                        _assign_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                                      &X_screen[start, 0], centers32, center_squared_norms32,
                                      max_center_norm, <int>(stop - start), <int>n_clusters,
                                      <int>n_features, dist32, &labels[start],
                                      group_sums + g * stride if update_centers else NULL,
                                      group_weights + g * n_clusters if update_centers else NULL,
                                      update_centers,
                                      upper + start if upper != NULL else NULL,
                                      lower + start * n_clusters if lower != NULL else NULL,
                                      second + start if second != NULL else NULL)
                    else:
                        _assign_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                                      &X[start, 0], &centers[0, 0], center_squared_norms,
                                      max_center_norm, <int>(stop - start), <int>n_clusters,
                                      <int>n_features, dist, &labels[start],
                                      group_sums + g * stride if update_centers else NULL,
                                      group_weights + g * n_clusters if update_centers else NULL,
                                      update_centers,
                                      upper + start if upper != NULL else NULL,
                                      lower + start * n_clusters if lower != NULL else NULL,
                                      second + start if second != NULL else NULL)
            free(dist)
            free(dist32)
            free(gathered)
            free(gathered32)
            free(gathered_index)
            free(gathered_bounds)
            leave_team(&interrupt, &n_done)
        if interrupt.stop:
            raise_pending()
        if status != 0:
            raise MemoryError(f"k-means could not allocate {CHUNK}×{n_clusters} distances per "
                              "thread.")
        if update_centers:
            # Ordered reduction over groups: independent of the thread count.
            with nogil:
                memset(&center_sums[0, 0], 0, stride * sizeof(double))
                memset(&weight_in_clusters[0], 0, n_clusters * sizeof(double))
                for g in range(n_groups):
                    for l in range(n_clusters):
                        weight_in_clusters[l] += group_weights[g * n_clusters + l]
                        for j in range(n_features):
                            center_sums[l, j] += group_sums[g * stride + l * n_features + j]
    finally:
        free(center_squared_norms)
        free(centers32)
        free(center_squared_norms32)
        free(group_sums)
        free(group_weights)
    return 0


def lloyd_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    double[:, ::1] center_sums,              # OUT (n_clusters, n_features)
    double[::1] weight_in_clusters,          # OUT (n_clusters,)
    int32_t[::1] labels,                     # OUT (n_samples,)
    bint update_centers=True,
    int n_threads=1,
    double[::1] upper_bounds=None,           # OUT (n_samples,) or None
    float[:, ::1] lower_bounds=None,         # OUT (n_samples, n_clusters) or None
    const float[:, ::1] X_screen=None,       # IN (n_samples, n_features) or None
    double[::1] second_bounds=None,          # OUT (n_samples,) or None
):
    """One Lloyd step: assign every sample to its nearest centre and sum each cluster.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    sample_weight : ndarray of shape (n_samples,), same dtype as X
    centers : ndarray of shape (n_clusters, n_features), same dtype as X
        Centres of the assignment step.
    center_sums : ndarray of shape (n_clusters, n_features), float64
        Output: ``Σ_{i: label_i = l} w_i x_i`` (untouched if ``update_centers`` is false).
    weight_in_clusters : ndarray of shape (n_clusters,), float64
        Output: ``Σ_{i: label_i = l} w_i`` (untouched if ``update_centers`` is false).
    labels : ndarray of shape (n_samples,), int32
        Output: index of the nearest centre by the exact rule of the module docstring
        (direct-difference squared distance, lowest index on ties).
    update_centers : bool
        Whether to accumulate the sums (the M-step input) or only assign.
    n_threads : int
        OpenMP threads (capped so that each has enough work).
    upper_bounds : ndarray of shape (n_samples,), float64, default=None
        Output if given: an upper bound of each sample's distance to its centre (Elkan's start).
    lower_bounds : ndarray of shape (n_samples, n_clusters), float32, default=None
        Output with ``upper_bounds``: lower bounds of the distances to every centre.
    X_screen : ndarray of shape (n_samples, n_features), float32, default=None
        ``X`` rounded to float32: the GEMM that ranks the centres runs in single precision
        (twice as fast), the labels stay those of the exact rule.
    second_bounds : ndarray of shape (n_samples,), float64, default=None
        Output with ``upper_bounds``: a lower bound of each sample's distance to every centre
        but its own (Hamerly's start).
    """
    if upper_bounds is None and (lower_bounds is not None or second_bounds is not None):
        raise ValueError("lower_bounds and second_bounds need upper_bounds.")
    _run_chunks(X, sample_weight, centers, center_sums, weight_in_clusters, labels,
                update_centers, n_threads, X_screen,
                &upper_bounds[0] if upper_bounds is not None else NULL,
                &lower_bounds[0, 0] if lower_bounds is not None else NULL,
                &second_bounds[0] if second_bounds is not None else NULL, NULL, NULL, NULL)


def elkan_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    const double[:, ::1] half_distances,     # IN (n_clusters, n_clusters)
    const double[::1] next_half,             # IN (n_clusters,)
    const double[::1] shifts,                # IN (n_clusters,)
    double[:, ::1] center_sums,              # OUT (n_clusters, n_features)
    double[::1] weight_in_clusters,          # OUT (n_clusters,)
    int32_t[::1] labels,                     # INOUT (n_samples,)
    double[::1] upper_bounds,                # INOUT (n_samples,)
    float[:, ::1] lower_bounds,              # INOUT (n_samples, n_clusters)
    bint update_centers=True,
    int n_threads=1,
):
    """One Elkan step: the same labels and sums as :func:`lloyd_iter`, fewer distances.

    Parameters
    ----------
    X, sample_weight, centers, center_sums, weight_in_clusters, update_centers, n_threads
        As in :func:`lloyd_iter`.
    half_distances : ndarray of shape (n_clusters, n_clusters), float64
        Lower bounds of ``‖c_a − c_l‖ / 2`` with the margin of :func:`center_geometry`.
    next_half : ndarray of shape (n_clusters,), float64
        ``min_{l ≠ a} half_distances[a, l]``.
    shifts : ndarray of shape (n_clusters,), float64
        Upper bounds of how far each centre moved since the bounds were last valid.
    labels : ndarray of shape (n_samples,), int32
        Input: the previous labels; output: the new ones.
    upper_bounds : ndarray of shape (n_samples,), float64
        Upper bounds of each sample's distance to its labelled centre, updated.
    lower_bounds : ndarray of shape (n_samples, n_clusters), float32
        Lower bounds of each sample's distance to every centre, updated.
    """
    cdef const float[:, ::1] no_screen = None   # Elkan's steps compute exact distances only
    _run_chunks(X, sample_weight, centers, center_sums, weight_in_clusters, labels,
                update_centers, n_threads, no_screen, &upper_bounds[0], &lower_bounds[0, 0],
                NULL, &half_distances[0, 0], &next_half[0], &shifts[0])


def hamerly_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    const double[::1] next_half,             # IN (n_clusters,)
    const double[::1] shifts,                # IN (n_clusters,)
    double[:, ::1] center_sums,              # OUT (n_clusters, n_features)
    double[::1] weight_in_clusters,          # OUT (n_clusters,)
    int32_t[::1] labels,                     # INOUT (n_samples,)
    double[::1] upper_bounds,                # INOUT (n_samples,)
    double[::1] second_bounds,               # INOUT (n_samples,)
    bint update_centers=True,
    int n_threads=1,
    const float[:, ::1] X_screen=None,       # IN (n_samples, n_features) or None
):
    """One Hamerly step: the same labels and sums as :func:`lloyd_iter`; only the samples whose
    two bounds overlap are re-assigned (by Lloyd's GEMM kernel, gathered per chunk).

    Parameters
    ----------
    X, sample_weight, centers, center_sums, weight_in_clusters, update_centers, n_threads, \
X_screen
        As in :func:`lloyd_iter`.
    next_half, shifts
        As in :func:`elkan_iter`.
    labels : ndarray of shape (n_samples,), int32
        Input: the previous labels; output: the new ones.
    upper_bounds : ndarray of shape (n_samples,), float64
        Upper bounds of each sample's distance to its centre, updated.
    second_bounds : ndarray of shape (n_samples,), float64
        Lower bounds of each sample's distance to every other centre, updated.
    """
    _run_chunks(X, sample_weight, centers, center_sums, weight_in_clusters, labels,
                update_centers, n_threads, X_screen, &upper_bounds[0], NULL, &second_bounds[0],
                NULL, &next_half[0], &shifts[0])


def center_geometry(
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    const floating[:, ::1] old_centers,      # IN (n_clusters, n_features)
    double[:, ::1] half_distances,           # OUT (n_clusters, n_clusters)
    double[::1] next_half,                   # OUT (n_clusters,)
    double[::1] shifts,                      # OUT (n_clusters,)
):
    """What Elkan's step needs about the centres: half distances between them (lower bounds,
    shrunk by ``(1 − 3δ)`` so that ``u < h`` proves a strict inequality of computed distances),
    each one's nearest half distance, and each centre's shift from ``old_centers`` (upper
    bounds, grown by ``(1 + δ)``).

    Parameters
    ----------
    centers, old_centers : ndarray of shape (n_clusters, n_features), float32 or float64
    half_distances : ndarray of shape (n_clusters, n_clusters), float64, output
    next_half : ndarray of shape (n_clusters,), float64, output
    shifts : ndarray of shape (n_clusters,), float64, output
    """
    cdef intp_t n_clusters = centers.shape[0]
    cdef int n_features = <int>centers.shape[1]
    cdef intp_t a, l
    cdef double h, delta = _margin(n_features)
    with nogil:
        for a in range(n_clusters):
            shifts[a] = sqrt(_squared_distance(&centers[a, 0], &old_centers[a, 0],
                                               n_features)) * (1.0 + delta)
            half_distances[a, a] = 0.0
            for l in range(a):
                h = 0.5 * sqrt(_squared_distance(&centers[a, 0], &centers[l, 0], n_features))
                h = h * (1.0 - 3.0 * delta)
                half_distances[a, l] = h
                half_distances[l, a] = h
        for a in range(n_clusters):
            h = 1e308 if n_clusters > 1 else 0.0
            for l in range(n_clusters):
                if l != a and half_distances[a, l] < h:
                    h = half_distances[a, l]
            next_half[a] = h


def inertia(
    const floating[:, ::1] X,            # IN (n_samples, n_features)
    const floating[::1] sample_weight,   # IN (n_samples,)
    const floating[:, ::1] centers,      # IN (n_clusters, n_features)
    const int32_t[::1] labels,           # IN (n_samples,)
    int n_threads=1,
):
    """Exact k-means objective ``Σ_i w_i ‖x_i − c_{label_i}‖²`` (direct differences).

    Same arrays as :func:`lloyd_iter`. Summed per chunk, then chunk by chunk in order, so the
    value does not depend on ``n_threads``.
    """
    cdef intp_t n_samples = X.shape[0]
    cdef intp_t n_features = X.shape[1]
    cdef intp_t n_chunks = (n_samples + CHUNK - 1) // CHUNK
    cdef intp_t c, i, j
    cdef double s, diff, total = 0.0
    cdef double *partial = <double*>calloc(n_chunks if n_chunks > 0 else 1, sizeof(double))
    if partial == NULL:
        raise MemoryError()
    try:
        with nogil:
            for c in prange(n_chunks, schedule='static', num_threads=n_threads):
                s = 0.0
                for i in range(c * CHUNK, min((c + 1) * CHUNK, n_samples)):
                    for j in range(n_features):
                        diff = <double>X[i, j] - centers[labels[i], j]
                        s = s + sample_weight[i] * diff * diff
                partial[c] = s
            for c in range(n_chunks):
                total += partial[c]
    finally:
        free(partial)
    return total
