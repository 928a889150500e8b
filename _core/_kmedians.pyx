"""k-medians' assignment: the nearest centre of every sample in the ℓ1 distance.

Sangnier, §2.2.2 "Variants of k-means" (k-median). The centres are coordinate-wise medians (the
minimisers of ``Σ ‖x − c‖₁``, computed by the estimator); this core is the assignment step, one
thread per block of samples, each sample's distances summed in feature order, so the labels and
the loss do not depend on the thread count.
"""

from cython.parallel cimport prange
from libc.math cimport INFINITY, fabs

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
    cdef intp_t n = X.shape[0], k = centers.shape[0], d = X.shape[1], i, c, f
    cdef double dist, best, loss = 0.0
    cdef int32_t arg
    if centers.shape[1] != d or labels.shape[0] != n or distances.shape[0] != n or k < 1:
        raise ValueError("centers, labels or distances have the wrong shape.")
    with nogil:
        for i in prange(n, schedule='static',
                        num_threads=n_threads if n * k * d >= (1 << 16) else 1):
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
        for i in range(n):
            loss += distances[i]
    return loss
