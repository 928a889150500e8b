"""Basis pursuit (Sangnier §3.1.6, Theorems 70–71; coverage entry C3)."""

import numpy as np
import pytest

from kernelkit.decomposition import GaussianRandomProjection, basis_pursuit, rip_min_dim


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_recovery_when_p_is_well_above_s_log_d(seed):
    rng = np.random.default_rng(seed)
    d, s, p = 300, 4, 80                       # p ≈ 3.5 s log(d/s)
    x = np.zeros(d)
    x[rng.choice(d, s, replace=False)] = rng.normal(size=s) * 3
    W = GaussianRandomProjection(p, random_state=seed).fit(np.zeros((1, d))).components_
    u = basis_pursuit(W, W @ x)
    np.testing.assert_allclose(u, x, atol=1e-7)


def test_solution_is_feasible_and_has_minimal_l1_norm(rng):
    # an underdetermined dense problem: no recovery, but W u = y and ‖u‖₁ ≤ ‖v‖₁ for the
    # least-squares solution v and for random feasible points
    W = rng.normal(size=(10, 40))
    y = rng.normal(size=10)
    u = basis_pursuit(W, y)
    np.testing.assert_allclose(W @ u, y, atol=1e-8)
    least_squares = np.linalg.lstsq(W, y, rcond=None)[0]
    null_space = np.linalg.svd(W)[2][10:].T
    for v in [least_squares] + [least_squares + null_space @ rng.normal(size=30)
                                for _ in range(20)]:
        assert np.abs(u).sum() <= np.abs(v).sum() + 1e-8
    # a vertex of the feasible polytope: at most 10 non-zeros
    assert np.count_nonzero(np.abs(u) > 1e-9) <= 10


def test_rip_bound_is_theorem_70():
    assert rip_min_dim(1000, 5, eps=0.3, delta=0.1) == np.ceil(
        100 * 5 / 0.3**2 * np.log(40 * 1000 / (0.1 * 0.3)))


def test_infeasible_and_bad_shapes():
    with pytest.raises(ValueError, match="no solution"):
        basis_pursuit(np.array([[1.0, 0.0], [1.0, 0.0]]), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="shape"):
        basis_pursuit(np.ones((3, 4)), np.ones(2))
