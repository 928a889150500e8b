"""Kernel logistic regression (Peyré, *Mathematical Foundations of Data Sciences*, ch. 16,
§16.4.3 "Kernelized logistic classification"; Mairal & Vert, *Kernel Methods* slides,
"ℓ2-regularized methods in RKHS")."""

import time
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from kernelkit.kernel_ridge._kernel_ridge import KernelModelMixin
from kernelkit.linear_model import LogisticRegression
from kernelkit.utils._kernels import validate_kernel_data
from kernelkit.utils._logistic import binary_loss, softmax
from kernelkit.utils._progress import model_name, report_model, solver_progress, stage
from kernelkit.utils._smooth_solvers import damped_newton, lbfgs
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import blas_threads, lapack_threads
from kernelkit.utils._validation import MAX_INT, check_class_labels

__all__ = ["KernelLogisticRegression"]


class KernelLogisticRegression(KernelModelMixin, ClassifierMixin, ParameterNamesOncePerClass,
                               BaseEstimator):
    r"""Logistic regression in a kernel's feature space.

    :math:`f(x) = \sum_i a_i k(x_i, x) + b` minimising
    :math:`\sum_i \log(1 + e^{-y_i f(x_i)}) + \frac\alpha2 a^\top K a` (the RKHS norm
    :math:`\|f\|^2 = a^\top K a`; Peyré, §16.4.3; Mairal & Vert, "ℓ2-regularized methods in
    RKHS"); :math:`P(y = 1 \mid x) = \sigma(f(x))`. With a linear kernel this is
    :class:`kernelkit.linear_model.LogisticRegression` with :math:`C = 1/\alpha`
    (:math:`w = X^\top a`). Several classes: a softmax model :math:`F = KA + b` with
    :math:`\frac\alpha2 \operatorname{tr}(A^\top K A)` (multinomial) or one binary model per class
    (one-vs-rest).

    ``solver="newton"`` is Newton's method in :math:`(a, b)` — each step a weighted kernel ridge
    regression (IRLS, as the slides solve the linear case) — for two classes and one-vs-rest;
    ``"lbfgs"`` is SciPy's L-BFGS-B. The multinomial model is solved on a square root of the
    Gram matrix by the linear model's solvers (Newton-CG or L-BFGS).

    Parameters
    ----------
    alpha : float, default=1.0
        RKHS regularisation (:math:`1/C`).
    kernel : str, callable, "precomputed" or kernel object, default="rbf"
    gamma, degree, coef0 : float
        Parameters of the vector kernels (``gamma=None``: ``1 / n_features``).
    kernel_params : dict, default=None
    solver : {"newton", "lbfgs"}, default="newton"
    multi_class : {"multinomial", "ovr"}, default="multinomial"
    fit_intercept : bool, default=True
    max_iter : int, default=100
    tol : float, default=1e-6
        On the largest entry of the gradient.
    n_jobs : int, default=None
    verbose : int, default=0
        Progress on stderr: 1, a line for the Gram matrix and per fitted model (iterations,
        objective, time; the multinomial model's from the inner ``LogisticRegression``), and
        lines every two seconds during a long solve; 2, a line per iteration.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    dual_coef_ : ndarray of shape (n_samples, 1) or (n_samples, n_classes)
        ``a`` (one column per binary model or per class).
    intercept_ : ndarray of shape (1,) or (n_classes,)
    objective_ : float
    n_iter_ : ndarray
    n_features_in_ : int
        For vector input.

    References
    ----------
    .. [1] Peyré, *Mathematical Foundations of Data Sciences*, §16.4.3; Mairal & Vert, *Kernel
       Methods* slides, "ℓ2-regularized methods in RKHS", "Kernel logistic regression".
    .. [2] J. Zhu, T. Hastie, "Kernel logistic regression and the import vector machine", Journal of
       Computational and Graphical Statistics 14(1), 2005.

    See Also
    --------
    kernelkit.linear_model.LogisticRegression : The linear model.
    KernelRidge : The squared loss in the same feature space.
    kernelkit.svm.SVC : The hinge loss: sparse dual coefficients.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from kernelkit.kernel_ridge import KernelLogisticRegression
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> model = KernelLogisticRegression(alpha=0.1, kernel="rbf", gamma=2.0).fit(X, y)
    >>> round(model.score(X, y), 2)
    0.99
    """

    _parameter_constraints = {
        **KernelModelMixin._kernel_constraints,
        "alpha": [Interval(Real, 0, None, closed="neither")],
        "solver": [StrOptions({"newton", "lbfgs"})],
        "multi_class": [StrOptions({"multinomial", "ovr"})],
        "fit_intercept": ["boolean"],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "verbose": ["verbose"],
    }

    def __init__(self, alpha=1.0, *, kernel="rbf", gamma=None, degree=3, coef0=1.0,
                 kernel_params=None, solver="newton", multi_class="multinomial",
                 fit_intercept=True, max_iter=100, tol=1e-6, n_jobs=None, verbose=0):
        self.alpha = alpha
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.solver = solver
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _binary_objective(self, K, t):
        n = K.shape[0]
        alpha, with_b = self.alpha, self.fit_intercept

        def objective(theta, order):
            a = theta[:n]
            Ka = K @ a
            z = Ka + (theta[n] if with_b else 0.0)
            loss, r, curvature = binary_loss(z, t)
            value = loss + 0.5 * alpha * float(a @ Ka)
            if order == 0:
                return value
            gradient = K @ r + alpha * Ka
            if with_b:
                gradient = np.r_[gradient, r.sum()]
            if order == 1:
                return value, gradient
            KW = K * curvature[None, :]
            with blas_threads(2.0 * n**3, None, library="numpy"):
                hessian = KW @ K + alpha * K
            if with_b:
                column = KW.sum(axis=1)
                hessian = np.block([[hessian, column[:, None]],
                                    [column[None, :], np.array([[curvature.sum()]])]])
            return value, gradient, hessian
        return objective

    def _fit_binary(self, K, t):
        objective = self._binary_objective(K, t)
        theta = np.zeros(K.shape[0] + int(self.fit_intercept))
        progress = solver_progress(type(self).__name__, self.verbose)
        if self.solver == "newton":
            theta, n_iter, converged = damped_newton(objective, theta, self.max_iter, self.tol,
                                                     progress)
        else:
            theta, n_iter, converged = lbfgs(lambda th: objective(th, 1), theta, self.max_iter,
                                             self.tol, progress)
        return theta, n_iter, converged, objective(theta, 0)

    def _fit_multinomial(self, K, codes):
        """The softmax model through a square root of the Gram matrix: with ``K = ΦΦᵀ``
        (eigenvectors times the roots of the positive eigenvalues) and ``A = Φ⁺ᵀC``, the scores
        are ``ΦC`` and ``tr(AᵀKA) = ‖C‖²``, so it is the linear multinomial model on the
        features ``Φ`` — solved by :class:`~kernelkit.linear_model.LogisticRegression`, without
        the ``K²`` conditioning of a descent in ``A``."""
        with lapack_threads(4.0 * K.shape[0]**3 / 3.0, library="numpy"):   # tridiagonal reduction
            eigenvalues, eigenvectors = np.linalg.eigh(K)
        keep = eigenvalues > K.shape[0] * np.finfo(np.float64).eps * max(eigenvalues.max(), 0.0)
        root = np.sqrt(eigenvalues[keep])
        model = LogisticRegression(
            C=1.0 / self.alpha, fit_intercept=self.fit_intercept, solver=self.solver,
            multi_class="multinomial", max_iter=self.max_iter, tol=self.tol,
            verbose=self.verbose,
        ).fit(eigenvectors[:, keep] * root, codes)
        A = (eigenvectors[:, keep] / root) @ model.coef_.T
        return A, model.intercept_, model.n_iter_, model.objective_

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the dual coefficients.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or objects
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : KernelLogisticRegression
        """
        X, y = validate_kernel_data(self, X, y)
        check_class_labels(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(f"KernelLogisticRegression needs at least two classes; got "
                             f"{n_classes} class.")
        n = len(y)
        with stage(type(self).__name__, self.verbose, f"Gram matrix {n} x {n}"):
            K = self._training_gram(X)
        if n_classes == 2 or self.multi_class == "ovr":
            targets = [codes == 1] if n_classes == 2 else [codes == k for k in range(n_classes)]
            fits = []
            for k, t in enumerate(targets):
                start = time.perf_counter()
                fits.append(self._fit_binary(K, t.astype(np.float64)))
                report_model(self, model_name(self.classes_, k), fits[-1], start)
            self.dual_coef_ = np.stack([fit[0][:n] for fit in fits], axis=1)
            self.intercept_ = np.array([fit[0][n] if self.fit_intercept else 0.0
                                        for fit in fits])
            self.n_iter_ = np.array([fit[1] for fit in fits], dtype=np.int32)
            converged = all(fit[2] for fit in fits)
            self.objective_ = float(sum(fit[3] for fit in fits))
        else:   # the inner LogisticRegression warns if it does not converge, and reports
            self.dual_coef_, self.intercept_, self.n_iter_, self.objective_ = (
                self._fit_multinomial(K, codes))
            converged = True
        self._kernel.check_finite(np.append(self.dual_coef_, self.intercept_),
                                  "dual coefficients and intercepts")
        if not converged:
            warnings.warn(
                f"The {self.solver} solver did not reach tol={self.tol} in max_iter="
                f"{self.max_iter} iterations; increase max_iter or alpha.", ConvergenceWarning,
                stacklevel=2)
        return self

    def decision_function(self, X):
        """``f(x)`` (shape (n_samples,) for two classes) or the class scores."""
        scores = self._test_gram(X) @ self.dual_coef_ + self.intercept_
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict_proba(self, X):
        """Class probabilities: sigmoid, softmax (multinomial) or normalised sigmoids (ovr)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p = expit(scores)
            return np.stack([1.0 - p, p], axis=1)
        if self.multi_class == "multinomial":
            return softmax(scores)
        p = expit(scores)
        return p / p.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The class of largest probability."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]
