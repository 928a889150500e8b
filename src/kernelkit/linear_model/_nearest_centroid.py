"""Nearest-centroid classification, in the input space or a kernel's feature space (Sangnier,
*Introduction to machine learning*, Remark 1.1.1 and Exercise 1.10)."""

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._sklearn_compat import Interval, ParameterNamesOncePerClass, _fit_context
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, blas_threads, effective_n_threads
from kernelkit.utils._validation import check_class_labels, check_fit_params, record_fit_params

__all__ = ["NearestCentroid"]


class NearestCentroid(ClassifierMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Assign each sample to the class with the nearest mean.

    :math:`g(x) = \operatorname{argmin}_j \|x - \hat\mu_j\|` (the Bayes rule of Gaussian classes
    with identity covariance and equal priors, Sangnier, Remark 1.1.1). With a kernel, the mean of
    class :math:`j` in feature space is
    :math:`\hat\mu_j^\varphi = \frac1{n_j} \sum_{i \in I_j} \varphi(x_i)` and (Exercise 1.10)

    .. math::

        \|\varphi(x) - \hat\mu_j^\varphi\|^2 = k(x, x) - \frac2{n_j} \sum_{i \in I_j} k(x, x_i)
        + \frac1{n_j^2} \sum_{i, l \in I_j} k(x_i, x_l),

    whose first term does not depend on ``j``: only the Gram matrix against the training set is
    needed, so strings and graphs can be classified by their class means.

    Parameters
    ----------
    kernel : None, str, callable, "precomputed" or kernel object, default=None
        None: Euclidean distance to the class means; otherwise any kernel of kernelkit.
    gamma, degree, coef0 : float
        Parameters of the vector kernels.
    kernel_params : dict, default=None
    n_jobs : int, default=None

    ``n_jobs`` may be changed by ``set_params`` after ``fit``; the other parameters (the kernel
    and its parameters) define the fitted class means, so changing one requires a refit
    (``predict`` raises NotFittedError naming it until then).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    centroids_ : ndarray of shape (n_classes, n_features)
        Class means (without a kernel).
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, Remark 1.1.1 and Exercise 1.10.
    .. [2] R. Tibshirani, T. Hastie, B. Narasimhan, G. Chu, "Diagnosis of multiple cancer types by
       shrunken centroids of gene expression", PNAS 99(10), 2002.

    See Also
    --------
    kernelkit.discriminant_analysis.LinearDiscriminantAnalysis : Class means with a shared
        covariance (the Mahalanobis nearest centroid).
    kernelkit.neighbors.KNeighborsClassifier : The nearest samples instead of the nearest mean.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.linear_model import NearestCentroid
    >>> X, y = load_iris(return_X_y=True)
    >>> round(NearestCentroid().fit(X, y).score(X, y), 2)
    0.93
    """

    _parameter_constraints = {
        "kernel": KERNEL_CONSTRAINT + [None],
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "kernel_params": [dict, None],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, kernel=None, *, gamma=None, degree=3, coef0=1.0, kernel_params=None,
                 n_jobs=None):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.n_jobs = n_jobs

    def _kind(self):
        return "vector" if self.kernel is None else None

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute the class means (or their kernel expansions).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or objects
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : NearestCentroid
        """
        X, y = validate_kernel_data(self, X, y, kind=self._kind())
        check_class_labels(y)
        self._fit_params = record_fit_params(self, refit_free={"n_jobs"})
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"NearestCentroid needs at least two classes; got "
                             f"{self.classes_.size} class.")
        counts = np.bincount(codes)
        # weights: column i of class j weighs 1/n_j
        self._membership = np.zeros((len(codes), self.classes_.size))
        self._membership[np.arange(len(codes)), codes] = 1.0 / counts[codes]
        if self.kernel is None:
            # one BLAS thread below SMALL_BLAS_FLOPS (100 000 x 20, two classes: 2 threads ÷
            # 1 thread of the fit 1.05-1.14, quiet)
            with blas_threads(2.0 * X.shape[0] * X.shape[1] * self.classes_.size,
                              effective_n_threads(self.n_jobs), library="numpy"):
                self.centroids_ = self._membership.T @ X
            return self
        self._kernel = resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                      coef0=self.coef0, kernel_params=self.kernel_params,
                                      n_jobs=self.n_jobs)
        K = self._kernel.training_gram()
        self._centroid_norms = np.einsum("ij,ik,kj->j", self._membership, K, self._membership)
        return self

    def _distances(self, X):
        """Squared distances to the class means, up to a per-sample constant."""
        check_is_fitted(self)
        check_fit_params(self, getattr(self, "_fit_params", None))
        if self.kernel is None:
            X = validate_kernel_data(self, X, reset=False, kind="vector")
            return ((X[:, None, :] - self.centroids_[None]) ** 2).sum(axis=2)
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=len(self._membership))
        self._kernel.n_threads = effective_n_threads(self.n_jobs)
        return self._centroid_norms - 2.0 * self._kernel.cross(X) @ self._membership

    def predict(self, X):
        """Class of the nearest mean."""
        distances = self._distances(X)
        return self.classes_[np.argmin(distances, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        return tags if self.kernel is None else kernel_input_tags(tags, self.kernel)
