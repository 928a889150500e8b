"""Histogram intersection Gram matrices: ``k(x, y) = Σ_b min(h_x(b), h_y(b))`` by merge-joins.

Each object is a sparse histogram: its distinct bins as sorted int64 keys with their (non-
negative) masses, CSR-like over the objects. A pair costs one merge of the two sorted key lists,
``O(B_x + B_y)``, through the pair driver of ``_gram.pxd`` (threads over tiles of pairs, each
pair computed once and mirrored in the symmetric case). The pyramid match kernel puts its
level weights in the masses: ``min(w a, w b) = w min(a, b)`` for ``w > 0``.
"""

from _gram cimport fill_gram_rows
from _interrupt cimport INTERRUPTED, InterruptState, raise_pending
from _types cimport intp_t, int64_t


cdef struct HistogramPair:
    const intp_t *indptr_a
    const int64_t *bins_a
    const double *mass_a
    const intp_t *indptr_b
    const int64_t *bins_b
    const double *mass_b


cdef int _intersection_pair(const void *ctx, intp_t i, intp_t j, double *work,
                            double *value, InterruptState *interrupt) noexcept nogil:
    """Merge-join of two sorted histograms: ``Σ_b min(m_x(b), m_y(b))``."""
    cdef const HistogramPair *hp = <const HistogramPair *>ctx
    cdef intp_t p = hp.indptr_a[i]
    cdef intp_t p_end = hp.indptr_a[i + 1]
    cdef intp_t q = hp.indptr_b[j]
    cdef intp_t q_end = hp.indptr_b[j + 1]
    cdef int64_t u, v
    cdef double total = 0.0
    while p < p_end and q < q_end:
        u = hp.bins_a[p]
        v = hp.bins_b[q]
        if u == v:
            total += hp.mass_a[p] if hp.mass_a[p] < hp.mass_b[q] else hp.mass_b[q]
            p += 1
            q += 1
        elif u < v:
            p += 1
        else:
            q += 1
    value[0] = total
    return 0


def intersection_gram(
    const intp_t[::1] indptr_a,     # IN (n_a + 1,) CSR rows of the A histograms
    const int64_t[::1] bins_a,      # IN (nnz_a,) bin keys, strictly increasing within a row
    const double[::1] mass_a,       # IN (nnz_a,) masses, >= 0
    const intp_t[::1] indptr_b,     # IN (n_b + 1,)
    const int64_t[::1] bins_b,      # IN (nnz_b,)
    const double[::1] mass_b,       # IN (nnz_b,)
    double[:, ::1] out,             # OUT (n_a, n_b)
    intp_t row_start, intp_t row_stop,
    bint symmetric,
    int n_threads,
):
    """Rows ``[row_start, row_stop)`` of the histogram intersection Gram matrix.

    Parameters
    ----------
    indptr_a, bins_a, mass_a : CSR arrays of the A histograms (intp, int64, float64)
    indptr_b, bins_b, mass_b : CSR arrays of the B histograms
    out : ndarray of shape (n_a, n_b), dtype float64
    row_start, row_stop : int
    symmetric : bool
        A is B: pairs are computed once and mirrored.
    n_threads : int
    """
    cdef HistogramPair ctx
    cdef int status
    cdef intp_t n_marked
    ctx.indptr_a = &indptr_a[0]
    ctx.bins_a = &bins_a[0] if bins_a.shape[0] else NULL
    ctx.mass_a = &mass_a[0] if mass_a.shape[0] else NULL
    ctx.indptr_b = &indptr_b[0]
    ctx.bins_b = &bins_b[0] if bins_b.shape[0] else NULL
    ctx.mass_b = &mass_b[0] if mass_b.shape[0] else NULL
    with nogil:
        status = fill_gram_rows(_intersection_pair, &ctx, out, row_start, row_stop, symmetric,
                                0, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread scratch of the intersection Gram")
