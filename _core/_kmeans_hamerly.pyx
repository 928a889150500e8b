"""Hamerly's step for k-means, the default (``KMeans(algorithm="auto")``): Lloyd's labels and
sums, most samples settled by two bounds.

G. Hamerly, "Making k-means even faster", SDM 2010; Sangnier, §2.2.

Each sample keeps an upper bound on its distance to its centre and one lower bound to all the
other centres, moved by the centre shifts after each step, with the margins of Elkan's step
(``_kmeans_common.pxd``). The samples of a chunk that the bounds cannot settle are gathered and
re-assigned together by Lloyd's GEMM chunk kernel (float32 ranking when the estimator passes
``X_screen``, exact check of near ties), which also gives their new bounds; the cluster sums are
then added in sample order, as Lloyd's step adds them: the same labels, centres (bit for bit) and
iterations as Lloyd's and Elkan's steps.

Why it is the default: after the first steps most samples are settled by the two bounds at
O(1) cost each, the rest still go through the GEMM (unlike Elkan's distance-by-distance
checks), and the bounds take two numbers per sample instead of Elkan's ``n × k`` table; it was
the fastest fit to convergence in every case measured (``bench/results/kmeans.md``).
"""

from cython.parallel cimport parallel
from libc.math cimport sqrt
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from _interrupt cimport InterruptState, leave_team
from _kmeans_common cimport (CHUNK, SCAN_EXTRA_ROWS, Groups, _accumulate, _assign_chunk,
                             _margin, _squared_distance, group_sums, group_weights,
                             groups_finish, groups_free, groups_start, next_chunk,
                             screen_centers, screen_t)
from _types cimport floating, intp_t, int32_t


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
    screen_t *dist,                 # scratch of _assign_chunk
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
    """One Hamerly step: the same labels and sums as Lloyd's step; only the samples whose
    two bounds overlap are re-assigned (by Lloyd's GEMM kernel, gathered per chunk).

    Parameters
    ----------
    X, sample_weight, centers, center_sums, weight_in_clusters, update_centers, n_threads, \
X_screen
        As in :func:`kernelkit._core._kmeans_lloyd.lloyd_iter`.
    next_half, shifts
        As in :func:`kernelkit._core._kmeans_elkan.elkan_iter`.
    labels : ndarray of shape (n_samples,), int32
        Input: the previous labels; output: the new ones.
    upper_bounds : ndarray of shape (n_samples,), float64
        Upper bounds of each sample's distance to its centre, updated.
    second_bounds : ndarray of shape (n_samples,), float64
        Lower bounds of each sample's distance to every other centre, updated.
    """
    if X_screen is not None:
        _hamerly(X, sample_weight, centers, &X_screen[0, 0], &next_half[0], &shifts[0],
                 center_sums, weight_in_clusters, labels, &upper_bounds[0], &second_bounds[0],
                 update_centers, n_threads)
    else:
        _hamerly(X, sample_weight, centers, &X[0, 0], &next_half[0], &shifts[0], center_sums,
                 weight_in_clusters, labels, &upper_bounds[0], &second_bounds[0],
                 update_centers, n_threads)


cdef int _hamerly(
    const floating[:, ::1] X, const floating[::1] sample_weight, const floating[:, ::1] centers,
    const screen_t *X_screen,       # IN (n_samples, n_features): X, or X rounded to float32
    const double *next_half, const double *shifts,
    double[:, ::1] center_sums, double[::1] weight_in_clusters, int32_t[::1] labels,
    double *upper, double *second, bint update_centers, int n_threads,
) except -1:
    """Hamerly's chunk kernel over all samples in parallel groups, then the ordered reduction of
    the groups' sums. The re-assignment's GEMM runs in the type of ``X_screen``."""
    cdef intp_t n_samples = X.shape[0], n_features = X.shape[1], n_clusters = centers.shape[0]
    cdef intp_t g = 0, c = 0, c_stop = 0, l, start, stop, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef double max_center_norm = 0.0, max_shift = 0.0
    # the gathered rows share one buffer when the GEMM runs on X itself
    cdef bint rounded = <const void*>X_screen != <const void*>&X[0, 0]
    # allocated per thread inside the parallel block
    cdef screen_t *dist = NULL
    cdef floating *gathered = NULL
    cdef screen_t *gathered_screen = NULL
    cdef int *gathered_index = NULL
    cdef double *gathered_bounds = NULL
    cdef screen_t *centers_screen = NULL
    cdef screen_t *center_squared_norms = NULL
    cdef Groups groups
    cdef InterruptState interrupt
    n_threads = groups_start(&groups, n_samples, n_features, n_clusters, update_centers,
                             n_threads, &interrupt)
    try:
        screen_centers(&centers[0, 0], n_clusters, n_features, &centers_screen,
                       &center_squared_norms, &max_center_norm)
        for l in range(n_clusters):
            if shifts[l] > max_shift:
                max_shift = shifts[l]
        with nogil, parallel(num_threads=n_threads):
            # assigned here, so private to each thread (next_chunk writes them through pointers)
            g = 0
            c = 0
            c_stop = 0
            dist = <screen_t*>calloc(CHUNK * (n_clusters + SCAN_EXTRA_ROWS), sizeof(screen_t))
            gathered = <floating*>malloc(CHUNK * n_features * sizeof(floating))
            gathered_screen = (<screen_t*>malloc(CHUNK * n_features * sizeof(screen_t))
                               if rounded else <screen_t*>gathered)
            gathered_index = <int*>malloc(2 * CHUNK * sizeof(int))
            gathered_bounds = <double*>malloc(2 * CHUNK * sizeof(double))
            if (dist == NULL or gathered == NULL or gathered_screen == NULL
                    or gathered_index == NULL or gathered_bounds == NULL):
                status_ptr[0] = -1
            while next_chunk(&groups, &g, &c, &c_stop, &interrupt, status_ptr):
                start = c * CHUNK
                stop = min(start + CHUNK, n_samples)
                _hamerly_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                               X_screen + start * n_features, centers_screen,
                               center_squared_norms, max_center_norm,
                               next_half, shifts, max_shift, <int>(stop - start),
                               <int>n_clusters, <int>n_features, &labels[start], upper + start,
                               second + start, dist, gathered_screen, gathered, gathered_index,
                               <int32_t*>(gathered_index + CHUNK), gathered_bounds,
                               gathered_bounds + CHUNK, group_sums(&groups, g),
                               group_weights(&groups, g), update_centers)
            free(dist)
            if rounded:
                free(gathered_screen)
            free(gathered)
            free(gathered_index)
            free(gathered_bounds)
            leave_team(&interrupt, &n_done)
        groups_finish(&groups, &interrupt, status, center_sums, weight_in_clusters)
    finally:
        free(centers_screen)
        groups_free(&groups)
    return 0
