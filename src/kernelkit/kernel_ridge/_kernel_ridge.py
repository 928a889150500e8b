"""Kernel ridge regression (Peyré, *Mathematical Foundations of Data Sciences*, ch. 16, §16.3.2;
Mairal & Vert, *Kernel Methods* slides, "Example: kernel ridge regression"; Sangnier,
*Introduction to machine learning*, §1.5.1)."""

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._ridge import positive_definite_solver
from kernelkit.utils._sklearn_compat import Interval, ParameterNamesOncePerClass, _fit_context
from kernelkit.utils._threads import N_JOBS_CONSTRAINT

__all__ = ["KernelRidge", "KernelModelMixin"]


class KernelModelMixin:
    """The kernel parameters and their resolution, shared by the kernel models."""

    _kernel_constraints = {
        "kernel": KERNEL_CONSTRAINT,
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "kernel_params": [dict, None],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def _training_gram(self, X, ridge=0.0):
        """Resolve the kernel on the training input; returns ``K(X, X)``, checked to make
        ``K + ridge·I`` positive semi-definite."""
        self._kernel = resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                      coef0=self.coef0, kernel_params=self.kernel_params,
                                      n_jobs=self.n_jobs, ridge=ridge)
        return self._kernel.training_gram()

    def _test_gram(self, X):
        check_is_fitted(self)
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=self.dual_coef_.shape[0])
        return self._kernel.cross(X)

    def __sklearn_tags__(self):
        return kernel_input_tags(super().__sklearn_tags__(), self.kernel)


class KernelRidge(KernelModelMixin, RegressorMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Kernel ridge regression: :math:`f(x) = \sum_i c_i k(x_i, x) \, (+ b)` minimising
    :math:`\|y - Kc - b\|^2 + \alpha c^\top K c`.

    The solution is :math:`c = (K + \alpha I)^{-1} y` (Peyré, §16.3.2; Mairal & Vert, "Example:
    kernel ridge regression", where :math:`\alpha = n\lambda`): one Cholesky factorisation, and a
    clear error when :math:`K + \alpha I` is not positive definite (a precomputed matrix that is
    not a kernel). The fitted values are :math:`K (K + \alpha I)^{-1} y`; with a linear kernel this
    is ridge regression (matrix inversion lemma). With ``fit_intercept=True`` the unpenalised
    intercept solves :math:`(K + \alpha I) c + b \mathbf 1 = y`, :math:`\mathbf 1^\top c = 0` —
    two solves with the same factor (the slides fit without intercept; Sangnier's
    (P13) with one).

    Parameters
    ----------
    alpha : float, default=1.0
        Regularisation (scikit-learn's ``alpha``).
    kernel : str, callable, "precomputed" or kernel object, default="linear"
        A vector kernel name, ``kernel(X, Y) -> Gram``, a precomputed Gram matrix, or a
        kernelkit string or graph kernel such as ``SpectrumKernel(k=3)``.
    gamma, degree, coef0 : float
        Parameters of the vector kernels (``gamma=None``: ``1 / n_features``).
    kernel_params : dict, default=None
    fit_intercept : bool, default=False
    n_jobs : int, default=None

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_targets)
        ``c``.
    intercept_ : float or ndarray of shape (n_targets,)
    n_features_in_ : int
        For vector input.

    References
    ----------
    .. [1] Peyré, *Mathematical Foundations of Data Sciences*, §16.3.2; Mairal & Vert, *Kernel
       Methods* slides, "Example: kernel ridge regression".
    .. [2] C. Saunders, A. Gammerman, V. Vovk, "Ridge regression learning algorithm in dual
       variables", ICML 1998.

    See Also
    --------
    kernelkit.linear_model.Ridge : The same penalty on a linear model.
    KernelLogisticRegression : The logistic loss in the same feature space.
    kernelkit.svm.SVR : The ε-insensitive loss: sparse dual coefficients.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernel_ridge import KernelRidge
    >>> X = np.linspace(0, 3, 30)[:, None]
    >>> model = KernelRidge(alpha=1e-3, kernel="rbf", gamma=2.0).fit(X, np.sin(X).ravel())
    >>> float(np.round(model.predict([[1.5]])[0], 3))
    0.997
    """

    _parameter_constraints = {
        **KernelModelMixin._kernel_constraints,
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "fit_intercept": ["boolean"],
    }

    def __init__(self, alpha=1.0, *, kernel="linear", gamma=None, degree=3, coef0=1.0,
                 kernel_params=None, fit_intercept=False, n_jobs=None):
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.fit_intercept = fit_intercept
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Solve for the dual coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or objects
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        self : KernelRidge
        """
        X, y = validate_kernel_data(self, X, y, y_numeric=True, multi_output=True)
        y = np.asarray(y, dtype=np.float64)
        K = np.asarray(self._training_gram(X, ridge=self.alpha), dtype=np.float64)
        # the ridge is added to a copy: a precomputed Gram is the caller's own array
        solve = positive_definite_solver(
            K, "K + alpha·I", shift=self.alpha, lower=True,
            advice=f" (alpha={self.alpha}): the Gram matrix is not positive semi-definite; check "
                   "the kernel or increase alpha.")
        if self.fit_intercept:
            ones = solve(np.ones(K.shape[0]))
            solution = solve(y)
            self.intercept_ = solution.sum(axis=0) / ones.sum()
            self.dual_coef_ = solution - np.multiply.outer(ones, self.intercept_)
        else:
            self.dual_coef_ = solve(y)
            self.intercept_ = 0.0 if y.ndim == 1 else np.zeros(y.shape[1])
        self._kernel.check_finite(self.dual_coef_, "dual coefficients")
        return self

    def predict(self, X):
        r""":math:`K(X, X_\mathrm{fit}) c + b`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), (n_samples, n_samples_fit) Gram
            matrix, or objects

        Returns
        -------
        y : ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        return self._test_gram(X) @ self.dual_coef_ + self.intercept_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
