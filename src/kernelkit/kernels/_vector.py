"""Kernels on vectors (Mairal & Vert, "Examples of kernels"), computed by the
compiled Gram core: functions with the names and defaults of ``sklearn.metrics.pairwise``, and
:class:`VectorKernel`, the same kernels as a transformer object."""

from numbers import Real

import numpy as np
from sklearn.utils.validation import validate_data

from kernelkit._core._gram import VECTOR_KERNELS, vector_gram_diagonal
from kernelkit.kernels._base import StructuredKernel
from kernelkit.utils._kernels import definite_by_construction, pairwise_kernels, resolve_gamma
from kernelkit.utils._sklearn_compat import Interval, StrOptions

__all__ = [
    "VectorKernel",
    "cosine_kernel",
    "exponential_kernel",
    "laplacian_kernel",
    "linear_kernel",
    "min_kernel",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
    "sinc_kernel",
]


def linear_kernel(X, Y=None, *, n_jobs=None):
    r""":math:`K(x, y) = x \cdot y`; see :func:`pairwise_kernels` for the parameters.

    Examples
    --------
    >>> from kernelkit.kernels import linear_kernel
    >>> linear_kernel([[1.0, 2.0]], [[3.0, 4.0]])
    array([[11.]])
    """
    return pairwise_kernels(X, Y, metric="linear", n_jobs=n_jobs)


def polynomial_kernel(X, Y=None, degree=3, gamma=None, coef0=1, *, n_jobs=None):
    r""":math:`K(x, y) = (\gamma x \cdot y + \mathrm{coef0})^\mathrm{degree}`
    (:math:`\gamma` = 1/n_features when None).

    A non-integer degree is defined only where :math:`\gamma x \cdot y + \mathrm{coef0} \ge 0`
    (a negative number has no real non-integer power): elsewhere a ``ValueError`` names
    ``degree`` and ``coef0`` (scikit-learn returns NaN). It is positive definite for an integer
    degree and :math:`\mathrm{coef0} \ge 0`.

    Examples
    --------
    >>> from kernelkit.kernels import polynomial_kernel
    >>> polynomial_kernel([[1.0, 2.0]], [[3.0, 4.0]], degree=2, gamma=1.0, coef0=1.0)
    array([[144.]])
    """
    return pairwise_kernels(X, Y, metric="poly", degree=degree, gamma=gamma, coef0=coef0,
                            n_jobs=n_jobs)


def rbf_kernel(X, Y=None, gamma=None, *, n_jobs=None):
    r"""Gaussian kernel :math:`K(x, y) = \exp(-\gamma \|x - y\|^2)` (:math:`\gamma` = 1/n_features
    when None).

    Examples
    --------
    >>> from kernelkit.kernels import rbf_kernel
    >>> rbf_kernel([[0.0], [1.0]], gamma=1.0).round(4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """
    return pairwise_kernels(X, Y, metric="rbf", gamma=gamma, n_jobs=n_jobs)


def laplacian_kernel(X, Y=None, gamma=None, *, n_jobs=None):
    r"""Laplacian kernel :math:`K(x, y) = \exp(-\gamma \|x - y\|_1)` (:math:`\gamma` = 1/n_features
    when None)."""
    return pairwise_kernels(X, Y, metric="laplacian", gamma=gamma, n_jobs=n_jobs)


def sigmoid_kernel(X, Y=None, gamma=None, coef0=1, *, n_jobs=None):
    r""":math:`K(x, y) = \tanh(\gamma x \cdot y + \mathrm{coef0})` (not positive definite in
    general)."""
    return pairwise_kernels(X, Y, metric="sigmoid", gamma=gamma, coef0=coef0, n_jobs=n_jobs)


def cosine_kernel(X, Y=None, *, n_jobs=None):
    r""":math:`K(x, y) = x \cdot y / (\|x\| \|y\|)`, 0 when either vector is 0."""
    return pairwise_kernels(X, Y, metric="cosine", n_jobs=n_jobs)


def exponential_kernel(X, Y=None, gamma=None, *, n_jobs=None):
    r"""Exponential (dot-product) kernel :math:`K(x, y) = \exp(\gamma x \cdot y)`,
    :math:`\gamma > 0` (1/n_features when None).

    The closure rule :math:`\exp(k)` applied to the linear kernel, hence positive definite, and
    universal on compact sets (Sangnier, *Introduction to machine learning*, Ex 1.4.2 and Ex 1.4.5).
    Its values grow like :math:`\exp(\gamma \|x\|^2)`: inputs that would overflow raise in the
    estimators.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import exponential_kernel
    >>> K = exponential_kernel([[1.0, 0.0], [0.0, 2.0]], gamma=0.5)
    >>> bool(np.allclose(K, [[np.exp(0.5), 1.0], [1.0, np.exp(2.0)]]))
    True
    """
    return pairwise_kernels(X, Y, metric="exponential", gamma=gamma, n_jobs=n_jobs)


def min_kernel(X, Y=None, *, n_jobs=None):
    r"""Min kernel :math:`K(x, y) = \sum_k \min(x_k, y_k)` on vectors with non-negative entries.

    In one dimension, :math:`\min(x, y)` is the covariance of Brownian motion; its RKHS on
    :math:`[0, 1]` is :math:`\{f : f \text{ absolutely continuous}, f(0) = 0, f' \in L^2\}` with
    :math:`\|f\|_H^2 = \int_0^1 f'(u)^2 \, du` (Mairal & Vert, *Kernel Methods* slides, "Kernel
    examples" and "Example: Sobolev norm as regularizer"). For vectors we sum over coordinates (the
    histogram-intersection kernel): a sum of kernels is a kernel, and its RKHS holds the additive
    functions :math:`\sum_k f_k(x_k)` with :math:`\|f\|^2 = \sum_k \int f_k'^2` (the courses define
    the kernel on :math:`\mathbb R_+` only; the product over coordinates, the Brownian sheet, would
    vanish or explode in high dimension). Negative entries raise a ``ValueError``: ``min`` is not
    positive definite there.

    Examples
    --------
    >>> from kernelkit.kernels import min_kernel
    >>> min_kernel([[0.2], [0.5], [1.0]])
    array([[0.2, 0.2, 0.2],
           [0.2, 0.5, 0.5],
           [0.2, 0.5, 1. ]])
    """
    return pairwise_kernels(X, Y, metric="min", n_jobs=n_jobs)


def sinc_kernel(X, Y=None, gamma=None, *, n_jobs=None):
    r"""Sinc (band-limited) kernel
    :math:`K(x, y) = \prod_k \sin(\Omega (x_k - y_k)) / (\pi (x_k - y_k))` with band limit
    :math:`\Omega` = ``gamma`` (1/n_features when None), and :math:`\Omega / \pi` per coordinate
    where :math:`x_k = y_k`, so :math:`K(x, x) = (\Omega / \pi)^d` (:math:`d` = ``n_features``).

    Translation invariant with Fourier transform the indicator of :math:`[-\Omega, \Omega]^d`
    (Bochner: positive definite); its RKHS is the set of band-limited functions with
    :math:`\|f\|_H^2 \propto \|f\|_{L^2}^2`
    (Mairal & Vert, *Kernel Methods* slides, "Example: sinc kernel"). The course defines the
    one-dimensional kernel; the product over coordinates is the band limit on the cube.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import sinc_kernel
    >>> K = sinc_kernel([[0.0], [1.0]], gamma=np.pi / 2)
    >>> bool(np.allclose(K, [[0.5, 1 / np.pi], [1 / np.pi, 0.5]]))
    True
    """
    return pairwise_kernels(X, Y, metric="sinc", gamma=gamma, n_jobs=n_jobs)


class VectorKernel(StructuredKernel):
    """A vector kernel as a transformer object: ``fit(X)`` remembers the training vectors,
    ``transform(Y)`` returns ``K(Y, X_fit)`` (compiled, threaded).

    The vector counterpart of the string and graph kernel objects, so that every kernel can be
    passed the same way: to ``SVC(kernel=...)``, :class:`kernelkit.mkl.SumKernel`,
    :class:`kernelkit.mkl.SimpleMKL`, or in a pipeline before ``SVC(kernel="precomputed")``.

    Parameters
    ----------
    kernel : {"linear", "poly", "polynomial", "rbf", "sigmoid", "laplacian", "cosine", \
"exponential", "min", "sinc"}, default="rbf"
        See :func:`pairwise_kernels`.
    gamma : float, default=None
        γ of rbf, laplacian, poly, sigmoid and exponential, the band limit Ω of sinc; None means
        ``1 / n_features`` of the training vectors.
    degree : float, default=3
    coef0 : float, default=1.0
    normalize : bool, default=False
        Cosine normalisation :math:`K(x, y) / \\sqrt{K(x, x) K(y, y)}`.
    n_jobs : int, default=None
        OpenMP threads (None: all allowed). Results do not depend on it.
    verbose : int, default=0
        1: one line per Gram matrix (its shape and the time taken), on stderr.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples_fit, n_features)
    gamma_ : float
        The resolved γ.
    n_samples_fit_ : int
    n_features_in_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(x, x)`` of the training vectors (when ``normalize``).

    References
    ----------
    .. [1] Mairal & Vert, *Kernel Methods in Machine Learning*, slides "Examples of kernels"
       (linear, polynomial, Gaussian); Peyré, *Mathematical Foundations of Data Sciences*, §16.3.2.
    .. [2] B. Schölkopf, A. J. Smola, *Learning with Kernels*, MIT Press, 2002, ch. 2.

    See Also
    --------
    StructuredKernel : The base class of the string and graph kernels, with the same interface.
    kernelkit.mkl.SumKernel : A weighted sum of kernel objects.

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
        return pairwise_kernels(A, B, metric=self.kernel, gamma=self.gamma_, degree=self.degree,
                                coef0=self.coef0, n_jobs=self.n_jobs)

    def _positive_definite_by_construction(self):
        """Whether every Gram matrix of this kernel is positive semi-definite, whatever the
        data (the learners then skip their factorisation test, as for the kernel's name)."""
        return definite_by_construction(self.kernel, float(self.coef0), float(self.degree))

    def _self_similarity(self, A):
        out = np.empty(A.shape[0])
        vector_gram_diagonal(A, VECTOR_KERNELS[self.kernel], self.gamma_, float(self.coef0),
                             float(self.degree), out)
        return out

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = True
        return tags
