"""Histogram intersection Gram matrices: ``k(x, y) = Σ_b min(h_x(b), h_y(b))``.

Each object is a sparse histogram: its bins as ids ``0 .. n_ids - 1`` with their (non-negative)
masses, CSR-like over the objects. Row ``i`` is computed by one thread: it scatters the masses
of object ``i`` into a dense per-thread array indexed by bin (zero elsewhere), then each column
object ``j`` costs one pass over its own bins, ``min(dense[b], m_j(b))`` summed, with no branch
on whether ``b`` is shared: a bin of ``j`` absent from ``i`` meets a zero. Every entry is
written once (the symmetric case computes ``j >= i`` and mirrors), so the result depends
neither on the thread count nor on the schedule. The pyramid match kernel puts its level
weights in the masses: ``min(w a, w b) = w min(a, b)`` for ``w > 0``.
"""

from cython.parallel cimport parallel, prange
from libc.stdlib cimport calloc, free

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport intp_t


cdef void _intersection_row(
    intp_t i, bint symmetric,
    const intp_t[::1] indptr_a, const intp_t[::1] ids_a, const double[::1] mass_a,
    const intp_t[::1] indptr_b, const intp_t[::1] ids_b, const double[::1] mass_b,
    double *dense, double[:, ::1] out,
) noexcept nogil:
    cdef intp_t p, q, j
    cdef double total, a, b
    for p in range(indptr_a[i], indptr_a[i + 1]):
        dense[ids_a[p]] = mass_a[p]
    for j in range(i if symmetric else 0, out.shape[1]):
        total = 0.0
        for q in range(indptr_b[j], indptr_b[j + 1]):
            a = dense[ids_b[q]]
            b = mass_b[q]
            total += a if a < b else b
        out[i, j] = total
        if symmetric:
            out[j, i] = total
    for p in range(indptr_a[i], indptr_a[i + 1]):
        dense[ids_a[p]] = 0.0


def intersection_gram(
    const intp_t[::1] indptr_a,     # IN (n_a + 1,) CSR rows of the A histograms
    const intp_t[::1] ids_a,        # IN (nnz_a,) bin ids in [0, n_ids), distinct within a row
    const double[::1] mass_a,       # IN (nnz_a,) masses, >= 0
    const intp_t[::1] indptr_b,     # IN (n_b + 1,)
    const intp_t[::1] ids_b,        # IN (nnz_b,)
    const double[::1] mass_b,       # IN (nnz_b,)
    intp_t n_ids,
    double[:, ::1] out,             # OUT (n_a, n_b)
    intp_t row_start, intp_t row_stop,
    bint symmetric,
    int n_threads,
):
    """Rows ``[row_start, row_stop)`` of the histogram intersection Gram matrix.

    Parameters
    ----------
    indptr_a, ids_a, mass_a : CSR arrays of the A histograms (intp, intp, float64)
    indptr_b, ids_b, mass_b : CSR arrays of the B histograms over the same bin ids
    n_ids : int
        Number of distinct bin ids (the size of each thread's dense row).
    out : ndarray of shape (n_a, n_b), dtype float64
    row_start, row_stop : int
    symmetric : bool
        A is B: pairs ``j >= i`` are computed and mirrored.
    n_threads : int
    """
    cdef intp_t i
    cdef int failed = 0
    cdef int *failed_ptr = &failed
    cdef double *dense = NULL      # one per thread, allocated inside the parallel block
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil, parallel(num_threads=n_threads):
        dense = <double *>calloc(n_ids if n_ids > 0 else 1, sizeof(double))
        if dense == NULL:
            failed_ptr[0] = 1
        for i in prange(row_start, row_stop, schedule='dynamic'):
            # a row costs the bins of every column object: check the signals between rows
            if dense != NULL and not interrupted(&interrupt):
                _intersection_row(i, symmetric, indptr_a, ids_a, mass_a, indptr_b, ids_b,
                                  mass_b, dense, out)
        free(dense)
    if interrupt.stop:
        raise_pending()
    if failed:
        raise MemoryError(f"could not allocate a dense row of {n_ids} histogram bins")
