"""liblinear's trust-region Newton method (TRON) for a smooth convex objective whose Hessian is
reached only through products (Lin, Weng & Keerthi, "Trust region Newton method for large-scale
logistic regression", JMLR 9, 2008, Algorithm 2 with the step of Algorithm 3).

Each iteration approximately minimises the quadratic model
``q(s) = ∇f(w)ᵀs + ½ sᵀ∇²f(w)s`` over the ball ``‖s‖ ≤ Δ`` by conjugate gradients (stopped at
the residual ``‖∇f + ∇²f s‖ ≤ 0.1 ‖∇f‖`` or on the sphere), takes the step when the actual
decrease ``f(w) − f(w + s)`` is more than ``η₀ = 10⁻⁴`` times the predicted ``−q(s)``, and
resizes ``Δ`` by the ratio of the two (the rule of liblinear's ``tron.cpp``, after Lin & Moré,
"Newton's method for large bound-constrained optimization problems", 1999). No line search: a
rejected step only shrinks the region.
"""

import numpy as np

from kernelkit.utils._conjugate_gradients import conjugate_gradients

__all__ = ["trust_region_newton"]

# acceptance and resizing thresholds on actual / predicted decrease, and resizing factors
_ETA0, _ETA1, _ETA2 = 1e-4, 0.25, 0.75
_SIGMA1, _SIGMA2, _SIGMA3 = 0.25, 0.5, 4.0
# conjugate gradients stop at this fraction of the gradient's norm
_CG_RELATIVE_RESIDUAL = 0.1


def trust_region_newton(value, derivatives, w, tol, max_iter, progress=None):
    """Minimise ``f`` from ``w`` by TRON.

    Parameters
    ----------
    value : callable
        ``value(w) -> (f(w), state)``; ``state`` (what the derivatives at ``w`` reuse, such as
        the margins) is passed back to ``derivatives``.
    derivatives : callable
        ``derivatives(w, state) -> (gradient, hessian_product)``, the gradient as an ndarray of
        the shape of ``w`` and ``v ↦ ∇²f(w) v`` (a generalised Hessian where ``f`` is only once
        differentiable, as the squared hinge).
    w : ndarray of shape (n,), float64
        Starting point (not modified).
    tol : float
        Stop when ``‖∇f(w)‖ ≤ tol · ‖∇f(w₀)‖`` (Euclidean norms; ``w₀`` the start).
    max_iter : int
        Most steps taken (rejected trial steps are not counted, as in liblinear).
    progress : callable, optional
        ``progress(n_iter, f, gradient_norm)`` after each step taken.

    Returns
    -------
    w : ndarray of shape (n,)
    n_iter : int
        Steps taken.
    converged : bool
        False when ``max_iter`` steps were taken without reaching ``tol``. A solve that
        stops earlier because neither the actual nor the predicted decrease is above
        ``10⁻¹² |f|`` (``tol`` is below what floating point resolves) counts as converged,
        as in liblinear.

    Raises
    ------
    FloatingPointError
        When the objective at the start, a gradient or a Hessian product overflows (no step
        can be computed).
    """
    w = np.array(w, dtype=np.float64)
    f, state = value(w)
    if not np.isfinite(f):
        raise FloatingPointError("the objective overflows at the starting point")
    gradient, hessian_product = derivatives(w, state)
    gradient_norm = initial_norm = _finite_norm(gradient, 0)
    delta = initial_norm
    n_iter = 0
    converged = gradient_norm <= tol * initial_norm
    while not converged and n_iter < max_iter:
        step, residual, _ = conjugate_gradients(
            hessian_product, -gradient, _CG_RELATIVE_RESIDUAL * gradient_norm, radius=delta)
        gs = float(gradient @ step)
        # −q(s) = −gᵀs − ½ sᵀHs, with Hs = −g − residual
        predicted = -0.5 * (gs - float(step @ residual))
        if not np.isfinite(predicted):
            raise FloatingPointError(f"the Hessian products overflow at iteration {n_iter}")
        w_new = w + step
        f_new, state_new = value(w_new)
        # a trial point where f overflows is rejected like one where f increases
        actual = f - f_new if np.isfinite(f_new) else -np.inf
        step_norm = float(np.linalg.norm(step))
        if n_iter == 0:
            # until a first step is taken, the region is no larger than the last trial step
            delta = min(delta, step_norm)
        # the minimiser of the 1-D quadratic through f, its slope gs and f_new, as a multiple
        # of the step (capped below by σ₁; σ₃ when the quadratic is not convex)
        curvature = f_new - f - gs
        alpha = _SIGMA3 if curvature <= 0 else max(_SIGMA1, -0.5 * gs / curvature)
        if actual < _ETA0 * predicted:
            delta = min(max(alpha, _SIGMA1) * step_norm, _SIGMA2 * delta)
        elif actual < _ETA1 * predicted:
            delta = max(_SIGMA1 * delta, min(alpha * step_norm, _SIGMA2 * delta))
        elif actual < _ETA2 * predicted:
            delta = max(_SIGMA1 * delta, min(alpha * step_norm, _SIGMA3 * delta))
        else:
            delta = max(delta, min(alpha * step_norm, _SIGMA3 * delta))
        if actual > _ETA0 * predicted:
            n_iter += 1
            w, f, state = w_new, f_new, state_new
            gradient, hessian_product = derivatives(w, state)
            gradient_norm = _finite_norm(gradient, n_iter)
            if progress is not None:
                progress(n_iter, f, gradient_norm)
            converged = gradient_norm <= tol * initial_norm
        # no decrease predicted, or none representable in floating point: tol is out of reach
        if ((actual == 0 and predicted <= 0)
                or (abs(actual) <= 1e-12 * abs(f) and abs(predicted) <= 1e-12 * abs(f))):
            converged = True
    return w, n_iter, converged


def _finite_norm(gradient, n_iter):
    norm = float(np.linalg.norm(gradient))
    if not np.isfinite(norm):
        raise FloatingPointError(f"the gradient overflows at iteration {n_iter}")
    return norm
