"""Linear models: the courses' identities, scikit-learn at equal regularisation, bad input."""

import warnings

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from scipy.special import logsumexp
from sklearn import linear_model as sk
from sklearn.datasets import load_breast_cancer, load_diabetes, load_digits, make_blobs
from sklearn.exceptions import ConvergenceWarning, NotFittedError
from sklearn.preprocessing import StandardScaler

from kernelkit.linear_model import (
    LeastAbsoluteDeviation,
    LinearRegression,
    LogisticRegression,
    NearestCentroid,
    Ridge,
)
from kernelkit.utils._logistic import multinomial_loss


def standardised(loader, n=None):
    X, y = loader(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    return (X[:n], y[:n]) if n else (X, y)


# ----------------------------------------------------------------- least squares, ridge
def test_normal_equations_hold():
    X, y = standardised(load_diabetes)
    model = LinearRegression().fit(X, y)
    residual = model.predict(X) - y
    np.testing.assert_allclose(X.T @ residual, 0, atol=1e-8)
    assert abs(residual.sum()) < 1e-8


def collinear_design(kind, rng, n=1000):
    """A rank-deficient design (exactly one dependent column) and whether to fit the intercept:
    a one-hot category next to the intercept (fitted, or an explicit column of ones), a
    duplicated column, a column computed as a combination of others (rounding leaves its
    singular value between ε·σ_max and max(n, p)·ε·σ_max, where LAPACK's default cutoff
    counted it)."""
    X = rng.normal(size=(n, 4)) * [1.0, 10.0, 100.0, 0.1]
    one_hot = np.eye(4)[rng.integers(0, 4, n)]
    if kind == "one-hot":
        return np.hstack([X, one_hot]), True
    if kind == "one-hot, explicit intercept":
        return np.hstack([np.ones((n, 1)), X, one_hot]), False
    if kind == "duplicate":
        return np.hstack([X, X[:, [1]]]), True
    return np.hstack([X, 0.1 * X[:, [0]] + X[:, [1]] / 3 - 0.7 * X[:, [2]]]), True


@pytest.mark.parametrize("noisy", [False, True])
@pytest.mark.parametrize("kind", ["one-hot", "one-hot, explicit intercept", "duplicate",
                                  "combination"])
def test_collinear_designs_give_scikit_learns_minimum_norm_solution(kind, noisy):
    for seed in range(4):
        rng = np.random.default_rng(seed)
        X, fit_intercept = collinear_design(kind, rng)
        n, p = X.shape
        y = X @ rng.normal(size=p) + 3.0 + (rng.normal(size=n) if noisy else 0.0)
        ours = LinearRegression(fit_intercept=fit_intercept).fit(X, y)
        theirs = sk.LinearRegression(fit_intercept=fit_intercept).fit(X, y)
        # one singular value is (numerically) zero, and only one
        Xc = X - X.mean(axis=0) if fit_intercept else X
        singular = np.linalg.svd(Xc, compute_uv=False)
        cutoff = max(n, p) * np.finfo(np.float64).eps
        assert ours.rank_ == theirs.rank_ == p - 1
        assert ours.rank_ == np.sum(singular > cutoff * singular[0])
        np.testing.assert_allclose(ours.singular_, singular, rtol=1e-10, atol=1e-10 * singular[0])
        # the minimum-norm least-squares solution, as scikit-learn's
        yc = y - y.mean() if fit_intercept else y
        minimum_norm = np.linalg.pinv(Xc, rcond=cutoff) @ yc
        scale = np.abs(minimum_norm).max()
        np.testing.assert_allclose(ours.coef_, minimum_norm, rtol=1e-9, atol=1e-9 * scale)
        np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-8 * scale)
        np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-8, atol=1e-8)
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-9,
                                   atol=1e-9 * np.abs(y).max())
        rss_ours = np.sum((y - ours.predict(X)) ** 2)
        rss_theirs = np.sum((y - theirs.predict(X)) ** 2)
        assert rss_ours <= rss_theirs * (1 + 1e-10) + 1e-20 * np.sum(y**2)


def test_rank_revealing_cutoff_with_multiple_targets():
    rng = np.random.default_rng(5)
    X, _ = collinear_design("combination", rng)
    Y = np.column_stack([X @ rng.normal(size=X.shape[1]), rng.normal(size=len(X))])
    ours = LinearRegression().fit(X, Y)
    theirs = sk.LinearRegression().fit(X, Y)
    assert ours.rank_ == theirs.rank_ == X.shape[1] - 1
    assert ours.coef_.shape == theirs.coef_.shape
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, rtol=1e-8, atol=1e-8)


def test_one_hot_category_next_to_the_intercept():
    # LAPACK's default cutoff (ε·σ_max) kept a rounding-level singular value of this design
    # (OpenBLAS; the rounding depends on the BLAS):
    # rank 10 instead of 9, coefficients of 1.8e14 and a larger training RSS than scikit-learn's
    rng = np.random.default_rng(73)
    n, k, q = (int(rng.integers(low, high)) for low, high in ((50, 2000), (2, 12), (1, 6)))
    category = rng.integers(0, k, n)
    X = np.hstack([rng.normal(size=(n, q)) * rng.choice([1, 10, 100, 1000]),
                   np.eye(k)[category]])
    y = X[:, :q] @ rng.normal(size=q) + rng.normal(size=n) * 5 + category
    ours = LinearRegression().fit(X, y)
    theirs = sk.LinearRegression().fit(X, y)
    assert ours.rank_ == theirs.rank_ == q + k - 1
    assert np.abs(ours.coef_).max() < 1e3
    np.testing.assert_allclose(ours.coef_, theirs.coef_, rtol=1e-8, atol=1e-8)
    rss_ours = np.sum((y - ours.predict(X)) ** 2)
    assert rss_ours <= np.sum((y - theirs.predict(X)) ** 2) * (1 + 1e-12)


def test_primal_and_dual_ridge_agree_and_match_scikit_learn():
    X, y = standardised(load_diabetes)
    Y = np.column_stack([y, y**0.5])
    primal = Ridge(alpha=3.0, solver="primal").fit(X, Y)
    dual = Ridge(alpha=3.0, solver="dual").fit(X, Y)
    np.testing.assert_allclose(primal.coef_, dual.coef_, rtol=1e-9)
    np.testing.assert_allclose(primal.intercept_, dual.intercept_, rtol=1e-9)
    theirs = sk.Ridge(alpha=3.0).fit(X, Y)
    np.testing.assert_allclose(primal.coef_, theirs.coef_, rtol=1e-8)
    assert Ridge().fit(X[:20], y[:20]).solver_ == "primal"
    assert Ridge().fit(np.hstack([X[:8]] * 3), y[:8]).solver_ == "dual"


def test_ridge_limits_and_orthogonal_design():
    X, y = standardised(load_diabetes)
    ols = LinearRegression().fit(X, y)
    np.testing.assert_allclose(Ridge(alpha=1e-9).fit(X, y).coef_, ols.coef_, rtol=1e-6)
    assert np.abs(Ridge(alpha=1e12).fit(X, y).coef_).max() < 1e-6
    n, lam = 64, 0.7
    Q, _ = np.linalg.qr(np.random.default_rng(0).normal(size=(n, 5)))
    X_orth = np.sqrt(n) * Q                            # XᵀX = n I
    y = np.random.default_rng(1).normal(size=n)
    beta_ols = LinearRegression(fit_intercept=False).fit(X_orth, y).coef_
    beta_ridge = Ridge(alpha=n * lam, fit_intercept=False).fit(X_orth, y).coef_
    np.testing.assert_allclose(beta_ridge, beta_ols / (1 + lam), rtol=1e-10)


# ----------------------------------------------------------------- logistic
def test_logistic_gradient_and_hessian_by_finite_differences():
    X, y = standardised(load_breast_cancer, 120)
    model = LogisticRegression(C=0.5)
    A = np.hstack([X[:, :5], np.ones((120, 1))])
    objective = model._binary_objective(A, y.astype(float), model._penalty_weights(6),
                                        np.ones(120))
    theta = np.random.default_rng(2).normal(size=6) * 0.3
    _, gradient, hessian = objective(theta, 2)
    np.testing.assert_allclose(gradient, approx_fprime(theta, lambda t: objective(t, 0), 1e-6),
                               rtol=1e-4, atol=1e-4)
    numeric = np.array([approx_fprime(theta, lambda t: objective(t, 1)[1][i], 1e-6)
                        for i in range(6)])
    np.testing.assert_allclose(hessian, numeric, rtol=1e-4, atol=1e-3)


def test_the_line_search_point_is_not_scored_twice():
    """The trial point Armijo's rule accepts is where Newton's next gradient and Hessian are
    taken: its scores Aθ and loss are reused (one product with A, not two), the same values."""

    class CountingDesign(np.ndarray):
        forward = 0

        def __matmul__(self, other):
            if self.shape == (120, 6):   # A θ, not Aᵀ g
                CountingDesign.forward += 1
            return np.asarray(self) @ other

    X, y = standardised(load_breast_cancer, 120)
    model = LogisticRegression(C=0.5)
    A = np.hstack([X[:, :5], np.ones((120, 1))])
    r = model._penalty_weights(6)
    theta = np.random.default_rng(2).normal(size=6) * 0.3
    fresh = model._binary_objective(A, y.astype(float), r, None)(theta, 2)
    objective = model._binary_objective(A.view(CountingDesign), y.astype(float), r, None)
    trial = objective(theta, 0)
    value, gradient, hessian = objective(theta, 2)
    assert CountingDesign.forward == 1
    assert trial == value == fresh[0]
    np.testing.assert_array_equal(gradient, fresh[1])
    np.testing.assert_array_equal(hessian, fresh[2])
    objective(theta + 1.0, 0)
    assert CountingDesign.forward == 2


def test_newton_hessian_by_row_blocks_is_the_weighted_product(monkeypatch):
    """The Hessian Aᵀ diag(c) A + diag(r) of the Newton steps, formed by blocked rank-k updates
    over many blocks (5 rows each here), equals the direct product, on one thread or two."""
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_scatter, "_BLOCK_ELEMENTS", 30)
    monkeypatch.setattr(_scatter, "_MIN_BLOCK_ROWS", 1)
    X, y = standardised(load_breast_cancer, 120)
    model = LogisticRegression(C=0.5)
    A = np.hstack([X[:, :5], np.ones((120, 1))])
    r, s = model._penalty_weights(6), np.random.default_rng(0).random(120)
    theta = np.random.default_rng(2).normal(size=6) * 0.3
    hessians = [model._binary_objective(A, y.astype(float), r, s, n_threads)(theta, 2)[2]
                for n_threads in (1, 2)]
    p = 1.0 / (1.0 + np.exp(-A @ theta))
    expected = (A * (s * p * (1 - p))[:, None]).T @ A + np.diag(r)
    np.testing.assert_allclose(hessians[0], expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(hessians[0], hessians[1])


def test_n_jobs_does_not_change_the_fit():
    X, y = standardised(load_breast_cancer)
    one = LogisticRegression(n_jobs=1).fit(X, y)
    two = LogisticRegression(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    assert one.objective_ == two.objective_
    with pytest.raises(ValueError, match="n_jobs"):
        LogisticRegression(n_jobs=0).fit(X, y)


def test_solvers_reach_the_same_optimum():
    X, y = standardised(load_breast_cancer, 150)
    X = X[:, :6]
    fits = [LogisticRegression(C=0.3, solver=s, max_iter=m, tol=1e-8).fit(X, y)
            for s, m in (("newton", 50), ("lbfgs", 5000), ("gd", 200_000))]
    for other in fits[1:]:
        np.testing.assert_allclose(other.coef_, fits[0].coef_, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(other.objective_, fits[0].objective_, rtol=1e-9)


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
def test_logistic_objective_equals_scikit_learn(solver):
    X, y = standardised(load_breast_cancer)
    ours = LogisticRegression(C=0.7, solver=solver, max_iter=5000, tol=1e-9).fit(X, y)
    theirs = sk.LogisticRegression(C=0.7, tol=1e-12, max_iter=10_000).fit(X, y)
    check = LogisticRegression(C=0.7)
    objective = check._binary_objective(np.hstack([X, np.ones((len(X), 1))]), y.astype(float),
                                        check._penalty_weights(X.shape[1] + 1), np.ones(len(X)))
    theirs_value = objective(np.r_[theirs.coef_[0], theirs.intercept_], 0)
    assert ours.objective_ <= theirs_value * (1 + (1e-9 if solver == "newton" else 1e-7))
    np.testing.assert_allclose(ours.objective_, theirs_value, rtol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-5)


@pytest.mark.parametrize("penalty", ["l2", None])
def test_logistic_fit_makes_no_copy_of_x(penalty):
    # the intercept column lives in the Hessian's row blocks and the products, not in a
    # stacked [X, 1]; the separability check indexes the scores, not X (a 40 MB copy each)
    import tracemalloc

    rng = np.random.default_rng(0)
    X = rng.normal(size=(100_000, 50))
    y = (X[:, 0] + rng.normal(size=len(X)) > 0).astype(int)
    model = LogisticRegression(penalty=penalty, max_iter=20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(X, y)   # imports and caches outside the measurement
        tracemalloc.start()
        try:
            model.fit(X, y)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    # the Hessian's block buffers (at most 8 of 512 KiB, whatever n) and a few vectors of n
    assert peak < 0.5 * X.nbytes


@pytest.mark.parametrize("penalty", ["l2", None])
@pytest.mark.parametrize("n_classes, multi_class", [(2, "multinomial"), (3, "multinomial"),
                                                    (3, "ovr")])
def test_objective_is_the_documented_formula(n_classes, multi_class, penalty):
    # Σ_i loss_i + ‖w‖²/(2C): scikit-learn's C Σ loss + ‖w‖²/2 divided by C
    X, y = make_blobs(60, 3, centers=n_classes, cluster_std=3.0, random_state=1)
    C = 0.3
    model = LogisticRegression(C=C, penalty=penalty, multi_class=multi_class, tol=1e-10).fit(X, y)
    W, b = model.coef_, model.intercept_
    penalty_term = 0.0 if penalty is None else np.sum(W**2) / (2 * C)
    scores = X @ W.T + b
    if n_classes == 2:
        sign = np.where(y == model.classes_[1], 1.0, -1.0)
        expected = np.sum(np.logaddexp(0.0, -sign * scores[:, 0])) + penalty_term
    elif multi_class == "multinomial":
        expected = np.sum(logsumexp(scores, axis=1) - scores[np.arange(len(y)), y]) + penalty_term
    else:
        sign = np.where(y[:, None] == model.classes_, 1.0, -1.0)
        expected = np.sum(np.logaddexp(0.0, -sign * scores)) + penalty_term
    np.testing.assert_allclose(model.objective_, expected, rtol=1e-12)
    # and it is not the C-scaled form (C Σ loss + ‖w‖²/2)
    assert not np.isclose(model.objective_, C * expected)


@pytest.mark.slow   # 10 classes × 65 features against scikit-learn at tol 1e-10
def test_multinomial_equals_scikit_learn_on_digits():
    X, y = standardised(load_digits)
    ours = LogisticRegression(C=0.05, max_iter=200, tol=1e-8).fit(X, y)
    theirs = sk.LogisticRegression(C=0.05, solver="newton-cg", tol=1e-10, max_iter=500).fit(X, y)
    D = np.eye(10)[y]
    A = np.hstack([X, np.ones((len(X), 1))])

    def objective(W, b):
        return multinomial_loss(A[:, :-1] @ W.T + b, D)[0] + np.sum(W**2) / (2 * 0.05)
    ours_value = objective(ours.coef_, ours.intercept_)
    np.testing.assert_allclose(ours_value, ours.objective_, rtol=1e-10)
    np.testing.assert_allclose(ours_value, objective(theirs.coef_, theirs.intercept_), rtol=1e-6)


def test_two_class_softmax_is_binary_logistic_with_twice_c():
    X, y = standardised(load_breast_cancer, 200)
    multinomial = LogisticRegression(C=0.4, tol=1e-10)
    A = np.hstack([X, np.ones((200, 1))])
    Theta = multinomial._fit_multinomial(A, np.eye(2)[y], np.ones(len(y)))[0]
    beta = Theta[:, 1] - Theta[:, 0]
    binary = LogisticRegression(C=0.8, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(beta[:-1], binary.coef_[0], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(beta[-1], binary.intercept_[0], rtol=1e-5, atol=1e-7)


def test_lse_trick_keeps_huge_scores_finite():
    Z = np.array([[1e4, 0.0, -1e4], [-1e4, 1e4 - 1.0, 1e4]])
    D = np.array([[1.0, 0, 0], [0, 0, 1.0]])
    loss, gradient = multinomial_loss(Z, D)
    np.testing.assert_allclose(loss, np.log1p(np.exp(-1.0)), rtol=1e-10)
    assert np.all(np.isfinite(gradient))


def test_separable_data_without_penalty_warns():
    X, y = make_blobs(60, centers=[[-3, 0], [3, 0]], cluster_std=0.5, random_state=0)
    with pytest.warns(ConvergenceWarning, match="separable"):
        LogisticRegression(penalty=None).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LogisticRegression().fit(X, y)


def test_one_vs_rest_probabilities():
    X, y = standardised(load_digits, 600)
    model = LogisticRegression(multi_class="ovr", C=0.1).fit(X, y)
    assert model.coef_.shape == (10, 64) and model.n_iter_.shape == (10,)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)
    assert model.score(X, y) > 0.95


# ----------------------------------------------------------------- median regression, centroids
def test_median_regression_equals_the_quantile_regressor():
    X, y = standardised(load_diabetes, 200)
    ours = LeastAbsoluteDeviation().fit(X, y)
    theirs = sk.QuantileRegressor(quantile=0.5, alpha=0.0, solver="highs").fit(X, y)
    ours_loss = np.abs(y - ours.predict(X)).sum()
    np.testing.assert_allclose(ours_loss, np.abs(y - theirs.predict(X)).sum(), rtol=1e-9)
    # ridge-penalised IRLS: no worse than the LP solution on its own objective
    penalised = LeastAbsoluteDeviation(alpha=5.0).fit(X, y)

    def objective(model):
        return np.abs(y - model.predict(X)).sum() + 5.0 * model.coef_ @ model.coef_
    assert objective(penalised) <= objective(ours) + 1e-6


def test_linear_kernel_nearest_centroid_is_the_euclidean_one():
    X, y = standardised(load_digits, 800)
    euclidean = NearestCentroid().fit(X, y)
    linear = NearestCentroid(kernel="linear").fit(X, y)
    np.testing.assert_array_equal(linear.predict(X), euclidean.predict(X))
    from sklearn.neighbors import NearestCentroid as SkNearestCentroid

    np.testing.assert_array_equal(euclidean.predict(X), SkNearestCentroid().fit(X, y).predict(X))


def test_kernel_nearest_centroid_on_graphs():
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    from kernelkit.datasets import load_mutag
    from kernelkit.kernels import WeisfeilerLehmanKernel

    mutag = load_mutag()
    model = NearestCentroid(kernel=WeisfeilerLehmanKernel(n_iter=3, normalize=True))
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    assert cross_val_score(model, mutag.graphs, mutag.target, cv=folds).mean() > 0.7


@pytest.mark.parametrize(("params", "changed"), [
    ({}, {"kernel": "rbf"}),
    ({"kernel": "rbf"}, {"kernel": None}),
    ({"kernel": "rbf"}, {"gamma": 0.5}),
    ({"kernel": "poly"}, {"degree": 2}),
    ({"kernel": "poly"}, {"coef0": 0.0}),
])
def test_nearest_centroid_asks_for_a_refit_after_a_kernel_change(params, changed):
    X, y = standardised(load_digits, 200)
    model = NearestCentroid(**params).fit(X, y).set_params(**changed)
    name = next(iter(changed))
    with pytest.raises(NotFittedError, match=f"must be refitted after changing {name} "):
        model.predict(X)
    np.testing.assert_array_equal(model.fit(X, y).predict(X),
                                  NearestCentroid(**{**params, **changed}).fit(X, y).predict(X))


def test_nearest_centroid_asks_for_a_refit_after_a_nested_kernel_change():
    from kernelkit.kernels import SpectrumKernel

    X = ["ACGTAC", "ACGTTT", "GGGCCA", "GGCCCA", "ACGAAC", "GGCGCA"]
    y = [0, 0, 1, 1, 0, 1]
    model = NearestCentroid(kernel=SpectrumKernel(k=2)).fit(X, y)
    model.set_params(kernel__normalize=True)
    with pytest.raises(NotFittedError, match="kernel__normalize"):
        model.predict(X)


def test_nearest_centroid_n_jobs_can_change_after_fit():
    X, y = standardised(load_digits, 200)
    model = NearestCentroid(kernel="rbf").fit(X, y)
    expected = model.predict(X)
    np.testing.assert_array_equal(model.set_params(n_jobs=1).predict(X), expected)


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("Model", [LinearRegression, Ridge, LeastAbsoluteDeviation])
def test_regressors_refuse_bad_input(Model):
    X, y = standardised(load_diabetes, 50)
    X[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Model().fit(X, y)


def test_classifiers_refuse_bad_input():
    X, y = standardised(load_breast_cancer, 60)
    with pytest.raises(ValueError, match="class"):
        LogisticRegression().fit(X, np.zeros(60))
    with pytest.raises(ValueError, match="C"):
        LogisticRegression(C=0.0).fit(X, y)
    with pytest.raises(ValueError, match="Unknown label type"):
        LogisticRegression().fit(X, y + 0.5)
    fitted = LogisticRegression().fit(X, np.array(["benign", "malignant"])[y])
    assert set(fitted.predict(X)) <= {"benign", "malignant"}
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :3])


@pytest.mark.parametrize("solver", ["newton", "lbfgs", "gd"])
@pytest.mark.parametrize("multi_class", ["multinomial", "ovr"])
def test_logistic_verbose_prints_one_line_per_model_and_iterations_at_2(solver, multi_class,
                                                                         capsys):
    X, y = standardised(load_digits, 300)
    y = y % 3
    params = dict(solver=solver, multi_class=multi_class, max_iter=20)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        quiet = LogisticRegression(**params).fit(X, y)
        assert capsys.readouterr().err == ""
        loud = LogisticRegression(verbose=1, **params).fit(X, y)
        np.testing.assert_array_equal(quiet.coef_, loud.coef_)
        lines = capsys.readouterr().err.splitlines()
        names = (["multinomial model"] if multi_class == "multinomial"
                 else [f"class {k} against the rest" for k in range(3)])
        assert [line.split(":")[0] for line in lines] == [
            f"[LogisticRegression] {name}" for name in names]
        assert all(f" {solver} iterations, objective " in line for line in lines)
        LogisticRegression(verbose=2, **params).fit(X, y)
    lines = capsys.readouterr().err.splitlines()
    iterations = [line for line in lines if line.startswith("[LogisticRegression] iteration ")]
    assert len(lines) - len(iterations) == len(names)
    assert len(iterations) == int(np.sum(quiet.n_iter_))
