"""The logistic and softmax losses, with their gradients, shared by the linear and kernel
logistic regressions (Sangnier, *Introduction to machine learning*, §1.2.1; Peyré, ch. 16,
§16.4.2–16.4.3; Mairal & Vert, *Kernel Methods* slides, "Ridge logistic regression").

Scores ``z = f(x)``; binary targets ``t ∈ {0, 1}`` (``y = 2t − 1``); ``log(1 + e^{−yz})`` is
computed as ``logaddexp(0, −yz)`` and the softmax loss ``LSE(z) − z_y`` with the row maximum
subtracted first (the "LSE trick"), so no entry overflows even at ``|z| ~ 1e4``.
"""

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve, lstsq, solve
from scipy.optimize import minimize
from scipy.special import expit, log_softmax, logsumexp

from kernelkit.utils._conjugate_gradients import conjugate_gradients
from kernelkit.utils._progress import iteration_callback, report

__all__ = ["binary_loss", "damped_newton", "lbfgs", "model_name", "multinomial_loss",
           "report_model", "row_space_reduction", "softmax", "solver_progress"]

# L-BFGS-B also stops when the objective decreases by less than ftol relatively (SciPy: 2e-9,
# far above the gradient tolerance); as scikit-learn, only 64 machine epsilons.
_FTOL = 64 * np.finfo(np.float64).eps


def binary_loss(z, t, sample_weight=None):
    """``Σ_i s_i log(1 + e^{−y_i z_i})`` and its derivative ``s (p − t)`` with respect to ``z``
    (``p = σ(z)``), and the curvature ``s p (1 − p)``; the weights ``s`` are 1 when
    ``sample_weight`` is None."""
    y = 2.0 * t - 1.0
    p = expit(z)
    losses = np.logaddexp(0.0, -y * z)
    if sample_weight is None:
        return float(np.sum(losses)), p - t, p * (1.0 - p)
    return (float(sample_weight @ losses), sample_weight * (p - t),
            sample_weight * (p * (1.0 - p)))


def softmax(Z):
    """Row-wise ``e^{Z} / Σ e^{Z}`` (LSE trick)."""
    return np.exp(log_softmax(Z, axis=1))


def multinomial_loss(Z, D, sample_weight=None):
    """``Σ_i s_i (LSE(Z_i) − ⟨Z_i, D_i⟩)`` (``D`` one-hot) and its gradient
    ``s (softmax(Z) − D)``, row by row; the weights ``s`` are 1 when ``sample_weight`` is
    None."""
    if sample_weight is None:
        return float(np.sum(logsumexp(Z, axis=1)) - np.sum(Z * D)), softmax(Z) - D
    losses = logsumexp(Z, axis=1) - np.sum(Z * D, axis=1)
    return float(sample_weight @ losses), sample_weight[:, None] * (softmax(Z) - D)


_ARMIJO = 1e-4


def solver_progress(label, verbose):
    """The ``progress(n_iter, objective, max_gradient)`` callback of the solvers below (None
    when ``verbose`` is 0): lines paced by time at 1, one per iteration at 2."""
    def describe(n_iter, value, max_gradient):
        gradient = "" if max_gradient is None else f", max |gradient| {max_gradient:.3g}"
        return f"iteration {n_iter}: objective {value:.10g}{gradient}"
    return iteration_callback(label, verbose, 1, describe)


def model_name(classes, k):
    """What the ``k``-th binary model of a classifier separates: its two classes, or one
    class from the rest."""
    return "binary model" if len(classes) == 2 else f"class {classes[k]} against the rest"


def report_model(estimator, name, fit, start):
    """At ``estimator.verbose >= 1``, the line of one fitted model ``fit = (theta, n_iter,
    converged, objective)`` solved by ``estimator.solver`` since ``start``."""
    if estimator.verbose:
        _, n_iter, converged, objective = fit
        report(type(estimator).__name__,
               f"{name}: {n_iter} {estimator.solver} iterations, objective {objective:.10g}"
               + ("" if converged else ", not converged"), start)


def lbfgs(value_and_gradient, theta, max_iter, tol, progress=None):
    """SciPy's L-BFGS-B on ``value_and_gradient(theta) -> (value, gradient)``, stopped at
    ``‖g‖∞ ≤ tol``; ``progress(n_iter, value, None)`` after each iteration. Returns ``(theta,
    n_iter, converged)``."""
    callback = None
    if progress is not None:
        count = iter(range(1, max_iter + 1))

        def callback(intermediate_result):
            progress(next(count), intermediate_result.fun, None)
    result = minimize(value_and_gradient, theta, jac=True, method="L-BFGS-B", callback=callback,
                      options={"maxiter": max_iter, "gtol": tol, "ftol": _FTOL})
    converged = bool(np.max(np.abs(value_and_gradient(result.x)[1])) <= tol)
    return result.x, result.nit, converged


def _max_abs(gradient):
    return float(np.max(np.abs(gradient)))


def damped_newton(loss_and_derivatives, theta, max_iter, tol, progress=None, max_gradient=None,
                  metric=None):
    """Damped Newton's method on a convex objective.

    ``loss_and_derivatives(theta, order)`` returns the objective, then (``order >= 1``) the
    gradient and (``order == 2``) the Hessian: a matrix (the step then solves ``H Δ = g`` by
    Cholesky, least squares if H is singular) or a function ``v ↦ Hv`` (truncated conjugate
    gradients, to a relative residual ``min(½, √‖g‖)``: Newton-CG). The step is halved until
    Armijo's condition holds. Returns ``(theta, n_iter, converged)``; converged when
    ``max_gradient(g) ≤ tol`` (default ``‖g‖∞``; a reparametrised problem passes the norm of
    the gradient in the original coordinates). ``progress(n_iter, value, max_gradient)`` is
    called at each evaluation (``n_iter`` steps taken).

    With ``metric``, a function ``v ↦ Kv`` of a symmetric p.s.d. ``K``, the method runs in
    ``K``'s geometry, as the dual of a kernel model (``θ = γ``, scores ``Kγ``): the gradient
    returned is ``g`` with ``∇ = K g`` and the Hessian ``M`` with ``∇² = K M`` (not symmetric in
    general). The step solves ``M Δ = g`` (LU), which stays well posed when ``K`` is singular
    and the Hessian is not invertible; Armijo's slope is ``(K g)ᵀΔ``, and convergence is
    tested on ``g``.
    """
    norm = _max_abs if max_gradient is None else max_gradient
    for n_iter in range(1, max_iter + 1):
        value, gradient, hessian = loss_and_derivatives(theta, 2)
        largest = norm(gradient)
        if progress is not None:
            progress(n_iter - 1, value, largest)
        if largest <= tol:
            return theta, n_iter - 1, True
        if metric is not None:
            step = solve(hessian, gradient, check_finite=False)
        elif callable(hessian):
            norm_gradient = np.linalg.norm(gradient)
            step = conjugate_gradients(hessian, gradient,
                                       min(0.5, np.sqrt(norm_gradient)) * norm_gradient)[0]
        else:
            try:
                step = cho_solve(cho_factor(hessian, check_finite=False), gradient,
                                 check_finite=False)
            except LinAlgError:
                step = lstsq(hessian, gradient, check_finite=False)[0]
        slope = float((gradient if metric is None else metric(gradient)) @ step)
        # Armijo's condition, up to the rounding of the objective: near the optimum the decrease
        # is below it and the full Newton step is taken
        slack = 1e-12 * max(abs(value), 1.0)
        t = 1.0
        while (t > 1e-12 and loss_and_derivatives(theta - t * step, 0)
               > value - _ARMIJO * t * slope + slack):
            t *= 0.5
        theta = theta - t * step
    value, gradient = loss_and_derivatives(theta, 1)
    largest = norm(gradient)
    if progress is not None:
        progress(max_iter, value, largest)
    return theta, max_iter, bool(largest <= tol)


def row_space_reduction(A, n_penalised):
    """Reparametrise a problem whose loss depends on ``θ`` through ``Aθ`` and whose penalty is
    ``λ‖θ_P‖²`` on the first ``n_penalised`` coordinates ``P`` only, when those outnumber the
    rows of ``A`` (wide data).

    With ``A_P = Z Bᵀ`` (thin QR of ``A_Pᵀ``: ``B`` of shape (n_penalised, n_rows) orthonormal,
    ``Z = A_P B``) and ``θ_P = B η``, the loss and penalty are the same functions of ``η``
    (``‖Bη‖ = ‖η‖``) and the gradient maps as ``g_P = B g_η``; a minimiser, and every Newton
    or conjugate-gradient iterate from 0, lies in ``B``'s span (the gradient does, and the
    Hessian is ``λI`` on its complement). Solving in the reduced coordinates therefore gives
    the same iterates at O(n_rows² n_penalised) instead of O(n_penalised³) per Newton step.

    Returns
    -------
    reduced : ndarray of shape (n_rows, n_rows + n_free)
        ``[Z, A_free]``, the design of the reduced problem (free coordinates kept).
    expand : callable
        Maps reduced coordinates of shape (n_rows + n_free, ...) (a parameter or a gradient)
        to the original ones, shape (n_columns, ...).
    """
    basis, triangle = np.linalg.qr(A[:, :n_penalised].T)
    k = basis.shape[1]

    def expand(values):
        return np.concatenate([basis @ values[:k], values[k:]])
    return np.hstack([triangle.T, A[:, n_penalised:]]), expand

