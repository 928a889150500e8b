"""liblinear's trust-region Newton method on smooth convex objectives: the minimiser, a
decreasing objective, the stopping rules. (It stops, as liblinear, once the decreases are below
10⁻¹² |f|, which bounds the relative gradient it reaches, to ~10⁻⁶ on the quadratics here: the
tolerances are above that.)"""

import numpy as np
import pytest
from scipy.special import expit

from kernelkit.svm._trust_region_newton import trust_region_newton


def _quadratic(H, b):
    """f(w) = ½wᵀHw − bᵀw."""
    def value(w):
        return 0.5 * w @ H @ w - b @ w, None

    def derivatives(w, state):
        return H @ w - b, lambda v: H @ v
    return value, derivatives


def _ridge_logistic(X, y, lam):
    """f(w) = Σ log(1 + e^{−y_i wᵀx_i}) + ½λ‖w‖²."""
    def value(w):
        margins = y * (X @ w)
        return float(np.sum(np.logaddexp(0.0, -margins)) + 0.5 * lam * w @ w), margins

    def derivatives(w, margins):
        p = expit(-margins)
        curvature = p * (1 - p)
        return (X.T @ (-y * p) + lam * w,
                lambda v: X.T @ (curvature * (X @ v)) + lam * v)
    return value, derivatives


def test_minimises_a_quadratic(rng):
    A = rng.normal(size=(12, 12))
    H, b = A @ A.T / 12 + np.eye(12), rng.normal(size=12)
    values = []
    w, n_iter, converged = trust_region_newton(*_quadratic(H, b), np.zeros(12), 1e-5, 100,
                                               lambda n, f, norm: values.append(f))
    assert converged and n_iter == len(values)
    assert np.linalg.norm(H @ w - b) <= 1e-5 * np.linalg.norm(b)
    solution = np.linalg.solve(H, b)
    assert np.linalg.norm(w - solution) <= 1e-4 * np.linalg.norm(solution)
    assert np.all(np.diff(values) < 0)


def test_minimises_a_ridge_logistic_loss(rng):
    X = rng.normal(size=(200, 6))
    y = np.where(X @ rng.normal(size=6) + rng.normal(size=200) > 0, 1.0, -1.0)
    value, derivatives = _ridge_logistic(X, y, 0.1)
    values = []
    w, n_iter, converged = trust_region_newton(value, derivatives, np.zeros(6), 1e-7, 100,
                                               lambda n, f, norm: values.append(f))
    assert converged
    gradient, _ = derivatives(w, value(w)[1])
    initial, _ = derivatives(np.zeros(6), value(np.zeros(6))[1])
    assert np.linalg.norm(gradient) <= 1e-7 * np.linalg.norm(initial)
    assert np.all(np.diff(values) < 0)


@pytest.mark.parametrize("max_iter", [1, 2])
def test_max_iter(max_iter, rng):
    X = rng.normal(size=(200, 6))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)   # separable: a weak penalty needs many steps
    w, n_iter, converged = trust_region_newton(*_ridge_logistic(X, y, 1e-6), np.zeros(6),
                                               1e-12, max_iter)
    assert n_iter == max_iter and not converged


def test_a_stationary_start_takes_no_step():
    H = np.eye(3)
    start = np.array([1.0, 2.0, 3.0])
    w, n_iter, converged = trust_region_newton(*_quadratic(H, H @ start), start, 1e-3, 10)
    np.testing.assert_array_equal(w, start)
    assert n_iter == 0 and converged
