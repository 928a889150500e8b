# What DBSCAN's two labelling cores share (Sangnier, §2.4): the breadth-first expansion over
# streamed neighbourhoods (_dbscan_expansion, with its index in _dbscan_neighbors.pxd) and the
# components of core points over blocked GEMM distances (_dbscan_gemm) decide a neighbour by the
# same exact rule, `_reduced_distance ≤ ε` (ε² for the Euclidean metric), and report their
# progress in the same stages.
from libc.math cimport fabs

from _types cimport intp_t

cdef enum Metric:
    EUCLIDEAN = 0   # compared as squared distances
    MANHATTAN = 1
    CHEBYSHEV = 2

# The passes that report their progress: `progress(stage, done, total)` counts units of the
# stage (the `STAGES` names of _dbscan_expansion).
cdef enum Stage:
    COUNTING = 0    # counting neighbours, in samples
    GROWING = 1     # growing clusters, in core samples
    BORDERS = 2     # assigning border points, in candidates (_dbscan_gemm only)


cdef inline double _reduced_distance(const double *a, const double *b, intp_t n_features,
                                     int metric) noexcept nogil:
    """The distance of ``a`` and ``b`` by direct differences in feature order, squared for the
    Euclidean metric."""
    cdef intp_t k
    cdef double s = 0.0, t
    for k in range(n_features):
        t = a[k] - b[k]
        if metric == EUCLIDEAN:
            s += t * t
        elif metric == MANHATTAN:
            s += fabs(t)
        elif fabs(t) > s:
            s = fabs(t)
    return s
