"""Truncated conjugate gradients for the Newton steps of the smooth solvers: the line-search
Newton-CG of :func:`kernelkit.utils._smooth_solvers.damped_newton` and the trust-region Newton method
of :class:`kernelkit.svm.LinearSVC` (Steihaug's variant, stopped on the trust region's sphere;
Nocedal & Wright, *Numerical Optimization*, 2nd ed., Algorithm 7.2)."""

import numpy as np

__all__ = ["conjugate_gradients"]


def conjugate_gradients(product, b, tolerance, radius=None):
    """Approximate ``H⁻¹b`` for a symmetric p.s.d. ``H`` given by ``product(v) = Hv``.

    Conjugate gradients from ``x = 0``, stopped at the first of: the residual
    ``‖b − Hx‖ ≤ tolerance``; a direction ``d`` of non-positive curvature ``dᵀHd ≤ 0`` (``x``
    is returned as it is, or ``b`` if no step was taken yet; with ``radius``, ``x`` is carried
    along ``d`` to the sphere instead); with ``radius``, the first iterate outside the ball
    ``‖x‖ ≤ radius``, replaced by the point where the last step crosses the sphere; at most
    ``len(b)`` iterations (exact arithmetic needs no more).

    Parameters
    ----------
    product : callable
        ``v ↦ Hv`` on arrays of the shape of ``b``.
    b : ndarray of shape (n,), float64
    tolerance : float
        Absolute bound on the residual's norm.
    radius : float or None
        Radius of the trust region; None for none.

    Returns
    -------
    x : ndarray of shape (n,)
    residual : ndarray of shape (n,)
        ``b − Hx``.
    n_iter : int
        Products with ``H`` taken.
    """
    x = np.zeros_like(b)
    r = b.copy()
    d = r.copy()
    rr = float(r @ r)
    n_iter = 0
    while n_iter < len(b) and np.sqrt(rr) > tolerance:
        Hd = product(d)
        n_iter += 1
        curvature = float(d @ Hd)
        if curvature <= 0 and radius is None:
            if x.any():
                return x, r, n_iter
            return b.copy(), r - Hd, n_iter   # x = d = b
        step = rr / curvature if curvature > 0 else np.inf
        if radius is not None and (curvature <= 0 or np.linalg.norm(x + step * d) > radius):
            step = _to_sphere(x, d, radius)
            return x + step * d, r - step * Hd, n_iter
        x += step * d
        r -= step * Hd
        rr_new = float(r @ r)
        d = r + (rr_new / rr) * d
        rr = rr_new
    return x, r, n_iter


def _to_sphere(x, d, radius):
    """The ``τ ≥ 0`` with ``‖x + τd‖ = radius`` for ``‖x‖ ≤ radius``: the positive root of
    ``‖d‖²τ² + 2xᵀd τ + ‖x‖² − radius² = 0``, in the form that avoids cancellation."""
    xd, dd = float(x @ d), float(d @ d)
    gap = radius * radius - float(x @ x)
    root = np.sqrt(xd * xd + dd * max(gap, 0.0))
    if xd >= 0:
        return max(gap, 0.0) / (xd + root) if xd + root > 0 else 0.0
    return (root - xd) / dd
