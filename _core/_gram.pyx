"""Gram matrices of the vector kernels, and the one-pass check of a precomputed Gram matrix.

The kernel formulas and their codes are in ``_vector_kernels.pxd`` and exported here as
``VECTOR_KERNELS``, the table every estimator reads (no hand-kept copy of the codes elsewhere).

``vector_gram`` cuts the output into blocks of ``BLOCK`` rows. A block of dot products is one
BLAS GEMM (``X_block Yᵀ``), turned into kernel values in place while it is still in cache; blocks
are spread over OpenMP threads, each calling single-threaded BLAS (the caller limits BLAS to one
thread). For ``K(X, X)`` only the blocks on and above the diagonal are computed and the lower
triangle is mirrored, so the matrix is exactly symmetric. Every entry comes from a GEMM call of
a shape that depends only on the block, never on the thread, so the result does not depend on the
thread count.
"""

from cython.parallel cimport prange
from libc.float cimport DBL_MAX
from libc.math cimport fabs, sqrt
from libc.stdlib cimport free, malloc

import numpy as np

from _distances cimport gemm_abt, row_squared_norms
from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport intp_t, int32_t
from _vector_kernels cimport (
    COSINE,
    EXPONENTIAL,
    LAPLACIAN,
    LINEAR,
    MIN,
    POLY,
    RBF,
    SIGMOID,
    SINC,
    VectorKernel,
    dots_to_kernel,
    elementwise_row,
    kernel_diagonal,
    uses_dot_products,
)

VECTOR_KERNELS = {
    "linear": LINEAR,
    "poly": POLY,
    "polynomial": POLY,
    "rbf": RBF,
    "sigmoid": SIGMOID,
    "laplacian": LAPLACIAN,
    "cosine": COSINE,
    "exponential": EXPONENTIAL,
    "min": MIN,
    "sinc": SINC,
}

# Rows per block of the vector Gram: 64 rows of dot products against a column tile stay in L2.
cdef intp_t BLOCK = 64
# Below this many multiply-adds the Gram runs on one thread: waking a team costs more.
cdef intp_t PARALLEL_MIN_WORK = 1 << 20


cdef struct GramOperands:
    const double *X             # (n_rows, n_features) row-major
    const double *Y             # (n_cols, n_features) row-major
    intp_t n_features
    intp_t n_cols
    const double *sqnorm_x      # (n_rows,) ‖x_i‖²
    const double *sqnorm_y      # (n_cols,) ‖y_j‖²
    double *out                 # (n_rows, n_cols) row-major


cdef void _gram_block(
    const GramOperands *g, const VectorKernel *vk,
    intp_t i0, intp_t i1, intp_t j0,   # rows [i0, i1) of g.out, columns [j0, n_cols)
) noexcept nogil:
    cdef intp_t i
    cdef intp_t n_features = g.n_features, n_cols = g.n_cols
    cdef int m = <int>(n_cols - j0)
    if m <= 0:
        return
    if not uses_dot_products(vk.kernel):
        for i in range(i0, i1):
            elementwise_row(g.X + i * n_features, g.Y + j0 * n_features, m, n_features,
                            vk.kernel, vk.gamma, g.out + i * n_cols + j0)
        return
    # out[i0:i1, j0:] = X[i0:i1] Y[j0:]ᵀ
    gemm_abt(g.X + i0 * n_features, <int>(i1 - i0), g.Y + j0 * n_features, m, <int>n_features,
             1.0, 0.0, g.out + i0 * n_cols + j0, <int>n_cols)
    if vk.kernel != LINEAR:
        for i in range(i0, i1):
            dots_to_kernel(g.out + i * n_cols + j0, m, g.sqnorm_x[i], g.sqnorm_y + j0,
                           vk.kernel, vk.gamma, vk.coef0, vk.degree)


def vector_gram(
    const double[:, ::1] X,    # IN (n_rows, n_features)
    const double[:, ::1] Y,    # IN (n_cols, n_features); ignored when symmetric
    bint symmetric,            # compute K(X, X): upper blocks, then mirrored
    int kernel,
    double gamma,
    double coef0,
    double degree,
    double[:, ::1] out,        # OUT (n_rows, n_cols)
    int n_threads,
):
    """Gram matrix ``out[i, j] = k(x_i, y_j)`` of a vector kernel.

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_features), float64, C-contiguous
    Y : ndarray of shape (n_cols, n_features), float64, C-contiguous
        Ignored (may be ``X`` itself) when ``symmetric``.
    symmetric : bool
        Compute ``K(X, X)``: each pair once, the result exactly symmetric.
    kernel : int
        A value of ``VECTOR_KERNELS``.
    gamma, coef0, degree : float
        Kernel parameters (see ``_vector_kernels.pxd``).
    out : ndarray of shape (n_rows, n_cols), float64, C-contiguous
    n_threads : int
        OpenMP threads; call with BLAS limited to one thread.
    """
    cdef const double[:, ::1] cols = X if symmetric else Y
    cdef intp_t n_rows = X.shape[0], n_cols = cols.shape[0], n_features = X.shape[1]
    cdef intp_t n_blocks = (n_rows + BLOCK - 1) // BLOCK
    cdef intp_t b, i, j, i0, i1
    cdef double *sqnorm_x = NULL
    cdef double *sqnorm_y = NULL
    cdef GramOperands operands
    cdef VectorKernel vk = VectorKernel(kernel, gamma, coef0, degree)
    cdef InterruptState interrupt
    if cols.shape[1] != n_features:
        raise ValueError(f"X has {n_features} features but Y has {cols.shape[1]}.")
    if out.shape[0] != n_rows or out.shape[1] != n_cols:
        raise ValueError(f"out has shape ({out.shape[0]}, {out.shape[1]}), expected "
                         f"({n_rows}, {n_cols}).")
    if n_rows == 0 or n_cols == 0:
        return
    if n_rows * n_cols * (n_features + 16) < PARALLEL_MIN_WORK * n_threads:
        n_threads = 1
    n_threads = max(1, min(n_threads, n_blocks))
    # the first elements (never read without features, where &X[0, 0] is out of bounds)
    cdef const double *x_first = &X[0, 0] if n_features else NULL
    cdef const double *cols_first = &cols[0, 0] if n_features else NULL
    sqnorm_x = <double*>malloc(n_rows * sizeof(double))
    sqnorm_y = sqnorm_x if symmetric else <double*>malloc(n_cols * sizeof(double))
    try:
        if sqnorm_x == NULL or sqnorm_y == NULL:
            raise MemoryError()
        operands = GramOperands(x_first, cols_first, n_features, n_cols, sqnorm_x, sqnorm_y,
                                &out[0, 0])
        interrupt_init(&interrupt)
        with nogil:
            row_squared_norms(x_first, n_rows, n_features, sqnorm_x)
            if not symmetric:
                row_squared_norms(cols_first, n_cols, n_features, sqnorm_y)
            # Blocks above the diagonal shrink along the triangle: dynamic scheduling.
            for b in prange(n_blocks, schedule='dynamic', num_threads=n_threads):
                if interrupted(&interrupt):     # a block is O(BLOCK n_cols n_features)
                    continue
                i0 = b * BLOCK
                i1 = min(i0 + BLOCK, n_rows)
                _gram_block(&operands, &vk, i0, i1, i0 if symmetric else 0)
            if symmetric and not interrupt.stop:
                for i in prange(1, n_rows, schedule='dynamic', chunksize=16, num_threads=n_threads):
                    for j in range(i):
                        out[i, j] = out[j, i]
        if interrupt.stop:
            raise_pending()
    finally:
        if not symmetric:
            free(sqnorm_y)
        free(sqnorm_x)


def vector_gram_diagonal(
    const double[:, ::1] X,    # IN (n, n_features)
    int kernel,
    double gamma,
    double coef0,
    double degree,
    double[::1] out,           # OUT (n,)
):
    """``out[i] = k(x_i, x_i)`` of a vector kernel (codes and parameters as :func:`vector_gram`)."""
    cdef intp_t i
    if out.shape[0] != X.shape[0]:
        raise ValueError(f"out has {out.shape[0]} entries for {X.shape[0]} rows.")
    with nogil:
        for i in range(X.shape[0]):
            out[i] = kernel_diagonal(&X[i, 0] if X.shape[1] > 0 else NULL, X.shape[1], kernel,
                                     gamma, coef0, degree)


cdef extern from "_gram_scan.h":
    int KK_GRAM_NEGATIVE_DIAGONAL, KK_GRAM_ASYMMETRIC, KK_GRAM_BAD_MINOR, KK_GRAM_NON_FINITE
    int kk_gram_tile_flags(const double *K, intp_t n, const double *root, double atol,
                           intp_t i0, intp_t i1, intp_t j0, intp_t j1,
                           intp_t next_j1) noexcept nogil

# The bits of check_gram's answer.
GRAM_NEGATIVE_DIAGONAL = KK_GRAM_NEGATIVE_DIAGONAL
GRAM_ASYMMETRIC = KK_GRAM_ASYMMETRIC
GRAM_BAD_MINOR = KK_GRAM_BAD_MINOR
GRAM_NON_FINITE = KK_GRAM_NON_FINITE

# Tile of the Gram check: its mirror, read by columns, stays in L2 (_gram_scan.h: 128 and 256
# measured alike; 128 gives the threads more rows of tiles to share).
cdef intp_t TILE = 128
# Below this many entries the check runs on one thread (measured: 2.4 ms for 10⁶ entries on one
# core, 14 µs for 128²; waking a thread team costs tens of µs, more on a busy machine).
cdef intp_t CHECK_PARALLEL_MIN_ENTRIES = 1 << 20


cdef int _check_tile_row(const double *K, intp_t n, const double *root, double atol,
                         intp_t ti) noexcept nogil:
    """The flags of the tiles ``(ti, tj ≥ ti)`` of the upper triangle against their mirrors."""
    cdef intp_t n_tiles = (n + TILE - 1) // TILE
    cdef intp_t tj, i0 = ti * TILE, i1 = min((ti + 1) * TILE, n), j0, j1
    cdef int found = 0
    for tj in range(ti, n_tiles):
        j0 = tj * TILE
        j1 = min(j0 + TILE, n)
        found |= kk_gram_tile_flags(K, n, root, atol, i0, i1, j0, j1, min(j1 + TILE, n))
    return found


def check_gram(
    const double[:, ::1] K,      # IN (n, n)
    double atol,
    int n_threads=1,
):
    """One pass over a square Gram matrix: finiteness and the necessary conditions of positive
    semi-definiteness.

    Tests that every entry is finite, the diagonal is at least ``−atol``, symmetry
    ``|K_ij − K_ji| ≤ 10⁻⁸|K_ij| + atol`` and the 2×2 principal minors
    ``|K_ij| ≤ (1 + 10⁻⁸) sqrt(K_ii K_jj) + atol`` (``sqrt`` of a negative diagonal taken as 0),
    tile by tile over the upper triangle, rows of tiles in parallel; every entry is read once,
    whatever fails. The answer does not depend on ``n_threads``.

    Parameters
    ----------
    K : ndarray of shape (n, n), float64, C-contiguous
    atol : float
        Absolute tolerance (the caller scales it with the trace).
    n_threads : int
        OpenMP threads.

    Returns
    -------
    flags : int
        The conditions that fail, an OR of ``GRAM_NEGATIVE_DIAGONAL``, ``GRAM_ASYMMETRIC``,
        ``GRAM_BAD_MINOR`` and ``GRAM_NON_FINITE`` (0: all hold). With a non-finite entry the
        other bits are meaningless.
    """
    cdef intp_t n = K.shape[0]
    cdef intp_t n_tiles = (n + TILE - 1) // TILE
    cdef intp_t i, ti
    cdef int found = 0
    cdef double kii
    cdef int32_t[::1] flags = np.zeros(max(n_tiles, 1), dtype=np.int32)
    cdef double[::1] root = np.zeros(max(n, 1))
    cdef InterruptState interrupt
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be square, got shape {K.shape}.")
    if n == 0:
        return 0
    for i in range(n):
        kii = K[i, i]
        if not fabs(kii) <= DBL_MAX:
            found |= KK_GRAM_NON_FINITE
        if kii < -atol:
            found |= KK_GRAM_NEGATIVE_DIAGONAL
        root[i] = sqrt(kii) if kii > 0.0 else 0.0
    n_threads = max(1, min(n_threads, n_tiles))
    if n * n < CHECK_PARALLEL_MIN_ENTRIES:
        n_threads = 1
    interrupt_init(&interrupt)
    with nogil:
        # Rows of tiles shrink along the triangle: dynamic scheduling balances them.
        for ti in prange(n_tiles, schedule='dynamic', num_threads=n_threads):
            if not interrupted(&interrupt):     # a row of tiles is O(TILE n) entries
                flags[ti] = _check_tile_row(&K[0, 0], n, &root[0], atol, ti)
    if interrupt.stop:
        raise_pending()
    for ti in range(n_tiles):
        found |= flags[ti]
    return found


# ---------------------------------------------------------------------- sparse feature products
def sparse_gram(
    const intp_t[::1] indptr_a,     # IN (n_a + 1,) CSR rows of A
    const intp_t[::1] indices_a,    # IN (nnz_a,) feature ids, increasing within a row
    const double[::1] data_a,       # IN (nnz_a,)
    const intp_t[::1] colptr_b,     # IN (n_features + 1,) CSC columns (posting lists) of B
    const intp_t[::1] rows_b,       # IN (nnz_b,) rows of B holding the feature
    const double[::1] data_b,       # IN (nnz_b,)
    double[:, ::1] out,             # INOUT (n_a, n_b): A Bᵀ is added to rows [start, stop)
    intp_t row_start,
    intp_t row_stop,
    int n_threads,
):
    """Add ``A Bᵀ`` to rows ``[row_start, row_stop)`` of ``out``: the Gram matrix of sparse
    explicit features (k-mer counts, Weisfeiler–Lehman labels, shortest paths).

    Row ``i`` walks its features ``u`` and, for each, the posting list of ``u`` in ``B``, adding
    ``A[i, u] B[j, u]`` to ``out[i, j]``: the cost is the number of shared (i, j, u) triples. A
    row is summed by one thread in feature order, so the result does not depend on the thread
    count, and for ``K(A, A)`` the entries ``(i, j)`` and ``(j, i)`` add the same products in the
    same order: the matrix is exactly symmetric.

    Every row is computed in full, also for ``K(A, A)``. The other choice — only ``j ≥ i``,
    skipping the start of each posting list by bisection, then copying the upper triangle
    down tile by tile — was measured slower on every workload: full rows took 0.69× (spectrum,
    k=3) and 0.76× (k=5) of its time on the 655 shipped proteins, 0.50× and 0.60× (WL, shortest
    path) on MUTAG, 0.90× and 0.94× on NCI1 (median of 15 alternating runs, 2 threads, machine
    under load ≈ 2): balanced rows and no bisection outweigh the halved products.

    Parameters
    ----------
    indptr_a, indices_a, data_a : CSR arrays of A (intp, intp, float64)
    colptr_b, rows_b, data_b : CSC arrays of B over the same feature ids (intp, intp, float64)
    out : ndarray of shape (n_a, n_b), float64
    row_start, row_stop : int
    n_threads : int
    """
    cdef intp_t i
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil:
        for i in prange(row_start, row_stop, schedule='dynamic', num_threads=n_threads):
            # a row costs its shared (i, j, u) triples: up to n_b times its features
            if not interrupted(&interrupt):
                _sparse_row(i, indptr_a, indices_a, data_a, colptr_b, rows_b, data_b, out)
    if interrupt.stop:
        raise_pending()


cdef void _sparse_row(
    intp_t i,
    const intp_t[::1] indptr_a, const intp_t[::1] indices_a, const double[::1] data_a,
    const intp_t[::1] colptr_b, const intp_t[::1] rows_b, const double[::1] data_b,
    double[:, ::1] out,
) noexcept nogil:
    cdef intp_t p, q, u
    cdef double c
    cdef double *row = &out[i, 0]
    for p in range(indptr_a[i], indptr_a[i + 1]):
        u = indices_a[p]
        c = data_a[p]
        for q in range(colptr_b[u], colptr_b[u + 1]):
            row[rows_b[q]] += c * data_b[q]


def postings(
    const intp_t[::1] indptr,       # IN (n + 1,) CSR rows
    const intp_t[::1] indices,      # IN (nnz,) feature ids
    const double[::1] data,         # IN (nnz,)
    intp_t[::1] colptr,             # OUT (n_features + 1,) CSC column pointers
    intp_t[::1] rows,               # OUT (nnz,) rows of each column, increasing
    double[::1] column_data,        # OUT (nnz,)
):
    """CSR → CSC by a counting sort, O(nnz + n_features): the posting list of every feature.

    Parameters
    ----------
    indptr, indices, data : CSR arrays (intp, intp, float64)
    colptr : ndarray of shape (n_features + 1,), dtype intp
    rows : ndarray of shape (nnz,), dtype intp
    column_data : ndarray of shape (nnz,), dtype float64
    """
    cdef intp_t n = indptr.shape[0] - 1
    cdef intp_t n_features = colptr.shape[0] - 1
    cdef intp_t i, p, u, dest
    with nogil:
        for u in range(n_features + 1):
            colptr[u] = 0
        for p in range(indices.shape[0]):
            colptr[indices[p] + 1] += 1
        for u in range(n_features):
            colptr[u + 1] += colptr[u]
        # rows are visited in increasing order, so each posting list comes out sorted
        for i in range(n):
            for p in range(indptr[i], indptr[i + 1]):
                u = indices[p]
                dest = colptr[u]
                rows[dest] = i
                column_data[dest] = data[p]
                colptr[u] = dest + 1
        # colptr[u] now holds the end of column u, i.e. the start of column u + 1: shift back
        for u in range(n_features, 0, -1):
            colptr[u] = colptr[u - 1]
        colptr[0] = 0
