"""MKL as a group lasso (Bach, Lanckriet & Jordan 2004; Mairal & Vert, "MKL revisited"), solved by
the η-variational alternating scheme, with the Micchelli–Pontil r-norm."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.mkl._kernels import KernelStack, combine, quadratic_forms, validate_mkl_data
from kernelkit.mkl._objective import solve_squared
from kernelkit.utils._progress import iteration_callback, report
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, blas_threads, effective_n_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["GroupLassoMKL"]


class GroupLassoMKL(RegressorMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Multiple kernel ridge regression with the group-lasso penalty, by alternating on
    :math:`\eta`.

    Solves

    .. math::

        \min_{f_1, \dots, f_M} \frac1n \sum_i \Big(\sum_m f_m(x_i) - y_i\Big)^2
        + \lambda \Big(\sum_m \|f_m\|^{2r/(r+1)}\Big)^{(r+1)/r}

    (Mairal & Vert, "MKL revisited", "Extensions (Micchelli et al., 2005)"). For :math:`r = 1`
    the penalty is :math:`\lambda (\sum_m \|f_m\|)^2`, the group lasso, and the problem is MKL on
    the simplex; larger :math:`r` spreads the weights (:math:`r \to \infty`: the uniform sum
    kernel). Through the variational identity
    :math:`(\sum_m a_m)^2 = \min_{\eta \in \Sigma_M} \sum_m a_m^2 / \eta_m` (attained at
    :math:`\eta_m = a_m / \sum_j a_j`) it is :math:`\min_\eta J(K_\eta)` over
    :math:`\{\eta \ge 0, \sum_m \eta_m^r = 1\}`, minimised by alternating:

    1. kernel ridge regression on :math:`K_\eta = \sum_m \eta_m K_m`:
       :math:`\gamma = (K_\eta + n\lambda I)^{-1} y`;
    2. :math:`a_m = \|f_m\| = \eta_m \sqrt{\gamma^\top K_m \gamma}` and
       :math:`\eta_m \propto a_m^{2/(r+1)}`, rescaled so that :math:`\sum_m \eta_m^r = 1` (the
       minimiser of :math:`\sum_m a_m^2 / \eta_m` there).

    Both steps decrease the same jointly convex objective, so :math:`J` never increases.

    Parameters
    ----------
    kernels : list or "precomputed"
        As :class:`SimpleMKL`.
    r : float, default=1.0
        Micchelli–Pontil exponent, :math:`r \ge 1`; 1 is MKL.
    C : float, default=1.0
        Regularisation, :math:`C = 1/(2n\lambda)`.
    max_iter : int, default=500
    tol : float, default=1e-6
        Stop when no weight moves by more than ``tol`` (relative to the largest).
    n_jobs : int, default=None
    verbose : int, default=0
        1: a line on stderr at the end of ``fit`` (iterations, objective, time) and progress
        lines during it (every 2 s once it has lasted 2 s); 2: a line per iteration.

    Attributes
    ----------
    weights_ : ndarray of shape (n_kernels,)
        :math:`\eta` (:math:`\sum_m \eta_m^r = 1`).
    dual_coef_ : ndarray of shape (n_samples,)
        :math:`\gamma`: :math:`f(x) = \sum_j \gamma_j K_\eta(x_j, x)`.
    block_norms_ : ndarray of shape (n_kernels,)
        :math:`\|f_m\|` of each kernel's component.
    objective_history_ : ndarray of shape (n_iter_,)
        :math:`J(K_\eta) = \lambda y^\top \gamma` after each update of :math:`\gamma`
        (non-increasing).
    n_iter_ : int
    stack_ : KernelStack

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "MKL revisited (Bach et al., 2004)",
    "Example: ridge vs LASSO regression", "Extensions (Micchelli et al., 2005)". F. Bach,
    G. Lanckriet, M. Jordan, "Multiple kernel learning, conic duality, and the SMO algorithm",
    ICML 2004. C. Micchelli, M. Pontil, "Learning the kernel function via regularization", JMLR 6,
    2005.

    See Also
    --------
    SimpleMKL, SimpleMKLRegressor : Kernel weights on the simplex by reduced gradient (an SVM inside).
    SumKernel : Fixed weights, as one kernel object.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mkl import GroupLassoMKL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> y = 2.0 * X[:, 0]
    >>> Ks = np.stack([np.outer(X[:, m], X[:, m]) for m in range(3)], axis=-1)   # rank one
    >>> model = GroupLassoMKL("precomputed", C=100.0).fit(Ks, y)
    >>> model.weights_.round(3)   # the lasso view keeps the informative coordinate only
    array([1., 0., 0.])
    """

    _parameter_constraints: dict = {
        "kernels": [list, tuple, StrOptions({"precomputed"})],
        "r": [Interval(Real, 1, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, kernels, *, r=1.0, C=1.0, max_iter=500, tol=1e-6, n_jobs=None,
                 verbose=0):
        self.kernels = kernels
        self.r = r
        self.C = C
        self.max_iter = max_iter
        self.tol = tol
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn the weights and the regression function.

        Parameters
        ----------
        X : array-like, sequence of objects, or ndarray of shape (n_samples, n_samples, n_kernels)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : GroupLassoMKL
        """
        X, y = validate_mkl_data(self, X, y, y_numeric=True)
        self.stack_ = KernelStack(self.kernels, n_jobs=self.n_jobs).fit(X)
        Ks = self.stack_.training_grams_
        lambda_ = 1.0 / (2.0 * y.size * self.C)
        n_kernels = Ks.shape[-1]
        eta = np.full(n_kernels, n_kernels ** (-1.0 / self.r))   # Σ η^r = 1
        start = time.perf_counter()
        # each iteration factorises one n × n matrix: small ones on one BLAS thread (many short
        # multi-threaded calls cost more than they save, and stall when another process takes a
        # core)
        with blas_threads(y.size ** 3 / 3.0, effective_n_threads(self.n_jobs)):
            eta, gamma, history, n_iter = self._iterate(Ks, y, lambda_, eta)
        self.weights_ = eta
        self.dual_coef_ = gamma
        self.block_norms_ = eta * np.sqrt(np.maximum(quadratic_forms(Ks, gamma),
                                                     0.0))
        self.objective_history_ = np.asarray(history)
        self.n_iter_ = n_iter
        if self.verbose:
            report(type(self).__name__, f"{n_iter} iterations, J {history[-1]:.10g}", start)
        return self

    def _iterate(self, Ks, y, lambda_, eta):
        """The fixed-point iterations from the weights ``eta``: ``(eta, gamma, history,
        n_iter)``."""
        history = []
        progress = iteration_callback(
            type(self).__name__, self.verbose, 1,
            lambda n_iter, value: f"iteration {n_iter}: J {value:.10g}")
        for n_iter in range(1, self.max_iter + 1):
            solution = solve_squared(combine(Ks, eta), y, lambda_)
            history.append(solution.value)
            if progress is not None:
                progress(n_iter, solution.value)
            gamma = solution.gamma
            quadratic = np.maximum(quadratic_forms(Ks, gamma), 0.0)
            norms = eta * np.sqrt(quadratic)
            if not np.any(norms > 0):
                break   # y = 0: f = 0 for any weights
            new_eta = norms ** (2.0 / (self.r + 1.0))
            new_eta /= np.sum(new_eta ** self.r) ** (1.0 / self.r)
            moved = np.max(np.abs(new_eta - eta)) <= self.tol * np.max(new_eta)
            eta = new_eta
            if moved:
                break
        solution = solve_squared(combine(Ks, eta), y, lambda_)
        return eta, solution.gamma, history, n_iter

    def predict(self, X):
        r""":math:`f(x) = \sum_j \gamma_j K_\eta(x_j, x)`.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "weights_")
        X = validate_mkl_data(self, X, reset=False)
        return combine(self.stack_.test_grams(X), self.weights_) @ self.dual_coef_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = isinstance(self.kernels, str)
        return tags
