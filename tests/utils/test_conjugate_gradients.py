"""Truncated conjugate gradients: the exact solve, the residual it returns, the trust region's
sphere and directions of non-positive curvature."""

import numpy as np
import pytest

from kernelkit.utils._conjugate_gradients import conjugate_gradients


def _spd(n, rng):
    """A condition number below ~10 (CG in floating point may need more than n products on an
    ill-conditioned matrix)."""
    A = rng.normal(size=(n, n))
    return A @ A.T / n + np.eye(n)


def test_exact_solve_within_n_products(rng):
    H, b = _spd(8, rng), rng.normal(size=8)
    x, residual, n_iter = conjugate_gradients(lambda v: H @ v, b, 1e-10 * np.linalg.norm(b))
    np.testing.assert_allclose(H @ x, b, atol=1e-8 * np.linalg.norm(b))
    np.testing.assert_allclose(residual, b - H @ x, atol=1e-10 * np.linalg.norm(b))
    assert 1 <= n_iter <= 8


def test_stops_at_the_tolerance(rng):
    H, b = _spd(30, rng), rng.normal(size=30)
    tolerance = 0.1 * np.linalg.norm(b)
    x, residual, n_iter = conjugate_gradients(lambda v: H @ v, b, tolerance)
    assert np.linalg.norm(b - H @ x) <= tolerance and n_iter < 30
    # a tighter tolerance takes more products
    _, _, n_more = conjugate_gradients(lambda v: H @ v, b, 0.5 * np.linalg.norm(residual))
    assert n_more > n_iter


@pytest.mark.parametrize("scale", [0.5, 0.01])
def test_a_step_outside_the_region_ends_on_its_sphere(scale, rng):
    """Steihaug: when the path leaves ‖x‖ ≤ Δ, x is where it crosses the sphere, the residual
    is still b − Hx, and the quadratic model q(x) = −bᵀx + ½xᵀHx has decreased."""
    H, b = _spd(10, rng), rng.normal(size=10)
    radius = scale * np.linalg.norm(np.linalg.solve(H, b))
    x, residual, _ = conjugate_gradients(lambda v: H @ v, b, 0.0, radius=radius)
    assert np.linalg.norm(x) == pytest.approx(radius, rel=1e-12)
    np.testing.assert_allclose(residual, b - H @ x, atol=1e-10 * np.linalg.norm(b))
    assert -b @ x + 0.5 * x @ H @ x < 0


def test_a_region_containing_the_solution_changes_nothing(rng):
    H, b = _spd(10, rng), rng.normal(size=10)
    radius = 2 * np.linalg.norm(np.linalg.solve(H, b))
    free, _, _ = conjugate_gradients(lambda v: H @ v, b, 1e-12)
    bounded, _, _ = conjugate_gradients(lambda v: H @ v, b, 1e-12, radius=radius)
    np.testing.assert_array_equal(free, bounded)


def test_non_positive_curvature(rng):
    """Without a region, the steepest direction b (no step was taken); with one, the sphere
    along it."""
    b = rng.normal(size=5)
    x, residual, n_iter = conjugate_gradients(lambda v: -v, b, 0.0)
    np.testing.assert_array_equal(x, b)
    np.testing.assert_allclose(residual, 2 * b)
    assert n_iter == 1
    x, residual, _ = conjugate_gradients(lambda v: -v, b, 0.0, radius=0.5)
    np.testing.assert_allclose(x, 0.5 * b / np.linalg.norm(b))
    np.testing.assert_allclose(residual, b + x)
