"""Logistic regression, binary and multinomial (Sangnier, *Introduction to machine learning*,
§1.2; Peyré, *Mathematical Foundations of Data Sciences*, ch. 16, §16.4.2–16.4.3; Mairal & Vert,
*Kernel Methods* slides, "Ridge logistic regression", "Solving ridge logistic regression")."""

import time
import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, svds
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.linear_model._row_space import row_space_reduction
from kernelkit.utils._logistic import (
    binary_loss_derivatives,
    binary_loss_value,
    multinomial_loss,
    softmax,
)
from kernelkit.utils._progress import model_name, report_model, solver_progress
from kernelkit.utils._smooth_solvers import damped_newton, lbfgs
from kernelkit.utils._scatter import scatter_matrix
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _check_sample_weight,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, blas_threads, effective_n_threads
from kernelkit.utils._validation import (
    MAX_INT,
    check_class_labels,
    check_distance_scale,
    check_sparse_input,
    warn_long_factorisation,
)

__all__ = ["LogisticRegression"]


class _InterceptDesign:
    """The design ``[X, 1]`` with the intercept column, as products only: ``X`` (dense or
    sparse) is read in place, never stacked with the column nor densified; the Newton Hessian
    writes the column into its own row blocks (:func:`_weighted_scatter`)."""

    def __init__(self, X):
        self.X = X
        self.shape = (X.shape[0], X.shape[1] + 1)

    def __matmul__(self, theta):
        # [X, 1] θ = X θ_w + θ_b (θ a vector or one column per class)
        return self.X @ theta[:-1] + theta[-1]

    @property
    def T(self):
        return _InterceptDesignTransposed(self.X)


class _InterceptDesignTransposed:
    """``[X, 1]ᵀ``: ``[Xᵀv; Σ_i v_i]``."""

    def __init__(self, X):
        self.X = X

    def __matmul__(self, v):
        return np.concatenate([self.X.T @ v, v.sum(axis=0, keepdims=True)])


def _data(A):
    """The data of a design: ``X`` of ``[X, 1]``, else the design itself."""
    return A.X if isinstance(A, _InterceptDesign) else A


def _stacked(A):
    """A design as a dense array (for the wide-data reduction and gradient descent's step)."""
    if isinstance(A, np.ndarray):
        return A
    if isinstance(A.X, np.ndarray):
        return np.hstack([A.X, np.ones((A.shape[0], 1))])
    return A @ np.eye(A.shape[1])


def _weighted_scatter(A, weights, n_threads):
    """``Aᵀ diag(weights) A`` of a dense design (explicit, by blocked rank-k updates)."""
    return scatter_matrix(_data(A), weights=weights, n_threads=n_threads,
                          ones_column=isinstance(A, _InterceptDesign))


class LogisticRegression(ClassifierMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Logistic regression with an ℓ2 penalty on the coefficients (not on the intercept).

    Binary: :math:`P(y = 1 \mid x) = \sigma(w^\top x + b)`, fitted by minimising
    :math:`C \sum_i s_i \log(1 + e^{-y_i (w^\top x_i + b)}) + \frac12 \|w\|^2`
    (:math:`y_i = \pm 1`, :math:`s_i` the ``sample_weight`` of ``fit``, 1 by default;
    Sangnier, §1.2.1; scikit-learn's objective: :math:`C = 1/(2n\lambda)` for the slides'
    :math:`\frac1n \sum \ell + \lambda \|w\|^2`). Multinomial (Peyré, §16.4.3):
    :math:`P(y = \ell \mid x) = \operatorname{softmax}(Wx + b)_\ell` and
    :math:`C \sum_i s_i [\operatorname{LSE}(Wx_i + b) - (Wx_i + b)_{y_i}] + \frac12 \|W\|^2`,
    computed with the LSE trick (the row maximum subtracted, so scores of 1e4 do not overflow;
    Peyré prints the model with :math:`e^{-\langle x, \beta_\ell \rangle}`, a sign typo: the
    objective is the softmax of :math:`+X\beta`). The solvers minimise these objectives divided
    by :math:`C` (same minimiser), :math:`\sum_i s_i \ell_i + \frac{1}{2C} \|w\|^2`, and
    report that value as ``objective_``. An integer weight counts a sample that many times, a
    zero weight drops it.

    Solvers: ``"newton"`` — Newton's method, each step a weighted ridge regression (IRLS, as the
    slides derive it) for two classes, truncated Newton-CG with exact Hessian-vector products for
    several;
    ``"lbfgs"`` — SciPy's L-BFGS-B; ``"gd"`` — gradient descent with the safe step :math:`1/L`,
    :math:`L = C \sigma_{\max}(\tilde X)^2 / 4 + 1` (:math:`/2` for the softmax), for teaching.

    Sparse ``X`` (explicit feature maps, e.g. of the graph kernels) is never densified: the
    design :math:`\tilde X = [X, \mathbf 1]` is applied as :math:`X\theta_w + \theta_b` and
    :math:`\tilde X^\top v = [X^\top v; \mathbf 1^\top v]`, and Newton's method takes
    Hessian-vector products :math:`\tilde X^\top D \tilde X v` (truncated Newton-CG) for two
    classes as for several. The coefficients are those of the dense copy, to the solver's
    tolerance.

    Without a penalty, linearly separable classes have no finite maximum-likelihood estimate
    (Sangnier, Remark 1.2.6): the objective decreases to 0 along a separating direction. The fit
    then warns (``ConvergenceWarning``) instead of returning large coefficients silently.

    Parameters
    ----------
    C : float, default=1.0
        Inverse regularisation strength.
    penalty : {"l2", None}, default="l2"
    fit_intercept : bool, default=True
    solver : {"newton", "lbfgs", "gd"}, default="newton"
    multi_class : {"multinomial", "ovr"}, default="multinomial"
        Several classes: one softmax model, or one binary model per class against the others.
    max_iter : int, default=100
    tol : float, default=1e-6
        Stop when the largest entry of the gradient is at most ``tol``.
    verbose : int, default=0
        Progress on stderr: 1, a line per fitted model (iterations, objective, time), and
        lines every two seconds during a long solve; 2, a line per iteration.
    n_jobs : int, default=None
        Threads of the dense Newton steps' Hessian :math:`\tilde X^\top D \tilde X`, formed by
        row blocks, each block's product on one BLAS thread (so that a core kept busy by
        another process does not stall a team of BLAS threads); None for every usable CPU. The
        solvers' products with the data run on one BLAS thread below 10⁸ operations, on
        ``n_jobs`` above. The result does not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : ndarray of shape (1,) or (n_classes,)
    objective_ : float
        The minimised objective at ``coef_``, ``intercept_``, in the solvers' scaling: the one
        above divided by ``C`` (same minimiser; it stays the negative log-likelihood as ``C``
        grows). Binary, with :math:`y_i = +1` for ``classes_[1]`` and :math:`-1` otherwise,
        :math:`\sum_i s_i \log(1 + e^{-y_i (w^\top x_i + b)}) + \frac{1}{2C} \|w\|^2`;
        multinomial, :math:`\sum_i s_i [\operatorname{LSE}(Wx_i + b) - (Wx_i + b)_{y_i}] +
        \frac{1}{2C} \|W\|_F^2`; one-vs-rest, the sum of the binary objectives of the classes
        against the rest. With ``penalty=None`` the penalty term is absent (the negative
        log-likelihood); the intercept is never penalised.
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.2.1 and Remark 1.2.6; Peyré,
       *Mathematical Foundations of Data Sciences*, §16.4.2–16.4.3.
    .. [2] J. Nocedal, S. J. Wright, *Numerical Optimization*, 2nd ed., Springer, 2006 (Newton,
       Newton-CG and L-BFGS, the solvers).

    See Also
    --------
    kernelkit.kernel_ridge.KernelLogisticRegression : The same loss in a kernel's feature space.
    kernelkit.svm.LinearSVC : The hinge loss on a linear model.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.preprocessing import StandardScaler
    >>> from kernelkit.linear_model import LogisticRegression
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> X = StandardScaler().fit_transform(X)
    >>> model = LogisticRegression(C=1.0).fit(X, y)
    >>> round(model.score(X, y), 3)
    0.988
    """

    _parameter_constraints = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "penalty": [StrOptions({"l2"}), None],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"newton", "lbfgs", "gd"})],
        "multi_class": [StrOptions({"multinomial", "ovr"})],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "verbose": ["verbose"],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, C=1.0, *, penalty="l2", fit_intercept=True, solver="newton",
                 multi_class="multinomial", max_iter=100, tol=1e-6, verbose=0, n_jobs=None):
        self.C = C
        self.penalty = penalty
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.multi_class = multi_class
        self.max_iter = max_iter
        self.tol = tol
        self.verbose = verbose
        self.n_jobs = n_jobs

    # ------------------------------------------------------------------ objectives
    def _design(self, X):
        return _InterceptDesign(X) if self.fit_intercept else X

    def _penalty_weights(self, n_columns):
        """``1/C`` on the coefficients, 0 on the intercept (divided through by C: the objective
        is ``Σ loss + ‖w‖²/(2C)``)."""
        weights = np.full(n_columns, 0.0 if self.penalty is None else 1.0 / self.C)
        if self.fit_intercept:
            weights[-1] = 0.0
        return weights

    def _binary_objective(self, A, t, r, s, n_threads=1):
        # the scores Aθ and the loss of the last point evaluated: the trial point that Armijo's
        # rule accepts is where Newton's next gradient and Hessian are taken
        last = {"theta": None}

        def scores_and_loss(theta):
            if last["theta"] is None or not np.array_equal(last["theta"], theta):
                z = A @ theta
                last.update(theta=theta.copy(), z=z, loss=binary_loss_value(z, t, s))
            return last["z"], last["loss"]

        def objective(theta, order):
            z, loss = scores_and_loss(theta)
            value = loss + 0.5 * float(r @ theta**2)
            if order == 0:
                return value
            dz, curvature = binary_loss_derivatives(z, t, s)
            gradient = A.T @ dz + r * theta
            if order == 1:
                return value, gradient
            if sp.issparse(_data(A)):
                # sparse: the Hessian as a product, Aᵀ diag(curvature) A v + r v (Newton-CG)
                return value, gradient, lambda v: A.T @ (curvature * (A @ v)) + r * v
            # Σ_i c_i a_i a_iᵀ by blocked rank-k updates: half the products of (A * c)ᵀ A,
            # and no weighted copy of A
            hessian = _weighted_scatter(A, curvature, n_threads)
            hessian.flat[::len(theta) + 1] += r
            return value, gradient, hessian
        return objective

    def _multinomial_objective(self, A, D, r, s):
        shape = (A.shape[1], D.shape[1])

        def objective(flat, order=1):
            Theta = flat.reshape(shape)
            Z = A @ Theta
            loss, dZ = multinomial_loss(Z, D, s)
            value = loss + 0.5 * float(np.sum(r[:, None] * Theta**2))
            if order == 0:
                return value
            gradient = (A.T @ dZ + r[:, None] * Theta).ravel()
            if order == 1:
                return value, gradient
            S = softmax(Z)

            def hessian_product(vector):
                # Σ_i s_i A_iᵀ (diag(S_i) − S_i S_iᵀ) (A_i V): one sample's softmax Hessian each
                V = vector.reshape(shape)
                SM = S * (A @ V)
                return (A.T @ (s[:, None] * (SM - S * SM.sum(axis=1, keepdims=True)))
                        + r[:, None] * V).ravel()
            return value, gradient, hessian_product
        return objective

    def _lipschitz(self, A, r, s, factor):
        # the loss's Hessian is at most factor · Aᵀ diag(s) A
        root = np.sqrt(s)
        if not sp.issparse(_data(A)) or min(A.shape) < 2:
            largest = np.linalg.norm(_stacked(A) * root[:, None], 2)
        else:
            # sparse: the largest singular value from products, diag(√s) A never formed
            weighted = LinearOperator(A.shape, matvec=lambda v: root * (A @ v.ravel()),
                                      rmatvec=lambda u: A.T @ (root * u.ravel()),
                                      dtype=np.float64)
            largest = svds(weighted, k=1, return_singular_vectors=False, random_state=0)[0]
        return factor * largest ** 2 + (r.max() if r.size else 0.0)

    def _gradient_descent(self, objective, theta, L, progress):
        step = 1.0 / L
        for n_iter in range(1, self.max_iter + 1):
            value, gradient = objective(theta)
            if progress is not None:
                progress(n_iter - 1, value, float(np.max(np.abs(gradient))))
            if np.max(np.abs(gradient)) <= self.tol:
                return theta, n_iter - 1, True
            theta = theta - step * gradient
        value, gradient = objective(theta)
        if progress is not None:
            progress(self.max_iter, value, float(np.max(np.abs(gradient))))
        return theta, self.max_iter, bool(np.max(np.abs(gradient)) <= self.tol)

    def _newton(self, make_objective, A, r, n_outputs, progress):
        """Newton's method on ``make_objective(A, r)`` from 0 (``n_outputs`` coefficient
        columns); with more features than samples, on the reduced problem of
        :func:`~kernelkit.linear_model._row_space.row_space_reduction`: the same iterates, at a cost
        that follows ``n_samples`` instead of ``n_features``."""
        if sp.issparse(_data(A)):
            # sparse: Newton-CG on Hessian-vector products with A, whatever its shape
            return damped_newton(make_objective(A, r), np.zeros(A.shape[1] * n_outputs),
                                 self.max_iter, self.tol, progress)
        n_features = A.shape[1] - self.fit_intercept
        # a Hessian (two classes) or the row-space basis (wide data) of min(n, d + 1) rows
        warn_long_factorisation(
            2.0 * max(A.shape) * min(A.shape) ** 2,
            f"Newton's method on {A.shape[0]} samples x {n_features} features",
            "use solver='lbfgs' or reduce the number of features.")
        if n_features <= A.shape[0]:
            return damped_newton(make_objective(A, r), np.zeros(A.shape[1] * n_outputs),
                                 self.max_iter, self.tol, progress)
        reduced, expand = row_space_reduction(_stacked(A), n_features)
        shape = (reduced.shape[1], n_outputs)

        def original(flat):
            return expand(flat.reshape(shape)).ravel()
        # the coefficients share one penalty weight; the intercept keeps its own
        r_reduced = np.r_[np.full(A.shape[0], r[0]), r[n_features:]]
        flat, n_iter, converged = damped_newton(
            make_objective(reduced, r_reduced), np.zeros(reduced.shape[1] * n_outputs),
            self.max_iter, self.tol, progress,
            max_gradient=lambda gradient: float(np.max(np.abs(original(gradient)))))
        return original(flat), n_iter, converged

    def _fit_binary(self, A, t, s, n_threads):
        r = self._penalty_weights(A.shape[1])
        objective = self._binary_objective(A, t, r, s)
        theta = np.zeros(A.shape[1])
        progress = solver_progress(type(self).__name__, self.verbose)
        if self.solver == "newton":
            theta, n_iter, converged = self._newton(
                lambda design, weights: self._binary_objective(design, t, weights, s, n_threads),
                A, r, 1, progress)
        elif self.solver == "lbfgs":
            theta, n_iter, converged = lbfgs(lambda th: objective(th, 1), theta, self.max_iter,
                                             self.tol, progress)
        else:
            theta, n_iter, converged = self._gradient_descent(
                lambda th: objective(th, 1), theta, self._lipschitz(A, r, s, 0.25), progress)
        return theta, n_iter, converged, objective(theta, 0)

    def _fit_multinomial(self, A, D, s):
        r = self._penalty_weights(A.shape[1])
        objective = self._multinomial_objective(A, D, r, s)
        start = np.zeros(A.shape[1] * D.shape[1])
        progress = solver_progress(type(self).__name__, self.verbose)
        if self.solver == "newton":
            flat, n_iter, converged = self._newton(
                lambda design, weights: self._multinomial_objective(design, D, weights, s), A,
                r,
                D.shape[1], progress)
        elif self.solver == "lbfgs":
            flat, n_iter, converged = lbfgs(objective, start, self.max_iter, self.tol, progress)
        else:
            flat, n_iter, converged = self._gradient_descent(
                objective, start, self._lipschitz(A, r, s, 0.5), progress)
        return flat.reshape(A.shape[1], D.shape[1]), n_iter, converged, objective(flat, 0)

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit by the chosen solver.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            A sparse matrix is used through products only (converted to CSR, never densified).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weight :math:`s_i` multiplying each sample's loss; None weighs every
            sample 1. Every class needs a sample of positive weight.

        Returns
        -------
        self : LogisticRegression
        """
        X = check_sparse_input(X)
        X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64)
        check_class_labels(y)
        check_distance_scale(X)
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                             ensure_non_negative=True)
        self.classes_, codes = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(f"LogisticRegression needs at least two classes; got {n_classes} "
                             "class.")
        class_weights = np.bincount(codes, weights=sample_weight, minlength=n_classes)
        if not np.all(class_weights > 0):
            missing = self.classes_[np.flatnonzero(class_weights <= 0)[0]].tolist()
            raise ValueError(
                f"class {missing!r} has no sample of positive weight: its probability would be "
                "fitted to 0 with an infinite intercept. Drop the class from y or give one of "
                "its samples a positive sample_weight.")
        A = self._design(X)
        n_threads = effective_n_threads(self.n_jobs)
        binary = n_classes == 2 or self.multi_class == "ovr"
        n_outputs = 1 if binary else n_classes
        # the solvers' products with the data, A θ and Aᵀ v: one BLAS thread while small
        with blas_threads(2.0 * A.shape[0] * A.shape[1] * n_outputs, n_threads):
            if binary:
                targets = [codes == 1] if n_classes == 2 else [codes == k
                                                               for k in range(n_classes)]
                fits = []
                for k, t in enumerate(targets):
                    start = time.perf_counter()
                    fits.append(self._fit_binary(A, t.astype(np.float64), sample_weight,
                                                 n_threads))
                    report_model(self, model_name(self.classes_, k), fits[-1], start)
                Theta = np.stack([fit[0] for fit in fits], axis=1)
                self.n_iter_ = np.array([fit[1] for fit in fits], dtype=np.int32)
                converged = all(fit[2] for fit in fits)
                self.objective_ = float(sum(fit[3] for fit in fits))
            else:
                D = np.eye(n_classes)[codes]
                start = time.perf_counter()
                Theta, n_iter, converged, self.objective_ = self._fit_multinomial(
                    A, D, sample_weight)
                report_model(self, "multinomial model",
                             (Theta, n_iter, converged, self.objective_), start)
                self.n_iter_ = np.array([n_iter], dtype=np.int32)
        p = X.shape[1]
        self.coef_ = Theta[:p].T.copy()
        self.intercept_ = Theta[p].copy() if self.fit_intercept else np.zeros(Theta.shape[1])
        self._warn(X, codes, sample_weight > 0, converged)
        return self

    def _separates(self, X, codes, weighted):
        """Whether the fitted scores put every sample of positive weight (``weighted``) on its
        class's side; zero-weight samples take no part in the fit, nor in its separability."""
        scores, codes = self._scores(X)[weighted], codes[weighted]
        if scores.shape[1] == 1:
            margins = np.where(codes == 1, 1.0, -1.0) * scores[:, 0]
        else:
            true = scores[np.arange(len(codes)), codes]
            scores_other = scores.copy()
            scores_other[np.arange(len(codes)), codes] = -np.inf
            margins = true - scores_other.max(axis=1)
        return bool(np.all(margins > 0))

    def _warn(self, X, codes, weighted, converged):
        # the scores are needed only without a penalty, where separability is a question
        if self.penalty is None and self._separates(X, codes, weighted):
            warnings.warn(
                "The classes are linearly separable: without a penalty the likelihood has no "
                "finite maximiser (the objective decreases to 0 along a separating direction; "
                "Sangnier, Remark 1.2.6), so the coefficients only reflect max_iter. Use "
                "penalty='l2'.", ConvergenceWarning, stacklevel=3)
        elif not converged:
            warnings.warn(
                f"The {self.solver} solver stopped before the gradient reached tol={self.tol} "
                f"(max_iter={self.max_iter}, or no more progress in floating point): increase "
                "max_iter, scale the features or loosen tol.",
                ConvergenceWarning, stacklevel=3)

    # ------------------------------------------------------------------ predict
    def _scores(self, X):
        return np.asarray(X @ self.coef_.T) + self.intercept_

    def decision_function(self, X):
        r""":math:`w^\top x + b` (shape (n_samples,) for two classes) or the class scores."""
        check_is_fitted(self)
        X = validate_data(self, check_sparse_input(X), reset=False, accept_sparse="csr",
                          dtype=np.float64)
        scores = self._scores(X)
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes): the sigmoid for two classes, the
        softmax (multinomial) or the normalised sigmoids (one-vs-rest) for several."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            p = expit(scores)
            return np.stack([1.0 - p, p], axis=1)
        if self.multi_class == "multinomial":
            return softmax(scores)
        p = expit(scores)
        return p / p.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """The class of largest probability."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
