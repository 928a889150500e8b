"""The exam EM models on the shared EM driver: Poisson mixtures (coverage entry B9) and mixtures of
linear regressions (B10). Monotone likelihood (Sangnier Theorem 53), the exams' E/M formulas,
Prop 52's lower bound, parameter recovery."""

import warnings

import numpy as np
import pytest
from scipy.special import gammaln
from scipy.stats import norm, poisson
from sklearn.exceptions import ConvergenceWarning

from kernelkit.mixture import GaussianMixture, MixtureOfLinearRegressions, PoissonMixture
from kernelkit.mixture._mixture_regression import _Design
from kernelkit.mixture._mixture_regression import _weighted_log_prob as regression_log_prob
from kernelkit.mixture._poisson_mixture import _m_step as poisson_m_step
from kernelkit.mixture._poisson_mixture import _weighted_log_prob as poisson_log_prob


def _poisson_data(seed, n=600):
    rng = np.random.default_rng(seed)
    z = rng.uniform(size=n) < 0.35
    counts = np.where(z[:, None], rng.poisson([3.0, 12.0], (n, 2)), rng.poisson([9.0, 1.0], (n, 2)))
    return counts.astype(float), z


def _exam_data(seed, n=1500, alpha=0.3, beta=(1.5, -2.0), sigma=0.4, b=(1.0, -1.0)):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, len(beta)))
    Y = np.where(rng.uniform(size=n) < alpha, b[0], b[1])
    return A, A @ np.asarray(beta) + Y + sigma * rng.normal(size=n)


EXAM = dict(offsets=[1.0, -1.0], shared_coef=True, shared_variance=True, fit_intercept=False)


def _quiet_fit(model, *data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(*data)


@pytest.mark.parametrize("init_params", ["kmeans", "random"])
def test_poisson_log_likelihood_never_decreases(random_seed, init_params):
    X, _ = _poisson_data(random_seed)
    model = _quiet_fit(PoissonMixture(3, tol=0.0, max_iter=40, init_params=init_params,
                                      random_state=random_seed), X)
    history = model.lower_bound_history_
    assert len(history) == model.n_iter_ == 40
    assert np.all(np.diff(history) >= -1e-12 * np.abs(history[1:]))


@pytest.mark.parametrize("shared_coef", [False, True])
@pytest.mark.parametrize("shared_variance", [False, True])
def test_regression_log_likelihood_never_decreases(random_seed, shared_coef, shared_variance):
    # exact EM, and the ECM step of shared coefficients with separate variances
    rng = np.random.default_rng(random_seed)
    X = rng.normal(size=(300, 2))
    z = rng.integers(0, 3, 300)
    y = np.choose(z, [X @ [1.0, 2.0], 3 - X @ [1.0, 0.5], -2 + 0.5 * X[:, 0]])
    y = y + rng.normal(size=300) * np.array([0.2, 0.5, 1.0])[z]
    model = _quiet_fit(MixtureOfLinearRegressions(3, shared_coef=shared_coef,
                                                  shared_variance=shared_variance, reg_var=0.0,
                                                  tol=0.0, max_iter=40,
                                                  random_state=random_seed), X, y)
    history = model.lower_bound_history_
    assert np.all(np.diff(history) >= -1e-12 * np.abs(history[1:]))
    # the final parameters' likelihood is at least the last E step's
    assert model.conditional_log_density(X, y).mean() >= history[-1] - 1e-12 * abs(history[-1])


def test_poisson_e_and_m_steps_are_the_exams(rng):
    # coverage entry B9: p_i = π λ1^x e^{−λ1} / (π λ1^x e^{−λ1} + (1 − π) λ0^x e^{−λ0}); M step
    # π = mean p, λ1 = Σ p x / Σ p, λ0 = Σ (1 − p) x / Σ (1 − p)
    x = rng.poisson(5.0, 50).astype(float)
    pi, lam1, lam0 = 0.4, 2.0, 7.0
    weighted = poisson_log_prob(x[:, None], np.array([pi, 1 - pi]), np.array([[lam1], [lam0]]),
                                gammaln(x + 1.0)[:, None])
    resp = np.exp(weighted - np.logaddexp(weighted[:, 0], weighted[:, 1])[:, None])
    one = pi * lam1**x * np.exp(-lam1)
    p = one / (one + (1 - pi) * lam0**x * np.exp(-lam0))
    np.testing.assert_allclose(resp[:, 0], p, rtol=1e-12)
    np.testing.assert_allclose(weighted, np.log([pi, 1 - pi]) + poisson.logpmf(
        x[:, None], [lam1, lam0]), rtol=1e-12)
    weights, rates = poisson_m_step(x[:, None], np.column_stack([p, 1 - p]))
    np.testing.assert_allclose(weights, [p.mean(), 1 - p.mean()], rtol=1e-12)
    np.testing.assert_allclose(rates[:, 0], [p @ x / p.sum(), (1 - p) @ x / (1 - p).sum()],
                               rtol=1e-12)


def test_regression_m_step_is_the_exams_closed_form(rng):
    # coverage entry B10: β = (AᵀA)⁻¹Aᵀ(X − (p b1 + (1 − p) b2)),
    # σ² = (1/n) Σ [p r1² + (1 − p) r2²], α = mean p
    A, X = _exam_data(1, n=200)
    p = rng.uniform(size=200)
    model = MixtureOfLinearRegressions(2, reg_var=0.0, **EXAM)
    design = _Design(A, False, 2, True)
    weights, coef, intercepts, variances = model._m_step(
        design, X, np.column_stack([p, 1 - p]), np.array([1.0, -1.0]), np.ones(2))
    beta = np.linalg.solve(A.T @ A, A.T @ (X - (p * 1.0 + (1 - p) * -1.0)))
    np.testing.assert_allclose(coef, [beta, beta], rtol=1e-10)
    r1, r2 = X - A @ beta - 1.0, X - A @ beta + 1.0
    np.testing.assert_allclose(variances, np.mean(p * r1**2 + (1 - p) * r2**2), rtol=1e-10)
    np.testing.assert_allclose(weights, [p.mean(), 1 - p.mean()], rtol=1e-12)
    np.testing.assert_array_equal(intercepts, [1.0, -1.0])


def test_lower_bound_of_prop_52(rng):
    # Sangnier Prop 52: log m_θ(X) ≥ F(θ|θ') + H(θ'), with equality at θ' = θ. F is the
    # expected complete log-likelihood under the posterior of θ', H that posterior's entropy.
    X, _ = _poisson_data(3, n=100)
    log_fact = gammaln(X + 1.0)

    def parameters():
        return rng.dirichlet(np.ones(2)), rng.uniform(0.5, 12.0, size=(2, 2))

    def log_likelihood(theta):
        return np.logaddexp.reduce(poisson_log_prob(X, *theta, log_fact), axis=1).sum()

    def bound(theta, theta_prime):
        w = poisson_log_prob(X, *theta_prime, log_fact)
        q = np.exp(w - np.logaddexp.reduce(w, axis=1)[:, None])
        return (q * poisson_log_prob(X, *theta, log_fact)).sum() - (q * np.log(q)).sum()

    for _ in range(5):
        theta, theta_prime = parameters(), parameters()
        assert bound(theta, theta_prime) <= log_likelihood(theta) + 1e-9
        assert bound(theta, theta) == pytest.approx(log_likelihood(theta), rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_poisson_parameter_recovery(seed):
    X, _ = _poisson_data(seed, n=3000)
    model = PoissonMixture(2, n_init=3, random_state=seed).fit(X)
    order = np.argsort(model.rates_[:, 0])
    np.testing.assert_allclose(model.rates_[order], [[3.0, 12.0], [9.0, 1.0]], atol=0.4)
    np.testing.assert_allclose(model.weights_[order], [0.35, 0.65], atol=0.04)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exam_regression_parameter_recovery(seed):
    A, X = _exam_data(seed)
    model = MixtureOfLinearRegressions(2, n_init=3, random_state=seed, **EXAM).fit(A, X)
    np.testing.assert_allclose(model.coef_[0], [1.5, -2.0], atol=0.05)
    assert model.weights_[0] == pytest.approx(0.3, abs=0.04)
    assert model.variances_[0] == pytest.approx(0.16, abs=0.03)


def test_general_regression_mixture_recovers_two_lines():
    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 3, size=(1000, 1))
    z = rng.uniform(size=1000) < 0.5
    y = np.where(z, 2.0 * x[:, 0] + 1.0, -1.0 * x[:, 0]) + 0.2 * rng.normal(size=1000)
    model = MixtureOfLinearRegressions(2, n_init=5, random_state=0).fit(x, y)
    order = np.argsort(model.coef_[:, 0])
    np.testing.assert_allclose(model.coef_[order, 0], [-1.0, 2.0], atol=0.05)
    np.testing.assert_allclose(model.intercept_[order], [0.0, 1.0], atol=0.05)
    np.testing.assert_allclose(np.sqrt(model.variances_), 0.2, atol=0.03)
    proba = model.predict_proba(x, y)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_allclose(model.predict_proba(x[:3]), np.tile(model.weights_, (3, 1)))
    # posterior of the true line
    assert np.mean(proba[:, order[1]][z] > 0.5) > 0.9
    np.testing.assert_allclose(model.predict(x), (x @ model.coef_.T + model.intercept_)
                               @ model.weights_)


def test_density_criteria_and_sampling():
    X, _ = _poisson_data(4)
    model = PoissonMixture(2, random_state=0).fit(X)
    density = np.exp(model.score_samples(X))
    expected = sum(w * poisson.pmf(X, rate).prod(axis=1)
                   for w, rate in zip(model.weights_, model.rates_))
    np.testing.assert_allclose(density, expected, rtol=1e-10)
    n = X.shape[0]
    np.testing.assert_allclose(model.bic(X) - model.aic(X), 5 * (np.log(n) - 2), rtol=1e-12)
    draws, components = model.sample(20000, random_state=0)
    np.testing.assert_allclose(np.bincount(components) / 20000, model.weights_, atol=0.02)
    np.testing.assert_allclose(draws[components == 0].mean(axis=0), model.rates_[0], rtol=0.05)

    A, y = _exam_data(0, n=300)
    regression = MixtureOfLinearRegressions(2, random_state=0, **EXAM).fit(A, y)
    log_density = np.log(sum(w * norm.pdf(y, A @ c + b, np.sqrt(v)) for w, c, b, v in zip(
        regression.weights_, regression.coef_, regression.intercept_, regression.variances_)))
    np.testing.assert_allclose(regression.conditional_log_density(A, y), log_density, rtol=1e-10)
    # m = 1 weight + 2 coefficients + 1 variance
    assert regression._n_parameters() == 4
    np.testing.assert_allclose(regression.bic(A, y),
                               -2 * log_density.sum() + 4 * np.log(300), rtol=1e-10)


def test_regression_log_prob_formula(rng):
    X, y = rng.normal(size=(10, 2)), rng.normal(size=10)
    coef, intercepts = rng.normal(size=(3, 2)), rng.normal(size=3)
    variances, weights = rng.uniform(0.5, 2, size=3), rng.dirichlet(np.ones(3))
    got = regression_log_prob(X, y, weights, coef, intercepts, variances)
    want = np.log(weights) + norm.logpdf(y[:, None], X @ coef.T + intercepts, np.sqrt(variances))
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_bad_input():
    with pytest.raises(ValueError, match="non-negative counts"):
        PoissonMixture(2).fit([[1.0], [-1.0], [3.0]])
    with pytest.raises(ValueError, match="larger than"):
        PoissonMixture(4).fit([[1.0], [2.0], [3.0]])
    with pytest.raises(ValueError, match="offsets"):
        MixtureOfLinearRegressions(2, offsets=[1.0]).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="overflow float64"):
        MixtureOfLinearRegressions(2).fit([[0.0], [1e200], [2.0]], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="exactly"):
        MixtureOfLinearRegressions(1, reg_var=0.0).fit([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0])
    model = MixtureOfLinearRegressions(2, random_state=0).fit([[0.0], [1.0], [2.0], [3.0]],
                                                              [0.0, 1.0, 3.0, 2.0])
    with pytest.raises(ValueError, match="y must have shape"):
        model.predict_proba([[0.0], [1.0]], [0.0])


@pytest.mark.parametrize("Model", [GaussianMixture, PoissonMixture, MixtureOfLinearRegressions])
def test_verbose_prints_one_line_per_init_and_iteration_blocks_at_2(Model, capsys):
    if Model is MixtureOfLinearRegressions:
        data = _exam_data(0, n=300)
    else:
        data = (_poisson_data(0, n=300)[0],)
    # tol=0: every run takes its max_iter=30 iterations, three blocks of ten
    params = dict(n_components=2, n_init=2, tol=0.0, max_iter=30, random_state=0)
    quiet = _quiet_fit(Model(**params), *data)
    assert capsys.readouterr().err == ""
    loud = _quiet_fit(Model(verbose=1, **params), *data)
    np.testing.assert_array_equal(quiet.lower_bound_history_, loud.lower_bound_history_)
    lines = capsys.readouterr().err.splitlines()
    name = Model.__name__
    assert [line.split(":")[0] for line in lines] == [f"[{name}] init 1 of 2",
                                                      f"[{name}] init 2 of 2"]
    assert all(" iterations, " in line for line in lines)
    detailed = _quiet_fit(Model(verbose=2, **params), *data)
    np.testing.assert_array_equal(quiet.lower_bound_history_, detailed.lower_bound_history_)
    lines = capsys.readouterr().err.splitlines()
    blocks = [line for line in lines if ", iteration " in line]
    assert len(lines) == 8 and [line.split(":")[0] for line in blocks] == [
        f"[{name}] init {i} of 2, iteration {n}" for i in (1, 2) for n in (10, 20, 30)]
