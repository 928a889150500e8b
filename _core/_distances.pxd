# Squared Euclidean distances by GEMM, shared by the cores that compute many of them at once
# (vector Gram matrices, k-means, k-medoids, brute-force k-NN, DBSCAN, GraphHopper's node pairs):
#
#     ‖x − y‖² = ‖x‖² + ‖y‖² − 2 x·y
#
# the dot products of a block of rows against a block of columns being one BLAS GEMM
# (scipy.linalg.cython_blas, float32 or float64 through `floating`), the squared norms computed
# once per row in double precision.
#
# Rounding, and the float32 screen. Let u be the unit roundoff of the GEMM's type (2⁻²⁴ in
# float32, 2⁻⁵³ in float64). A dot product of length d computed in any summation order satisfies
# |fl(x·y) − x·y| ≤ γ_d ‖x‖ ‖y‖ with γ_d = d u / (1 − d u) (Higham, *Accuracy and Stability of
# Numerical Algorithms*, §3.1); rounding float64 inputs to float32 first adds 2u ‖x‖ ‖y‖ (one
# rounding per operand), and forming ‖x‖² + ‖y‖² − 2 x·y adds two more roundings of terms at
# most (‖x‖ + ‖y‖)². In all, the GEMM value of the squared distance is within
#
#     E = (d + 4) u (‖x‖ + ‖y‖)²        (and within 2 (d + 4) u ‖x‖ ‖y‖ for the product term alone)
#
# of the exact one, for d u ≤ 1/2 (γ_d ≤ 2 d u is then covered by the slack factors below). A
# core that screens candidates by a float32 GEMM and then recomputes the survivors exactly (by
# direct differences in double) widens E by a safety factor of its own so that no candidate is
# ever dropped wrongly; `gemm_rounding` gives the common coefficient (d + terms) u, `terms` naming
# what the bound covers (`ScreenTerms`), and each core's factor is stated where it is used.
from libc.string cimport memset
from scipy.linalg.cython_blas cimport dgemm, sgemm

from _types cimport floating, intp_t


cdef enum ScreenTerms:
    # the GEMM expansion alone: d products, two input roundings, two roundings of the sum
    GEMM_TERMS = 4
    # also the rounding of the direct-difference distance that then decides (k-means compares
    # GEMM values and exact distances of the same pairs in one test)
    GEMM_AND_EXACT_TERMS = 8


cdef inline double gemm_rounding(intp_t n_features, bint single, int terms) noexcept nogil:
    """``(n_features + terms) u``: the relative rounding bound of a GEMM squared distance (see
    the comment at the top of this file), u = 2⁻²⁴ for a float32 GEMM, 2⁻⁵³ for float64. Exact
    (an integer times a power of two), so the bounds built from it do not depend on the order in
    which a core multiplies its factors."""
    return (n_features + terms) * (5.9604644775390625e-08 if single else 1.1102230246251565e-16)


cdef inline void gemm_abt(
    const floating *A,         # IN (n_a, n_features), row-major
    int n_a,
    const floating *B,         # IN (n_b, n_features), row-major
    int n_b,
    int n_features,
    floating alpha,
    floating beta,
    floating *C,               # INOUT (n_a, n_b), row-major with row stride ldc
    int ldc,
) noexcept nogil:
    """``C[a, b] = alpha A[a]·B[b] + beta C[a, b]`` by one GEMM.

    Row-major ``C`` is the column-major ``(n_b × n_a)`` matrix ``alpha B Aᵀ + beta Cᵀ``:
    GEMM('T', 'N') on the raw row-major buffers, no copy. With no features the products are 0
    (BLAS would reject a leading dimension of 0): ``C`` is scaled by ``beta`` (set to 0 if
    ``beta`` is 0, as BLAS does, whatever it held).
    """
    cdef char trans = b'T', no_trans = b'N'
    cdef int a, b
    if n_features <= 0:
        if beta == 0:
            for a in range(n_a):
                memset(C + a * ldc, 0, n_b * sizeof(floating))
        elif beta != 1:
            for a in range(n_a):
                for b in range(n_b):
                    C[a * ldc + b] *= beta
        return
    if floating is float:
        sgemm(&trans, &no_trans, &n_b, &n_a, &n_features, &alpha, <float*>B, &n_features,
              <float*>A, &n_features, &beta, C, &ldc)
    else:
        dgemm(&trans, &no_trans, &n_b, &n_a, &n_features, &alpha, <double*>B, &n_features,
              <double*>A, &n_features, &beta, C, &ldc)


cdef inline void gemm_abt_strided(
    const floating *A,         # IN (n_a, lda), row-major
    int n_a,
    int lda,
    const floating *B,         # IN (n_b, ldb), row-major
    int n_b,
    int ldb,
    int k,
    floating *C,               # OUT (n_a, n_b), row-major
) noexcept nogil:
    """``C[a, b] = A[a, :k]·B[b, :k]``: :func:`gemm_abt` of the first ``k`` entries of rows of
    strides ``lda``, ``ldb ≥ k`` (GraphHopper: two graphs' path counts over the shorter
    diameter's prefix), ``alpha = 1``, ``beta = 0``; ``C`` is zero when ``k`` is 0."""
    cdef char trans = b'T', no_trans = b'N'
    cdef floating one = 1.0, zero = 0.0
    if k <= 0:
        memset(C, 0, <size_t>n_a * n_b * sizeof(floating))
        return
    if floating is float:
        sgemm(&trans, &no_trans, &n_b, &n_a, &k, &one, <float*>B, &ldb, <float*>A, &lda, &zero,
              C, &n_b)
    else:
        dgemm(&trans, &no_trans, &n_b, &n_a, &k, &one, <double*>B, &ldb, <double*>A, &lda,
              &zero, C, &n_b)


cdef inline double squared_norm(const floating *x, intp_t n_features) noexcept nogil:
    """``‖x‖²`` summed in double in feature order."""
    cdef intp_t j
    cdef double s = 0.0
    for j in range(n_features):
        s += <double>x[j] * x[j]
    return s


cdef inline double dot_interleaved(const floating *x, const floating *y,
                                   intp_t n) noexcept nogil:
    """``Σ x_j y_j`` in double with four interleaved accumulators, added as
    ``(a0 + a1) + (a2 + a3)``: independent additions (no chain of dependent adds per feature,
    so the loop vectorises without -ffast-math), always in the same order."""
    cdef double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0
    cdef intp_t j = 0
    while j + 4 <= n:
        a0 += <double>x[j] * y[j]
        a1 += <double>x[j + 1] * y[j + 1]
        a2 += <double>x[j + 2] * y[j + 2]
        a3 += <double>x[j + 3] * y[j + 3]
        j += 4
    while j < n:
        a0 += <double>x[j] * y[j]
        j += 1
    return (a0 + a1) + (a2 + a3)


cdef inline double squared_norm_interleaved(const floating *x, intp_t n_features) noexcept nogil:
    """``‖x‖²`` by :func:`dot_interleaved` (faster than :func:`squared_norm`, rounded
    differently: a core keeps the one its results were defined with)."""
    return dot_interleaved(x, x, n_features)


cdef inline void row_squared_norms(const floating *X, intp_t n_rows, intp_t n_features,
                                   double *out) noexcept nogil:
    """``out[i] = ‖X[i]‖²`` for row-major ``X`` (:func:`squared_norm` of each row)."""
    cdef intp_t i
    for i in range(n_rows):
        out[i] = squared_norm(X + i * n_features, n_features)


cdef inline double squared_distance_from_dot(double x_squared_norm, double y_squared_norm,
                                             double dot) noexcept nogil:
    """``‖x‖² + ‖y‖² − 2 x·y``, clamped at 0."""
    cdef double v = x_squared_norm + y_squared_norm - 2.0 * dot
    # may be slightly negative from rounding; clamp
    return v if v > 0.0 else 0.0
