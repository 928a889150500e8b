"""Lloyd iterations for k-means: chunked assignment by GEMM, fused centre accumulation.

Sangnier, Algorithm 9 (k-means) and §2.2; Peyré, §16.1.2 eqs (16.3)-(16.4).

Distances use ``‖x − c‖² = ‖x‖² − 2 x·c + ‖c‖²``: the cross term of a chunk of samples against all
centres is one GEMM, and ``‖x‖²`` is left out since it does not change the argmin. The objective
of the step is not summed per sample: it follows from the cluster sums, see
``kernelkit.cluster._kmeans.kmeans_lloyd``.

Determinism: samples are cut into fixed chunks of ``CHUNK`` rows, chunks into ``n_groups`` groups
whose number depends on the data shape only. Each group accumulates its own partial sums, in
sample order; the partials are then added group by group, in order. So the result is the same
for any number of threads.
"""

from cython.parallel cimport parallel, prange
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy, memset
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


cdef inline void _distances_chunk(
    const floating *x, const floating *centers, const floating *center_squared_norms,
    floating *out, int n_x, int n_clusters, int n_features,
) noexcept nogil:
    """``out[i, l] = ‖c_l‖² − 2 x_i·c_l`` for a row-major chunk x (n_x, n_features).

    One GEMM, ``out ← −2 x·cᵀ + out`` with ``out`` pre-filled by ``‖c‖²`` (beta = 1). In
    column-major terms ``outᵀ = −2 c·xᵀ + outᵀ``: GEMM('T', 'N') on the raw row-major buffers.
    """
    cdef char transa = b'T'
    cdef char transb = b'N'
    cdef floating alpha = -2.0
    cdef floating beta = 1.0
    cdef int i
    for i in range(n_x):
        memcpy(out + i * n_clusters, center_squared_norms, n_clusters * sizeof(floating))
    if floating is float:
        sgemm(&transa, &transb, &n_clusters, &n_x, &n_features, &alpha, <float*>centers,
              &n_features, <float*>x, &n_features, &beta, <float*>out, &n_clusters)
    else:
        dgemm(&transa, &transb, &n_clusters, &n_x, &n_features, &alpha, <double*>centers,
              &n_features, <double*>x, &n_features, &beta, <double*>out, &n_clusters)


cdef void _assign_chunk(
    const floating *x,              # IN (n_x, n_features), a C-contiguous chunk of X
    const floating *sample_weight,  # IN (n_x,)
    const floating *centers,        # IN (n_clusters, n_features)
    const floating *center_squared_norms,  # IN (n_clusters,)
    int n_x, int n_clusters, int n_features,
    floating *dist,                 # scratch (n_x, n_clusters)
    int32_t *labels,                # OUT (n_x,)
    double *sums,                   # INOUT (n_clusters, n_features), if update
    double *weights,                # INOUT (n_clusters,), if update
    bint update,
) noexcept nogil:
    """Assign a chunk of rows and add them to their clusters' sums.

    Raw pointers, not memoryviews: the inner accumulation loop must not reload strides after
    every store (the compiler cannot prove the stores leave a memoryview struct alone).
    """
    cdef int i, j, best
    cdef floating best_d, w
    cdef const floating *row
    cdef const floating *xi
    cdef double *s
    _distances_chunk(x, centers, center_squared_norms, dist, n_x, n_clusters, n_features)
    for i in range(n_x):
        row = dist + i * n_clusters
        best = 0
        best_d = row[0]
        for j in range(1, n_clusters):
            # strict '<' sends ties to the lowest index (Sangnier, Property 55)
            if row[j] < best_d:
                best_d = row[j]
                best = j
        labels[i] = best
        if update:
            w = sample_weight[i]
            weights[best] += w
            s = sums + best * n_features
            xi = x + i * n_features
            for j in range(n_features):
                s[j] += w * xi[j]


def lloyd_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
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
    centers : ndarray of shape (n_clusters, n_features), same dtype as X
        Centres of the assignment step.
    center_sums : ndarray of shape (n_clusters, n_features), float64
        Output: ``Σ_{i: label_i = l} w_i x_i`` (untouched if ``update_centers`` is false).
    weight_in_clusters : ndarray of shape (n_clusters,), float64
        Output: ``Σ_{i: label_i = l} w_i`` (untouched if ``update_centers`` is false).
    labels : ndarray of shape (n_samples,), int32
        Output: index of the nearest centre, lowest index on ties (up to the rounding of the
        distance expansion).
    update_centers : bool
        Whether to accumulate the sums (the M-step input) or only assign.
    n_threads : int
        OpenMP threads (capped so that each has enough work).
    """
    cdef intp_t n_samples = X.shape[0]
    cdef intp_t n_features = X.shape[1]
    cdef intp_t n_clusters = centers.shape[0]
    cdef intp_t n_chunks = (n_samples + CHUNK - 1) // CHUNK
    cdef intp_t n_groups = _n_groups(n_chunks, n_clusters, n_features)
    cdef intp_t g, c, j, l, start, stop
    cdef intp_t stride = n_clusters * n_features
    cdef floating *dist = NULL     # allocated per thread inside the parallel block
    cdef double norm
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef floating *center_squared_norms = <floating*>malloc(n_clusters * sizeof(floating))
    cdef double *group_sums = NULL
    cdef double *group_weights = NULL
    if update_centers:
        group_sums = <double*>calloc(n_groups * stride, sizeof(double))
        group_weights = <double*>calloc(n_groups * n_clusters, sizeof(double))
    try:
        if center_squared_norms == NULL or (update_centers and (group_sums == NULL
                                                                or group_weights == NULL)):
            raise MemoryError()
        with nogil:
            for l in range(n_clusters):
                norm = 0.0
                for j in range(n_features):
                    norm += <double>centers[l, j] * centers[l, j]
                center_squared_norms[l] = <floating>norm
        n_threads = <int>min(n_threads, n_groups,
                             max(1.0, 2.0 * n_samples * n_clusters * n_features
                                 / MIN_FLOPS_PER_THREAD))
        with nogil, parallel(num_threads=n_threads):
            dist = <floating*>malloc(CHUNK * n_clusters * sizeof(floating))
            if dist == NULL:
                status_ptr[0] = -1
            # Groups hold equal numbers of chunks (±1); dynamic scheduling keeps both cores busy
            # when the machine is shared, and cannot change the result (ordered reduction).
            for g in prange(n_groups, schedule='dynamic'):
                if dist == NULL:
                    continue
                for c in range(g * n_chunks // n_groups, (g + 1) * n_chunks // n_groups):
                    start = c * CHUNK
                    stop = min(start + CHUNK, n_samples)
                    _assign_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                                  center_squared_norms, <int>(stop - start), <int>n_clusters,
                                  <int>n_features, dist, &labels[start],
                                  group_sums + g * stride if update_centers else NULL,
                                  group_weights + g * n_clusters if update_centers else NULL,
                                  update_centers)
            free(dist)
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
        free(group_sums)
        free(group_weights)


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
