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


@pytest.mark.parametrize("module, name", [("kernelkit.utils._ridge", "cho_factor"),
                                          ("kernelkit.utils._smooth_solvers", "cho_factor"),
                                          ("kernelkit.utils._smooth_solvers", "solve")])
def test_small_factorisations_and_solves_run_on_one_blas_thread(blas_thread_spy, module, name):
    # a team of BLAS threads stalls on them when another process keeps a core busy (a 500 x 500
    # Cholesky factorisation: 6 ms on one thread, 11-159 ms on two with one core busy)
    from threadpoolctl import threadpool_limits

    from kernelkit.utils._smooth_solvers import damped_newton

    seen = blas_thread_spy(module, name)
    n = 300     # above the size OpenBLAS runs on one thread by itself
    K = np.eye(n) * 2.0
    with threadpool_limits(2, user_api="blas"):
        if module.endswith("_ridge"):
            positive_definite_solver(K, "K")(np.ones((n, 10)))
        else:
            def quadratic(theta, order):
                value, gradient = 0.5 * theta @ K @ theta - theta.sum(), K @ theta - 1.0
                return (value, gradient, K)[:order + 1] if order else value
            damped_newton(quadratic, np.zeros(n), 5, 1e-10,
                          metric=(lambda v: v) if name == "solve" else None)
    assert seen and all(counts == {1} for counts in seen)


def test_tiny_blas_calls_leave_the_thread_counts_alone(monkeypatch):
    # switching costs about 10 µs, more than a call OpenBLAS runs on one thread anyway
    from kernelkit.utils import _threads

    def fail(n_threads):
        raise AssertionError("the thread counts were switched around a tiny call")

    monkeypatch.setattr(_threads, "blas_limit", fail)
    with _threads.blas_threads(_threads.TINY_BLAS_FLOPS / 2, 2):
        pass
    with pytest.raises(AssertionError, match="switched"):
        _threads.blas_threads(_threads.TINY_BLAS_FLOPS * 2, 2)


@pytest.mark.filterwarnings("ignore:SMACOF did not converge")
@pytest.mark.parametrize("module, name", [("kernelkit.kernel_approximation._nystroem", "eigh"),
                                          ("kernelkit.manifold._smacof", "cho_factor")])
def test_the_landmarks_and_weighted_smacof_factorise_on_one_blas_thread(blas_thread_spy, module,
                                                                        name):
    from threadpoolctl import threadpool_limits

    from kernelkit.kernel_approximation import KernelNystroem
    from kernelkit.manifold import MDS

    seen = blas_thread_spy(module, name)
    X = np.random.default_rng(0).normal(size=(150, 3))
    with threadpool_limits(2, user_api="blas"):
        if name == "eigh":
            KernelNystroem(n_components=100, random_state=0).fit(X)
        else:
            MDS(weights=np.ones((150, 150)) - np.eye(150), max_iter=3, n_init=1,
                random_state=0).fit(X)
    assert seen and all(counts == {1} for counts in seen)


def test_small_least_squares_run_on_one_blas_thread(blas_thread_spy):
    # gelsd's bidiagonalisation joins the BLAS threads at every matrix-vector product: with one
    # core busy, LinearRegression on 1 000 x 20 took 86 ms on two threads and 1.6 ms on one
    from threadpoolctl import threadpool_limits

    from kernelkit.linear_model import LinearRegression

    seen = blas_thread_spy("kernelkit.linear_model._least_squares", "lstsq")
    X = np.random.default_rng(0).normal(size=(1_000, 20))
    with threadpool_limits(2, user_api="blas"):
        LinearRegression().fit(X, X @ np.arange(20.0))
    assert seen and all(counts == {1} for counts in seen)


@pytest.mark.parametrize("general", [False, True])
def test_newton_steps_on_a_singular_hessian_are_least_squares(general):
    # a kernel model's M can be exactly singular (SimpleMKL's logistic dual with a kernel of
    # 1e300 times the linear one): the LU step raised SciPy's LinAlgError
    from kernelkit.utils._smooth_solvers import _newton_step

    H = np.array([[1.0, 2.0], [2.0, 4.0]])
    g = np.array([1.0, 2.0])
    np.testing.assert_allclose(_newton_step(H, g, general), [0.2, 0.4])
