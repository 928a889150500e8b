# Histogram-intersection Gram matrices of sparse non-negative counts:
# K[i, j] = Σ_u min(A[i, u], B[j, u]), the optimal-assignment form of the Weisfeiler–Lehman
# hierarchy (Kriege, Giscard & Wilson, NeurIPS 2016) and the common-label count of the
# neighbourhood hash kernel (Hido & Kashima, ICDM 2009).
#
# By posting lists: row i walks its features u and, for each, the rows j of B holding u; the
# cost is the number of shared (i, j, u) triples, as for the inner-product Gram of
# `_gram.sparse_gram`. The other choice, a merge of the two sorted rows of every pair through the
# pair driver (`_pair_gram.pxd`), pays Σ_pairs (nnz_i + nnz_j) also for pairs that share nothing: it
# was measured 12–35x slower on the WL(h=5) histograms of NCI1 (5.7 s against 0.17–0.48 s on
# one thread, 3.4 s against 0.16–0.24 s on two) and 40x slower on ENZYMES.
# Counts are integers stored as float64: every partial sum is an exact integer, so the result
# does not depend on the order of the additions or the thread count.
from cython.parallel cimport prange

from _types cimport intp_t
from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending


def intersection_gram(
    const intp_t[::1] indptr_a,     # IN (n_a + 1,) CSR rows of A
    const intp_t[::1] indices_a,    # IN (nnz_a,) feature ids
    const double[::1] data_a,       # IN (nnz_a,) counts, ≥ 0
    const intp_t[::1] colptr_b,     # IN (n_features + 1,) CSC columns (posting lists) of B
    const intp_t[::1] rows_b,       # IN (nnz_b,) rows of B holding the feature
    const double[::1] data_b,       # IN (nnz_b,) counts, ≥ 0
    double[:, ::1] out,             # INOUT (n_a, n_b): Σ_u min(A[i, u], B[j, u]) is added
    intp_t row_start,
    intp_t row_stop,
    int n_threads,
):
    """Add ``Σ_u min(A[i, u], B[j, u])`` to rows ``[row_start, row_stop)`` of ``out``, by the
    posting lists of ``B``.

    One thread sums a whole row, so the result does not depend on the thread count.

    Parameters
    ----------
    indptr_a, indices_a, data_a : the rows of A, compressed (intp, intp, float64)
    colptr_b, rows_b, data_b : the columns of B, compressed, same feature ids (intp, intp, float64)
    out : ndarray of shape (n_a, n_b), float64
    row_start, row_stop : int
    n_threads : int
    """
    cdef intp_t i, p, q, u
    cdef double a, b
    cdef double *row
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil:
        for i in prange(row_start, row_stop, schedule='dynamic', num_threads=n_threads):
            # a row costs one min per shared (i, j, u) triple
            if interrupted(&interrupt):
                continue
            row = &out[i, 0]
            for p in range(indptr_a[i], indptr_a[i + 1]):
                u = indices_a[p]
                a = data_a[p]
                for q in range(colptr_b[u], colptr_b[u + 1]):
                    b = data_b[q]
                    row[rows_b[q]] += a if a < b else b
    if interrupt.stop:
        raise_pending()
