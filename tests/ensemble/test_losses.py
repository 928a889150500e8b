"""The loss module shared by the first- and second-order gradient boosting: derivatives against
finite differences of the values, weights, baselines, line searches, weighted percentiles, and
one loss object per loss for both estimator families."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from kernelkit.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from kernelkit.ensemble._losses import (
    AbsoluteError,
    ExponentialLoss,
    HalfBinomialLoss,
    HalfMultinomialLoss,
    HalfPoissonLoss,
    HalfSquaredError,
)
from kernelkit.utils._quantiles import weighted_percentile

LOSSES = [HalfSquaredError(), AbsoluteError(), AbsoluteError("lower"), HalfPoissonLoss(),
          HalfBinomialLoss(), ExponentialLoss(), HalfMultinomialLoss(3),
          HalfMultinomialLoss(3, centered=False)]


def _problem(loss, n=40, seed=0):
    """Targets, raw scores (away from the absolute error's kink) and weights."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(n, loss.n_columns))
    if isinstance(loss, (HalfBinomialLoss, ExponentialLoss, HalfMultinomialLoss)):
        y = rng.integers(0, max(2, loss.n_columns), n).astype(np.float64)
    else:
        y = np.abs(rng.normal(size=n)) + 0.1
        y[np.abs(y - raw[:, 0]) < 1e-2] += 0.1
    return y, raw, rng.uniform(0.5, 2.0, n)


def _per_sample(loss, y, raw):
    return np.array([loss(y[i:i + 1], raw[i:i + 1]) for i in range(len(y))])


@pytest.mark.parametrize("loss", LOSSES, ids=lambda loss: repr(type(loss).__name__))
def test_gradients_and_hessians_are_the_derivatives_of_the_value(loss):
    y, raw, weight = _problem(loss)
    K, h = loss.n_columns, 1e-5
    gradients = np.empty((K, len(y)), dtype=np.float32)
    hessians = np.ones((K, len(y)), dtype=np.float32)
    loss.gradient_hessian(y, raw, weight, gradients, hessians, 1)
    for k in range(K):
        step = np.zeros_like(raw)
        step[:, k] = h
        up, middle, down = (_per_sample(loss, y, raw + s * step) for s in (1, 0, -1))
        slope = (up - down) / (2 * h)
        np.testing.assert_allclose(-loss.negative_gradient(y, raw)[:, k], slope, rtol=1e-6,
                                   atol=1e-8)
        np.testing.assert_allclose(gradients[k], weight * slope, rtol=1e-5, atol=1e-6)
        # the absolute error's Hessian is 1 by convention (the loss is piecewise linear)
        if loss.differentiable:
            curvature = (up - 2 * middle + down) / h**2
            np.testing.assert_allclose(hessians[k], weight * curvature, rtol=1e-3, atol=1e-3)
        else:
            np.testing.assert_array_equal(hessians[k], weight.astype(np.float32))


@pytest.mark.parametrize("loss", LOSSES, ids=lambda loss: repr(type(loss).__name__))
def test_the_value_is_the_weighted_mean(loss):
    y, raw, weight = _problem(loss, seed=1)
    per_sample = _per_sample(loss, y, raw)
    assert loss(y, raw, weight) == pytest.approx(np.sum(weight * per_sample) / weight.sum(),
                                                 rel=1e-12)
    assert loss(y, raw) == pytest.approx(per_sample.mean(), rel=1e-12)


@pytest.mark.parametrize("loss", LOSSES, ids=lambda loss: repr(type(loss).__name__))
def test_weights_that_are_powers_of_two_multiply_gradients_and_hessians_exactly(loss):
    y, raw, _ = _problem(loss, n=30_000, seed=2)   # above the core's parallel threshold
    weight = np.random.default_rng(2).choice([0.5, 1.0, 2.0, 8.0], len(y))
    outputs = []
    for w in (None, weight):
        g = np.empty((loss.n_columns, len(y)), dtype=np.float32)
        h = np.ones((loss.n_columns, len(y)), dtype=np.float32)
        loss.gradient_hessian(y, raw, w, g, h, 2)
        outputs.append((g, h))
    (g, h), (g_w, h_w) = outputs
    np.testing.assert_array_equal(g_w, weight * g)
    np.testing.assert_array_equal(h_w, weight * h)


@pytest.mark.parametrize("loss", LOSSES, ids=lambda loss: repr(type(loss).__name__))
def test_the_baseline_minimises_the_weighted_loss(loss):
    y, _, weight = _problem(loss, n=41, seed=3)
    baseline = loss.baseline(y, weight)
    raw = np.tile(baseline, (len(y), 1))
    best = loss(y, raw, weight)
    for k in range(loss.n_columns):
        for step in (1e-4, -1e-4):
            moved = raw.copy()
            moved[:, k] += step
            assert loss(y, moved, weight) >= best - 1e-12


@pytest.mark.parametrize("loss", [HalfSquaredError(), AbsoluteError(), AbsoluteError("lower")])
def test_the_line_search_minimises_each_leafs_loss(loss):
    y, raw, weight = _problem(loss, n=60, seed=4)
    leaves = np.random.default_rng(4).choice([1, 3, 4], len(y))
    residual = loss.negative_gradient(y, raw)[:, 0]
    steps = loss.line_search(y, raw, residual, weight, leaves, 5, 0)
    assert steps[0] == steps[2] == 0.0   # no sample
    for leaf in (1, 3, 4):
        rows = leaves == leaf
        best = loss(y[rows], raw[rows] + steps[leaf], weight[rows])
        for step in (1e-3, -1e-3):
            assert loss(y[rows], raw[rows] + steps[leaf] + step, weight[rows]) >= best - 1e-12


def test_the_absolute_errors_medians():
    values = np.array([4.0, 1.0, 3.0, 2.0])
    assert AbsoluteError().baseline(values)[0] == 2.5          # numpy.median
    assert AbsoluteError("lower").baseline(values, np.ones(4))[0] == 2.0
    assert AbsoluteError().baseline(values, np.ones(4))[0] == 2.5
    # weight 2 on the value 1: the half is reached inside it
    assert AbsoluteError().baseline(values, np.array([1.0, 2.0, 1.0, 1.0]))[0] == 2.0


@pytest.mark.parametrize("average, method", [(False, "inverted_cdf"),
                                             (True, "averaged_inverted_cdf")])
def test_integer_weights_give_numpys_percentiles_of_the_repeated_values(average, method):
    rng = np.random.default_rng(5)
    values = rng.normal(size=300)
    weight = rng.integers(0, 4, 300).astype(np.float64)
    percentiles = np.linspace(0, 100, num=256)[1:-1]
    expected = np.percentile(np.repeat(values, weight.astype(int)), percentiles, method=method)
    np.testing.assert_array_equal(
        weighted_percentile(values, weight, percentiles, average=average), expected)


@pytest.mark.parametrize("name, first_order, second_order, y", [
    ("squared_error", GradientBoostingRegressor, HistGradientBoostingRegressor, "regression"),
    ("absolute_error", GradientBoostingRegressor, HistGradientBoostingRegressor, "regression"),
    ("log_loss", GradientBoostingClassifier, HistGradientBoostingClassifier, 2),
    ("log_loss", GradientBoostingClassifier, HistGradientBoostingClassifier, 3),
])
def test_both_families_use_the_same_loss_classes(name, first_order, second_order, y):
    if y == "regression":
        X, y = make_regression(80, 3, random_state=0)
    else:
        X, y = make_classification(80, 4, n_informative=3, n_redundant=0, n_classes=y,
                                   random_state=0)
    first = first_order(loss=name, n_estimators=2).fit(X, y)
    second = second_order(loss=name, max_iter=2).fit(X, y)
    assert type(first._loss) is type(second._loss)
    assert type(first._loss).__module__ == "kernelkit.ensemble._losses"
    # the loss's value on the fitted raw scores is the one each estimator reports
    raw = first._raw_predict(X)
    target = (np.searchsorted(first.classes_, y).astype(np.float64) if hasattr(first, "classes_")
              else y)
    factor = 2.0 if name == "squared_error" else 1.0   # the first order reports the whole MSE
    assert first.train_score_[-1] == pytest.approx(factor * first._loss(target, raw), rel=1e-12)


def test_first_order_regressor_reports_the_mean_squared_error():
    X, y = make_regression(100, 3, noise=5.0, random_state=1)
    model = GradientBoostingRegressor(n_estimators=5).fit(X, y)
    assert model.train_score_[-1] == pytest.approx(np.mean((y - model.predict(X)) ** 2),
                                                   rel=1e-12)


@pytest.mark.parametrize("n_threads", [1, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_the_compiled_logistic_loss_is_numpys_bit_for_bit(n_threads, weighted):
    rng = np.random.default_rng(11)
    raw = np.concatenate([rng.normal(scale=4.0, size=40_000), [0.0, -0.0, 800.0, -800.0, 1e-300]])
    y = (rng.random(raw.size) < 0.5).astype(np.float64)
    weight = rng.random(raw.size) if weighted else None
    expected = float(np.average(np.logaddexp(0.0, raw) - y * raw, weights=weight))
    assert HalfBinomialLoss()(y, raw[:, None], weight, n_threads) == expected
