"""The logistic and softmax losses, with their gradients, shared by the linear and kernel
logistic regressions (Sangnier, *Introduction to machine learning*, §1.2.1; Peyré, ch. 16,
§16.4.2–16.4.3; Mairal & Vert, *Kernel Methods* slides, "Ridge logistic regression").

Scores ``z = f(x)``; binary targets ``t ∈ {0, 1}`` (``y = 2t − 1``); ``log(1 + e^{−yz})`` is
computed as ``logaddexp(0, −yz)`` and the softmax loss ``LSE(z) − z_y`` with the row maximum
subtracted first (the "LSE trick"), so no entry overflows even at ``|z| ~ 1e4``.
"""

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve, lstsq
from scipy.special import expit, log_softmax, logsumexp

__all__ = ["binary_loss", "damped_newton", "multinomial_loss", "softmax"]


def binary_loss(z, t):
    """``Σ_i log(1 + e^{−y_i z_i})`` and its derivative ``p − t`` with respect to ``z``
    (``p = σ(z)``), and the curvature ``p (1 − p)``."""
    y = 2.0 * t - 1.0
    p = expit(z)
    return float(np.sum(np.logaddexp(0.0, -y * z))), p - t, p * (1.0 - p)


def softmax(Z):
    """Row-wise ``e^{Z} / Σ e^{Z}`` (LSE trick)."""
    return np.exp(log_softmax(Z, axis=1))


def multinomial_loss(Z, D):
    """``Σ_i LSE(Z_i) − ⟨Z_i, D_i⟩`` (``D`` one-hot) and its gradient ``softmax(Z) − D``."""
    return float(np.sum(logsumexp(Z, axis=1)) - np.sum(Z * D)), softmax(Z) - D


_ARMIJO = 1e-4


def damped_newton(loss_and_derivatives, theta, max_iter, tol):
    """Damped Newton's method on a convex objective.

    ``loss_and_derivatives(theta, order)`` returns the objective, then (``order >= 1``) the
    gradient and (``order == 2``) the Hessian: a matrix (the step then solves ``H Δ = g`` by
    Cholesky, least squares if H is singular) or a function ``v ↦ Hv`` (truncated conjugate
    gradients, to a relative residual ``min(½, √‖g‖)``: Newton-CG). The step is halved until
    Armijo's condition holds. Returns ``(theta, n_iter, converged)``; converged when
    ``‖g‖∞ ≤ tol``.
    """
    for n_iter in range(1, max_iter + 1):
        value, gradient, hessian = loss_and_derivatives(theta, 2)
        if np.max(np.abs(gradient)) <= tol:
            return theta, n_iter - 1, True
        if callable(hessian):
            step = _conjugate_gradients(hessian, gradient)
        else:
            try:
                step = cho_solve(cho_factor(hessian, check_finite=False), gradient,
                                 check_finite=False)
            except LinAlgError:
                step = lstsq(hessian, gradient, check_finite=False)[0]
        slope = float(gradient @ step)
        # Armijo's condition, up to the rounding of the objective: near the optimum the decrease
        # is below it and the full Newton step is taken
        slack = 1e-12 * max(abs(value), 1.0)
        t = 1.0
        while (t > 1e-12 and loss_and_derivatives(theta - t * step, 0)
               > value - _ARMIJO * t * slope + slack):
            t *= 0.5
        theta = theta - t * step
    gradient = loss_and_derivatives(theta, 1)[1]
    return theta, max_iter, bool(np.max(np.abs(gradient)) <= tol)


def _conjugate_gradients(product, b):
    """Approximate ``H⁻¹b`` for ``H`` p.s.d. given by ``product``: conjugate gradients from 0,
    stopped at the relative residual ``min(½, √‖b‖)`` or on non-positive curvature."""
    norm = np.linalg.norm(b)
    target = min(0.5, np.sqrt(norm)) * norm
    x = np.zeros_like(b)
    r = b.copy()
    d = r.copy()
    rr = float(r @ r)
    for _ in range(len(b)):
        Hd = product(d)
        curvature = float(d @ Hd)
        if curvature <= 0:
            return x if x.any() else b
        step = rr / curvature
        x += step * d
        r -= step * Hd
        rr_new = float(r @ r)
        if np.sqrt(rr_new) <= target:
            break
        d = r + (rr_new / rr) * d
        rr = rr_new
    return x
