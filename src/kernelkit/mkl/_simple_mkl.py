"""SimpleMKL: multiple kernel learning by reduced gradient on the simplex (Rakotomamonjy,
Bach, Canu & Grandvalet 2008; Mairal & Vert, "MKL", "simpleMKL")."""

import time
from numbers import Integral, Real

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.preprocessing import LabelBinarizer
from sklearn.utils.validation import check_is_fitted

from kernelkit.mkl._kernels import KernelStack, combine, quadratic_forms, validate_mkl_data
from kernelkit.mkl._objective import solve_logistic, solve_squared
from kernelkit.svm import SVC
from kernelkit.utils._one_vs_one import unpack_dual_coef
from kernelkit.utils._progress import report
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT
from kernelkit.utils._validation import (
    MAX_INT,
    check_class_labels,
    check_distance_scale,
    check_fit_params,
    record_fit_params,
)

__all__ = ["SimpleMKL", "SimpleMKLRegressor"]


class _Evaluation:
    """``J(η)``, the inner solution and ``K_η`` at one ``η``; ``∂J/∂η`` computed on first use
    (line searches evaluate ``J`` only)."""

    def __init__(self, value, state, K, gradient_of):
        self.value = value
        self.state = state
        self.K = K
        self._gradient_of = gradient_of
        self._gradient = None

    @property
    def gradient(self):
        if self._gradient is None:
            self._gradient = self._gradient_of(self.state)
        return self._gradient


class _BaseSimpleMKL(ParameterNamesOncePerClass, BaseEstimator):
    """The reduced-gradient loop on the simplex, shared by the classifier and the regressor.

    Subclasses implement ``_prepare_targets(y)`` (the binary or real targets of the inner
    problems, whose objectives are summed: the kernel weights are shared),
    ``_evaluate(K, state)`` → ``(J, state)`` (``state`` the previous inner solution, for warm
    starts) and ``_gradient(Ks, state)`` → ``∂J/∂η``.
    """

    _parameter_constraints: dict = {
        "kernels": [list, tuple, StrOptions({"precomputed"})],
        "C": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "inner_tol": [Interval(Real, 0, None, closed="neither")],
        "warm_start": ["boolean"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    # ------------------------------------------------------------------ the MKL loop
    def _fit_weights(self, X, y):
        self.stack_ = KernelStack(self.kernels, n_jobs=self.n_jobs).fit(X)
        Ks = self.stack_.training_grams_
        n_samples, n_kernels = Ks.shape[1], Ks.shape[2]
        self._lambda = 1.0 / (2.0 * n_samples * self.C)
        self._prepare_targets(y)
        d, self._inner_state = self._starting_point(n_kernels)
        current = self._evaluate_at(Ks, d)
        history = [current.value]
        start = time.perf_counter()
        n_iter = 0
        for n_iter in range(1, self.max_iter + 1):
            gap = duality_gap(d, current.gradient)
            if self.verbose:
                report(type(self).__name__,
                       f"iteration {n_iter}: J {current.value:.10g}, gap {gap:.3g}", start)
            if gap <= self.tol * max(abs(current.value), np.finfo(float).tiny):
                break
            d, current = self._reduced_gradient_step(Ks, d, current)
            history.append(current.value)
        self.n_iter_ = n_iter
        self.weights_ = d
        self.objective_history_ = np.asarray(history)
        self.duality_gap_ = duality_gap(d, current.gradient)
        self._solution = self._final_solution(current)
        # what only steers the optimisation may change after fit; the loss, C and the kernels
        # shape the fitted solution, which prediction reads
        self._fit_params = record_fit_params(self, refit_free={
            "max_iter", "tol", "inner_tol", "warm_start", "n_jobs", "verbose"})
        return self

    def _final_solution(self, evaluation):
        return evaluation.state

    def _starting_point(self, n_kernels):
        """The first weights and inner state: with ``warm_start``, a previous fit's weights (on
        as many kernels) and inner solution, so that a refit on the same data stops after one
        inner solve and a refit on changed data (other ``C``, more samples) starts near its
        optimum; else uniform weights and no inner state."""
        previous = getattr(self, "weights_", None)
        if not self.warm_start or previous is None or previous.size != n_kernels:
            return np.full(n_kernels, 1.0 / n_kernels), None
        return previous.copy(), self._previous_inner_state()

    def _previous_inner_state(self):
        return None

    def _evaluate_at(self, Ks, d, K=None):
        """Solve the inner problem on ``K_η = Σ d_m K_m`` (given as ``K`` when the caller has
        it), warm-started when asked."""
        K = combine(Ks, d) if K is None else K
        value, state = self._evaluate(K, self._inner_state)
        if self.warm_start:
            self._inner_state = state
        return _Evaluation(value, state, K, lambda state: self._gradient(Ks, state))

    def _reduced_gradient_step(self, Ks, d, current):
        """One iteration of SimpleMKL's Algorithm 1: descent direction, steps to the boundary
        of the simplex while the objective decreases there (each with a fresh direction at
        the new point), then a line search."""
        g = current.gradient
        direction = descent_direction(d, g)
        if not np.any(direction):
            return d, current
        # Move to the boundary (a weight reaches 0) while J keeps decreasing there, updating
        # the direction (Rakotomamonjy et al. 2008, §3.2). Along a direction D the Gram matrix
        # is K_η + t K_D: one pass over n² entries per trial instead of one per kernel. Each
        # move zeroes a weight, so there are fewer moves than kernels.
        for _ in range(d.size):
            step_max, vanishing = _max_step(d, direction)
            K_direction = combine(Ks, direction)
            d_max = _project(d + step_max * direction, vanishing)
            at_max = self._evaluate_at(Ks, d_max, current.K + step_max * K_direction)
            if at_max.value >= current.value:
                break
            d, current = d_max, at_max
            direction = descent_direction(d, current.gradient)
            if not np.any(direction):
                return d, current
        return self._line_search(Ks, d, current, direction, K_direction, step_max, at_max)

    def _line_search(self, Ks, d, current, direction, K_direction, step_max, at_max):
        """Minimise ``J(d + t · direction)`` over ``t ∈ [0, step_max]``, where ``J(step_max)``
        is known to be no better than ``J(0)``.

        ``J`` is convex along the line. Each trial is the minimiser of the parabola through
        ``J(0)``, ``J'(0)`` and the last trial (the first through ``J(step_max)``) — a Newton
        step on the secant curvature — until two trials agree within 5 %; if that takes more
        than six trials, Brent's bounded method (the paper uses golden-section search) finishes
        on the interval. The best point seen is returned.
        """
        slope = float(current.gradient @ direction)
        if slope >= 0.0:
            return d, current
        best = {"step": 0.0, "evaluation": current}

        def objective(step):
            if step <= 0.0:
                return current.value
            evaluation = self._evaluate_at(Ks, None, current.K + step * K_direction)
            if evaluation.value < best["evaluation"].value:
                best.update(step=step, evaluation=evaluation)
            return evaluation.value

        def parabola_minimum(step, value):
            curvature = 2.0 * (value - current.value - slope * step) / step ** 2
            return min(step_max, -slope / curvature) if curvature > 0 else step_max

        step = parabola_minimum(step_max, at_max.value)
        for _ in range(6):
            following = parabola_minimum(step, objective(step))
            if abs(following - step) <= 0.05 * step:
                break
            step = following
        else:
            minimize_scalar(objective, bounds=(0.0, step_max), method="bounded",
                            options={"xatol": 0.01 * max(best["step"], step), "maxiter": 40})
        if best["step"] == 0.0:
            return d, current
        candidate = np.clip(d + best["step"] * direction, 0.0, None)
        return candidate / candidate.sum(), best["evaluation"]

    # ------------------------------------------------------------------ prediction
    def _test_gram(self, X):
        check_is_fitted(self, "weights_")
        check_fit_params(self, self._fit_params)
        X = validate_mkl_data(self, X, reset=False)
        return combine(self.stack_.test_grams(X), self.weights_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = isinstance(self.kernels, str)
        return tags


class SimpleMKL(ClassifierMixin, _BaseSimpleMKL):
    r"""SimpleMKL classifier: learns the weights :math:`\eta` of
    :math:`K_\eta = \sum_m \eta_m K_m` on the simplex.

    Multiple kernel learning (Lanckriet et al. 2004) minimises :math:`J(K_\eta)` over
    :math:`\eta \in \Sigma_M = \{\eta \ge 0, \sum_m \eta_m = 1\}`, where :math:`J` is the optimal
    regularised risk of a single-kernel learner (Mairal & Vert, "Learning the kernel", "MKL").
    SimpleMKL (Rakotomamonjy et al. 2008) does it by reduced gradient: the gradient is
    :math:`\partial J / \partial \eta_m = -\lambda \gamma^{*\top} K_m \gamma^*` from the inner
    solution :math:`\gamma^*` (Mairal & Vert, "simpleMKL"); the direction is projected on the
    simplex relative to the largest weight; the step first follows the direction to the boundary of
    the simplex while :math:`J` decreases, then a line search finishes. Every evaluation of
    :math:`J` is one inner fit, warm-started from the previous solution. It stops when the duality
    gap :math:`\sum_m \eta_m g_m - \min_m g_m` (:math:`g = \partial J / \partial \eta`) falls below
    :math:`\mathrm{tol} \cdot J`, which is also the condition that the gradients are equal on the
    kernels kept and larger on the others.

    Multiclass problems share one :math:`\eta` across the binary problems (their objectives are
    summed): the one-vs-one problems of :class:`kernelkit.svm.SVC` for the hinge loss, one-vs-rest
    for the squared and logistic losses.

    Parameters
    ----------
    kernels : list or "precomputed"
        The kernels to combine: kernel objects (:class:`kernelkit.kernels.SpectrumKernel`,
        :class:`kernelkit.kernels.WeisfeilerLehmanKernel`, :class:`kernelkit.kernels.VectorKernel`,
        ...), vector-kernel names or callables — each cloned and fitted on the training
        input, and each Gram matrix computed once. ``"precomputed"``: ``X`` is the stack of Gram
        matrices, shape ``(n_samples, n_samples, n_kernels)`` at fit and ``(n_samples_test,
        n_samples_train, n_kernels)`` at prediction — kernels last, so that scikit-learn's
        cross-validation splits it as a precomputed Gram matrix.
    loss : {"hinge", "squared", "logistic"}, default="hinge"
        Inner learner: kernelkit's SVC (hinge, with intercept, as in SimpleMKL), kernel ridge
        regression on ±1 targets (squared), or kernel logistic regression (logistic).
    C : float, default=1.0
        Regularisation of the inner learner, :math:`C = 1/(2n\lambda)` in the
        :math:`\frac1n \sum \mathrm{loss} + \lambda \|f\|^2` scaling of Mairal & Vert (for the SVM,
        its usual ``C``).
    max_iter : int, default=100
        Reduced-gradient iterations.
    tol : float, default=1e-3
        Stop when the duality gap is at most ``tol`` times :math:`J`.
    inner_tol : float, default=1e-6
        Tolerance of the inner SVM (KKT gap); the gradients need an accurate :math:`\gamma^*`.
    warm_start : bool, default=True
        Start every inner fit from the previous solution (the reason SimpleMKL is fast), and a
        refit from the previous fit's weights and inner solution (a refit on the same data
        stops after one inner solve; after a change of ``C`` it starts near the new optimum).
        False starts every fit from uniform weights and every inner fit from scratch.
    n_jobs : int, default=None
        Threads of the Gram computations and of the inner SVM.
    verbose : int, default=0
        One line per iteration on stderr (objective, duality gap, time).

    Attributes
    ----------
    weights_ : ndarray of shape (n_kernels,)
        :math:`\eta`, on the simplex.
    objective_history_ : ndarray of shape (n_iter_ + 1,)
        :math:`J(\eta)` at the start and after every iteration (non-increasing).
    duality_gap_ : float
        At the returned weights.
    n_iter_ : int
    classes_ : ndarray of shape (n_classes,)
    stack_ : KernelStack
        The fitted kernels and their training Gram matrices.
    estimator_ : SVC
        The inner SVM fitted on :math:`K_\eta` (hinge loss only).

    See Also
    --------
    SumKernel : the uniform (or fixed) weighted sum.
    GroupLassoMKL : the group-lasso view, with the Micchelli–Pontil r-norm.

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "Learning the kernel", "MKL (Lanckriet et
    al., 2004)", "simpleMKL". A. Rakotomamonjy, F. Bach, S. Canu, Y. Grandvalet, "SimpleMKL",
    JMLR 9, 2008. G. Lanckriet, N. Cristianini, P. Bartlett, L. El Ghaoui, M. Jordan,
    "Learning the kernel matrix with semidefinite programming", JMLR 5, 2004.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import rbf_kernel
    >>> from kernelkit.mkl import SimpleMKL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2))
    >>> y = (X[:, 0] > 0).astype(int)
    >>> noise = rng.normal(size=(60, 5))     # Mairal & Vert's K_RND: random numbers, no information
    >>> Ks = np.stack([rbf_kernel(X, gamma=0.5), noise @ noise.T], axis=-1)
    >>> mkl = SimpleMKL("precomputed", C=1.0).fit(Ks, y)
    >>> bool(mkl.weights_[0] > 0.9), round(float(mkl.score(Ks, y)), 2)
    (True, 0.98)
    """

    _parameter_constraints: dict = {
        **_BaseSimpleMKL._parameter_constraints,
        "loss": [StrOptions({"hinge", "squared", "logistic"})],
    }

    def __init__(self, kernels, *, loss="hinge", C=1.0, max_iter=100, tol=1e-3, inner_tol=1e-6,
                 warm_start=True, n_jobs=None, verbose=0):
        self.kernels = kernels
        self.loss = loss
        self.C = C
        self.max_iter = max_iter
        self.tol = tol
        self.inner_tol = inner_tol
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        r"""Learn the kernel weights and the classifier on :math:`K_\eta`.

        Parameters
        ----------
        X : array-like, sequence of objects, or ndarray of shape (n_samples, n_samples, n_kernels)
            Training input of the kernels (the Gram stack for ``kernels="precomputed"``).
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : SimpleMKL
        """
        X, y = validate_mkl_data(self, X, y)
        check_class_labels(y)
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"The number of classes has to be greater than one; got "
                             f"{self.classes_.size} class.")
        return self._fit_weights(X, y)

    def _prepare_targets(self, y):
        if self.loss == "hinge":
            self._y = y
            return
        targets = LabelBinarizer(neg_label=-1, pos_label=1).fit(self.classes_).transform(y)
        self._y = targets.astype(np.float64).T    # one row per one-vs-rest problem

    def _evaluate(self, K, state):
        if self.loss == "hinge":
            svc = state.svc if state is not None else SVC(
                kernel="precomputed", tol=self.inner_tol, warm_start=self.warm_start,
                n_jobs=self.n_jobs)
            svc.set_params(C=self.C, tol=self.inner_tol, n_jobs=self.n_jobs).fit(K, self._y)
            # Rakotomamonjy's J: the SVM dual optimum, Σα − ½αᵀQα summed over the pairs. The
            # solution is copied: the same SVC is refitted (warm) at the next evaluation.
            self._latest_solution = _SVMSolution(svc)
            return -float(svc.dual_objective_.sum()), self._latest_solution
        solutions = []
        for t, target in enumerate(self._y):
            if self.loss == "squared":
                solutions.append(solve_squared(K, target, self._lambda))
            else:
                solutions.append(solve_logistic(K, target, self._lambda,
                                                None if state is None else state[t].gamma))
        return sum(solution.value for solution in solutions), solutions

    def _previous_inner_state(self):
        solution = getattr(self, "_solution", None)
        if self.loss == "hinge":
            # the SVC warm-starts only the one-vs-one problems whose samples and bounds are
            # unchanged; the others start from α = 0
            return _SVMSolution(solution) if isinstance(solution, SVC) else None
        if (isinstance(solution, list) and len(solution) == len(self._y)
                and all(s.gamma.shape == self._y[t].shape for t, s in enumerate(solution))):
            return solution
        return None

    def _gradient(self, Ks, state):
        if self.loss == "hinge":
            return -0.5 * state.quadratic_forms(Ks)
        return sum(solution.gradient(self._lambda, Ks) for solution in state)

    def _final_solution(self, evaluation):
        if self.loss != "hinge":
            return evaluation.state
        # Cold starts fit one SVC per evaluation, which stays fitted on its Gram matrix. The
        # shared SVC of warm starts may since have been refitted at a trial point of a line
        # search: then refit it on the Gram matrix of the returned weights (kept with their
        # evaluation; from a warm start, a few steps) so that it predicts with them.
        svc = evaluation.state.svc
        if self.warm_start and evaluation.state is not self._latest_solution:
            svc.set_params(warm_start=True).fit(evaluation.K, self._y)
        return svc

    def decision_function(self, X):
        """Scores: the SVM's decision function, or one score per class (one-vs-rest).

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        K = self._test_gram(X)
        if self.loss == "hinge":
            return self._solution.decision_function(K)
        scores = np.column_stack([K @ s.gamma + s.intercept for s in self._solution])
        return scores[:, 0] if self.classes_.size == 2 else scores

    def predict(self, X):
        """Class labels.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        if self.loss == "hinge":
            K = self._test_gram(X)
            return self._solution.predict(K)
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    @property
    def estimator_(self):
        check_is_fitted(self, "weights_")
        if self.loss != "hinge":
            raise AttributeError("estimator_ exists for loss='hinge' only.")
        return self._solution


class SimpleMKLRegressor(RegressorMixin, _BaseSimpleMKL):
    r"""SimpleMKL for regression: the kernel weights of kernel ridge regression.

    The inner learner is kernel ridge regression,
    :math:`J(K) = \lambda y^\top (K + n\lambda I)^{-1} y` in closed form
    (Mairal & Vert, D22); the weights follow :class:`SimpleMKL`'s reduced gradient.

    Parameters
    ----------
    kernels, C, max_iter, tol, warm_start, n_jobs, verbose
        As :class:`SimpleMKL` (:math:`C = 1/(2n\lambda)`; ``inner_tol`` and ``warm_start`` are
        unused: the inner problem is solved exactly).
    inner_tol : float, default=1e-6
    warm_start : bool, default=True

    Attributes
    ----------
    weights_, objective_history_, duality_gap_, n_iter_, stack_
        As :class:`SimpleMKL`.
    dual_coef_ : ndarray of shape (n_samples,)
        :math:`\gamma^*`: :math:`f(x) = \sum_j \gamma^*_j K_\eta(x_j, x)`.

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "Learning the kernel", "simpleMKL". A. Rakotomamonjy,
    F. Bach, S. Canu, Y. Grandvalet, "SimpleMKL", JMLR 9, 2008 (§5, regression).

    See Also
    --------
    SimpleMKL : The classifier.
    GroupLassoMKL : The same problem by its group-lasso form (squared loss, block coordinate descent).

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import VectorKernel
    >>> from kernelkit.mkl import SimpleMKLRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(80, 2))
    >>> y = np.sin(3 * X[:, 0])
    >>> mkl = SimpleMKLRegressor([VectorKernel("rbf", gamma=g) for g in (0.1, 2.0, 50.0)],
    ...                          C=10.0).fit(X, y)
    >>> bool(np.isclose(mkl.weights_.sum(), 1.0)), bool(mkl.score(X, y) > 0.95)
    (True, True)
    """

    def __init__(self, kernels, *, C=1.0, max_iter=100, tol=1e-3, inner_tol=1e-6,
                 warm_start=True, n_jobs=None, verbose=0):
        self.kernels = kernels
        self.C = C
        self.max_iter = max_iter
        self.tol = tol
        self.inner_tol = inner_tol
        self.warm_start = warm_start
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        r"""Learn the kernel weights and the regression function on :math:`K_\eta`.

        Parameters
        ----------
        X : array-like, sequence of objects, or ndarray of shape (n_samples, n_samples, n_kernels)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : SimpleMKLRegressor
        """
        X, y = validate_mkl_data(self, X, y, y_numeric=True)
        # J = λ yᵀ(K + nλI)⁻¹y must stay finite
        check_distance_scale(np.asarray(y, dtype=np.float64).reshape(-1, 1), name="y")
        self._fit_weights(X, y)
        self.dual_coef_ = self._solution.gamma
        return self

    def _prepare_targets(self, y):
        self._y = y

    def _evaluate(self, K, state):
        solution = solve_squared(K, self._y, self._lambda)
        return solution.value, solution

    def _gradient(self, Ks, state):
        return state.gradient(self._lambda, Ks)

    def predict(self, X):
        r""":math:`f(x) = \sum_j \gamma^*_j K_\eta(x_j, x)`.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        return self._test_gram(X) @ self.dual_coef_


# ---------------------------------------------------------------------- simplex geometry

def duality_gap(weights, gradient):
    """``Σ η_m g_m − min_m g_m`` (≥ 0; 0 exactly at the MKL optimum).

    The MKL dual is ``max_γ −R*(−2λγ) − λ max_m γᵀK_mγ``; at the inner solution ``γ*`` of
    ``K_η`` its gap to ``J(η)`` is ``λ (max_m γ*ᵀK_mγ* − Σ η_m γ*ᵀK_mγ*)``, which is the
    expression above with ``g_m = −λ γ*ᵀK_mγ*`` (Rakotomamonjy et al. 2008, eq. 16).
    """
    return float(weights @ gradient - gradient.min())


def descent_direction(weights, gradient):
    """SimpleMKL's reduced-gradient direction on the simplex (Rakotomamonjy et al., eq. 13).

    Relative to the largest weight ``μ``: ``D_m = g_μ − g_m`` for the other weights, except those
    at 0 whose reduced gradient is positive (they stay at 0), and ``D_μ = −Σ_{m≠μ} D_m`` so that
    the weights keep summing to 1.
    """
    mu = int(np.argmax(weights))
    direction = gradient[mu] - gradient
    direction[(weights <= 0.0) & (direction < 0.0)] = 0.0
    direction[mu] = 0.0
    direction[mu] = -direction.sum()
    return direction


def _max_step(weights, direction):
    """Largest step along a (non-zero, zero-sum) ``direction`` keeping the weights
    non-negative, and the weight that reaches 0 first."""
    decreasing = direction < 0.0
    ratios = np.full(weights.shape, np.inf)
    ratios[decreasing] = -weights[decreasing] / direction[decreasing]
    vanishing = int(np.argmin(ratios))
    return float(ratios[vanishing]), vanishing


def _project(weights, vanishing):
    """Set the weight that reached the boundary to exactly 0 and renormalise rounding."""
    weights = np.clip(weights, 0.0, None)
    weights[vanishing] = 0.0
    return weights / weights.sum()


class _SVMSolution:
    """The one-vs-one coefficients of a fitted precomputed SVC (copied), and the SVC itself
    for the next warm start."""

    def __init__(self, svc):
        self.svc = svc
        self.support = svc.support_.copy()
        # β_p = y ∘ α of each pair p, one column per pair
        self.betas = unpack_dual_coef(svc.dual_coef_, svc.n_support_)

    def quadratic_forms(self, Ks):
        """``Σ_p β_pᵀ K_m β_p`` for every Gram matrix of ``Ks`` (read on the support
        vectors only)."""
        betas = np.zeros((Ks.shape[0], self.betas.shape[1]))
        betas[self.support] = self.betas
        return quadratic_forms(Ks, betas)
