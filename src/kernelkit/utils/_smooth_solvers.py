"""The smooth convex solvers of the logistic models (linear, kernel, multiple-kernel): SciPy's
L-BFGS-B with scikit-learn's stopping rule, and a damped Newton method (Cholesky, least squares,
Newton-CG or, for a kernel model's dual, the kernel's geometry) with Armijo backtracking
(Nocedal & Wright, *Numerical Optimization*, 2nd ed., §3.1 and §7.1).
"""

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve, lstsq, solve
from scipy.optimize import minimize

from kernelkit.utils._conjugate_gradients import conjugate_gradients
from kernelkit.utils._threads import blas_threads

__all__ = ["damped_newton", "lbfgs"]

# L-BFGS-B also stops when the objective decreases by less than ftol relatively (SciPy: 2e-9,
# far above the gradient tolerance); as scikit-learn, only 64 machine epsilons.
_FTOL = 64 * np.finfo(np.float64).eps
# the sufficient decrease of Armijo's condition
_ARMIJO = 1e-4


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


def _newton_step(hessian, gradient, general):
    """``H⁻¹ g``: by LU when ``H`` is not symmetric (``general``), else by Cholesky; by least
    squares when ``H`` is singular (a kernel model's ``M`` can be exactly singular, as with
    kernel values of 1e300); a small factorisation on one thread (``blas_threads``)."""
    # the factorisation's operations: 2n³/3 (LU), n³/3 (Cholesky)
    with blas_threads((2.0 if general else 1.0) * len(gradient) ** 3 / 3.0, None):
        try:
            if general:
                return solve(hessian, gradient, check_finite=False)
            return cho_solve(cho_factor(hessian, check_finite=False), gradient,
                             check_finite=False)
        except LinAlgError:
            return lstsq(hessian, gradient, check_finite=False)[0]


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
        if callable(hessian):
            norm_gradient = np.linalg.norm(gradient)
            step = conjugate_gradients(hessian, gradient,
                                       min(0.5, np.sqrt(norm_gradient)) * norm_gradient)[0]
        else:
            step = _newton_step(hessian, gradient, metric is not None)
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
