"""Gram matrix ``K += A Bᵀ`` of sparse count features, written straight into a dense array.

Explicit-feature graph kernels (Weisfeiler–Lehman, shortest path) have a few features shared by
almost every graph and many shared by a few. ``scipy``'s sparse product would build the (dense
in practice) product as a sparse matrix first; here the rows of ``A`` are spread over threads and
each row ``i`` is accumulated through the inverted index of ``B`` (its CSC form): for every
feature ``f`` of row ``i``, every row ``j`` of ``B`` holding ``f`` gets ``A[i, f] B[j, f]``.
Cost ``Σ_f nnz_A(f) nnz_B(f)``, memory the output plus one accumulator row per thread. A row is
computed by one thread in a fixed order, so the result does not depend on the thread count.
"""

from cython.parallel cimport prange, threadid
from libc.stdlib cimport calloc, free

from _types cimport intp_t, int32_t


def sparse_gram(
    const intp_t[::1] a_indptr,     # IN (n_a + 1,): CSR of A
    const int32_t[::1] a_indices,   # IN (nnz_a,)
    const double[::1] a_data,       # IN (nnz_a,)
    const intp_t[::1] b_indptr,     # IN (n_features + 1,): CSC of B
    const int32_t[::1] b_indices,   # IN (nnz_b,)
    const double[::1] b_data,       # IN (nnz_b,)
    double[:, ::1] out,             # INOUT (n_a, n_b)
    int n_threads=1,
):
    """Add ``A Bᵀ`` to ``out``.

    For ``K(A, A)`` every row is computed in full rather than the upper triangle mirrored:
    mirroring writes columns, one cache miss per entry, which costs more than the repeated
    products. ``K[i, j]`` and ``K[j, i]`` then add the same products in the same (feature)
    order, so the result is exactly symmetric.

    Parameters
    ----------
    a_indptr, a_indices, a_data : ndarrays
        ``A`` of shape (n_a, n_features) in CSR form, int32 column indices sorted per row.
    b_indptr, b_indices, b_data : ndarrays
        ``B`` of shape (n_b, n_features) in CSC form, int32 row indices.
    out : ndarray of shape (n_a, n_b), float64
        Incremented by ``A Bᵀ``.
    n_threads : int
    """
    cdef intp_t n_a = out.shape[0], n_b = out.shape[1]
    cdef intp_t i, j, k, q, f
    cdef double value
    cdef double *acc
    cdef double *buffers
    if n_a == 0 or n_b == 0:
        return
    n_threads = max(1, min(n_threads, n_a))
    buffers = <double*>calloc(n_threads * n_b, sizeof(double))
    if buffers == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in prange(n_a, schedule='dynamic', num_threads=n_threads):
                acc = buffers + threadid() * n_b
                for k in range(a_indptr[i], a_indptr[i + 1]):
                    f = a_indices[k]
                    value = a_data[k]
                    for q in range(b_indptr[f], b_indptr[f + 1]):
                        acc[b_indices[q]] += value * b_data[q]
                for j in range(n_b):
                    out[i, j] += acc[j]
                    acc[j] = 0.0
    finally:
        free(buffers)
