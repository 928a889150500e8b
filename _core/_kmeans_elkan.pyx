"""Elkan's step for k-means: Lloyd's labels and sums, most distances skipped by bounds.

C. Elkan, "Using the triangle inequality to accelerate k-means", ICML 2003; Sangnier, §2.2.

Each sample keeps an upper bound on its distance to its centre and a lower bound to every other
centre (an ``n × k`` float32 table), moved by the centre shifts after each step (triangle
inequality); ``D`` is computed only for centres the bounds cannot exclude. Every bound and every
pruning test carries a relative margin ``δ`` larger than the rounding of ``D``, so a pruned
centre is strictly farther than the current one in computed ``D`` too: the labels, centres (bit
for bit) and iterations are those of Lloyd's step (the shared rule, chunking and reduction are in
``_kmeans_common.pxd``). :func:`center_geometry` gives the centre distances and shifts that
Elkan's and Hamerly's steps need. Both compute distances by direct differences, never by the
GEMM expansion of ``_distances.pxd``: the margins bound a rounding relative to ``D`` itself,
which the expansion's error (relative to ``‖x‖² + ‖c‖²``) would exceed for close points.

Not the default: ``KMeans(algorithm="auto")`` runs Hamerly's step (``_kmeans_hamerly.pyx``), which
needs two bounds per sample instead of ``k`` and was the fastest fit to convergence in every case
measured (``bench/results/kmeans.md``).
"""

from cython.parallel cimport parallel
from libc.math cimport sqrt

from _interrupt cimport InterruptState, leave_team
from _kmeans_common cimport (Block, Geometry, Groups, Problem, Workspace, _accumulate, _down,
                             _margin, _squared_distance, block_init, chunk_block, geometry_init,
                             groups_finish, groups_free, groups_start, next_chunk, problem_init,
                             workspace_free, workspace_new)
from _types cimport floating, intp_t, int32_t


cdef void _elkan_chunk(
    const Problem *pb,
    const Geometry *geo,            # IN half_distances, next_half, shifts
    const floating *x,              # IN (n_rows, n_features), the block's rows of X
    const Block *block,             # INOUT labels, upper, lower; INOUT sums, weights if not NULL
) noexcept nogil:
    """One Elkan step on a chunk: move the bounds by the centre shifts, then re-examine only the
    centres the bounds cannot exclude (Elkan 2003, steps 1-3 and 5-6, with margins δ)."""
    cdef int n_x = <int>block.n_rows, n_clusters = pb.n_clusters, n_features = pb.n_features
    cdef const floating *sample_weight = <const floating*>pb.sample_weight + block.start
    cdef const floating *centers = <const floating*>pb.centers
    cdef const double *half_distances = geo.half_distances
    cdef const double *next_half = geo.next_half
    cdef const double *shifts = geo.shifts
    cdef int32_t *labels = block.labels
    cdef double *upper = block.upper
    cdef float *lower = block.lower
    cdef double *sums = block.sums
    cdef double *weights = block.weights
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
        if sums != NULL:
            _accumulate(xi, sample_weight[i], a, n_features, sums, weights)


def elkan_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    dict geometry,                           # IN half_distances, next_half, shifts
    int32_t[::1] labels,                     # INOUT (n_samples,)
    dict bounds,                             # INOUT upper, lower
    dict sums=None,                          # OUT center_sums, weight_in_clusters, or None
    int n_threads=1,
):
    """One Elkan step: the same labels and sums as Lloyd's step, fewer distances.

    Parameters
    ----------
    X, sample_weight, centers, sums, n_threads
        As in :func:`kernelkit._core._kmeans_lloyd.lloyd_iter`.
    geometry : dict
        The arrays of :func:`center_geometry`: ``half_distances`` (n_clusters, n_clusters),
        lower bounds of ``‖c_a − c_l‖ / 2``; ``next_half`` (n_clusters,),
        ``min_{l ≠ a} half_distances[a, l]``; ``shifts`` (n_clusters,), upper bounds of how far
        each centre moved since the bounds were last valid; float64.
    labels : ndarray of shape (n_samples,), int32
        Input: the previous labels; output: the new ones.
    bounds : dict
        ``upper`` (n_samples,) float64, upper bounds of each sample's distance to its labelled
        centre, and ``lower`` (n_samples, n_clusters) float32, lower bounds of each sample's
        distance to every centre; both updated.
    """
    cdef Problem pb
    cdef Geometry geo
    cdef Block out
    problem_init(&pb, &sample_weight[0], &centers[0, 0], X.shape[0], X.shape[1],
                 centers.shape[0], n_threads)
    geometry_init(&geo, geometry)
    block_init(&out, labels, sums, bounds)
    if geo.half_distances == NULL or out.lower == NULL:
        raise ValueError("Elkan's step needs geometry['half_distances'] and bounds['lower'].")
    _elkan(&pb, &geo, &X[0, 0], &out)


cdef int _elkan(const Problem *pb, const Geometry *geo, const floating *X,
                const Block *out) except -1:
    """Elkan's chunk kernel over all samples in parallel groups, then the ordered reduction of
    the groups' sums."""
    cdef intp_t n_features = pb.n_features
    cdef intp_t g = 0, c = 0, c_stop = 0, n_done = 0
    cdef int n_threads, status = 0
    cdef int *status_ptr = &status
    cdef Workspace *ws = NULL       # allocated per thread inside the parallel block
    cdef Groups groups
    cdef InterruptState interrupt
    n_threads = groups_start(&groups, pb, out.sums != NULL, &interrupt)
    try:
        with nogil, parallel(num_threads=n_threads):
            # assigned here, so private to each thread (next_chunk writes them through pointers)
            g = 0
            c = 0
            c_stop = 0
            ws = workspace_new(pb.n_clusters, n_features, 0, 0, False)
            if ws == NULL:
                status_ptr[0] = -1
            while next_chunk(&groups, &g, &c, &c_stop, &interrupt, status_ptr):
                chunk_block(&ws.chunk, out, &groups, g, c)
                _elkan_chunk(pb, geo, X + ws.chunk.start * n_features, &ws.chunk)
            workspace_free(ws)
            leave_team(&interrupt, &n_done)
        groups_finish(&groups, &interrupt, status, out.sums, out.weights)
    finally:
        groups_free(&groups)
    return 0


def center_geometry(
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    const floating[:, ::1] old_centers,      # IN (n_clusters, n_features)
    dict geometry,                           # OUT half_distances, next_half, shifts
):
    """What Elkan's step needs about the centres: half distances between them (lower bounds,
    shrunk by ``(1 − 3δ)`` so that ``u < h`` proves a strict inequality of computed distances),
    each one's nearest half distance, and each centre's shift from ``old_centers`` (upper
    bounds, grown by ``(1 + δ)``).

    Parameters
    ----------
    centers, old_centers : ndarray of shape (n_clusters, n_features), float32 or float64
    geometry : dict
        Outputs, float64: ``half_distances`` (n_clusters, n_clusters), ``next_half``
        (n_clusters,) and ``shifts`` (n_clusters,).
    """
    cdef double[:, ::1] half_distances = geometry["half_distances"]
    cdef double[::1] next_half = geometry["next_half"]
    cdef double[::1] shifts = geometry["shifts"]
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
