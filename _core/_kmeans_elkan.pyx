"""Elkan's step for k-means: Lloyd's labels and sums, most distances skipped by bounds.

C. Elkan, "Using the triangle inequality to accelerate k-means", ICML 2003; Sangnier, §2.2.

Each sample keeps an upper bound on its distance to its centre and a lower bound to every other
centre (an ``n × k`` float32 table), moved by the centre shifts after each step (triangle
inequality); ``D`` is computed only for centres the bounds cannot exclude. Every bound and every
pruning test carries a relative margin ``δ`` larger than the rounding of ``D``, so a pruned
centre is strictly farther than the current one in computed ``D`` too: the labels, centres (bit
for bit) and iterations are those of Lloyd's step (the shared rule, chunking and reduction are in
``_kmeans_common.pxd``). :func:`center_geometry` gives the centre distances and shifts that
Elkan's and Hamerly's steps need.

Not the default: ``KMeans(algorithm="auto")`` runs Hamerly's step (``_kmeans_hamerly.pyx``), which
needs two bounds per sample instead of ``k`` and was the fastest fit to convergence in every case
measured (``bench/results/kmeans.md``).
"""

from cython.parallel cimport parallel
from libc.math cimport sqrt

from _interrupt cimport InterruptState, leave_team
from _kmeans_common cimport (CHUNK, Groups, _accumulate, _down, _margin, _squared_distance,
                             group_sums, group_weights, groups_finish, groups_free, groups_start,
                             next_chunk)
from _types cimport floating, intp_t, int32_t


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
    """One Elkan step: the same labels and sums as Lloyd's step, fewer distances.

    Parameters
    ----------
    X, sample_weight, centers, center_sums, weight_in_clusters, update_centers, n_threads
        As in :func:`kernelkit._core._kmeans_lloyd.lloyd_iter`.
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
    _elkan(X, sample_weight, centers, &half_distances[0, 0], &next_half[0], &shifts[0],
           center_sums, weight_in_clusters, labels, &upper_bounds[0], &lower_bounds[0, 0],
           update_centers, n_threads)


cdef int _elkan(
    const floating[:, ::1] X, const floating[::1] sample_weight, const floating[:, ::1] centers,
    const double *half_distances, const double *next_half, const double *shifts,
    double[:, ::1] center_sums, double[::1] weight_in_clusters, int32_t[::1] labels,
    double *upper, float *lower, bint update_centers, int n_threads,
) except -1:
    """Elkan's chunk kernel over all samples in parallel groups, then the ordered reduction of
    the groups' sums."""
    cdef intp_t n_samples = X.shape[0], n_features = X.shape[1], n_clusters = centers.shape[0]
    cdef intp_t g = 0, c = 0, c_stop = 0, start, stop, n_done = 0
    cdef int status = 0
    cdef Groups groups
    cdef InterruptState interrupt
    n_threads = groups_start(&groups, n_samples, n_features, n_clusters, update_centers,
                             n_threads, &interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            # assigned here, so private to each thread (next_chunk writes them through pointers)
            g = 0
            c = 0
            c_stop = 0
            while next_chunk(&groups, &g, &c, &c_stop, &interrupt, &status):
                start = c * CHUNK
                stop = min(start + CHUNK, n_samples)
                _elkan_chunk(&X[start, 0], &sample_weight[start], &centers[0, 0],
                             half_distances, next_half, shifts, <int>(stop - start),
                             <int>n_clusters, <int>n_features, &labels[start], upper + start,
                             lower + start * n_clusters, group_sums(&groups, g),
                             group_weights(&groups, g), update_centers)
            leave_team(&interrupt, &n_done)
        groups_finish(&groups, &interrupt, status, center_sums, weight_in_clusters)
    finally:
        groups_free(&groups)
    return 0


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
