"""Dual coordinate descent (SquaredHingeSVC, SquaredEpsilonSVR): the exam's properties first,
then the twin, a generic QP solver, kernel ridge and liblinear."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.datasets import load_breast_cancer, load_diabetes, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC, LinearSVR

from kernelkit._core._dual_cd import PRECOMPUTED_KERNEL, dual_cd_solve
from kernelkit._core._gram import VECTOR_KERNELS
from kernelkit.datasets import load_mutag
from kernelkit.svm import SquaredEpsilonSVR, SquaredHingeSVC
from kernelkit.kernels import WeisfeilerLehmanKernel, pairwise_kernels
from kernelkit.reference import dual_cd_solve as reference_dual_cd_solve


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True)
    return StandardScaler().fit_transform(X), (y - y.mean()) / y.std()


def _problem(y, epsilon=None):
    """``(sign, p)`` of the classification (epsilon None) or regression dual."""
    if epsilon is None:
        sign = np.where(y > 0, 1.0, -1.0)
        return sign, -np.ones(y.size)
    n = y.size
    return np.r_[np.ones(n), -np.ones(n)], np.r_[epsilon - y, epsilon + y]


def _solve(solver, X, K, sign, p, lambda_, tol=1e-8, seed=3, kernel="rbf", gamma=0.05,
           **progress):
    """Run a solver (compiled or twin) on vectors (K None) or a Gram matrix; ``progress``: the
    solvers' progress arguments."""
    alpha, history = np.zeros(sign.size), np.zeros(5000)
    if K is None:
        from kernelkit.utils._kernels import FittedKernel

        diag = FittedKernel("vector", X, len(X), name=kernel, gamma=gamma).diagonal()
        problem = {"X": X, "x_sqnorm": np.einsum("ij,ij->i", X, X), "gram": np.zeros((0, 0)),
                   "diagonal": diag, "kernel": VECTOR_KERNELS[kernel], "gamma": gamma,
                   "coef0": 1.0, "degree": 3.0}
    else:
        problem = {"X": np.zeros((0, 0)), "x_sqnorm": np.zeros(0), "gram": K,
                   "diagonal": np.ascontiguousarray(np.diag(K)), "kernel": PRECOMPUTED_KERNEL,
                   "gamma": 0.0, "coef0": 0.0, "degree": 0.0}
    problem.update(sign=sign, p=p, lambda_=lambda_)
    options = {"tol": tol, "max_iter": 5000, "seed": seed, "shrinking": True, "cache_size": 200.0,
               "n_threads": 1, **progress}
    objective, n_iter, status = solver(problem, options, alpha, history)
    return alpha, objective, n_iter, status, history[:n_iter]


def _dual_objective(alpha, K, sign, p, lambda_):
    n = K.shape[0]
    c = np.bincount(np.arange(sign.size) % n, sign * alpha, minlength=n)
    S = np.bincount(np.arange(sign.size) % n, alpha, minlength=n)
    return 0.5 * c @ K @ c / lambda_ + 0.5 * S @ S + p @ alpha


@pytest.mark.parametrize("epsilon", [None, 0.2])
def test_objective_non_increasing_per_epoch(cancer, diabetes, epsilon):
    X, y = cancer if epsilon is None else diabetes
    X = X[:300]
    sign, p = _problem(y[:300] if epsilon is not None else 2 * y[:300] - 1, epsilon)
    *_, status, history = _solve(dual_cd_solve, X, None, sign, p, lambda_=0.3)
    assert status == 0 and history.size > 3
    assert np.all(np.diff(history) <= 1e-12 * np.abs(history[:-1]))


def test_kkt_at_convergence(cancer):
    """Exam 2023 Ex. 4: ``Y_ih(X_i) > 1 ⇒ α_i = 0``; and ``α_i = ξ_i = 1 − Y_ih(X_i)`` on the
    support vectors (the gradient ``Y_ih + α_i − 1`` vanishes)."""
    X, y = cancer
    clf = SquaredHingeSVC(lambda_=0.2, tol=1e-8, random_state=0).fit(X, y)
    margin = np.where(y == 1, 1.0, -1.0) * clf.decision_function(X)
    assert np.all(clf.alpha_ >= 0)
    assert np.any(margin > 1) and np.all(clf.alpha_[margin > 1 + 1e-6] == 0)
    support = clf.alpha_ > 0
    np.testing.assert_allclose(clf.alpha_[support], 1 - margin[support], atol=1e-7)
    # Zero duality gap: primal (λ/2)‖h‖² + ½Σξ² equals −D(α).
    K = pairwise_kernels(X, metric="rbf", gamma=1.0 / X.shape[1])
    primal = (0.5 * clf.lambda_ * clf.dual_coef_ @ K @ clf.dual_coef_
              + 0.5 * np.sum(np.maximum(0, 1 - margin) ** 2))
    np.testing.assert_allclose(primal, -clf.dual_objective_[0], rtol=1e-7)


@pytest.mark.parametrize("epsilon", [None, 0.1])
def test_equals_bound_constrained_qp(epsilon):
    """The same optimum as SciPy's L-BFGS-B on the dual (P2) / (P3)."""
    X, y = make_classification(60, 5, random_state=1)
    target = np.where(y == 1, 1.0, -1.0) if epsilon is None else X @ np.arange(5.0) / 5
    K = pairwise_kernels(X, metric="rbf", gamma=0.2)
    sign, p = _problem(target, epsilon)
    lambda_ = 0.5
    alpha, objective, *_ = _solve(dual_cd_solve, None, K, sign, p, lambda_, tol=1e-10)

    def fun(a):
        n = K.shape[0]
        c = sign[:n] * a[:n] - (a[n:] if a.size > n else 0)
        S = a[:n] + (a[n:] if a.size > n else 0)
        Kc = K @ c
        grad = np.r_[sign[:n] * Kc / lambda_ + S, -Kc / lambda_ + S][:a.size] + p
        return 0.5 * c @ Kc / lambda_ + 0.5 * S @ S + p @ a, grad

    res = minimize(fun, np.zeros(sign.size), jac=True, method="L-BFGS-B",
                   bounds=[(0, None)] * sign.size, options=dict(ftol=1e-15, gtol=1e-12,
                                                                  maxiter=10000))
    np.testing.assert_allclose(objective, res.fun, rtol=1e-8)
    coef = lambda a: np.bincount(np.arange(a.size) % K.shape[0], sign * a)  # noqa: E731
    np.testing.assert_allclose(coef(alpha), coef(res.x), atol=1e-5)


def test_zero_epsilon_svr_is_kernel_ridge(diabetes):
    """Exam 2022 Ex. 2 bonus: with ε = 0, h = Σ b_i k(·, X_i), b = (K + λI)⁻¹Y."""
    X, y = diabetes
    X, y = X[:200], y[:200]
    lambda_ = 2.0
    reg = SquaredEpsilonSVR(lambda_=lambda_, epsilon=0.0, kernel="rbf", gamma=0.1, tol=1e-10,
                            random_state=0).fit(X, y)
    K = pairwise_kernels(X, metric="rbf", gamma=0.1)
    b = np.linalg.solve(K + lambda_ * np.eye(y.size), y)
    np.testing.assert_allclose(reg.dual_coef_, b, atol=1e-8)
    np.testing.assert_allclose(reg.predict(X), K @ b, atol=1e-8)
    # α⁺α⁻ = 0 component-wise, as the exam's (P3) coupling term αᵀPβ forces.
    assert np.all(reg.alpha_[0] * reg.alpha_[1] == 0)


@pytest.mark.parametrize("epsilon", [None, 0.1])
@pytest.mark.parametrize("precomputed", [False, True])
def test_compiled_equals_reference(cancer, diabetes, epsilon, precomputed):
    X, y = (cancer if epsilon is None else diabetes)
    X, y = X[:120], y[:120]
    sign, p = _problem(2 * y - 1 if epsilon is None else y, epsilon)
    K = pairwise_kernels(X, metric="rbf", gamma=0.05) if precomputed else None
    ours = _solve(dual_cd_solve, X, K, sign, p, 0.4, tol=1e-6)
    twin = _solve(reference_dual_cd_solve, X, K, sign, p, 0.4, tol=1e-6)
    assert ours[2] == twin[2] and ours[3] == twin[3] == 0     # same epochs: the same path
    np.testing.assert_allclose(ours[0], twin[0], atol=1e-10)
    np.testing.assert_allclose(ours[4], twin[4], rtol=1e-12)


def test_progress_callback_matches_the_twin_and_changes_nothing(cancer):
    X, y = cancer
    X, y = X[:120], 2 * y[:120] - 1
    sign, p = _problem(y)
    plain = _solve(dual_cd_solve, X, None, sign, p, 0.4, tol=1e-6)
    calls, twin_calls = [], []
    ours = _solve(dual_cd_solve, X, None, sign, p, 0.4, tol=1e-6,
                  progress=lambda *state: calls.append(state), report_every=2)
    _solve(reference_dual_cd_solve, X, None, sign, p, 0.4, tol=1e-6,
           progress=lambda *state: twin_calls.append(state), report_every=2)
    np.testing.assert_array_equal(plain[0], ours[0])
    assert plain[1:4] == ours[1:4]
    assert [c[0] for c in calls] == list(range(2, plain[2] + 1, 2))
    # the same epochs, active sets and violations as the twin
    assert [(c[0], c[2]) for c in calls] == [(c[0], c[2]) for c in twin_calls]
    np.testing.assert_allclose([c[1] for c in calls], [c[1] for c in twin_calls], rtol=1e-9,
                               atol=1e-12)
    np.testing.assert_allclose([c[3] for c in calls], plain[4][1::2], rtol=1e-12)

    class Stop(Exception):
        pass

    def stop(*state):
        raise Stop

    with pytest.raises(Stop):
        _solve(dual_cd_solve, X, None, sign, p, 0.4, progress=stop, report_every=1)
    with pytest.raises(ValueError, match="report_every"):
        _solve(dual_cd_solve, X, None, sign, p, 0.4, progress=stop)


@pytest.mark.parametrize("Estimator", [SquaredHingeSVC, SquaredEpsilonSVR])
def test_verbose_reports_each_problem_and_changes_nothing(Estimator, cancer, capsys):
    X, y = cancer
    X, y = X[:200], np.arange(200) % 3    # three one-vs-rest problems for the classifier
    quiet = Estimator(lambda_=0.01, random_state=0).fit(X, y)
    assert capsys.readouterr().err == ""
    loud = Estimator(lambda_=0.01, random_state=0, verbose=1).fit(X, y)
    np.testing.assert_array_equal(quiet.dual_coef_, loud.dual_coef_)
    lines = capsys.readouterr().err.splitlines()
    name = Estimator.__name__
    n_problems = 3 if Estimator is SquaredHingeSVC else 1
    assert len(lines) == n_problems and all(line.startswith(f"[{name}] ") for line in lines)
    assert all(" epochs, objective " in line and line.endswith(" s") for line in lines)
    # verbose=2: a line every 10 epochs before each problem's last
    detailed = Estimator(lambda_=0.01, random_state=0, verbose=2).fit(X, y)
    np.testing.assert_array_equal(quiet.dual_coef_, detailed.dual_coef_)
    lines = capsys.readouterr().err.splitlines()
    n_iter = np.atleast_1d(detailed.n_iter_)
    assert len(lines) == int(np.sum(n_iter // 10)) + n_problems
    assert "largest projected gradient" in lines[0]


def test_one_and_two_threads_identical(monkeypatch):
    # every row of 1100 samples (3 chunks) split across the threads, whatever the cost of a
    # parallel region measured on this machine
    from kernelkit.svm import _dual_coordinate_descent

    monkeypatch.setattr(_dual_coordinate_descent, "min_work_per_thread", lambda n_threads: 0.0)
    X, y = make_classification(1100, 960, n_informative=20, random_state=0)
    fits = [SquaredHingeSVC(lambda_=0.5, kernel="linear", random_state=0, n_jobs=n_jobs).fit(X, y)
            for n_jobs in (1, 2)]
    assert np.array_equal(fits[0].dual_coef_, fits[1].dual_coef_)
    assert np.array_equal(fits[0].n_iter_, fits[1].n_iter_)


def test_seed_changes_order_not_optimum(cancer):
    X, y = cancer
    a, b = (SquaredHingeSVC(lambda_=0.5, tol=1e-8, random_state=s).fit(X, y) for s in (0, 1))
    np.testing.assert_allclose(a.dual_coef_, b.dual_coef_, atol=1e-6)


def test_linear_kernel_matches_liblinear(cancer):
    """λ = 1/(2C): liblinear's ½‖w‖² + CΣmax(0, 1 − y w·x)² is (P1)/λ."""
    X, y = cancer
    X, y = X[:200], y[:200]
    lambda_ = 0.5
    C = 1 / (2 * lambda_)
    ours = SquaredHingeSVC(lambda_=lambda_, kernel="linear", tol=1e-10, max_iter=100000,
                           random_state=0).fit(X, y)
    peer = LinearSVC(loss="squared_hinge", fit_intercept=False, dual=True, C=C, tol=1e-9,
                     max_iter=1000000).fit(X, y)
    np.testing.assert_allclose(X.T @ ours.dual_coef_, peer.coef_[0], atol=1e-5)
    np.testing.assert_allclose(ours.decision_function(X), peer.decision_function(X), atol=1e-5)
    sign = 2 * y - 1

    def primal(w):   # liblinear's objective
        return 0.5 * w @ w + C * np.sum(np.maximum(0, 1 - sign * (X @ w)) ** 2)

    np.testing.assert_allclose(-ours.dual_objective_[0] / lambda_, primal(peer.coef_[0]),
                               rtol=1e-8)


def test_linear_kernel_svr_matches_liblinear(diabetes):
    X, y = diabetes
    lambda_, epsilon = 4.0, 0.2
    ours = SquaredEpsilonSVR(lambda_=lambda_, epsilon=epsilon, kernel="linear", tol=1e-10,
                             max_iter=100000, random_state=0).fit(X, y)
    peer = LinearSVR(loss="squared_epsilon_insensitive", fit_intercept=False, dual=True,
                     epsilon=epsilon, C=1 / (2 * lambda_), tol=1e-9, max_iter=100000).fit(X, y)
    np.testing.assert_allclose(X.T @ ours.dual_coef_, peer.coef_, atol=1e-5)


def test_multiclass_one_vs_rest():
    X, y = make_classification(300, 6, n_informative=4, n_classes=3, random_state=0)
    clf = SquaredHingeSVC(lambda_=0.5, random_state=0).fit(X, y)
    assert clf.dual_coef_.shape == (300, 3) and clf.n_iter_.shape == (3,)
    for k in range(3):
        binary = SquaredHingeSVC(lambda_=0.5, random_state=0).fit(X, (y == k).astype(int))
        np.testing.assert_allclose(clf.decision_function(X)[:, k],
                                   binary.decision_function(X), atol=1e-3)
    assert clf.score(X, y) > 0.9


def test_precomputed_callable_and_vector_agree(cancer):
    X, y = cancer
    K = pairwise_kernels(X, metric="rbf", gamma=0.03)
    fits = [SquaredHingeSVC(kernel="rbf", gamma=0.03, random_state=0).fit(X, y),
            SquaredHingeSVC(kernel="precomputed", random_state=0).fit(K, y),
            SquaredHingeSVC(kernel=lambda A, B: pairwise_kernels(A, B, metric="rbf", gamma=0.03),
                            random_state=0).fit(X, y)]
    fits = [model.decision_function(K if model.kernel == "precomputed" else X) for model in fits]
    np.testing.assert_allclose(fits[0], fits[1], atol=1e-10)
    np.testing.assert_allclose(fits[0], fits[2], atol=1e-10)


def test_mutag_weisfeiler_lehman_cross_val():
    mutag = load_mutag()
    model = SquaredHingeSVC(lambda_=0.1, kernel=WeisfeilerLehmanKernel(n_iter=3, normalize=True),
                            random_state=0)
    scores = cross_val_score(model, mutag.graphs, mutag.target, cv=5)
    assert scores.mean() > 0.8


def test_bad_input(cancer):
    X, y = cancer
    X, y = X[:50], y[:50]
    bad = X.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SquaredHingeSVC().fit(bad, y)
    with pytest.raises(ValueError, match="one class"):
        SquaredHingeSVC().fit(X, np.zeros(50))
    for lambda_ in (0.0, -1.0):
        with pytest.raises(ValueError, match="lambda_"):
            SquaredHingeSVC(lambda_=lambda_).fit(X, y)
        with pytest.raises(ValueError, match="lambda_"):
            SquaredEpsilonSVR(lambda_=lambda_).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        SquaredEpsilonSVR(epsilon=-0.1).fit(X, y)
    indefinite = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    # eigenvalues 3, 1, -1: the dual is convex (P = Q + λI p.d.) only when λ > 1
    with pytest.raises(ValueError, match="positive semi-definite"):
        SquaredHingeSVC(kernel="precomputed", lambda_=0.5).fit(indefinite, [0, 1, 1])
    with pytest.raises(ValueError, match="positive semi-definite"):
        SquaredEpsilonSVR(kernel="precomputed", lambda_=2.0).fit(indefinite, [0.0, 1.0, 1.0])
    clf = SquaredHingeSVC(kernel="precomputed", lambda_=2.0).fit(indefinite, [0, 1, 1])
    assert np.isfinite(clf.decision_function(indefinite)).all()
    K = pairwise_kernels(X, metric="rbf")
    clf = SquaredHingeSVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="Gram matrix against the 50 training"):
        clf.predict(K[:, :40])
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        SquaredHingeSVC(max_iter=1).fit(X, y)


@pytest.mark.parametrize("epsilon", [None, 0.3])
def test_shrinking_keeps_the_optimum(cancer, diabetes, epsilon):
    X, y = cancer if epsilon is None else diabetes
    sign, p = _problem(2 * y - 1 if epsilon is None else y, epsilon)
    K = pairwise_kernels(X, metric="rbf", gamma=0.05)
    runs = []
    for shrinking in (True, False):
        alpha, history = np.zeros(sign.size), np.zeros(5000)
        objective, n_iter, status = dual_cd_solve(
            {"X": np.zeros((0, 0)), "x_sqnorm": np.zeros(0), "gram": K,
             "diagonal": np.ascontiguousarray(np.diag(K)), "sign": sign, "p": p,
             "kernel": PRECOMPUTED_KERNEL, "gamma": 0.0, "coef0": 0.0, "degree": 0.0,
             "lambda_": 0.5},
            {"tol": 1e-9, "max_iter": 5000, "seed": 0, "shrinking": shrinking,
             "cache_size": 1.0, "n_threads": 1},
            alpha, history)
        assert status == 0
        runs.append((alpha, objective))
    np.testing.assert_allclose(runs[0][1], runs[1][1], rtol=1e-12)
    coef = [np.bincount(np.arange(sign.size) % K.shape[0], sign * a) for a, _ in runs]
    np.testing.assert_allclose(coef[0], coef[1], atol=1e-8)
