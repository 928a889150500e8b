"""Kernels on vectors (seed 004, "Examples of kernels"; seed-methods D1–D4), computed by the
compiled Gram core. Same names and defaults as ``sklearn.metrics.pairwise``."""

from kernelkit.utils._kernels import pairwise_kernels

__all__ = [
    "cosine_kernel",
    "laplacian_kernel",
    "linear_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
]


def linear_kernel(X, Y=None, *, n_jobs=None):
    """``K(x, y) = x·y``; see :func:`pairwise_kernels` for the parameters.

    Examples
    --------
    >>> from kernelkit.kernels import linear_kernel
    >>> linear_kernel([[1.0, 2.0]], [[3.0, 4.0]])
    array([[11.]])
    """
    return pairwise_kernels(X, Y, metric="linear", n_jobs=n_jobs)


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1, *, n_jobs=None):
    """``K(x, y) = (γ x·y + coef0)^degree`` (γ = 1/n_features when None)."""
    return pairwise_kernels(X, Y, metric="poly", degree=degree, gamma=gamma, coef0=coef0,
                            n_jobs=n_jobs)


def rbf_kernel(X, Y=None, gamma=None, *, n_jobs=None):
    """Gaussian kernel ``K(x, y) = exp(−γ‖x − y‖²)`` (γ = 1/n_features when None).

    Examples
    --------
    >>> from kernelkit.kernels import rbf_kernel
    >>> rbf_kernel([[0.0], [1.0]], gamma=1.0).round(4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """
    return pairwise_kernels(X, Y, metric="rbf", gamma=gamma, n_jobs=n_jobs)


def laplacian_kernel(X, Y=None, gamma=None, *, n_jobs=None):
    """Laplacian kernel ``K(x, y) = exp(−γ‖x − y‖₁)`` (γ = 1/n_features when None)."""
    return pairwise_kernels(X, Y, metric="laplacian", gamma=gamma, n_jobs=n_jobs)


def sigmoid_kernel(X, Y=None, gamma=None, coef0=1, *, n_jobs=None):
    """``K(x, y) = tanh(γ x·y + coef0)`` (not positive definite in general)."""
    return pairwise_kernels(X, Y, metric="sigmoid", gamma=gamma, coef0=coef0, n_jobs=n_jobs)


def cosine_kernel(X, Y=None, *, n_jobs=None):
    """``K(x, y) = x·y / (‖x‖‖y‖)``, 0 when either vector is 0."""
    return pairwise_kernels(X, Y, metric="cosine", n_jobs=n_jobs)
