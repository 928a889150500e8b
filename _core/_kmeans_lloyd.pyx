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
from libc.stdlib cimport calloc, free

from _interrupt cimport InterruptState, leave_team
from _kmeans_common cimport (CHUNK, Block, Groups, Problem, Workspace, _assign_chunk, block_init,
                             chunk_block, groups_finish, groups_free, groups_start, next_chunk,
                             problem_init, screen_centers, screen_t, workspace_free,
                             workspace_new)
from _types cimport floating, intp_t, int32_t, kk_team_for_work

# Serial seconds of the objective's pass per sample and feature (a difference, a square and a
# sum), to size its team: 0.55-0.58 ns measured on one thread, 5 000 to 10⁶ samples x 12, quiet
cdef double INERTIA_SECONDS_PER_VALUE = 0.55e-9


def lloyd_iter(
    const floating[:, ::1] X,                # IN (n_samples, n_features)
    const floating[::1] sample_weight,       # IN (n_samples,)
    const floating[:, ::1] centers,          # IN (n_clusters, n_features)
    int32_t[::1] labels,                     # OUT (n_samples,)
    dict sums=None,                          # OUT center_sums, weight_in_clusters, or None
    dict bounds=None,                        # OUT upper, lower or second, or None
    const float[:, ::1] X_screen=None,       # IN (n_samples, n_features) or None
    int n_threads=1,
):
    """One Lloyd step: assign every sample to its nearest centre and sum each cluster.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    sample_weight : ndarray of shape (n_samples,), same dtype as X
    centers : ndarray of shape (n_clusters, n_features), same dtype as X
        Centres of the assignment step.
    labels : ndarray of shape (n_samples,), int32
        Output: index of the nearest centre by the exact rule of the module docstring
        (direct-difference squared distance, lowest index on ties).
    sums : dict or None
        Outputs of the M-step's input, or None to assign only: ``center_sums`` (n_clusters,
        n_features) float64, ``Σ_{i: label_i = l} w_i x_i``, and ``weight_in_clusters``
        (n_clusters,) float64, ``Σ_{i: label_i = l} w_i``.
    bounds : dict or None
        Outputs that start a bounded step, or None: ``upper`` (n_samples,) float64, an upper
        bound of each sample's distance to its centre; with it ``lower`` (n_samples,
        n_clusters) float32, lower bounds of the distances to every centre (Elkan's start),
        and/or ``second`` (n_samples,) float64, a lower bound of each sample's distance to every
        centre but its own (Hamerly's start).
    X_screen : ndarray of shape (n_samples, n_features), float32, default=None
        ``X`` rounded to float32: the GEMM that ranks the centres runs in single precision
        (twice as fast), the labels stay those of the exact rule.
    n_threads : int
        OpenMP threads (capped so that each has enough work).
    """
    cdef Problem pb
    cdef Block out
    problem_init(&pb, &sample_weight[0], &centers[0, 0], X.shape[0], X.shape[1],
                 centers.shape[0], n_threads)
    block_init(&out, labels, sums, bounds)
    if X_screen is not None:
        _lloyd(&pb, &X[0, 0], &X_screen[0, 0], &out)
    else:
        _lloyd(&pb, &X[0, 0], &X[0, 0], &out)


cdef int _lloyd(
    Problem *pb,
    const floating *X,              # IN (n_samples, n_features)
    const screen_t *X_screen,       # IN (n_samples, n_features): X, or X rounded to float32
    const Block *out,
) except -1:
    """Lloyd's chunk kernel over all samples in parallel groups, then the ordered reduction of
    the groups' sums. The GEMM runs in the type of ``X_screen``, on the centres rounded to it
    (``pb``'s copies, made here)."""
    cdef intp_t n_features = pb.n_features
    cdef intp_t g = 0, c = 0, c_stop = 0, n_done = 0
    cdef int n_threads, status = 0
    cdef int *status_ptr = &status
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
            ws = workspace_new(pb.n_clusters, n_features, sizeof(screen_t), 0, False)
            if ws == NULL:
                status_ptr[0] = -1
            while next_chunk(&groups, &g, &c, &c_stop, &interrupt, status_ptr):
                chunk_block(&ws.chunk, out, &groups, g, c)
                _assign_chunk(pb, X + ws.chunk.start * n_features,
                              X_screen + ws.chunk.start * n_features, <screen_t*>ws.dist,
                              &ws.chunk)
            workspace_free(ws)
            leave_team(&interrupt, &n_done)
        groups_finish(&groups, &interrupt, status, out.sums, out.weights)
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
    double min_work_per_thread=0.0,
):
    """Exact k-means objective ``Σ_i w_i ‖x_i − c_{label_i}‖²`` (direct differences).

    Same arrays as :func:`lloyd_iter`; the objective of every algorithm. Summed per chunk, then
    chunk by chunk in order, so the value does not depend on ``n_threads``. The chunks go to
    at most ``n_threads`` threads, one per ``min_work_per_thread`` seconds of work
    (``kernelkit.utils._threads.min_work_per_thread``; 0: all ``n_threads``): a pass over a
    few thousand samples takes less than waking a team.
    """
    cdef intp_t n_samples = X.shape[0]
    cdef intp_t n_features = X.shape[1]
    cdef intp_t n_chunks = (n_samples + CHUNK - 1) // CHUNK
    cdef int team = kk_team_for_work(INERTIA_SECONDS_PER_VALUE * n_samples * n_features,
                                     min_work_per_thread, n_threads)
    cdef intp_t c, i, j
    cdef double s, diff, total = 0.0
    cdef double *partial = <double*>calloc(n_chunks if n_chunks > 0 else 1, sizeof(double))
    if partial == NULL:
        raise MemoryError()
    try:
        with nogil:
            for c in prange(n_chunks, schedule='static', num_threads=team):
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
