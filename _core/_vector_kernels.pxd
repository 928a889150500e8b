# Kernels on vectors, evaluated a block of dot products at a time: the one place their formulas
# and codes live. Used by the Gram entries of _gram.pyx and the kernel rows of the solvers
# (_smo_solver.pyx, _dual_cd.pyx).
#
#   linear     x·y
#   poly       (γ x·y + coef0)^degree
#   rbf        exp(−γ ‖x − y‖²),   ‖x − y‖² = ‖x‖² + ‖y‖² − 2 x·y   (_distances.pxd, clamped at 0)
#   sigmoid    tanh(γ x·y + coef0)
#   laplacian  exp(−γ ‖x − y‖₁)    (no dot products: its own loop)
#   cosine     x·y / (‖x‖ ‖y‖)     (0 when either norm is 0)
#   exponential  exp(γ x·y)        (Sangnier, Ex 1.4.2: the exp closure rule on the linear kernel)
#   min        Σ_k min(x_k, y_k)   (no dot products; x, y ≥ 0: in one dimension the Brownian
#                                   motion kernel of Mairal & Vert "Kernel examples", whose RKHS on
#                                   [0, 1] is {f : f(0) = 0, f' ∈ L²} with ‖f‖² = ∫ f'²; a sum
#                                   over coordinates, the histogram-intersection kernel)
#   sinc       Π_k sin(γ (x_k − y_k)) / (π (x_k − y_k)), γ/π at x_k = y_k
#                                  (no dot products; Mairal & Vert "Example: sinc kernel" with Ω = γ:
#                                   band-limited, Fourier transform the indicator of [−γ, γ]^d)
#
# Mairal & Vert, *Kernel Methods* slides, "Examples of kernels".
from cython.parallel cimport prange
from libc.math cimport M_PI, exp, fabs, pow, sin, sqrt, tanh
from scipy.linalg.cython_blas cimport dgemv

from _distances cimport squared_distance_from_dot
from _types cimport intp_t, kk_team_for_work

cdef enum:
    LINEAR = 0
    POLY = 1
    RBF = 2
    SIGMOID = 3
    LAPLACIAN = 4
    COSINE = 5
    EXPONENTIAL = 6
    MIN = 7
    SINC = 8

# A vector kernel: its code and parameters, passed by pointer to the kernel rows.
ctypedef struct VectorKernel:
    int kernel                  # one of the codes above
    double gamma
    double coef0
    double degree


cdef inline bint uses_dot_products(int kernel) noexcept nogil:
    """Whether ``k(x, y)`` is a function of ``x·y`` (and the norms): a GEMM block then
    :func:`dots_to_kernel`; the others are computed entry by entry by :func:`elementwise_row`."""
    return kernel != LAPLACIAN and kernel != MIN and kernel != SINC


cdef inline void dots_to_kernel(
    double *values,            # INOUT (n,): x·y_j in, k(x, y_j) out
    intp_t n,
    double sqnorm_x,           # ‖x‖²
    const double *sqnorm_y,    # IN (n,): ‖y_j‖²
    int kernel, double gamma, double coef0, double degree,
) noexcept nogil:
    """Turn the dot products of one row into kernel values (kernels other than laplacian)."""
    cdef intp_t j
    cdef double norms
    if kernel == RBF:
        for j in range(n):
            values[j] = exp(-gamma * squared_distance_from_dot(sqnorm_x, sqnorm_y[j], values[j]))
    elif kernel == POLY:
        for j in range(n):
            values[j] = pow(gamma * values[j] + coef0, degree)
    elif kernel == SIGMOID:
        for j in range(n):
            values[j] = tanh(gamma * values[j] + coef0)
    elif kernel == COSINE:
        for j in range(n):
            norms = sqnorm_x * sqnorm_y[j]
            values[j] = values[j] / sqrt(norms) if norms > 0.0 else 0.0
    elif kernel == EXPONENTIAL:
        for j in range(n):
            values[j] = exp(gamma * values[j])


cdef inline void laplacian_row(
    const double *x,           # IN (n_features,)
    const double *Y,           # IN (n, n_features), row-major
    intp_t n, intp_t n_features, double gamma,
    double *values,            # OUT (n,)
) noexcept nogil:
    cdef intp_t j, k
    cdef double dist
    cdef const double *y
    for j in range(n):
        y = Y + j * n_features
        dist = 0.0
        for k in range(n_features):
            dist += fabs(x[k] - y[k])
        values[j] = exp(-gamma * dist)


cdef inline void min_row(
    const double *x,           # IN (n_features,), non-negative
    const double *Y,           # IN (n, n_features), row-major, non-negative
    intp_t n, intp_t n_features,
    double *values,            # OUT (n,)
) noexcept nogil:
    cdef intp_t j, k
    cdef double total
    cdef const double *y
    for j in range(n):
        y = Y + j * n_features
        total = 0.0
        for k in range(n_features):
            total += x[k] if x[k] < y[k] else y[k]
        values[j] = total


cdef inline double sinc_factor(double diff, double omega) noexcept nogil:
    """``sin(Ω t) / (π t)``, continued by its limit ``Ω/π`` at ``t = 0`` (sin is accurate to
    the last bit for small arguments, so only ``t = 0`` itself needs the limit)."""
    if diff == 0.0:
        return omega / M_PI
    return sin(omega * diff) / (M_PI * diff)


cdef inline void sinc_row(
    const double *x,           # IN (n_features,)
    const double *Y,           # IN (n, n_features), row-major
    intp_t n, intp_t n_features, double omega,
    double *values,            # OUT (n,)
) noexcept nogil:
    cdef intp_t j, k
    cdef double product
    cdef const double *y
    for j in range(n):
        y = Y + j * n_features
        product = 1.0
        for k in range(n_features):
            product *= sinc_factor(x[k] - y[k], omega)
        values[j] = product


cdef inline void elementwise_row(
    const double *x,           # IN (n_features,)
    const double *Y,           # IN (n, n_features), row-major
    intp_t n, intp_t n_features, int kernel, double gamma,
    double *values,            # OUT (n,): k(x, y_j)
) noexcept nogil:
    """One row of a kernel that is not a function of dot products (laplacian, min, sinc)."""
    if kernel == LAPLACIAN:
        laplacian_row(x, Y, n, n_features, gamma, values)
    elif kernel == MIN:
        min_row(x, Y, n, n_features, values)
    else:
        sinc_row(x, Y, n, n_features, gamma, values)


cdef inline double kernel_diagonal(
    const double *x, intp_t n_features,
    int kernel, double gamma, double coef0, double degree,
) noexcept nogil:
    """``k(x, x)``."""
    cdef intp_t k
    cdef double sq = 0.0
    if kernel == RBF or kernel == LAPLACIAN:
        return 1.0
    if kernel == SINC:
        return pow(gamma / M_PI, <double>n_features)
    if kernel == MIN:
        for k in range(n_features):
            sq += x[k]
        return sq
    for k in range(n_features):
        sq += x[k] * x[k]
    if kernel == LINEAR:
        return sq
    if kernel == POLY:
        return pow(gamma * sq + coef0, degree)
    if kernel == SIGMOID:
        return tanh(gamma * sq + coef0)
    if kernel == EXPONENTIAL:
        return exp(gamma * sq)
    return 1.0 if sq > 0.0 else 0.0


cdef inline void kernel_row_chunk(
    const double *X, intp_t n_features, const double *x_sqnorm,
    const double *x_s, double sqnorm_s,
    const VectorKernel *vk,
    intp_t start, intp_t stop, double *out,
) noexcept nogil:
    """``out[j] = K(x_s, x_j)`` for ``start ≤ j < stop`` (rows ``x_j`` of the row-major ``X``):
    one GEMV and :func:`dots_to_kernel` for the dot-product kernels, :func:`elementwise_row` for
    the others. Kernel rows of the solvers (SMO, dual coordinate descent) are cut into fixed
    chunks of this call, so their values do not depend on how chunks are spread over threads."""
    cdef int m = <int>(stop - start)
    cdef int d = <int>n_features
    cdef int one_i = 1
    cdef char trans = b'T'
    cdef double one = 1.0, zero = 0.0
    if not uses_dot_products(vk.kernel):
        elementwise_row(x_s, X + start * n_features, m, n_features, vk.kernel, vk.gamma,
                        out + start)
        return
    # Row-major X[start:stop] is a column-major (d, m) matrix: its transpose times x_s gives the
    # m dot products.
    dgemv(&trans, &d, &m, &one, <double*>(X + start * n_features), &d, <double*>x_s, &one_i,
          &zero, out + start, &one_i)
    dots_to_kernel(out + start, m, sqnorm_s, x_sqnorm + start, vk.kernel, vk.gamma, vk.coef0,
                   vk.degree)


# Kernel rows of the solvers (SMO, dual coordinate descent): fixed chunks of ROW_CHUNK samples,
# split across a team sized by the row's work (kk_team_for_work) at seconds_per_row_unit() per
# sample × (n_features + 16), the 16 standing for the exp/pow/tanh of each entry (measured on one
# thread: 0.11-0.27 ns, a GEMV and an exp over 2 000-50 000 samples of 20-100 features). The
# solvers compute thousands of rows, each a fork/join: a calibrated cost of the region (which a
# machine busy when it is measured makes large) keeps short rows on one thread (a fixed
# threshold of a millisecond of work kept every row of 10 000 samples on one).
cdef enum:
    ROW_CHUNK = 512


cdef inline double seconds_per_row_unit() noexcept nogil:
    return 2e-10


cdef inline void kernel_row(
    const double *X, intp_t n_features, const double *x_sqnorm, intp_t s,
    const VectorKernel *vk,
    intp_t start, intp_t stop, double *out, int n_threads, double min_work_per_thread,
) noexcept nogil:
    """``out[j] = K(x_s, x_j)`` for ``start ≤ j < stop``, ``K`` the kernel ``vk``, chunk by
    chunk, on at most ``n_threads`` threads, each given ``min_work_per_thread`` seconds of work
    at least (0: every thread): the chunking depends on the row only, so the values do not
    depend on the thread count."""
    cdef intp_t n_chunks = (stop - start + ROW_CHUNK - 1) // ROW_CHUNK
    cdef intp_t c
    cdef const double *x_s = X + s * n_features
    n_threads = kk_team_for_work((stop - start) * (n_features + 16) * seconds_per_row_unit(),
                                 min_work_per_thread, n_threads)
    if n_threads > n_chunks:
        n_threads = <int>n_chunks
    if n_threads <= 1:
        for c in range(n_chunks):
            kernel_row_chunk(X, n_features, x_sqnorm, x_s, x_sqnorm[s], vk,
                             start + c * ROW_CHUNK, min(start + (c + 1) * ROW_CHUNK, stop), out)
    else:
        # dynamic: a descheduled thread does not hold the others; each chunk writes its own
        # entries, so the values do not depend on the schedule
        for c in prange(n_chunks, schedule='dynamic', num_threads=n_threads):
            kernel_row_chunk(X, n_features, x_sqnorm, x_s, x_sqnorm[s], vk,
                             start + c * ROW_CHUNK, min(start + (c + 1) * ROW_CHUNK, stop), out)
