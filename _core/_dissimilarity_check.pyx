"""The range of a precomputed dissimilarity matrix, in one parallel pass: the check of
``KMedoids(metric="precomputed")``'s input (no NaN or infinite entry, none negative) without a
temporary of the matrix's size."""

from cython.parallel cimport prange
from libc.float cimport DBL_MAX
from libc.math cimport INFINITY, fabs
from libc.stdlib cimport free, malloc

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport floating, intp_t


def dissimilarity_range(
    const floating[:, ::1] D,        # IN (n_rows, n_cols)
    int n_threads,
):
    """``(min, all finite)`` of a dissimilarity matrix in one parallel pass (row by row, then in
    row order: independent of ``n_threads``).

    Parameters
    ----------
    D : ndarray of shape (n_rows, n_cols), float32 or float64
    n_threads : int

    Returns
    -------
    minimum : float
    finite : bool
    """
    cdef intp_t n = D.shape[0], i, j
    cdef double low, value
    cdef bint ok
    cdef double *row_min = NULL
    cdef unsigned char *row_finite = NULL
    cdef InterruptState interrupt
    if n == 0 or D.shape[1] == 0:
        return 0.0, True
    row_min = <double*>malloc(n * sizeof(double))
    row_finite = <unsigned char*>malloc(n * sizeof(unsigned char))
    try:
        if row_min == NULL or row_finite == NULL:
            raise MemoryError()
        interrupt_init(&interrupt)
        with nogil:
            for i in prange(n, schedule='static', num_threads=n_threads):
                # a row costs O(n_cols): the first thread looks at the signals between rows
                if interrupted(&interrupt):
                    continue
                low = INFINITY
                ok = True
                for j in range(D.shape[1]):
                    value = D[i, j]
                    # NaN fails both comparisons; ±inf fails the second
                    if not (fabs(value) <= DBL_MAX):
                        ok = False
                    if value < low:
                        low = value
                row_min[i] = low
                row_finite[i] = ok
        if interrupt.stop:
            raise_pending()
        with nogil:
            low = INFINITY
            ok = True
            for i in range(n):
                if row_min[i] < low:
                    low = row_min[i]
                ok = ok and row_finite[i]
    finally:
        free(row_min)
        free(row_finite)
    return low, bool(ok)
