"""Kernels on vectors (seed 004, "Examples of kernels"; seed-methods D1–D4), computed by the
compiled Gram core: functions with the names and defaults of ``sklearn.metrics.pairwise``, and
:class:`VectorKernel`, the same kernels as a transformer object."""

import time
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import validate_data

from kernelkit._core._gram import VECTOR_KERNELS, vector_gram_diagonal
from kernelkit.kernels._base import StructuredKernel
from kernelkit.utils._kernels import pairwise_kernels, resolve_gamma

__all__ = [
    "VectorKernel",
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


class VectorKernel(StructuredKernel):
    """A vector kernel as a transformer object: ``fit(X)`` remembers the training vectors,
    ``transform(Y)`` returns ``K(Y, X_fit)`` (compiled, threaded).

    The vector counterpart of the string and graph kernel objects, so that every kernel can be
    passed the same way: to ``SVC(kernel=...)``, :class:`kernelkit.mkl.SumKernel`,
    :class:`kernelkit.mkl.SimpleMKL`, or in a pipeline before ``SVC(kernel="precomputed")``.

    Parameters
    ----------
    kernel : {"linear", "poly", "polynomial", "rbf", "sigmoid", "laplacian", "cosine"}, \
            default="rbf"
        See :func:`pairwise_kernels`.
    gamma : float, default=None
        γ of rbf, laplacian, poly and sigmoid; None means ``1 / n_features`` of the training
        vectors.
    degree : float, default=3
    coef0 : float, default=1.0
    normalize : bool, default=False
        Cosine normalisation ``K(x, y) / sqrt(K(x, x) K(y, y))``.
    n_jobs : int, default=None
        OpenMP threads (None: all allowed). Results do not depend on it.
    verbose : int, default=0
        Say how long each Gram matrix took, on stderr.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples_fit, n_features)
    gamma_ : float
        The resolved γ.
    n_samples_fit_ : int
    n_features_in_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(x, x)`` of the training vectors (when ``normalize``).

    Examples
    --------
    >>> from kernelkit.kernels import VectorKernel
    >>> VectorKernel("linear").fit_transform([[1.0, 0.0], [1.0, 1.0]])
    array([[1., 1.],
           [1., 2.]])
    """

    _parameter_constraints: dict = {
        **StructuredKernel._parameter_constraints,
        "kernel": [StrOptions(set(VECTOR_KERNELS))],
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
    }

    def __init__(self, kernel="rbf", *, gamma=None, degree=3, coef0=1.0, normalize=False,
                 n_jobs=None, verbose=0):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _prepare(self, X, fitting):
        X = validate_data(self, X, dtype=np.float64, order="C", reset=fitting)
        if fitting:
            self.gamma_ = resolve_gamma(self.gamma, X)
        return X

    def _gram(self, A, B=None):
        start = time.perf_counter()
        K = pairwise_kernels(A, B, metric=self.kernel, gamma=self.gamma_, degree=self.degree,
                             coef0=self.coef0, n_jobs=self.n_jobs)
        self._report(f"computed the Gram matrix {K.shape}", start)
        return K

    def _self_similarity(self, A):
        out = np.empty(A.shape[0])
        vector_gram_diagonal(A, VECTOR_KERNELS[self.kernel], self.gamma_, float(self.coef0),
                             float(self.degree), out)
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = True
        return tags
