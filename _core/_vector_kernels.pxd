# Kernels on vectors, evaluated a block of dot products at a time: the one place their formulas
# and codes live. Used by the Gram entries of _gram.pyx and the kernel rows of _smo_solver.pyx.
#
#   linear     x·y
#   poly       (γ x·y + coef0)^degree
#   rbf        exp(−γ ‖x − y‖²),   ‖x − y‖² = ‖x‖² + ‖y‖² − 2 x·y
#   sigmoid    tanh(γ x·y + coef0)
#   laplacian  exp(−γ ‖x − y‖₁)    (no dot products: its own loop)
#   cosine     x·y / (‖x‖ ‖y‖)     (0 when either norm is 0)
#
# Seed 004 (Mairal & Vert, "Kernel Methods" slides), "Examples of kernels"; seed-methods D1–D4.
from libc.math cimport exp, fabs, pow, sqrt, tanh

from _types cimport intp_t

cdef enum:
    LINEAR = 0
    POLY = 1
    RBF = 2
    SIGMOID = 3
    LAPLACIAN = 4
    COSINE = 5


cdef inline bint uses_dot_products(int kernel) noexcept nogil:
    return kernel != LAPLACIAN


cdef inline void dots_to_kernel(
    double *values,            # INOUT (n,): x·y_j in, k(x, y_j) out
    intp_t n,
    double sqnorm_x,           # ‖x‖²
    const double *sqnorm_y,    # IN (n,): ‖y_j‖²
    int kernel, double gamma, double coef0, double degree,
) noexcept nogil:
    """Turn the dot products of one row into kernel values (kernels other than laplacian)."""
    cdef intp_t j
    cdef double dist, norms
    if kernel == RBF:
        for j in range(n):
            dist = sqnorm_x + sqnorm_y[j] - 2.0 * values[j]
            # may be slightly negative from rounding; clamp
            values[j] = exp(-gamma * (dist if dist > 0.0 else 0.0))
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


cdef inline double kernel_diagonal(
    const double *x, intp_t n_features,
    int kernel, double gamma, double coef0, double degree,
) noexcept nogil:
    """``k(x, x)``."""
    cdef intp_t k
    cdef double sq = 0.0
    if kernel == RBF or kernel == LAPLACIAN:
        return 1.0
    for k in range(n_features):
        sq += x[k] * x[k]
    if kernel == LINEAR:
        return sq
    if kernel == POLY:
        return pow(gamma * sq + coef0, degree)
    if kernel == SIGMOID:
        return tanh(gamma * sq + coef0)
    return 1.0 if sq > 0.0 else 0.0
