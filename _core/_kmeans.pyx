"""Lloyd iterations for k-means: chunked assignment by GEMM, fused centre accumulation.

Seed 003 Algorithm 9 (k-means) and §2.2; seed 001/002 §16.1.2 eqs (16.3)-(16.4).

Distances use ``‖x − c‖² = ‖x‖² − 2 x·c + ‖c‖²``: the cross term of a chunk of samples against all
centres is one GEMM; ``‖x‖²`` does not change the argmin and is only added for the objective.

Determinism: samples are cut into fixed chunks of ``CHUNK`` rows, chunks into ``n_groups`` groups
whose number depends on the data shape only. Each group accumulates its own partial sums, in
sample order; the partials are then added group by group, in order. So the result is the same
for any number of threads.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport INFINITY
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memset
from scipy.linalg.cython_blas cimport sgemm, dgemm

from _types cimport floating, intp_t, int32_t

# Rows per chunk: the chunk's (CHUNK, n_clusters) dot products stay in L2 for usual k.
cdef intp_t CHUNK = 256
# Budget (in doubles) for the per-group centre accumulators.
cdef intp_t GROUP_BUDGET = 1 << 22
cdef intp_t MAX_GROUPS = 64
# Below this many flops of GEMM per thread, waking another thread costs more than it saves
# (and on a busy machine a parallel region can wait a whole time slice for a descheduled thread).
cdef double MIN_FLOPS_PER_THREAD = 4e6


cdef intp_t _n_groups(intp_t n_chunks, intp_t n_clusters, intp_t n_features) noexcept nogil:
    """Number of accumulation groups: a function of the shape only, never of the thread count."""
    cdef intp_t by_memory = GROUP_BUDGET // (n_clusters * (n_features + 1))
    cdef intp_t g = n_chunks
    if g > MAX_GROUPS:
        g = MAX_GROUPS
    if g > by_memory:
        g = by_memory
    return g if g > 0 else 1


cdef inline void _gemm_abt(
    const floating *a, const floating *b, floating *out,
    int n_a, int n_b, int n_features,
) noexcept nogil:
    """``out = a · bᵀ`` for row-major a (n_a, n_features), b (n_b, n_features), out (n_a, n_b).

    In column-major terms this is ``outᵀ = b · aᵀ``, i.e. GEMM('T', 'N') on the raw buffers.
    """
    cdef char transa = b'T'
    cdef char transb = b'N'
    cdef floating one = 1.0
    cdef floating zero = 0.0
    if floating is float:
        sgemm(&transa, &transb, &n_b, &n_a, &n_features, &one, <float*>b, &n_features,
              <float*>a, &n_features, &zero, <float*>out, &n_b)
    else:
        dgemm(&transa, &transb, &n_b, &n_a, &n_features, &one, <double*>b, &n_features,
              <double*>a, &n_features, &zero, <double*>out, &n_b)


cdef void _assign_chunk(
    const floating[:, ::1] X,
    const floating[::1] sample_weight,
    const floating[::1] x_squared_norms,
    const floating[:, ::1] centers,
    const double *center_squared_norms,
    intp_t start, intp_t stop,
    floating *dots,                 # scratch (CHUNK, n_clusters)
    int32_t[::1] labels,            # OUT
    double *sums,                   # INOUT (n_clusters, n_features), if update
    double *weights,                # INOUT (n_clusters,), if update
    double *objective,              # INOUT
    bint update,
) noexcept nogil:
    cdef intp_t n_clusters = centers.shape[0]
    cdef intp_t n_features = X.shape[1]
    cdef intp_t i, j, best
    cdef double d, best_d, w
    _gemm_abt(&X[start, 0], &centers[0, 0], dots, <int>(stop - start), <int>n_clusters,
              <int>n_features)
    for i in range(start, stop):
        best = 0
        best_d = INFINITY
        for j in range(n_clusters):
            # ‖c‖² − 2 x·c; strict '<' sends ties to the lowest index (seed 003 Property 55).
            d = center_squared_norms[j] - 2.0 * dots[(i - start) * n_clusters + j]
            if d < best_d:
                best_d = d
                best = j
        labels[i] = <int32_t>best
        w = sample_weight[i]
        d = best_d + x_squared_norms[i]
        # may be slightly negative from rounding; clamp
        objective[0] += w * (d if d > 0.0 else 0.0)
        if update:
            weights[best] += w
            for j in range(n_features):
                sums[best * n_features + j] += w * X[i, j]


def lloyd_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[::1] x_squared_norms,     # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    double[:, ::1] center_sums,              # OUT (n_clusters, n_features)
    double[::1] weight_in_clusters,          # OUT (n_clusters,)
    int32_t[::1] labels,                     # OUT (n_samples,)
    bint update_centers=True,
    int n_threads=1,
):
    """One Lloyd step: assign every sample to its nearest centre and sum each cluster.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    sample_weight : ndarray of shape (n_samples,), same dtype as X
    x_squared_norms : ndarray of shape (n_samples,), same dtype as X
        ``‖x_i‖²``, only used for the objective.
    centers : ndarray of shape (n_clusters, n_features), same dtype as X
        Centres of the assignment step.
    center_sums : ndarray of shape (n_clusters, n_features), float64
        Output: ``Σ_{i: label_i = l} w_i x_i`` (untouched if ``update_centers`` is false).
    weight_in_clusters : ndarray of shape (n_clusters,), float64
        Output: ``Σ_{i: label_i = l} w_i`` (untouched if ``update_centers`` is false).
    labels : ndarray of shape (n_samples,), int32
        Output: index of the nearest centre, lowest index on ties.
    update_centers : bool
        Whether to accumulate the sums (the M-step input) or only assign.
    n_threads : int
        OpenMP threads.

    Returns
    -------
    objective : float
        ``Σ_i w_i ‖x_i − c_{label_i}‖²`` for these labels and centres (by the expansion above,
        so it carries rounding of order ``ε‖x‖²``; use :func:`inertia` for the exact value).
    """
    cdef intp_t n_samples = X.shape[0]
    cdef intp_t n_features = X.shape[1]
    cdef intp_t n_clusters = centers.shape[0]
    cdef intp_t n_chunks = (n_samples + CHUNK - 1) // CHUNK
    cdef intp_t n_groups = _n_groups(n_chunks, n_clusters, n_features)
    cdef intp_t g, c, j, l, start, stop
    cdef intp_t stride = n_clusters * n_features
    cdef double objective = 0.0
    cdef floating *dots
    cdef double *center_squared_norms = <double*>malloc(n_clusters * sizeof(double))
    cdef double *group_sums = NULL
    cdef double *group_weights = <double*>calloc(n_groups * n_clusters, sizeof(double))
    cdef double *group_objective = <double*>calloc(n_groups, sizeof(double))
    if update_centers:
        group_sums = <double*>calloc(n_groups * stride, sizeof(double))
    try:
        if (center_squared_norms == NULL or group_weights == NULL or group_objective == NULL
                or (update_centers and group_sums == NULL)):
            raise MemoryError()
        with nogil:
            for l in range(n_clusters):
                center_squared_norms[l] = 0.0
                for j in range(n_features):
                    center_squared_norms[l] += <double>centers[l, j] * centers[l, j]
        n_threads = <int>min(n_threads, n_groups,
                             max(1.0, 2.0 * n_samples * n_clusters * n_features
                                 / MIN_FLOPS_PER_THREAD))
        with nogil, parallel(num_threads=n_threads):
            dots = <floating*>malloc(CHUNK * n_clusters * sizeof(floating))
            # Groups hold equal numbers of chunks (±1); dynamic scheduling keeps both cores busy
            # when the machine is shared, and cannot change the result (ordered reduction).
            for g in prange(n_groups, schedule='dynamic'):
                for c in range(g * n_chunks // n_groups, (g + 1) * n_chunks // n_groups):
                    start = c * CHUNK
                    stop = min(start + CHUNK, n_samples)
                    _assign_chunk(X, sample_weight, x_squared_norms, centers,
                                  center_squared_norms, start, stop, dots, labels,
                                  group_sums + g * stride if update_centers else NULL,
                                  group_weights + g * n_clusters, group_objective + g,
                                  update_centers)
            free(dots)
        # Ordered reduction over groups: independent of the thread count.
        with nogil:
            if update_centers:
                memset(&center_sums[0, 0], 0, stride * sizeof(double))
                memset(&weight_in_clusters[0], 0, n_clusters * sizeof(double))
            for g in range(n_groups):
                objective += group_objective[g]
                if update_centers:
                    for l in range(n_clusters):
                        weight_in_clusters[l] += group_weights[g * n_clusters + l]
                        for j in range(n_features):
                            center_sums[l, j] += group_sums[g * stride + l * n_features + j]
    finally:
        free(center_squared_norms)
        free(group_sums)
        free(group_weights)
        free(group_objective)
    return objective


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
