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
from libc.stdlib cimport free
from libc.string cimport memcpy

from _interrupt cimport InterruptState, leave_team
from _kmeans_common cimport (Block, Geometry, Groups, Problem, Workspace, _accumulate,
                             _assign_chunk, _margin, _squared_distance, block_init, chunk_block,
                             geometry_init, groups_finish, groups_free, groups_start, next_chunk,
                             problem_init, screen_centers, screen_t, workspace_free,
                             workspace_new)
from _types cimport floating, intp_t, int32_t


cdef void _hamerly_chunk(
    const Problem *pb,
    const Geometry *geo,            # IN next_half, shifts, max_shift
    const floating *x,              # IN (n_rows, n_features), the chunk's rows of X
    const screen_t *x_screen,       # IN (n_rows, n_features): x, or x rounded to float32
    Workspace *ws,                  # INOUT ws.chunk: labels, upper, second; sums, weights if
                                    # not NULL; the rest scratch
) noexcept nogil:
    """One Hamerly step on a chunk (Hamerly, SDM 2010): an upper bound of the distance to the
    own centre and one lower bound to all the others, moved by the shifts. The samples they
    cannot settle are gathered and re-assigned together by Lloyd's chunk kernel (GEMM, exact
    check of near ties), which also gives their new bounds. Margins as in Elkan's step."""
    cdef int n_x = <int>ws.chunk.n_rows, n_features = pb.n_features
    cdef const floating *sample_weight = <const floating*>pb.sample_weight + ws.chunk.start
    cdef const floating *centers = <const floating*>pb.centers
    cdef const double *next_half = geo.next_half
    cdef const double *shifts = geo.shifts
    cdef double max_shift = geo.max_shift
    cdef int32_t *labels = ws.chunk.labels
    cdef double *upper = ws.chunk.upper
    cdef double *second = ws.chunk.second
    cdef double *sums = ws.chunk.sums
    cdef double *weights = ws.chunk.weights
    cdef floating *gathered = <floating*>ws.gathered_rows
    cdef screen_t *gathered_screen = <screen_t*>ws.gathered_screen
    cdef int *gathered_index = ws.gathered_index
    cdef const int32_t *gathered_labels = ws.gathered.labels
    cdef const double *gathered_upper = ws.gathered.upper
    cdef const double *gathered_second = ws.gathered.second
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
        ws.gathered.start = ws.chunk.start
        ws.gathered.n_rows = m
        _assign_chunk(pb, <const floating*>gathered, <const screen_t*>gathered_screen,
                      <screen_t*>ws.dist, &ws.gathered)
        for r in range(m):
            i = gathered_index[r]
            labels[i] = gathered_labels[r]
            upper[i] = gathered_upper[r]
            second[i] = gathered_second[r]
    if sums != NULL:
        # in sample order, as Lloyd's step adds them: the same sums to the last bit
        for i in range(n_x):
            _accumulate(x + i * n_features, sample_weight[i], labels[i], n_features, sums,
                        weights)


def hamerly_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    dict geometry,                           # IN next_half, shifts
    int32_t[::1] labels,                     # INOUT (n_samples,)
    dict bounds,                             # INOUT upper, second
    dict sums=None,                          # OUT center_sums, weight_in_clusters, or None
    const float[:, ::1] X_screen=None,       # IN (n_samples, n_features) or None
    int n_threads=1,
):
    """One Hamerly step: the same labels and sums as Lloyd's step; only the samples whose
    two bounds overlap are re-assigned (by Lloyd's GEMM kernel, gathered per chunk).

    Parameters
    ----------
    X, sample_weight, centers, sums, X_screen, n_threads
        As in :func:`kernelkit._core._kmeans_lloyd.lloyd_iter`.
    geometry : dict
        ``next_half`` and ``shifts``, as in :func:`kernelkit._core._kmeans_elkan.elkan_iter`
        (``half_distances`` is not read).
    labels : ndarray of shape (n_samples,), int32
        Input: the previous labels; output: the new ones.
    bounds : dict
        ``upper`` (n_samples,) float64, upper bounds of each sample's distance to its centre,
        and ``second`` (n_samples,) float64, lower bounds of each sample's distance to every
        other centre; both updated.
    """
    cdef Problem pb
    cdef Geometry geo
    cdef Block out
    problem_init(&pb, &sample_weight[0], &centers[0, 0], X.shape[0], X.shape[1],
                 centers.shape[0], n_threads)
    geometry_init(&geo, geometry)
    block_init(&out, labels, sums, bounds)
    if out.second == NULL:
        raise ValueError("Hamerly's step needs bounds['second'].")
    if X_screen is not None:
        _hamerly(&pb, &geo, &X[0, 0], &X_screen[0, 0], &out)
    else:
        _hamerly(&pb, &geo, &X[0, 0], &X[0, 0], &out)


cdef int _hamerly(
    Problem *pb,
    const Geometry *geo,
    const floating *X,              # IN (n_samples, n_features)
    const screen_t *X_screen,       # IN (n_samples, n_features): X, or X rounded to float32
    const Block *out,
) except -1:
    """Hamerly's chunk kernel over all samples in parallel groups, then the ordered reduction of
    the groups' sums. The re-assignment's GEMM runs in the type of ``X_screen``, on the centres
    rounded to it (``pb``'s copies, made here)."""
    cdef intp_t n_features = pb.n_features
    cdef intp_t g = 0, c = 0, c_stop = 0, n_done = 0
    cdef int n_threads, status = 0
    cdef int *status_ptr = &status
    # the gathered rows share one buffer when the GEMM runs on X itself
    cdef bint rounded = <const void*>X_screen != <const void*>X
    cdef Workspace *ws = NULL       # allocated per thread inside the parallel block
    cdef screen_t *centers_screen = NULL
    cdef screen_t *center_squared_norms = NULL
    cdef Groups groups
    cdef InterruptState interrupt
    n_threads = groups_start(&groups, pb, out.sums != NULL, &interrupt)
    try:
        screen_centers(<const floating*>pb.centers, pb.n_clusters, n_features, &centers_screen,
                       &center_squared_norms, &pb.max_center_norm)
        pb.centers_screen = centers_screen
        pb.center_squared_norms = center_squared_norms
        with nogil, parallel(num_threads=n_threads):
            # assigned here, so private to each thread (next_chunk writes them through pointers)
            g = 0
            c = 0
            c_stop = 0
            ws = workspace_new(pb.n_clusters, n_features, sizeof(screen_t), sizeof(floating),
                               rounded)
            if ws == NULL:
                status_ptr[0] = -1
            while next_chunk(&groups, &g, &c, &c_stop, &interrupt, status_ptr):
                chunk_block(&ws.chunk, out, &groups, g, c)
                _hamerly_chunk(pb, geo, X + ws.chunk.start * n_features,
                               X_screen + ws.chunk.start * n_features, ws)
            workspace_free(ws)
            leave_team(&interrupt, &n_done)
        groups_finish(&groups, &interrupt, status, out.sums, out.weights)
    finally:
        free(centers_screen)
        groups_free(&groups)
    return 0
