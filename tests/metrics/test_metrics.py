"""kernelkit.metrics: loss derivatives (finite differences), calibration (coverage entry E4), the
bias–variance decomposition of ridge under orthogonal design (E3, A2's closed forms), the
Rademacher complexity of norm balls (E5)."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn.linear_model import Ridge

from kernelkit.kernels import linear_kernel, rbf_kernel
from kernelkit.metrics import (
    MARGIN_LOSSES,
    REGRESSION_LOSSES,
    bias_variance,
    calibration_function,
    conditional_risk,
    empirical_rademacher_complexity,
    excess_risk_bound,
    margin_loss,
    margin_loss_derivative,
    rademacher_bound,
    regression_loss,
    regression_loss_derivative,
)


@pytest.mark.parametrize("loss", MARGIN_LOSSES)
def test_margin_loss_derivatives_match_finite_differences(loss):
    u = np.linspace(-3, 3, 61) + 0.013          # off the hinges' kink at u = 1
    h = 1e-6
    numeric = (margin_loss(u + h, loss) - margin_loss(u - h, loss)) / (2 * h)
    np.testing.assert_allclose(margin_loss_derivative(u, loss), numeric, rtol=1e-6, atol=1e-8)
    # non-increasing losses (Mairal & Vert "Large-margin classifiers") with φ'(0) < 0
    assert np.all(np.diff(margin_loss(u, loss)) <= 0)
    assert margin_loss_derivative(0.0, loss) < 0


@pytest.mark.parametrize("loss", REGRESSION_LOSSES)
def test_regression_loss_derivatives_match_finite_differences(loss):
    y = np.zeros(81)
    u = np.linspace(-4, 4, 81) + 0.0037         # off the kinks at ±ε and the origin
    h = 1e-6
    numeric = (regression_loss(y, u + h, loss, epsilon=0.5, delta=1.3)
               - regression_loss(y, u - h, loss, epsilon=0.5, delta=1.3)) / (2 * h)
    np.testing.assert_allclose(regression_loss_derivative(y, u, loss, epsilon=0.5, delta=1.3),
                               numeric, rtol=1e-6, atol=1e-8)


def test_regression_losses_formulas():
    r = np.array([-3.0, -0.4, 0.0, 0.2, 2.0])
    np.testing.assert_allclose(regression_loss(0.0, r, "squared"), r**2)
    np.testing.assert_allclose(regression_loss(1.0, r + 1.0, "epsilon_insensitive", epsilon=0.5),
                               [2.5, 0.0, 0.0, 0.0, 1.5])
    np.testing.assert_allclose(regression_loss(0.0, r, "huber", delta=1.0),
                               [2.5, 0.08, 0.0, 0.02, 1.5])


@pytest.mark.parametrize("loss", MARGIN_LOSSES)
def test_calibration_sign_of_the_minimiser_is_bayes(loss):
    # coverage entry E4: the numerical minimiser u*(η) of η φ(u) + (1 − η) φ(−u) has the sign of
    # 2η − 1, and equals the closed form
    for eta in [0.05, 0.2, 0.4, 0.45, 0.55, 0.6, 0.8, 0.95]:
        grid = np.linspace(-8, 8, 16001)
        start = grid[np.argmin(conditional_risk(grid, eta, loss))]
        result = minimize_scalar(lambda u: float(conditional_risk(u, eta, loss)),
                                 bounds=(start - 0.01, start + 0.01), method="bounded",
                                 options={"xatol": 1e-10})
        u_star = result.x
        assert np.sign(u_star) == np.sign(2 * eta - 1)
        expected = calibration_function(eta, loss)
        if loss == "hinge":
            # piecewise linear: the minimum is attained at ±1
            assert conditional_risk(expected, eta, loss) <= result.fun + 1e-12
        else:
            assert u_star == pytest.approx(expected, abs=1e-6)


def test_calibration_closed_forms():
    eta = np.array([0.1, 0.5, 0.75])
    logit = np.log(eta / (1 - eta))
    np.testing.assert_allclose(calibration_function(eta, "logistic"), logit)
    np.testing.assert_allclose(calibration_function(eta, "exponential"), logit / 2)
    np.testing.assert_allclose(calibration_function(eta, "squared_hinge"), 2 * eta - 1)
    np.testing.assert_array_equal(calibration_function(eta, "hinge"), [-1, 0, 1])
    np.testing.assert_allclose(calibration_function(eta, "squared_sigmoid"), logit)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        calibration_function(1.5, "logistic")


def test_bias_variance_of_ridge_under_orthogonal_design(rng):
    # coverage entry A2 (MV "Performance of ridge regression"): with XᵀX = n I, ridge
    # (1/n)‖y − Xβ‖² + λ‖β‖² has E β̂ = β/(1 + λ) and Var β̂ = σ²/(n (1 + λ)²) I, hence at x_0
    # bias = −λ/(1 + λ) x_0ᵀβ and variance = σ² ‖x_0‖² / (n (1 + λ)²)
    n, p, lam, sigma = 64, 4, 0.5, 0.8
    X = np.linalg.qr(rng.normal(size=(n, p)))[0] * np.sqrt(n)
    beta = np.array([1.0, -2.0, 0.5, 3.0])
    X_test = rng.normal(size=(10, p))
    result = bias_variance(Ridge(alpha=n * lam, fit_intercept=False), X, lambda Z: Z @ beta,
                           noise_std=sigma, X_test=X_test, n_repeats=400, random_state=0)
    bias2 = np.mean((lam / (1 + lam) * X_test @ beta) ** 2)
    variance = sigma**2 * np.mean(np.sum(X_test**2, axis=1)) / (n * (1 + lam) ** 2)
    assert result.variance == pytest.approx(variance, rel=0.15)
    assert result.bias2 == pytest.approx(bias2, rel=0.05)
    assert result.noise == sigma**2
    total = result.bias2 + result.variance + result.noise
    assert abs(total - result.risk) <= 3 * result.risk_std_error
    assert result.predictions.shape == (400, 10)


def test_rademacher_complexity_of_a_ball(rng):
    X = rng.normal(size=(50, 3)) * [1.0, 2.0, 0.5]
    empirical = empirical_rademacher_complexity(X, radius=2.0, n_draws=2000, random_state=0)
    bound = rademacher_bound(X, radius=2.0)
    assert empirical <= bound                       # Jensen (Mairal & Vert, the theorem's proof)
    assert empirical >= 0.8 * bound                 # and not loose for Gaussian rows
    # the supremum over the ball is attained at β ∝ Σ σ_i x_i, where it is (2B/n) ‖Σ σ_i x_i‖
    signs = np.random.RandomState(0).choice([-1.0, 1.0], size=(2000, 50))
    sums = signs @ X
    best = 2.0 * sums / np.linalg.norm(sums, axis=1, keepdims=True)       # ‖β‖ = B = 2
    sup = np.abs(2 / 50 * np.einsum("ri,ij,rj->r", signs, X, best))
    assert empirical == pytest.approx(sup.mean(), rel=1e-12)
    # an RKHS ball with the linear kernel is the same ball
    assert empirical_rademacher_complexity(linear_kernel(X), radius=2.0, precomputed=True,
                                           n_draws=2000, random_state=0) == pytest.approx(
        empirical, rel=1e-10)
    assert rademacher_bound(linear_kernel(X), 2.0, precomputed=True) == pytest.approx(bound)
    # an RBF ball: k(x, x) = 1, so the bound is 2B/sqrt(n) (κ = 1)
    K = rbf_kernel(X, gamma=0.5)
    assert rademacher_bound(K, 1.0, precomputed=True) == pytest.approx(2 / np.sqrt(50))
    assert empirical_rademacher_complexity(K, precomputed=True, random_state=0) <= 2 / np.sqrt(50)
    # Corollary: 4 L Rad ≤ 8 L κ B / sqrt(n)
    assert 4 * rademacher_bound(K, 1.0, precomputed=True) == pytest.approx(
        excess_risk_bound(radius=1.0, kappa=1.0, lipschitz=1.0, n_samples=50))


def test_bad_input():
    with pytest.raises(ValueError, match="square"):
        rademacher_bound(np.ones((3, 2)), precomputed=True)
    with pytest.raises(ValueError, match="shape"):
        bias_variance(Ridge(), np.ones((5, 2)), lambda X: np.ones(3), noise_std=1.0)
    with pytest.raises(ValueError):
        margin_loss(0.0, "no-such-loss")


@pytest.mark.parametrize("call, name", [
    (lambda: margin_loss(np.array([1.0, None], dtype=object)), "u"),
    (lambda: margin_loss_derivative(["a"]), "u"),
    (lambda: margin_loss(np.array([1.0, "2"], dtype=object)), "u"),
    (lambda: margin_loss([1.0, 1j]), "u"),
    (lambda: calibration_function([0.2, None]), "eta"),
    (lambda: conditional_risk([0.0], np.array([None], dtype=object)), "eta"),
    (lambda: regression_loss([1.0, 2.0], np.array([1.0, None], dtype=object)), "y_pred"),
], ids=["object-None", "string", "object-string", "complex", "None-eta", "object-None-eta",
        "None-prediction"])
def test_losses_refuse_values_that_are_not_numbers(call, name):
    with pytest.raises(TypeError, match=f"^{name} must hold real numbers"):
        call()


@pytest.mark.parametrize("call, name", [
    (lambda: margin_loss([0.5, np.nan], "logistic"), "u"),
    (lambda: conditional_risk(0.0, np.nan), "eta"),
    (lambda: conditional_risk(np.zeros(2), [0.5, np.nan]), "eta"),
    (lambda: regression_loss([1.0, np.nan], [1.0, 2.0]), "y_true"),
], ids=["nan", "nan-eta", "nan-eta-array", "nan-target"])
def test_losses_refuse_nan(call, name):
    with pytest.raises(ValueError, match=f"^{name} has NaN values"):
        call()


def test_losses_accept_an_object_array_of_numbers():
    np.testing.assert_array_equal(margin_loss(np.array([0.0, 2], dtype=object)),
                                  margin_loss([0.0, 2.0]))


def test_losses_name_mismatched_lengths():
    with pytest.raises(ValueError, match=r"y_pred of shape \(4,\) and y_true of shape \(5,\)"):
        regression_loss(np.zeros(5), np.zeros(4))
    with pytest.raises(ValueError, match=r"u of shape \(3,\) and eta of shape \(2,\)"):
        conditional_risk(np.zeros(3), [0.1, 0.2])
    # broadcasting a single value stays allowed
    np.testing.assert_array_equal(regression_loss(np.zeros(3), 1.0), np.ones(3))


@pytest.mark.parametrize("K, problem", [
    (-np.eye(3), "negative diagonal"),
    (np.array([[1.0, 2.0], [2.0, 1.0]]), "not positive semi-definite"),
    (np.array([[1.0, 0.5], [0.0, 1.0]]), "not symmetric"),
], ids=["negative-identity", "indefinite", "asymmetric"])
def test_rademacher_bound_refuses_a_gram_that_is_not_psd(K, problem):
    # the bound 2B sqrt(mean k(x, x)) / sqrt(n) holds for a kernel only (it would be NaN here)
    with pytest.raises(ValueError, match=f"The Gram matrix X .*{problem}"):
        rademacher_bound(K, precomputed=True)
