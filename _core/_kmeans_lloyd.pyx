"""Lloyd's step for k-means: chunked assignment by GEMM, exact check of near ties.

Sangnier, Algorithm 9 (k-means) and §2.2; Peyré, §16.1.2 eqs (16.3)-(16.4).

The assignment rule, the chunking and the ordered reduction are in ``_kmeans_common.pxd``, shared
with Elkan's (``_kmeans_elkan.pyx``) and Hamerly's (``_kmeans_hamerly.pyx``) steps: the three
give the same labels, bit-identical centres and the same number of iterations.
:func:`lloyd_iter` ranks the centres of a chunk of samples with one GEMM, ``‖c‖² − 2x·c``
(``‖x‖²`` does not change the argmin), in float32 when the estimator passes ``X_screen``, then
recomputes ``D`` directly for the few centres whose GEMM value lies within the GEMM's rounding
bound of the best (usually none but the best itself). It costs ``2 n k d`` flops every step.

Lloyd's step is not the default: ``KMeans(algorithm="auto")`` runs Hamerly's, which settles most
samples after the first steps with two bounds each and sends only the others through this GEMM
kernel, the fastest fit to convergence in every case measured (``bench/results/kmeans.md``).
Lloyd's step still starts every bounded run (it initialises the bounds), assigns for
``predict`` and k-medoids' Voronoi iteration, and :func:`inertia` is every algorithm's objective.
"""

from cython.parallel cimport parallel, prange
from libc.stdlib cimport calloc, free, malloc

from _interrupt cimport InterruptState, leave_team
from _kmeans_common cimport (CHUNK, SCAN_EXTRA_ROWS, Groups, _assign_chunk, group_sums,
                             group_weights, groups_finish, groups_free, groups_start, next_chunk,
                             screen_centers, screen_t)
from _types cimport floating, intp_t, int32_t


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
    cdef double *upper = &upper_bounds[0] if upper_bounds is not None else NULL
    cdef float *lower = &lower_bounds[0, 0] if lower_bounds is not None else NULL
    cdef double *second = &second_bounds[0] if second_bounds is not None else NULL
    if X_screen is not None:
        _lloyd(X, sample_weight, centers, &X_screen[0, 0], center_sums, weight_in_clusters,
               labels, update_centers, n_threads, upper, lower, second)
    else:
        _lloyd(X, sample_weight, centers, &X[0, 0], center_sums, weight_in_clusters, labels,
               update_centers, n_threads, upper, lower, second)


cdef int _lloyd(
    const floating[:, ::1] X, const floating[::1] sample_weight, const floating[:, ::1] centers,
    const screen_t *X_screen,       # IN (n_samples, n_features): X, or X rounded to float32
    double[:, ::1] center_sums, double[::1] weight_in_clusters, int32_t[::1] labels,
    bint update_centers, int n_threads,
    double *upper, float *lower, double *second,
) except -1:
    """Lloyd's chunk kernel over all samples in parallel groups, then the ordered reduction of
    the groups' sums. The GEMM runs in the type of ``X_screen``, on the centres rounded to it."""
    cdef intp_t n_samples = X.shape[0], n_features = X.shape[1], n_clusters = centers.shape[0]
    cdef intp_t g = 0, c = 0, c_stop = 0, start, stop, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef double max_center_norm = 0.0
    cdef screen_t *dist = NULL     # allocated per thread inside the parallel block
    cdef screen_t *centers_screen = NULL
    cdef screen_t *center_squared_norms = NULL
    cdef Groups groups
    cdef InterruptState interrupt
    n_threads = groups_start(&groups, n_samples, n_features, n_clusters, update_centers,
                             n_threads, &interrupt)
    try:
        screen_centers(&centers[0, 0], n_clusters, n_features, &centers_screen,
                       &center_squared_norms, &max_center_norm)
        with nogil, parallel(num_threads=n_threads):
            # assigned here, so private to each thread (next_chunk writes them through pointers)
            g = 0
            c = 0
            c_stop = 0
            dist = <screen_t*>calloc(CHUNK * (n_clusters + SCAN_EXTRA_ROWS), sizeof(screen_t))
            if dist == NULL:
                status_ptr[0] = -1
            while next_chunk(&groups, &g, &c, &c_stop, &interrupt, status_ptr):
                start = c * CHUNK
                stop = min(start + CHUNK, n_samples)
                _assign_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                              X_screen + start * n_features, centers_screen,
                              center_squared_norms, max_center_norm,
                              <int>(stop - start), <int>n_clusters, <int>n_features, dist,
                              &labels[start], group_sums(&groups, g), group_weights(&groups, g),
                              update_centers, upper + start if upper != NULL else NULL,
                              lower + start * n_clusters if lower != NULL else NULL,
                              second + start if second != NULL else NULL)
            free(dist)
            leave_team(&interrupt, &n_done)
        groups_finish(&groups, &interrupt, status, center_sums, weight_in_clusters)
    finally:
        free(centers_screen)
        groups_free(&groups)
    return 0


def inertia(
    const floating[:, ::1] X,            # IN (n_samples, n_features)
    const floating[::1] sample_weight,   # IN (n_samples,)
    const floating[:, ::1] centers,      # IN (n_clusters, n_features)
    const int32_t[::1] labels,           # IN (n_samples,)
    int n_threads=1,
):
    """Exact k-means objective ``Σ_i w_i ‖x_i − c_{label_i}‖²`` (direct differences).

    Same arrays as :func:`lloyd_iter`; the objective of every algorithm. Summed per chunk, then
    chunk by chunk in order, so the value does not depend on ``n_threads``.
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
