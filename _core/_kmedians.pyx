"""k-medians' assignment: the nearest centre of every sample in the ℓ1 distance.

Sangnier, §2.2.2 "Variants of k-means" (k-median). The centres are coordinate-wise medians (the
minimisers of ``Σ ‖x − c‖₁``, computed by the estimator); this core is the assignment step, one
thread per run of samples, each sample's distances summed in feature order, so the labels and
the loss do not depend on the thread count. Ctrl-C stops it between blocks of samples.
"""

from cython.parallel cimport prange
from libc.math cimport INFINITY, fabs

from _interrupt cimport CHECK_WORK, InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport int32_t, intp_t


def manhattan_assign(
    const double[:, ::1] X,          # IN (n, n_features)
    const double[:, ::1] centers,    # IN (n_clusters, n_features)
    int32_t[::1] labels,             # OUT (n,)
    double[::1] distances,           # OUT (n,) ‖x − c‖₁ to the nearest centre
    int n_threads,
):
    """Nearest centre in the ℓ1 distance (k-medians' assignment; lowest index on ties).

    Parameters
    ----------
    X : ndarray of shape (n, n_features), float64
    centers : ndarray of shape (n_clusters, n_features), float64
    labels : ndarray of shape (n,), int32
    distances : ndarray of shape (n,), float64
    n_threads : int

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
    if n * k * d < (1 << 16) or n_threads < 1:
        n_threads = 1
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
