"""The primal of the L2-loss (squared hinge) linear SVM, solved by the trust-region Newton method
as liblinear's ``L2R_L2LOSS_SVC`` (Lin, Weng & Keerthi, "Trust region Newton method for
large-scale logistic regression", JMLR 9, 2008, §5 and the squared-hinge function of
liblinear's ``linear.cpp``).

For labels ``y_i = ±1``, costs ``C_i ≥ 0`` and the rows augmented with the constant feature of
the intercept, ``x̄_i = [x_i, bias]``,

    f(w) = ½‖w‖² + Σ_i C_i max(0, 1 − y_i wᵀx̄_i)²,
    ∇f(w) = w + 2 X̄_Iᵀ (C_I y_I (y_I ∘ X̄_I w − 1)),
    ∇²f(w) v = v + 2 X̄_Iᵀ (C_I ∘ X̄_I v),

over the active set ``I = {i : y_i wᵀx̄_i < 1, C_i > 0}``. ``f`` is once differentiable only (the
derivative of the squared hinge has a kink at the margin); the last line is its
generalised Hessian, which makes Newton's method converge (Mangasarian, "A finite Newton method
for classification", 2002). The products are BLAS matrix-vector products on the rows of ``I``,
dense or CSR; the constant feature is never stored (``X̄v = Xv₁:ₙ + bias vₙ₊₁``,
``X̄ᵀu = [Xᵀu, bias Σu]``).
"""

import numpy as np

from kernelkit.svm._trust_region_newton import trust_region_newton

__all__ = ["primal_dual_variables", "squared_hinge_objective", "squared_hinge_primal_solve"]


def squared_hinge_objective(X, y, cost, bias):
    """``value`` and ``derivatives`` of ``f`` above, in the form
    :func:`~kernelkit.svm._trust_region_newton.trust_region_newton` takes: ``value(w) -> (f(w),
    margins y ∘ X̄w)`` and ``derivatives(w, margins) -> (∇f(w), v ↦ ∇²f(w) v)``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSR matrix, float64
    y : ndarray of shape (n_samples,), float64
        Labels ±1.
    cost : ndarray of shape (n_samples,), float64
        ``C_i ≥ 0``; a sample of cost 0 takes no part.
    bias : float
        Value of the constant feature; 0 for no intercept.

    Returns
    -------
    value, derivatives : callable
    """
    n_samples = X.shape[0]

    def value(w):
        margins = y * _scores(X, w, bias)
        slack = np.maximum(1.0 - margins, 0.0)
        return 0.5 * float(w @ w) + float(cost @ (slack * slack)), margins

    def derivatives(w, margins):
        active = np.flatnonzero((margins < 1.0) & (cost > 0.0))
        # the rows of I, copied once per step and read by every product of its CG iterations
        X_active = X if active.size == n_samples else X[active]
        cost_active = cost[active]
        gradient = w + 2.0 * _transposed_product(
            X_active, cost_active * y[active] * (margins[active] - 1.0), bias)

        def hessian_product(v):
            return v + 2.0 * _transposed_product(
                X_active, cost_active * _scores(X_active, v, bias), bias)
        return gradient, hessian_product
    return value, derivatives


def _scores(X, w, bias):
    """``X̄w = Xw₁:ₙ + bias wₙ₊₁``."""
    return X @ w[:-1] + bias * w[-1]


def _transposed_product(X, u, bias):
    """``X̄ᵀu = [Xᵀu, bias Σu]``."""
    return np.append(X.T @ u, bias * u.sum())


def squared_hinge_primal_solve(X, y, cost, bias, tol, max_iter, progress=None):
    """Solve the primal problems of several label vectors on the same rows, one after the other.

    Each problem stops when ``‖∇f(w)‖ ≤ ε ‖∇f(0)‖`` with liblinear's
    ``ε = tol · max(min(n₊, n₋), 1) / n_samples`` (``n₊``, ``n₋`` the samples labelled ±1):
    the relative tolerance shrinks with the smaller class.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSR matrix, float64
    y : ndarray of shape (n_problems, n_samples), float64
        Labels ±1 of each problem.
    cost : ndarray of shape (n_problems, n_samples), float64
        ``C_i ≥ 0`` of each sample in each problem.
    bias : float
        Value of the constant feature; 0 for no intercept.
    tol : float
    max_iter : int
        Most Newton steps per problem.
    progress : callable, optional
        ``progress(problem)``, returning the ``progress(n_iter, f, gradient_norm)`` callback of
        :func:`~kernelkit.svm._trust_region_newton.trust_region_newton` for that problem (or
        None).

    Returns
    -------
    w : ndarray of shape (n_problems, n_features + 1)
        The weights, the constant feature's last.
    n_iter : ndarray of shape (n_problems,), int64
        Newton steps of each problem.
    converged : ndarray of shape (n_problems,), bool
    """
    n_problems, n_samples = y.shape
    w = np.zeros((n_problems, X.shape[1] + 1))
    n_iter = np.zeros(n_problems, dtype=np.int64)
    converged = np.zeros(n_problems, dtype=bool)
    for p in range(n_problems):
        n_positive = int(np.count_nonzero(y[p] > 0))
        relative_tol = tol * max(min(n_positive, n_samples - n_positive), 1) / n_samples
        value, derivatives = squared_hinge_objective(X, y[p], cost[p], bias)
        w[p], n_iter[p], converged[p] = trust_region_newton(
            value, derivatives, w[p], relative_tol, max_iter,
            None if progress is None else progress(p))
    return w, n_iter, converged


def primal_dual_variables(X, y, cost, bias, w):
    """The dual variables of the squared-hinge problems at primal weights ``w``:
    ``α_i = 2 C_i max(0, 1 − y_i wᵀx̄_i)``, the unique ``α`` with ``w = Σ_i y_i α_i x̄_i`` at
    the optimum (the dual's optimality conditions, ``α_i = 0`` or
    ``y_i wᵀx̄_i − 1 + α_i / (2C_i) = 0``).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features) or CSR matrix, float64
    y, cost : ndarray of shape (n_problems, n_samples), float64
    bias : float
    w : ndarray of shape (n_problems, n_features + 1), float64

    Returns
    -------
    alpha : ndarray of shape (n_problems, n_samples)
    """
    margins = y * (np.asarray(X @ w[:, :-1].T).T + bias * w[:, -1:])
    return 2.0 * cost * np.maximum(1.0 - margins, 0.0)
