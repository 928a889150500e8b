"""Multiple kernel learning: the seed's identities (Mairal & Vert D21–D25), SimpleMKL and the
group-lasso view."""

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.kernel_ridge import KernelRidge as SklearnKernelRidge
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler

from kernelkit.datasets import load_mutag
from kernelkit.kernels import (
    ShortestPathKernel,
    VectorKernel,
    WeisfeilerLehmanKernel,
    pairwise_kernels,
)
from kernelkit.mkl import (
    GroupLassoMKL,
    SimpleMKL,
    SimpleMKLRegressor,
    SumKernel,
    kernel_objective,
    sum_kernel,
)
from kernelkit.mkl._kernels import quadratic_forms
from kernelkit.mkl._simple_mkl import descent_direction, duality_gap
from kernelkit.svm import SVC

LOSSES = ["squared", "hinge", "logistic"]


def _classification(rng, n=60, d=4):
    X = rng.normal(size=(n, d))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


def _gram_stack(X, gammas=(0.05, 0.5, 5.0)):
    """Gram matrices of RBF kernels, kernels first (the functions' layout)."""
    return np.stack([pairwise_kernels(X, metric="rbf", gamma=g) for g in gammas])


def _last(Ks):
    """Kernels last: the layout of the estimators' precomputed input."""
    return np.moveaxis(Ks, 0, -1)


# ---------------------------------------------------------------------------- D21 sum kernel
def test_sum_kernel_krr_equals_krr_on_concatenated_features(rng):
    # K_S = Σ K_i is the kernel of the concatenated features: KRR gives the same function.
    blocks = [rng.normal(size=(40, 3)), rng.normal(size=(40, 2)), rng.normal(size=(40, 4))]
    y = rng.normal(size=40)
    K_sum = sum_kernel([B @ B.T for B in blocks])
    features = np.hstack(blocks)
    lambda_ = 0.1
    gamma = kernel_objective(K_sum, y, "squared", lambda_).gamma
    # explicit ridge (1/n)‖Fβ − y‖² + λ‖β‖²: β = (FᵀF + nλI)⁻¹ Fᵀ y, and β = Fᵀγ
    beta = np.linalg.solve(features.T @ features + 40 * lambda_ * np.eye(9), features.T @ y)
    np.testing.assert_allclose(features.T @ gamma, beta, rtol=1e-10, atol=1e-12)


def test_weighted_sum_decomposes_the_function(rng):
    # f* = Σ_i f_i* with f_i* = η_i Σ_j γ_j* K_i(x_j, ·)  (α_i* = η_i γ*)
    X, y = _classification(rng)
    Ks = _gram_stack(X)
    eta = np.array([0.2, 0.5, 0.3])
    solution = kernel_objective(sum_kernel(Ks, eta), y, "squared", 0.05)
    Z = rng.normal(size=(7, 4))
    K_test = np.stack([pairwise_kernels(Z, X, metric="rbf", gamma=g) for g in (0.05, 0.5, 5.0)])
    parts = [eta[i] * K_test[i] @ solution.gamma for i in range(3)]
    np.testing.assert_allclose(sum(parts), sum_kernel(K_test, eta) @ solution.gamma,
                               rtol=1e-12)


def test_sum_kernel_object_in_an_svm(rng):
    X, y = _classification(rng)
    kernels = [VectorKernel("rbf", gamma=0.1), VectorKernel("linear")]
    direct = SVC(kernel=SumKernel(kernels, weights=[2.0, 0.5])).fit(X, y)
    K = 2.0 * pairwise_kernels(X, metric="rbf", gamma=0.1) + 0.5 * pairwise_kernels(
        X, metric="linear")
    precomputed = SVC(kernel="precomputed").fit(K, y)
    np.testing.assert_allclose(direct.dual_coef_, precomputed.dual_coef_, atol=1e-12)
    Z = rng.normal(size=(5, 4))
    K_test = 2.0 * pairwise_kernels(Z, X, metric="rbf", gamma=0.1) + 0.5 * pairwise_kernels(
        Z, X, metric="linear")
    np.testing.assert_allclose(direct.decision_function(Z), precomputed.decision_function(K_test),
                               atol=1e-10)


def test_sum_kernel_adds_the_grams_without_stacking_them(rng):
    """fit_transform and transform give Σ w_m K_m and leave a callable's own array unchanged;
    four RBF kernel objects are fitted and their Grams added one after the other: about three
    Gram matrices in memory at once (the sum, the Gram being added, the work array of the next
    kernel), where their stack held eight (the four, then the stack)."""
    import tracemalloc

    X, Z = rng.normal(size=(300, 4)), rng.normal(size=(40, 4))
    cached = {}

    def shared(A, B):  # the same array at every call with these shapes
        return cached.setdefault((A.shape[0], B.shape[0]), A @ B.T + 1.0)

    kernels = [VectorKernel("rbf", gamma=0.1), VectorKernel("linear"), shared]
    weights = [2.0, 0.5, 1.5]
    model = SumKernel(kernels, weights=weights)
    for A, K in ((X, model.fit_transform(X)), (Z, model.transform(Z))):
        parts = [pairwise_kernels(A, X, metric="rbf", gamma=0.1), A @ X.T, A @ X.T + 1.0]
        expected = sum(w * P for w, P in zip(weights, parts))
        # rounding of a sum of terms up to max |K|: absolute, not relative to an entry near 0
        # (BLAS axpy with or without fused multiply-adds, by the machine)
        np.testing.assert_allclose(K, expected, rtol=1e-14, atol=1e-14 * np.abs(expected).max())
        np.testing.assert_array_equal(cached[(len(A), 300)], A @ X.T + 1.0)
    rbfs = SumKernel([VectorKernel("rbf", gamma=g) for g in (0.1, 0.3, 1.0, 3.0)])
    tracemalloc.start()
    K = rbfs.fit_transform(X)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 4.0 * K.nbytes


# ---------------------------------------------------------------------------- D22 J(K)
def test_krr_closed_form_and_scikit_learn(rng):
    X, y = _classification(rng)
    K = pairwise_kernels(X, metric="rbf", gamma=0.3)
    n, lambda_ = len(y), 0.02
    solution = kernel_objective(K, y, "squared", lambda_)
    assert solution.value == pytest.approx(lambda_ * y @ np.linalg.solve(K + n * lambda_ *
                                                                          np.eye(n), y))
    # scikit-learn's KernelRidge minimises ‖Kα − y‖² + a αᵀKα: a = nλ
    theirs = SklearnKernelRidge(alpha=n * lambda_, kernel="precomputed").fit(K, y)
    np.testing.assert_allclose(solution.gamma, theirs.dual_coef_, rtol=1e-8)


def test_inner_solvers_are_kernel_ridge_and_kernel_logistic_regression(rng):
    """The inner problems are those of kernelkit's KernelRidge (alpha = nλ) and, without
    intercept, KernelLogisticRegression (alpha = 2nλ: Σ loss + (α/2) aᵀKa is n times the MKL
    objective)."""
    from kernelkit.kernel_ridge import KernelLogisticRegression, KernelRidge

    X, y = _classification(rng)
    K = pairwise_kernels(X, metric="rbf", gamma=0.3)
    n, lambda_ = len(y), 0.02
    ridge = KernelRidge(alpha=n * lambda_, kernel="precomputed").fit(K, y)
    np.testing.assert_allclose(kernel_objective(K, y, "squared", lambda_).gamma,
                               ridge.dual_coef_, rtol=1e-9)
    logistic = KernelLogisticRegression(alpha=2 * n * lambda_, kernel="precomputed",
                                        fit_intercept=False, tol=1e-12).fit(K, y)
    solution = kernel_objective(K, y, "logistic", lambda_)
    np.testing.assert_allclose(solution.gamma, logistic.dual_coef_[:, 0], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(solution.value, logistic.objective_ / n, rtol=1e-9)



def test_logistic_dual_variable_on_a_singular_kernel(rng):
    """On a rank-one K the Newton steps divided by K still converge to the dual variable
    γ = y ∘ σ(−y Kγ) / (2λn), null-space component included (it is what the gradient in the
    other kernels of an MKL problem reads)."""
    X, y = _classification(rng)
    K = np.outer(X[:, 0], X[:, 0])
    n, lambda_ = len(y), 0.01
    signs = np.where(y == y.max(), 1.0, -1.0)
    gamma = kernel_objective(K, y, "logistic", lambda_).gamma
    p = 1.0 / (1.0 + np.exp(signs * (K @ gamma)))
    np.testing.assert_allclose(gamma, signs * p / (2 * lambda_ * n), rtol=1e-9, atol=1e-12)

def _primal(K, y, loss, lambda_, solution):
    f = K @ solution.gamma + solution.intercept
    risk = {"squared": np.mean((f - y) ** 2),
            "hinge": np.mean(np.maximum(0.0, 1.0 - y * f)),
            "logistic": np.mean(np.logaddexp(0.0, -y * f))}[loss]
    return risk + lambda_ * solution.gamma @ K @ solution.gamma


def _dual(K, y, loss, lambda_, gamma):
    n = len(y)
    quadratic = lambda_ * gamma @ K @ gamma
    if loss == "squared":       # R*(v) = Σ (n v_i²/4 + v_i y_i)
        v = -2 * lambda_ * gamma
        return -np.sum(n * v * v / 4 + v * y) - quadratic
    if loss == "hinge":         # with intercept: 2λ(Σα − ½αᵀQα), α = yγ
        return 2 * lambda_ * np.sum(y * gamma) - quadratic
    a = -2 * n * lambda_ * y * gamma          # logistic: ℓ*(a) = −a log(−a) + (1+a) log(1+a)
    conjugate = np.where(a < 0, -a * np.log(np.where(a < 0, -a, 1)), 0) + np.where(
        a > -1, (1 + a) * np.log(np.where(a > -1, 1 + a, 1)), 0)
    return -np.sum(conjugate) / n - quadratic


@pytest.mark.parametrize("loss", LOSSES)
def test_primal_value_equals_the_dual(loss, rng):
    X, y = _classification(rng)
    K = pairwise_kernels(X, metric="rbf", gamma=0.3)
    solution = kernel_objective(K, y, loss, 0.01)
    primal = _primal(K, y, loss, 0.01, solution)
    assert solution.value == pytest.approx(primal, rel=1e-5)
    assert _dual(K, y, loss, 0.01, solution.gamma) == pytest.approx(primal, rel=1e-5)


@pytest.mark.parametrize("loss", LOSSES)
def test_objective_is_convex_along_segments(loss, rng):
    X, y = _classification(rng)
    K_a = pairwise_kernels(X, metric="rbf", gamma=0.05)
    K_b = pairwise_kernels(X, metric="linear") / 4
    J_a, J_b = (kernel_objective(K, y, loss, 0.01).value for K in (K_a, K_b))
    for t in np.linspace(0.1, 0.9, 5):
        J_t = kernel_objective((1 - t) * K_a + t * K_b, y, loss, 0.01).value
        assert J_t <= (1 - t) * J_a + t * J_b + 1e-6 * abs(J_a + J_b)


@pytest.mark.parametrize("loss", LOSSES)
def test_gradient_matches_finite_differences(loss, rng):
    X, y = _classification(rng)
    Ks = _gram_stack(X)
    eta, lambda_, h = np.array([0.3, 0.3, 0.4]), 0.01, 1e-5
    solution = kernel_objective(sum_kernel(Ks, eta), y, loss, lambda_)
    gradient = solution.gradient(lambda_, _last(Ks))
    for m in range(3):
        step = np.zeros(3)
        step[m] = h
        plus = kernel_objective(sum_kernel(Ks, eta + step), y, loss, lambda_).value
        minus = kernel_objective(sum_kernel(Ks, eta - step), y, loss, lambda_).value
        assert gradient[m] == pytest.approx((plus - minus) / (2 * h), rel=2e-3, abs=1e-6)


def test_kernel_objective_bad_input():
    with pytest.raises(ValueError, match="square"):
        kernel_objective(np.ones((2, 3)), [1, -1], "squared")
    with pytest.raises(ValueError, match="exactly two classes"):
        kernel_objective(np.eye(3), [0, 1, 2], "hinge")
    with pytest.raises(ValueError, match="lambda_"):
        kernel_objective(np.eye(2), [1, -1], "squared", lambda_=0.0)
    with pytest.raises(ValueError, match="not positive definite"):
        kernel_objective(-np.eye(2), [1.0, -1.0], "squared", lambda_=0.1)


# ---------------------------------------------------------------------------- D23–D25 MKL
def test_descent_direction_stays_on_the_simplex():
    d = np.array([0.5, 0.3, 0.2, 0.0])
    g = np.array([-1.0, -3.0, -0.5, 2.0])
    D = descent_direction(d, g)
    assert D.sum() == pytest.approx(0.0, abs=1e-15)
    assert D[3] == 0.0          # at 0 with a positive reduced gradient: stays at 0
    assert g @ D < 0            # a descent direction
    assert duality_gap(d, g) == pytest.approx(d @ g + 3.0)


@pytest.mark.parametrize("loss", LOSSES)
def test_simple_mkl_optimum_beats_uniform_and_vertices(loss, rng):
    X, y = _classification(rng)
    Ks = _gram_stack(X, gammas=(0.01, 0.3, 10.0))
    model = SimpleMKL("precomputed", loss=loss, C=2.0, tol=1e-4).fit(_last(Ks), y)
    eta = model.weights_
    assert np.all(eta >= 0) and eta.sum() == pytest.approx(1.0)
    assert np.all(np.diff(model.objective_history_) <= 1e-9 * model.objective_history_[0])
    lambda_ = 1.0 / (2 * len(y) * 2.0)
    J = kernel_objective(sum_kernel(Ks, eta), y, loss, lambda_).value
    candidates = [np.full(3, 1 / 3)] + list(np.eye(3))
    for weights in candidates:
        assert J <= kernel_objective(sum_kernel(Ks, weights), y, loss, lambda_).value + 1e-7
    assert model.duality_gap_ <= 1e-4 * abs(model.objective_history_[-1])


def test_informative_kernel_wins_over_random_numbers(random_seed):
    # Mairal & Vert's K_RND: the Gram of random numbers carries no information about y
    rng = np.random.default_rng(random_seed)
    X, y = _classification(rng, n=80)
    K_informative = pairwise_kernels(X[:, :2], metric="rbf", gamma=0.5)
    noise = rng.normal(size=(80, 10))
    K_random = noise @ noise.T / 10
    for loss in LOSSES:
        model = SimpleMKL("precomputed", loss=loss, C=1.0).fit(
            np.stack([K_informative, K_random], axis=-1), y)
        assert model.weights_[0] > 0.8, loss


def test_warm_start_reaches_the_cold_optimum(rng):
    X, y = make_classification(n_samples=150, n_features=6, random_state=0)
    Ks = _gram_stack(StandardScaler().fit_transform(X), gammas=(0.01, 0.05, 0.2, 1.0))
    warm = SimpleMKL("precomputed", C=1.0, tol=1e-4).fit(_last(Ks), y)
    cold = SimpleMKL("precomputed", C=1.0, tol=1e-4, warm_start=False).fit(_last(Ks), y)
    assert warm.objective_history_[-1] == pytest.approx(cold.objective_history_[-1], rel=1e-4)
    np.testing.assert_allclose(warm.weights_, cold.weights_, atol=2e-2)


@pytest.mark.parametrize("loss", LOSSES)
def test_warm_refit_starts_from_the_previous_weights(loss):
    X, y = make_classification(n_samples=120, n_features=6, n_classes=3, n_informative=4,
                               random_state=1)
    Ks = _last(_gram_stack(StandardScaler().fit_transform(X), gammas=(0.01, 0.05, 0.2, 1.0)))
    model = SimpleMKL("precomputed", loss=loss, C=1.0, tol=1e-4).fit(Ks, y)
    weights, scores = model.weights_.copy(), model.decision_function(Ks)
    # same data: the previous optimum passes the duality-gap test at once
    model.fit(Ks, y)
    assert model.n_iter_ == 1
    np.testing.assert_array_equal(model.weights_, weights)
    np.testing.assert_allclose(model.decision_function(Ks), scores, rtol=1e-6, atol=1e-6)
    # another C: from the previous weights to the optimum a cold fit finds
    warm = model.set_params(C=5.0).fit(Ks, y)
    cold = SimpleMKL("precomputed", loss=loss, C=5.0, tol=1e-4, warm_start=False).fit(Ks, y)
    assert warm.objective_history_[-1] == pytest.approx(cold.objective_history_[-1], rel=1e-3)
    np.testing.assert_allclose(warm.weights_, cold.weights_, atol=3e-2)


def test_cold_refit_ignores_the_previous_fit():
    X, y = make_classification(n_samples=100, n_features=6, random_state=2)
    Ks = _last(_gram_stack(StandardScaler().fit_transform(X)))
    model = SimpleMKL("precomputed", C=1.0, warm_start=False).fit(Ks, y)
    first = (model.weights_.copy(), model.n_iter_, model.objective_history_.copy())
    model.fit(Ks, y)
    np.testing.assert_array_equal(model.weights_, first[0])
    assert model.n_iter_ == first[1]
    np.testing.assert_array_equal(model.objective_history_, first[2])


@pytest.mark.parametrize("n_vectors", [None, 1, 3])
@pytest.mark.parametrize("support_fraction", [0.1, 0.6, 1.0])
def test_quadratic_forms_read_the_support_rows_only(n_vectors, support_fraction, rng):
    n = 40
    A = rng.normal(size=(3, n, n))
    Ks = _last(A @ A.transpose(0, 2, 1))
    C = rng.normal(size=(n,) if n_vectors is None else (n, n_vectors))
    C[rng.permutation(n)[: round((1 - support_fraction) * n)]] = 0.0
    columns = C.reshape(n, -1)
    expected = sum(np.einsum("i,ijm,j->m", c, Ks, c) for c in columns.T)
    # the rows of the zero coefficients are not read: NaN there changes nothing
    Ks_poisoned = Ks.copy()
    Ks_poisoned[~np.any(columns != 0, axis=1)] = np.nan
    np.testing.assert_allclose(quadratic_forms(Ks_poisoned, C), expected, rtol=1e-12)


def test_results_do_not_depend_on_threads(rng):
    X, y = _classification(rng)
    kernels = [VectorKernel("rbf", gamma=g) for g in (0.05, 0.5)] + [VectorKernel("linear")]
    one = SimpleMKL(kernels, n_jobs=1).fit(X, y)
    two = SimpleMKL(kernels, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.weights_, two.weights_)
    np.testing.assert_array_equal(one.decision_function(X), two.decision_function(X))


def test_multiclass_shares_the_weights():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)[:90]
    y3 = np.digitize(X[:, 0], [-0.5, 0.5])          # three classes from the first feature
    kernels = [VectorKernel("linear"), VectorKernel("rbf", gamma=0.5)]
    for loss in LOSSES:
        model = SimpleMKL(kernels, loss=loss, C=10.0).fit(X, y3)
        assert model.weights_.shape == (2,) and model.score(X, y3) > 0.9, loss
        assert set(model.predict(X[:20])) <= set(model.classes_)


def _lasso_squared_solution(X, y, lambda_):
    """Direct solver of (1/n)‖Xβ − y‖² + λ(Σ|β_i|)², with β = β⁺ − β⁻ ≥ 0 (L-BFGS-B)."""
    n, p = X.shape

    def objective(z):
        plus, minus = z[:p], z[p:]
        residual = X @ (plus - minus) - y
        total = plus.sum() + minus.sum()
        grad_beta = 2 * X.T @ residual / n
        return (residual @ residual / n + lambda_ * total ** 2,
                np.concatenate([grad_beta + 2 * lambda_ * total, -grad_beta + 2 * lambda_ * total]))

    result = minimize(objective, np.zeros(2 * p), jac=True, method="L-BFGS-B",
                      bounds=[(0, None)] * (2 * p), options={"ftol": 1e-15, "gtol": 1e-12,
                                                             "maxiter": 10000})
    return result.x[:p] - result.x[p:], result.fun


@pytest.mark.parametrize("model", ["group_lasso", "simple_mkl"])
def test_rank_one_kernels_give_the_lasso_penalty(model, rng):
    # D24: K_i = x_i x_iᵀ; MKL is min R(Xβ) + λ(Σ|β_i|)²
    X = rng.normal(size=(40, 5))
    y = X @ np.array([1.5, -1.0, 0.0, 0.0, 0.3]) + 0.1 * rng.normal(size=40)
    Ks = np.stack([np.outer(X[:, i], X[:, i]) for i in range(5)])
    C = 5.0
    lambda_ = 1.0 / (2 * 40 * C)
    beta, value = _lasso_squared_solution(X, y, lambda_)
    if model == "group_lasso":
        fitted = GroupLassoMKL("precomputed", C=C, tol=1e-10, max_iter=5000).fit(_last(Ks), y)
    else:
        fitted = SimpleMKLRegressor("precomputed", C=C, tol=1e-8, max_iter=500).fit(_last(Ks),
                                                                                     y)
    # β_i = η_i x_iᵀγ: the coefficient of feature i in f = Σ_i f_i
    fitted_beta = fitted.weights_ * (X.T @ fitted.dual_coef_)
    assert fitted.objective_history_[-1] == pytest.approx(value, rel=1e-5)
    np.testing.assert_allclose(fitted_beta, beta, atol=2e-3)


@pytest.mark.parametrize("verbose", [1, 2])
def test_group_lasso_verbose_reports_each_iteration(verbose, rng, capsys, monkeypatch):
    # a line per iteration (verbose=2, or 1 with a clock that is always due), then the final
    # one; the same fit as a silent one
    from kernelkit.utils import _progress

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)
    X, y = _classification(rng, n=40)
    Ks = _last(_gram_stack(X))
    quiet = GroupLassoMKL("precomputed", tol=1e-10, max_iter=30).fit(Ks, y)
    assert capsys.readouterr().err == ""
    loud = GroupLassoMKL("precomputed", tol=1e-10, max_iter=30, verbose=verbose).fit(Ks, y)
    np.testing.assert_array_equal(quiet.weights_, loud.weights_)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == loud.n_iter_ + 1 and loud.n_iter_ > 1
    assert lines[0].startswith("[GroupLassoMKL] iteration 1: J ")
    assert lines[-1].startswith(f"[GroupLassoMKL] {loud.n_iter_} iterations, J ")


@pytest.mark.parametrize("r", [1.0, 2.0, 4.0])
def test_group_lasso_r_norm_is_the_optimum_on_its_sphere(r, rng):
    # Micchelli–Pontil: min over {η ≥ 0, Σ η^r = 1} of J(K_η), checked against SLSQP
    X, y = _classification(rng, n=40)
    Ks = _gram_stack(X)
    C = 1.0
    lambda_ = 1.0 / (2 * 40 * C)
    model = GroupLassoMKL("precomputed", r=r, C=C, tol=1e-10, max_iter=5000).fit(_last(Ks), y)
    assert np.sum(model.weights_ ** r) == pytest.approx(1.0)
    assert np.all(np.diff(model.objective_history_) <= 1e-12)

    def J(eta):
        return kernel_objective(sum_kernel(Ks, np.abs(eta)), y, "squared", lambda_).value

    direct = minimize(J, np.full(3, 3 ** (-1 / r)), method="SLSQP", bounds=[(0, 1)] * 3,
                      constraints=[{"type": "eq", "fun": lambda e: np.sum(e ** r) - 1}],
                      options={"ftol": 1e-14})
    assert model.objective_history_[-1] == pytest.approx(direct.fun, rel=1e-5)


def test_structured_kernels_on_mutag():
    mutag = load_mutag()
    graphs, y = mutag.graphs, mutag.target
    kernels = [WeisfeilerLehmanKernel(n_iter=h, normalize=True) for h in (1, 3)] + [
        ShortestPathKernel(normalize=True)]
    model = SimpleMKL(kernels, C=10.0)
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    scores = cross_val_score(model, graphs, y, cv=cv)
    assert scores.mean() > 0.8
    fitted = model.fit(graphs, y)
    assert fitted.weights_.shape == (3,) and fitted.weights_.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("bad, match", [
    (dict(kernels=[]), "kernels is empty"),
    (dict(kernels=["precomputed", "rbf"]), "cannot be mixed"),
    (dict(kernels="precomputed"), "stack of square Gram"),
    (dict(kernels="precomputed"), r"\(n_samples, n_samples_train, n_kernels\)"),
])
def test_bad_input(bad, match, rng):
    X, y = _classification(rng, n=10)
    with pytest.raises(ValueError, match=match):
        SimpleMKL(**bad).fit(X, y)
    with pytest.raises(ValueError, match="greater than one"):
        SimpleMKL(["rbf"]).fit(X, np.ones(10))


def test_precomputed_stack_in_cross_validation(rng):
    # kernels last: scikit-learn's pairwise split gives the train × train and test × train blocks
    X, y = _classification(rng, n=80)
    Ks = _last(_gram_stack(X))
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    scores = cross_val_score(SimpleMKL("precomputed", C=1.0), Ks, y, cv=cv)
    direct = cross_val_score(SimpleMKL([VectorKernel("rbf", gamma=g) for g in (0.05, 0.5, 5.0)],
                                       C=1.0), X, y, cv=cv)
    np.testing.assert_allclose(scores, direct)


def test_simple_mkl_regressor_refuses_targets_whose_objective_overflows():
    # the boundary moves of the reduced gradient looped forever on NaN objectives
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.where(np.arange(20) % 2, 1e300, -1e300)
    with pytest.raises(ValueError, match="y has entries as large as"):
        SimpleMKLRegressor(["linear", "rbf"]).fit(X, y)


@pytest.mark.parametrize("Ks, match", [
    ([np.eye(3), np.eye(4)], r"Ks\[1\] has shape \(4, 4\), Ks\[0\] has shape \(3, 3\)"),
    ([np.eye(3), np.eye(3), np.ones((3, 2))], r"Ks\[2\] has shape \(3, 2\), Ks\[0\] has "
                                              r"shape \(3, 3\)"),
    ([np.ones(3), np.ones(3)], r"Ks\[0\] has shape \(3,\), Ks\[0\] has shape \(3,\): the Gram "
                               r"matrices of Ks must be 2-d"),
], ids=["square", "rectangular", "1-d"])
def test_sum_kernel_names_grams_of_different_shapes(Ks, match):
    with pytest.raises(ValueError, match=match):
        sum_kernel(Ks)
