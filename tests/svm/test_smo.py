"""The compiled SMO solver (kernelkit._core._smo_solver) against the seed's properties and the
reference."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelkit._core._gram import (
    GRAM_ASYMMETRIC,
    GRAM_BAD_MINOR,
    GRAM_NEGATIVE_DIAGONAL,
    GRAM_NON_FINITE,
    VECTOR_KERNELS,
    check_gram,
)
from kernelkit._core._smo_solver import PRECOMPUTED_KERNEL, smo_solve
from kernelkit.reference.smo import smo_solve as reference_smo_solve

LINEAR, POLY, RBF, SIGMOID = (VECTOR_KERNELS[name] for name in ("linear", "poly", "rbf", "sigmoid"))
PRECOMPUTED = PRECOMPUTED_KERNEL
EMPTY = np.zeros((0, 0))


def _kernel_matrix(X, gram, kernel, gamma, coef0, degree):
    if kernel == PRECOMPUTED:
        return gram
    dots = X @ X.T
    sq = np.diag(dots)
    return {LINEAR: lambda: dots, POLY: lambda: (gamma * dots + coef0) ** degree,
            RBF: lambda: np.exp(-gamma * np.maximum(sq[:, None] + sq[None, :] - 2 * dots, 0)),
            SIGMOID: lambda: np.tanh(gamma * dots + coef0)}[kernel]()


def _problem(rows, sqnorm, col, y, p, C, diagonal, *, gram=EMPTY, regression=False, kernel=RBF,
             gamma=0.5, coef0=1.0, degree=3.0):
    """The ``problem`` argument of the solvers."""
    return {"X": rows, "x_sqnorm": sqnorm, "gram": gram, "col": col, "y": y.astype(np.int32),
            "p": p.astype(np.float64), "upper_bound": C.astype(np.float64), "diagonal": diagonal,
            "regression": regression, "kernel": kernel, "gamma": gamma, "coef0": coef0,
            "degree": degree}


def _options(tol, max_iter, *, shrinking=True, cache_size=100.0, n_threads=1,
             check_curvature=False, **progress):
    """The ``options`` argument of the solvers."""
    return {"tol": tol, "shrinking": shrinking, "cache_size": cache_size, "max_iter": max_iter,
            "n_threads": n_threads, "check_curvature": check_curvature, **progress}


def _solve(solver, X, y, p, C, *, kernel=RBF, gram=EMPTY, gamma=0.5, coef0=1.0, degree=3.0,
           tol=1e-6, shrinking=True, cache_size=100.0, max_iter=10**7, n_threads=1, **progress):
    """Solve on all the samples of X (or gram); also return the gradient ``Qα + p``, recomputed
    from the solution. ``progress``: the compiled solver's progress arguments."""
    n = X.shape[0] if kernel != PRECOMPUTED else gram.shape[0]
    regression = y.size == 2 * n
    col = np.arange(y.size, dtype=np.intp) % n
    K = _kernel_matrix(X, gram, kernel, gamma, coef0, degree)
    rows = EMPTY if kernel == PRECOMPUTED else np.array(X, dtype=np.float64, order="C")
    sqnorm = np.zeros(0) if kernel == PRECOMPUTED else np.einsum("ij,ij->i", rows, rows)
    alpha = np.zeros(y.size)
    rho, objective, n_iter, status = solver(
        _problem(rows, sqnorm, col, y, p, C, np.ascontiguousarray(np.diag(K)[col]), gram=gram,
                 regression=regression, kernel=kernel, gamma=gamma, coef0=coef0, degree=degree),
        _options(tol, max_iter, shrinking=shrinking, cache_size=cache_size,
                 n_threads=n_threads, check_curvature=kernel == PRECOMPUTED, **progress),
        alpha)
    gradient = (np.outer(y, y) * K[np.ix_(col, col)]) @ alpha + p
    return alpha, gradient, rho, objective, n_iter, status


def _rbf(X, gamma=0.5):
    sq = np.sum(X * X, axis=1)
    return np.exp(-gamma * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))


def _classification(rng, n=120, n_features=4):
    X = rng.normal(size=(n, n_features))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def _regression_problem(y_target, C, epsilon):
    n = y_target.size
    signs = np.concatenate([np.ones(n), -np.ones(n)])
    p = np.concatenate([epsilon - y_target, epsilon + y_target])
    return signs, p, np.full(2 * n, C)


def test_kkt_property_40(rng):
    # Seed 003 Property 40 with m_i = y_i f(x_i): the solver's stopping rule bounds every
    # violation by tol.
    X, y = _classification(rng)
    C, tol = 2.0, 1e-6
    alpha, gradient, rho, objective, _, status = _solve(
        smo_solve, X, y, -np.ones(y.size), np.full(y.size, C), tol=tol)
    assert status == 0
    K = _rbf(X)
    margin = y * (K @ (alpha * y) - rho)
    at_zero, at_c = alpha == 0, alpha == C
    free = ~at_zero & ~at_c
    assert np.all((alpha >= 0) & (alpha <= C))
    assert abs(y @ alpha) <= 1e-10 * C * y.size
    assert np.all(margin[at_zero] >= 1 - tol)
    assert np.all(margin[at_c] <= 1 + tol)
    assert free.any() and np.allclose(margin[free], 1.0, atol=tol)
    Q = np.outer(y, y) * K
    assert objective == pytest.approx(0.5 * alpha @ Q @ alpha - alpha.sum(), rel=1e-12)


def test_svr_dual_properties(rng):
    # coverage entry A17: α⁺α⁻ = 0, and samples strictly inside the tube have β = 0.
    n, C, epsilon = 80, 3.0, 0.2
    X = rng.uniform(-2, 2, size=(n, 2))
    target = np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)
    signs, p, upper = _regression_problem(target, C, epsilon)
    alpha, _, rho, _, _, status = _solve(smo_solve, X, signs, p, upper, tol=1e-8)
    assert status == 0
    a_plus, a_minus = alpha[:n], alpha[n:]
    assert np.all(a_plus * a_minus == 0)
    assert abs(a_plus.sum() - a_minus.sum()) <= 1e-10 * C * n
    beta = a_plus - a_minus
    residual = target - (_rbf(X) @ beta - rho)
    assert np.all(beta[np.abs(residual) < epsilon - 1e-6] == 0)
    assert np.all(np.abs(residual[(beta != 0) & (np.abs(beta) < C)]) == pytest.approx(epsilon,
                                                                                     abs=1e-6))


@pytest.mark.parametrize("kernel", [LINEAR, POLY, RBF, SIGMOID, PRECOMPUTED])
def test_agrees_with_reference_classification(kernel, rng):
    X, y = _classification(rng, n=40, n_features=3)
    X = X / 2
    gram = X @ X.T if kernel == PRECOMPUTED else EMPTY
    C = rng.uniform(0.5, 2.0, size=y.size)  # per-sample bounds
    fast = _solve(smo_solve, X, y, -np.ones(y.size), C, kernel=kernel, gram=gram, coef0=0.3)
    slow = _solve(reference_smo_solve, X, y, -np.ones(y.size), C, kernel=kernel, gram=gram,
                  coef0=0.3)
    assert fast[5] == slow[5] == 0
    assert fast[3] == pytest.approx(slow[3], rel=1e-6)
    assert fast[2] == pytest.approx(slow[2], abs=1e-4)


def test_agrees_with_reference_regression(rng):
    n = 25
    X = rng.uniform(-2, 2, size=(n, 2))
    signs, p, upper = _regression_problem(np.cos(X[:, 1]), 1.0, 0.1)
    fast = _solve(smo_solve, X, signs, p, upper)
    slow = _solve(reference_smo_solve, X, signs, p, upper)
    assert fast[3] == pytest.approx(slow[3], rel=1e-6)


def test_same_result_for_any_thread_count(rng):
    # Rows of 2100 samples are 5 chunks, computed in parallel (no min_work_per_thread: every
    # thread takes chunks).
    X, y = _classification(rng, n=2100, n_features=600)
    runs = [_solve(smo_solve, X, y, -np.ones(y.size), np.ones(y.size), tol=1e-2, n_threads=t)
            for t in (1, 2)]
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][2:5] == runs[1][2:5]


def test_shrinking_and_tiny_cache_reach_the_same_optimum(rng):
    # cache_size≈0 leaves room for two rows only: every step evicts, and shrinking swaps drop
    # partial rows; the optimum must not change.
    X, y = _classification(rng, n=400)
    C = np.full(y.size, 5.0)
    objectives = [_solve(smo_solve, X, y, -np.ones(y.size), C, shrinking=s, cache_size=c)[3]
                  for s in (True, False) for c in (1e-6, 100.0)]
    np.testing.assert_allclose(objectives, objectives[0], rtol=1e-9)


def test_max_iter_stops_with_status(rng):
    X, y = _classification(rng)
    alpha, _, _, _, n_iter, status = _solve(smo_solve, X, y, -np.ones(y.size),
                                            np.ones(y.size), max_iter=5)
    assert (status, n_iter) == (1, 5)
    assert abs(y @ alpha) < 1e-12 and np.all((alpha >= 0) & (alpha <= 1))


def test_progress_callback_sees_every_report_and_changes_nothing(rng):
    X, y = _classification(rng)
    C = np.full(y.size, 10.0)
    plain = _solve(smo_solve, X, y, -np.ones(y.size), C)
    calls = []
    watched = _solve(smo_solve, X, y, -np.ones(y.size), C,
                     progress=lambda *state: calls.append(state), report_every=7)
    np.testing.assert_array_equal(plain[0], watched[0])
    assert plain[2:] == watched[2:]
    n_iter = plain[4]
    assert n_iter > 14
    assert [call[0] for call in calls] == list(range(7, n_iter + 1, 7))
    assert all(gap > 0 and 1 <= active <= y.size for _, gap, active in calls)


def test_progress_callback_error_stops_the_solver(rng):
    X, y = _classification(rng)

    class Stop(Exception):
        pass

    def stop(n_iter, gap, active_size):
        raise Stop(n_iter)

    with pytest.raises(Stop, match="^5$"):
        _solve(smo_solve, X, y, -np.ones(y.size), np.ones(y.size), progress=stop,
               report_every=5)
    with pytest.raises(ValueError, match="report_every"):
        _solve(smo_solve, X, y, -np.ones(y.size), np.ones(y.size), progress=stop)


def test_warm_start_from_the_solution_takes_no_step(rng):
    X, y = _classification(rng)
    C = np.full(y.size, 2.0)
    alpha = _solve(smo_solve, X, y, -np.ones(y.size), C)[0]
    rows = np.array(X, order="C")
    again = alpha.copy()
    rho, objective, n_iter, status = smo_solve(
        _problem(rows, np.einsum("ij,ij->i", rows, rows), np.arange(y.size), y, -np.ones(y.size),
                 C, np.ones(y.size)),
        _options(1e-6, 10**7), again)
    assert (status, n_iter) == (0, 0)
    np.testing.assert_array_equal(again, alpha)


@pytest.mark.parametrize("fault", ["unbalanced", "negative", "above C", "NaN"])
def test_infeasible_start_raises(fault, rng):
    X, y = _classification(rng, n=10)
    rows = np.array(X, order="C")
    start = np.zeros(10)
    if fault == "unbalanced":
        start[0] = 1.0   # y'α ≠ 0
    else:
        # a pair of opposite signs keeps y'α = 0: only the box is broken
        first, second = np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]
        start[[first, second]] = {"negative": -1.0, "above C": 3.0, "NaN": np.nan}[fault]
    with pytest.raises(ValueError, match="feasible"):
        smo_solve(_problem(rows, np.einsum("ij,ij->i", rows, rows), np.arange(10), y,
                           -np.ones(10), np.full(10, 2.0), np.ones(10)),
                  _options(1e-3, 100), start)


def test_argument_checks():
    with pytest.raises(ValueError, match="variables"):
        smo_solve(_problem(np.zeros((3, 1)), np.zeros(3), np.arange(3), np.ones(2), -np.ones(2),
                           np.ones(2), np.ones(2)),
                  _options(1e-3, 100), np.zeros(2))
    with pytest.raises(ValueError, match="entries"):   # one bound missing
        smo_solve(_problem(np.zeros((2, 1)), np.zeros(2), np.arange(2), np.array([1, -1]),
                           -np.ones(2), np.ones(1), np.ones(2)),
                  _options(1e-3, 100), np.zeros(2))


@given(
    n=st.integers(2, 12),
    rank=st.integers(1, 4),
    C=st.floats(0.05, 20.0),
    seed=st.integers(0, 2**16),
)
def test_feasible_and_optimal_on_random_psd_grams(n, rank, C, seed):
    rng = np.random.default_rng(seed)
    B = rng.normal(size=(n, rank))
    gram = B @ B.T
    y = rng.choice([-1, 1], size=n)
    y[0], y[-1] = 1, -1
    tol = 1e-6
    alpha, gradient, rho, objective, _, status = _solve(
        smo_solve, EMPTY, y, -np.ones(n), np.full(n, C), kernel=PRECOMPUTED, gram=gram, tol=tol)
    assert status == 0
    assert np.all((alpha >= 0) & (alpha <= C)) and abs(y @ alpha) <= 1e-10 * C * n
    # Maximal violating pair gap below tol: max over I_up of −y G, min over I_low.
    score = -y * gradient
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    assert score[up].max(initial=-np.inf) - score[low].min(initial=np.inf) < tol
    # Never worse than the feasible starting point α = 0.
    assert objective <= 0.0


@pytest.mark.parametrize("n_threads", [1, 2])
def test_check_gram_flags(n_threads, rng):
    # 300 samples span several 128×128 tiles; the defects sit off the diagonal tiles.
    B = rng.normal(size=(300, 5))
    gram = B @ B.T
    assert check_gram(gram, 1e-10, n_threads) == 0
    asymmetric = gram.copy()
    asymmetric[3, 290] += 1e-3
    assert check_gram(asymmetric, 1e-10, n_threads) == GRAM_ASYMMETRIC
    bad_minor = gram.copy()
    bad_minor[3, 290] = bad_minor[290, 3] = 2 * np.sqrt(gram[3, 3] * gram[290, 290])
    assert check_gram(bad_minor, 1e-10, n_threads) == GRAM_BAD_MINOR
    negative_diagonal = gram.copy()
    negative_diagonal[150, 150] = -1.0
    assert check_gram(negative_diagonal, 1e-10, n_threads) & GRAM_NEGATIVE_DIAGONAL
    # every entry is read whatever fails: a NaN below the diagonal, past a negative diagonal
    non_finite = negative_diagonal.copy()
    non_finite[290, 3] = np.nan
    assert check_gram(non_finite, 1e-10, n_threads) & GRAM_NON_FINITE
    assert check_gram(non_finite, 1e-10, n_threads) & GRAM_NEGATIVE_DIAGONAL


def test_check_gram_flags_do_not_depend_on_threads(rng):
    # 1100 samples: above the size where the scan runs its rows of tiles in parallel
    B = rng.normal(size=(1100, 5))
    gram = B @ B.T
    for i, j, value, bit in ((0, 0, 0.0, 0), (1090, 5, 1e-3, GRAM_ASYMMETRIC),
                             (600, 1099, np.inf, GRAM_NON_FINITE)):
        K = gram.copy()
        K[i, j] += value
        assert check_gram(K, 1e-10, 1) == check_gram(K, 1e-10, 2)
        assert check_gram(K, 1e-10, 2) & bit == bit and bool(check_gram(K, 1e-10, 2)) == bool(bit)
