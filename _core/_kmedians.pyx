"""k-medians' two steps: the nearest centre of every sample in the ℓ1 distance, and the
coordinate-wise median of every cluster.

Sangnier, §2.2.2 "Variants of k-means" (k-median). The centres are coordinate-wise medians, the
minimisers of ``Σ ‖x − c‖₁``. The assignment runs one thread per run of samples, each sample's
distances summed in feature order; the medians one (cluster, feature) pair per task, each an
exact order statistic: the labels, the loss and the centres do not depend on the thread count.
Ctrl-C stops either between blocks of work.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY, fabs
from libc.stdlib cimport free, malloc

from _interrupt cimport CHECK_WORK, InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport median_of_three
from _types cimport int32_t, intp_t, kk_team_for_work


def manhattan_assign(
    const double[:, ::1] X,          # IN (n, n_features)
    const double[:, ::1] centers,    # IN (n_clusters, n_features)
    int32_t[::1] labels,             # OUT (n,)
    double[::1] distances,           # OUT (n,) ‖x − c‖₁ to the nearest centre
    int n_threads,
    double min_work_per_thread=0.0,
):
    """Nearest centre in the ℓ1 distance (k-medians' assignment; lowest index on ties).

    Parameters
    ----------
    X : ndarray of shape (n, n_features), float64
    centers : ndarray of shape (n_clusters, n_features), float64
    labels : ndarray of shape (n,), int32
    distances : ndarray of shape (n,), float64
    n_threads : int
        At most; one per ``min_work_per_thread`` seconds of the pass (a distance term costs
        about 0.45 ns; ``kk_team_for_work``).
    min_work_per_thread : float, default=0.0

    Returns
    -------
    loss : float
        ``Σ_i ‖x_i − c_{label_i}‖₁``, summed in sample order.
    """
    cdef intp_t n = X.shape[0], k = centers.shape[0], d = X.shape[1], i, c, f, b, n_blocks
    cdef double dist, best, loss = 0.0
    cdef int32_t arg
    cdef InterruptState interrupt
    if centers.shape[1] != d or labels.shape[0] != n or distances.shape[0] != n or k < 1:
        raise ValueError("centers, labels or distances have the wrong shape.")
    n_threads = kk_team_for_work(0.45e-9 * n * k * d, min_work_per_thread, n_threads)
    # Blocks of about CHECK_WORK distance terms, between which the signals are looked at, as
    # many for each thread (contiguous runs of samples of equal size, as a static schedule over
    # the samples gives); a sample each when one sample is more work than that.
    n_blocks = n_threads * ((n * k * d + n_threads * CHECK_WORK - 1) // (n_threads * CHECK_WORK))
    if n_blocks > n:
        n_blocks = n
    interrupt_init(&interrupt)
    with nogil:
        for b in prange(n_blocks, schedule='static', num_threads=n_threads):
            if interrupted(&interrupt):
                continue
            for i in range(b * n // n_blocks, (b + 1) * n // n_blocks):
                best = INFINITY
                arg = 0
                for c in range(k):
                    dist = 0.0
                    for f in range(d):
                        dist = dist + fabs(X[i, f] - centers[c, f])
                    if dist < best:
                        best = dist
                        arg = <int32_t>c
                labels[i] = arg
                distances[i] = best
        if not interrupt.stop:
            for i in range(n):
                loss += distances[i]
    if interrupt.stop:
        raise_pending()
    return loss


cdef double _select(double *a, intp_t n, intp_t k) noexcept nogil:
    """The ``k``-th smallest of ``a[:n]`` (0-based), ``a`` reordered so that the values before
    position ``k`` are at most it (quickselect, median-of-three pivot, three-way partition:
    runs of equal values cost linear time)."""
    cdef intp_t lo = 0, hi = n, lt, gt, i
    cdef double pivot, v
    while hi - lo > 1:
        pivot = median_of_three(a[lo], a[(lo + hi) // 2], a[hi - 1])
        lt = lo
        i = lo
        gt = hi
        while i < gt:
            v = a[i]
            if v < pivot:
                a[i] = a[lt]
                a[lt] = v
                lt += 1
                i += 1
            elif v > pivot:
                gt -= 1
                a[i] = a[gt]
                a[gt] = v
            else:
                i += 1
        if k < lt:
            hi = lt
        elif k >= gt:
            lo = gt
        else:
            return pivot
    return a[k]


cdef double _median(double *a, intp_t n) noexcept nogil:
    """The median of ``a[:n]`` (``n ≥ 1``) as ``numpy.median`` gives it: the middle value, or
    the half-sum of the two middle values."""
    cdef intp_t k = n // 2, t
    cdef double upper = _select(a, n, k), lower
    if n % 2:
        return upper
    lower = a[0]
    for t in range(1, k):
        lower = a[t] if a[t] > lower else lower
    return (lower + upper) / 2.0


def cluster_medians(
    const double[:, ::1] X,          # IN (n, n_features)
    const intp_t[::1] order,         # IN (n,) the samples grouped by cluster
    const intp_t[::1] offsets,       # IN (n_clusters + 1,) cluster c: order[offsets[c]:offsets[c + 1]]
    double[:, ::1] centers,          # OUT (n_clusters, n_features)
    int n_threads,
    double min_work_per_thread,
):
    """The coordinate-wise median of every cluster (k-medians' centre step), every cluster
    non-empty.

    Each (cluster, feature) pair is a task on a team sized by the work (6-15 ns a value on one
    thread, the gather and the selection; ``kk_team_for_work``): its values copied into the
    thread's buffer, then the median selected (:func:`_median`), equal to ``numpy.median``'s.
    """
    cdef intp_t n = X.shape[0], d = X.shape[1], k = centers.shape[0]
    cdef intp_t c, f, task, s, m, largest = 0
    cdef int team
    cdef double *buffers
    cdef double *buffer
    cdef InterruptState interrupt
    if (offsets.shape[0] != k + 1 or centers.shape[1] != d or order.shape[0] != n
            or offsets[0] != 0 or offsets[k] != n):
        raise ValueError("order, offsets and centers do not match X.")
    for c in range(k):
        m = offsets[c + 1] - offsets[c]
        if m < 1:
            raise ValueError(f"cluster {c} is empty: it has no median.")
        largest = m if m > largest else largest
    for s in range(n):
        if not 0 <= order[s] < n:
            raise ValueError("order holds an index out of range.")
    team = kk_team_for_work(6e-9 * n * d, min_work_per_thread, n_threads)
    buffers = <double*>malloc(team * largest * sizeof(double))
    if buffers == NULL:
        raise MemoryError("could not allocate the buffers of the cluster medians")
    interrupt_init(&interrupt)
    try:
        with nogil:
            for task in prange(k * d, schedule='dynamic', num_threads=team):
                if interrupted(&interrupt):
                    continue
                buffer = buffers + threadid() * largest
                c = task // d
                f = task % d
                m = offsets[c + 1] - offsets[c]
                for s in range(m):
                    buffer[s] = X[order[offsets[c] + s], f]
                centers[c, f] = _median(buffer, m)
    finally:
        free(buffers)
    if interrupt.stop:
        raise_pending()
