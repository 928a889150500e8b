"""Squared-loss kernel machines without intercept, trained by dual coordinate descent.

:class:`SquaredHingeSVC` (squared hinge, Sangnier's Exam 2023) and :class:`SquaredEpsilonSVR`
(squared ε-insensitive loss, Exam 2022) share one compiled solver, ``kernelkit._core._dual_cd``
(its twin is :func:`kernelkit.reference.dual_cd_solve`), and the plumbing of
:class:`_DualCDBase`: the kernel through ``kernelkit.utils._kernels``, one solver call per dual
problem, and the decision function ``h(x) = Σ_i dual_coef_[i] k(x, X_i)`` evaluated against the
samples with a non-zero coefficient.
"""

import time
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from kernelkit._core._dual_cd import dual_cd_solve
from kernelkit.svm._base import solver_kernel_input
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._progress import iteration_callback, report
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads, min_work_per_thread
from kernelkit.utils._validation import MAX_INT, check_memory_request, kernel_cache_megabytes

__all__ = ["SquaredEpsilonSVR", "SquaredHingeSVC"]

# verbose >= 2: a progress line every this many epochs (verbose 1: lines paced by time).
_REPORT_EVERY = 10

_COMMON_PARAMETERS = """kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", \
"exponential", "min", "sinc", "precomputed"}, callable or kernel object, default="rbf"
        A vector kernel (its rows are computed by the compiled solver when needed), a
        callable ``kernel(X, Y, **kernel_params)`` returning the Gram matrix,
        ``"precomputed"`` (``X`` is the ``(n_samples, n_samples)`` Gram matrix at fit, the
        ``(n_samples_test, n_samples_train)`` one afterwards), or a kernel object such as
        :class:`kernelkit.kernels.WeisfeilerLehmanKernel` fitted on strings or graphs.
    gamma : {"scale", "auto"} or float, default="scale"
        γ of the rbf/poly/sigmoid/laplacian/exponential/sinc kernels.
    degree : int, default=3
        Degree of the polynomial kernel.
    coef0 : float, default=1.0
        Constant of the poly and sigmoid kernels.
    kernel_params : dict, default=None
        Extra keyword arguments of a callable kernel.
    tol : float, default=1e-3
        Stop when the largest projected gradient ``|PG_t|`` of an epoch over all variables is
        at most ``tol`` (the KKT conditions :math:`\\alpha \\ge 0`, :math:`\\nabla D \\ge 0`,
        :math:`\\alpha \\cdot \\nabla D = 0`).
    max_iter : int, default=1000
        Maximum number of epochs (passes over the variables); stopping early warns with a
        ``ConvergenceWarning``.
    shrinking : bool, default=True
        Whether variables at zero whose gradient is large leave the epochs until the others
        converge (then all are checked again).
    cache_size : float, default=200
        Budget of cached kernel rows in MiB (vector kernels; a Gram matrix is read in place).
    random_state : int, RandomState instance or None, default=None
        Seeds the random order of the variables in each epoch.
    n_jobs : int, default=None
        OpenMP threads for long kernel rows and the Gram checks. Results do not depend on it.
    verbose : int, default=0
        Progress on stderr. 1: one line per dual problem solved (epochs, objective, support
        vectors, time), and while a problem takes more than a couple of seconds a line every
        two seconds (epochs, largest projected gradient, active variables); 2: such a line
        every 10 epochs."""

_COMMON_REFERENCES = """.. [1] Sangnier, *Introduction to machine learning*, Exam 2023
       Ex. 4 "Classification à noyau" (squared-hinge SVM without intercept, its dual (P2) and
       coordinate descent) and Exam 2022 Ex. 2 (squared ε-insensitive SVR, dual (P3)).
    .. [2] C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan, "A dual
       coordinate descent method for large-scale linear SVM", ICML 2008 (the update, the
       projected-gradient stopping rule and shrinking; liblinear)."""



class _DualCDBase(ParameterNamesOncePerClass, BaseEstimator):
    """Parameters, kernel resolution, solver calls and the decision function of the two
    estimators (the parameters of :class:`SquaredHingeSVC` are this class's)."""

    _parameter_constraints: dict = {
        "lambda_": [Interval(Real, 0.0, None, closed="neither")],
        "kernel": KERNEL_CONSTRAINT,
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="left")],
        "degree": [Interval(Integral, 0, MAX_INT, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "kernel_params": [dict, None],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "shrinking": ["boolean"],
        "cache_size": [Interval(Real, 0.0, None, closed="neither")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, lambda_=1.0, kernel="rbf", gamma="scale", degree=3, coef0=1.0,
                 kernel_params=None, tol=1e-3, max_iter=1000, shrinking=True, cache_size=200,
                 random_state=None, n_jobs=None, verbose=0):
        self.lambda_ = lambda_
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.tol = tol
        self.max_iter = max_iter
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _prepare(self, X, y, *, classifier):
        """Validate, resolve the kernel; return ``(X, y, solver data)``."""
        X, y = validate_kernel_data(self, X, y, y_numeric=not classifier)
        self.shape_fit_ = X.shape if hasattr(X, "shape") else (len(X),)
        self._kernel = resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                      coef0=self.coef0, kernel_params=self.kernel_params,
                                      n_jobs=self.n_jobs, psd="auto", ridge=self._ridge())
        gram = None if self._kernel.kind == "vector" else self._kernel.training_gram()
        return X, y, solver_kernel_input(self._kernel, self.kernel, gram)

    def _solve(self, data, sign, p, seed, n_threads):
        """One dual problem: ``(α, D(α), epochs, D after each epoch)``."""
        X, sqnorm, gram, diagonal, code = data
        alpha = np.zeros(sign.size)
        # the dual objective after each epoch
        check_memory_request(8.0 * self.max_iter, f"{type(self).__name__}(max_iter="
                             f"{self.max_iter}) objective history", "lower max_iter.")
        history = np.empty(self.max_iter)
        cache_size = kernel_cache_megabytes(self.cache_size, sign.size,
                                            f"{type(self).__name__} on {sign.size} samples")
        start = time.perf_counter()
        progress = iteration_callback(
            type(self).__name__, self.verbose, _REPORT_EVERY,
            lambda n_iter, violation, n_active, objective: (
                f"{sign.size} variables: {n_iter} epochs, objective {objective:.10g}, largest "
                f"projected gradient {violation:.3g} (tol {self.tol:g}), {n_active} active"),
            unit="epochs")
        with blas_limit(1):
            objective, n_iter, status = dual_cd_solve(
                {"X": X, "x_sqnorm": sqnorm, "gram": gram, "diagonal": diagonal,
                 "sign": np.ascontiguousarray(sign, dtype=np.float64),
                 "p": np.ascontiguousarray(p, dtype=np.float64), "kernel": code,
                 "gamma": float(self._kernel.gamma or 0.0), "coef0": float(self.coef0),
                 "degree": float(self.degree), "lambda_": float(self.lambda_)},
                {"tol": float(self.tol), "max_iter": int(self.max_iter), "seed": int(seed),
                 "shrinking": bool(self.shrinking), "cache_size": cache_size,
                 "n_threads": n_threads, "min_work_per_thread": min_work_per_thread(n_threads),
                 "progress": progress, "report_every": 1},
                alpha, history)
        if self.verbose:
            report(type(self).__name__,
                   f"{sign.size} variables: {n_iter} epochs, objective {objective:.10g}, "
                   f"{np.count_nonzero(alpha)} non-zero", start)
        self._kernel.check_finite(alpha, "dual coefficients")
        if status != 0:
            warnings.warn(f"Dual coordinate descent stopped after max_iter={self.max_iter} "
                          f"epochs with a projected gradient above tol={self.tol}; increase "
                          "max_iter or lambda_, or rescale the data.", ConvergenceWarning)
        return alpha, objective, n_iter, history[:n_iter]

    def _keep_support(self, dual_coef):
        """Keep the kernel against the samples with a non-zero coefficient only."""
        coef = dual_coef.reshape(dual_coef.shape[0], -1)
        self.support_ = np.flatnonzero(np.any(coef != 0, axis=1))
        self._support_coef = dual_coef[self.support_]
        self._kernel = self._kernel.subset(self.support_)

    def _decision(self, X):
        check_is_fitted(self)
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=self.shape_fit_[0])
        return self._kernel.cross(X) @ self._support_coef

    def __sklearn_is_fitted__(self):
        # The parameter ``lambda_`` ends with an underscore, so the default test (any attribute
        # ending with "_") would call an unfitted estimator fitted.
        return hasattr(self, "support_")

    def __sklearn_tags__(self):
        tags = kernel_input_tags(super().__sklearn_tags__(), self.kernel)
        tags.input_tags.sparse = False
        return tags


@fill_doc(common_parameters=_COMMON_PARAMETERS, references=_COMMON_REFERENCES)
class SquaredHingeSVC(ClassifierMixin, _DualCDBase):
    r"""Squared-hinge (L2) kernel SVM without intercept, trained by dual coordinate descent.

    The exam's problem [1]_ (the "2" is the squared, L2, hinge): for labels
    :math:`Y_i \in \{-1, +1\}`,

    .. math::

        \text{(P1)} \quad \min_{h \in \mathcal H} \frac\lambda2 \|h\|_{\mathcal H}^2
        + \frac12 \sum_i \max(0, 1 - Y_i h(X_i))^2,

    solved through its dual

    .. math::

        \text{(P2)} \quad \min_{\alpha \ge 0} D(\alpha)
        = \frac{1}{2\lambda} \alpha^\top P \alpha - \mathbf 1^\top \alpha

    with :math:`P = Q + \lambda I`, :math:`Q_{ij} = Y_i Y_j k(X_i, X_j)` (the multipliers
    :math:`\beta` of :math:`\xi \ge 0` vanish at the optimum). Then
    :math:`h = \frac1\lambda \sum_i \alpha_i Y_i k(\cdot, X_i)`, the slacks are
    :math:`\xi_i = \alpha_i`, and the KKT conditions give
    :math:`Y_i h(X_i) > 1 \Rightarrow \alpha_i = 0`. Coordinate descent minimises :math:`D`
    exactly in one :math:`\alpha_i` at a time,
    :math:`\alpha_i \leftarrow \max(0, \alpha_i - \lambda g_i / P_{ii})` with
    :math:`g = P\alpha / \lambda - \mathbf 1` [1]_ [2]_.

    **Relation to C.** Dividing (P1) by :math:`\lambda` gives liblinear's L2-loss SVM
    :math:`\frac12 \|w\|^2 + C \sum_i \max(0, 1 - Y_i w \cdot x_i)^2` with
    :math:`C = 1/(2\lambda)` (:math:`\lambda = 1/(2C)`); its dual variables are
    :math:`\alpha / \lambda` and its dual objective :math:`D / \lambda`. With a linear kernel this
    is
    ``sklearn.svm.LinearSVC(loss="squared_hinge", fit_intercept=False, dual=True, C=1/(2λ))``.
    There is no intercept: add a constant to the kernel (``coef0`` of a polynomial kernel, or a
    constant feature) to learn one.

    More than two classes are handled one-vs-rest: one dual problem per class, ``predict`` takes
    the largest :math:`h_k(x)`.

    Parameters
    ----------
    lambda_ : float, default=1.0
        Regularisation :math:`\lambda > 0` of (P1).
    %(common_parameters)s

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_classes)
        :math:`\alpha_i Y_i / \lambda`, so that
        :math:`h(x) = \sum_i \mathrm{dual\_coef\_}[i] \, k(x, X_i)` (one column per class
        against the rest for more than two classes; positive towards ``classes_[1]`` for two).
    alpha_ : ndarray of shape (n_samples,) or (n_samples, n_classes)
        The dual variables :math:`\alpha \ge 0` of (P2), equal to the slacks :math:`\xi_i`.
    support_ : ndarray of shape (n_SV,)
        Indices of the samples with :math:`\alpha_i > 0` (in some one-vs-rest problem).
    n_iter_ : ndarray of shape (n_problems,)
        Epochs of each dual problem (one for two classes).
    dual_objective_ : ndarray of shape (n_problems,)
        :math:`D(\alpha)` of (P2) at the solution, :math:`= -` the primal optimum of (P1).
    shape_fit_ : tuple
        Shape of the training ``X``.
    n_features_in_ : int
        Number of features (array input).

    See Also
    --------
    SquaredEpsilonSVR : the regression counterpart (squared ε-insensitive loss).
    kernelkit.svm.SVC : the hinge-loss SVM with intercept (SMO).
    kernelkit.reference.dual_cd_solve : the solver's pure-Python twin.

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.preprocessing import StandardScaler
    >>> from kernelkit.svm import SquaredHingeSVC
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X = StandardScaler().fit_transform(X)
    >>> clf = SquaredHingeSVC(lambda_=0.5, kernel="rbf", random_state=0).fit(X, y)
    >>> round(float(clf.score(X, y)), 3)
    0.991
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def _ridge(self):
        # P = Q + λI is the dual's Hessian (times λ): it is convex when K + λI is p.s.d.
        return float(self.lambda_)

    def fit(self, X, y):
        """Fit the classifier.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or sequence of objects
            Training input (see ``kernel``).
        y : array-like of shape (n_samples,)
            Class labels (at least two classes).

        Returns
        -------
        self : SquaredHingeSVC
        """
        X, y, data = self._prepare(X, y, classifier=True)
        check_classification_targets(y)
        self.classes_, encoded = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least two classes; y "
                             f"has one class ({self.classes_[0]!r}).")
        # One seed per problem drawn up front, so the problems do not depend on each other.
        seeds = check_random_state(self.random_state).randint(0, 2**31 - 1, size=self.classes_.size)
        targets = [encoded == 1] if self.classes_.size == 2 else [
            encoded == k for k in range(self.classes_.size)]
        n_threads = effective_n_threads(self.n_jobs)
        alphas, coefs, objectives, n_iters = [], [], [], []
        for target, seed in zip(targets, seeds):
            sign = np.where(target, 1.0, -1.0)
            alpha, objective, n_iter, _ = self._solve(data, sign, -np.ones(sign.size), seed,
                                                      n_threads)
            alphas.append(alpha)
            coefs.append(sign * alpha / self.lambda_)
            objectives.append(objective)
            n_iters.append(n_iter)
        squeeze = (lambda a: a[0]) if len(targets) == 1 else (lambda a: np.column_stack(a))
        self.alpha_ = squeeze(alphas)
        self.dual_coef_ = squeeze(coefs)
        self.dual_objective_ = np.array(objectives)
        self.n_iter_ = np.array(n_iters)
        self._keep_support(self.dual_coef_)
        return self

    def decision_function(self, X):
        """``h(x)``: shape (n_samples,) for two classes (positive towards ``classes_[1]``),
        else (n_samples, n_classes), one-vs-rest scores.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or sequence of objects

        Returns
        -------
        scores : ndarray
        """
        return self._decision(X)

    def predict(self, X):
        """Class of each sample: sign of ``h`` (two classes) or the largest one-vs-rest score.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or sequence of objects

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        scores = self._decision(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]


@fill_doc(common_parameters=_COMMON_PARAMETERS, references=_COMMON_REFERENCES)
class SquaredEpsilonSVR(RegressorMixin, _DualCDBase):
    r"""Squared ε-insensitive kernel SVR without intercept, trained by dual coordinate descent.

    The exam's problem [1]_:

    .. math::

        \text{(P1)} \quad \min_{h \in \mathcal H} \frac\lambda2 \|h\|_{\mathcal H}^2
        + \sum_i \frac12 \max(0, |Y_i - h(X_i)| - \varepsilon)^2

    (a sum, not a mean; no intercept), solved through the exam's dual (P3) after eliminating
    :math:`\delta`:

    .. math::

        \min_{\alpha, \beta \ge 0} \tfrac12 \alpha^\top Q \alpha + \tfrac12 \beta^\top Q \beta
        + \alpha^\top P \beta + \alpha^\top (\varepsilon \mathbf 1 - Y)
        + \beta^\top (\varepsilon \mathbf 1 + Y)

    with :math:`Q = I + K / \lambda`, :math:`P = I - K / \lambda`, by coordinate descent over the
    :math:`2n` variables. Then :math:`h = \frac1\lambda \sum_i (\alpha_i - \beta_i) k(\cdot, X_i)`.
    With :math:`\varepsilon = 0` and :math:`K + \lambda I` invertible, (P1) is kernel ridge
    regression with the unnormalised penalty: :math:`h = \sum_i b_i k(\cdot, X_i)` with
    :math:`b = (K + \lambda I)^{-1} Y` (and :math:`\alpha - \beta = \lambda b`).

    **Relation to C.** Dividing (P1) by :math:`\lambda` gives liblinear's
    :math:`\frac12 \|w\|^2 + C \sum_i \max(0, |Y_i - w \cdot x_i| - \varepsilon)^2` with
    :math:`C = 1/(2\lambda)`: with a linear kernel,
    ``sklearn.svm.LinearSVR(loss="squared_epsilon_insensitive", fit_intercept=False,
    dual=True, C=1/(2λ))``.

    Parameters
    ----------
    lambda_ : float, default=1.0
        Regularisation :math:`\lambda > 0` of (P1).
    epsilon : float, default=0.1
        Width :math:`\varepsilon \ge 0` of the insensitive zone.
    %(common_parameters)s

    Attributes
    ----------
    dual_coef_ : ndarray of shape (n_samples,)
        :math:`(\alpha_i - \beta_i) / \lambda`, so that
        :math:`h(x) = \sum_i \mathrm{dual\_coef\_}[i] \, k(x, X_i)`.
    alpha_ : ndarray of shape (2, n_samples)
        The dual variables :math:`\alpha` (row 0) and :math:`\beta` (row 1).
    support_ : ndarray of shape (n_SV,)
        Indices of the samples with a non-zero coefficient (residual outside the tube).
    n_iter_ : int
        Epochs run.
    dual_objective_ : float
        The minimised dual objective at the solution, :math:`= -` the primal optimum of (P1).
    shape_fit_ : tuple
        Shape of the training ``X``.
    n_features_in_ : int
        Number of features (array input).

    See Also
    --------
    SquaredHingeSVC : the classification counterpart (squared hinge).
    kernelkit.svm.SVR : ε-SVR with the plain ε-insensitive loss and an intercept (SMO).

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.preprocessing import StandardScaler
    >>> from kernelkit.svm import SquaredEpsilonSVR
    >>> X, y = load_diabetes(return_X_y=True)
    >>> X, y = StandardScaler().fit_transform(X), (y - y.mean()) / y.std()
    >>> reg = SquaredEpsilonSVR(lambda_=10.0, epsilon=0.1, random_state=0).fit(X, y)
    >>> round(float(reg.score(X, y)), 3)
    0.482
    """

    _parameter_constraints: dict = {
        **_DualCDBase._parameter_constraints,
        "epsilon": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(self, lambda_=1.0, epsilon=0.1, kernel="rbf", gamma="scale", degree=3,
                 coef0=1.0, kernel_params=None, tol=1e-3, max_iter=1000, shrinking=True,
                 cache_size=200, random_state=None, n_jobs=None, verbose=0):
        super().__init__(lambda_=lambda_, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0,
                         kernel_params=kernel_params, tol=tol, max_iter=max_iter,
                         shrinking=shrinking, cache_size=cache_size, random_state=random_state,
                         n_jobs=n_jobs, verbose=verbose)
        self.epsilon = epsilon

    @_fit_context(prefer_skip_nested_validation=True)
    def _ridge(self):
        # the dual's Hessian is 2K/λ in the direction α − β: K itself must be p.s.d.
        return 0.0

    def fit(self, X, y):
        """Fit the regressor.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or sequence of objects
            Training input (see ``kernel``).
        y : array-like of shape (n_samples,)
            Targets.

        Returns
        -------
        self : SquaredEpsilonSVR
        """
        X, y, data = self._prepare(X, y, classifier=False)
        y = np.asarray(y, dtype=np.float64)
        n = y.size
        sign = np.concatenate([np.ones(n), -np.ones(n)])
        p = np.concatenate([self.epsilon - y, self.epsilon + y])
        seed = check_random_state(self.random_state).randint(0, 2**31 - 1)
        alpha, self.dual_objective_, self.n_iter_, _ = self._solve(
            data, sign, p, seed, effective_n_threads(self.n_jobs))
        self.alpha_ = alpha.reshape(2, n)
        self.dual_coef_ = (self.alpha_[0] - self.alpha_[1]) / self.lambda_
        self._keep_support(self.dual_coef_)
        return self

    def predict(self, X):
        """``h(x)`` for each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix or sequence of objects

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        return self._decision(X)
