"""The shared positive definite solver: the shifted system, several right-hand sides from one
factorisation, the input left untouched, and the error naming the matrix."""

import numpy as np
import pytest

from kernelkit.utils._ridge import positive_definite_solver, solve_positive_definite


@pytest.mark.parametrize("lower", [False, True])
def test_shifted_system_is_solved(lower):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((8, 3))
    K = X @ X.T                                # rank 3: singular without the shift
    B = rng.standard_normal((8, 2))
    original = K.copy()
    solve = positive_definite_solver(K, "K + I", shift=1.0, lower=lower)
    np.testing.assert_allclose((K + np.eye(8)) @ solve(B), B, atol=1e-12)
    np.testing.assert_allclose((K + np.eye(8)) @ solve(B[:, 0]), B[:, 0], atol=1e-12)
    np.testing.assert_array_equal(K, original)
    np.testing.assert_array_equal(solve_positive_definite(K, B, "K + I", shift=1.0,
                                                          lower=lower), solve(B))


def test_error_names_the_matrix():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match=r"^K \+ I is not positive definite \(a Gram matrix"):
        solve_positive_definite(K, np.ones(2), "K + I")
    with pytest.raises(ValueError, match=r"^N is not positive definite: use a positive alpha\.$"):
        solve_positive_definite(K, np.ones(2), "N", advice=": use a positive alpha.")
