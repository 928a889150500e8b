"""Sample and class weights of histogram gradient boosting: weights as repeated rows, weight zero
as a dropped row, weighted bins, losses and scores, scikit-learn's weighted fits, class_weight,
and bad weights."""

import numpy as np
import pytest
from sklearn import ensemble as sk
from sklearn.datasets import make_classification, make_regression
from sklearn.metrics import log_loss, mean_absolute_error
from threadpoolctl import threadpool_limits

from kernelkit.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from kernelkit.utils._binning import BinMapper

# (estimator, loss, number of classes) of every loss of the two estimators
CASES = [
    (HistGradientBoostingRegressor, "squared_error", None),
    (HistGradientBoostingRegressor, "absolute_error", None),
    (HistGradientBoostingRegressor, "poisson", None),
    (HistGradientBoostingClassifier, "log_loss", 2),
    (HistGradientBoostingClassifier, "log_loss", 3),
]
IDS = ["squared_error", "absolute_error", "poisson", "binary", "multinomial"]


def _data(estimator, loss, n_classes, n=300, seed=0):
    if estimator is HistGradientBoostingRegressor:
        X, y = make_regression(n, 4, n_informative=3, noise=5.0, random_state=seed)
        if loss == "poisson":
            y = np.exp(y / np.abs(y).max())
    else:
        X, y = make_classification(n, 4, n_informative=3, n_redundant=0, n_classes=n_classes,
                                   random_state=seed)
    return X, y


@pytest.mark.parametrize("estimator, loss, n_classes", CASES, ids=IDS)
def test_integer_weights_are_repeated_rows(estimator, loss, n_classes):
    X, y = _data(estimator, loss, n_classes)
    # fewer distinct values than bins, so the thresholds are the midpoints of the same values
    # (the weights of zero drop theirs in both fits)
    X = np.round(X, 1)
    # powers of two: the float32 products w·g are exact, as the repeats' sums of g are
    weight = np.random.default_rng(1).choice([0.0, 1.0, 2.0, 4.0], len(y))
    repeats = weight.astype(int)
    params = dict(loss=loss, max_iter=20, min_samples_leaf=1, early_stopping=False)
    weighted = estimator(**params).fit(X, y, sample_weight=weight)
    repeated = estimator(**params).fit(np.repeat(X, repeats, axis=0), np.repeat(y, repeats))
    raw = repeated._raw_predict(X)
    np.testing.assert_allclose(weighted._raw_predict(X), raw, rtol=1e-12,
                               atol=1e-12 * np.abs(raw).max())


def test_other_integer_weights_are_repeated_rows_to_float32_precision():
    X, y = _data(HistGradientBoostingRegressor, "squared_error", None)
    X = np.round(X, 1)
    weight = np.random.default_rng(2).integers(1, 6, len(y)).astype(np.float64)
    params = dict(max_iter=20, min_samples_leaf=1, early_stopping=False)
    weighted = HistGradientBoostingRegressor(**params).fit(X, y, sample_weight=weight)
    repeated = HistGradientBoostingRegressor(**params).fit(
        np.repeat(X, weight.astype(int), axis=0), np.repeat(y, weight.astype(int)))
    np.testing.assert_allclose(weighted.predict(X), repeated.predict(X), rtol=1e-5,
                               atol=1e-5 * np.abs(y).max())


@pytest.mark.parametrize("estimator, loss, n_classes", CASES, ids=IDS)
def test_a_zero_weight_is_a_dropped_row(estimator, loss, n_classes):
    # with early stopping on a validation split and the default leaf size: nothing of the
    # dropped rows is left (not even their count)
    X, y = _data(estimator, loss, n_classes, n=400, seed=3)
    weight = np.random.default_rng(3).uniform(0.5, 2.0, len(y))
    weight[::7] = 0.0
    kept = weight > 0
    params = dict(loss=loss, max_iter=15, early_stopping=True, n_iter_no_change=3,
                  random_state=0)
    with_zeros = estimator(**params).fit(X, y, sample_weight=weight)
    without = estimator(**params).fit(X[kept], y[kept], sample_weight=weight[kept])
    np.testing.assert_array_equal(with_zeros._raw_predict(X), without._raw_predict(X))
    np.testing.assert_array_equal(with_zeros.validation_score_, without.validation_score_)


def test_weighted_bins_are_the_bins_of_the_repeated_rows():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(600, 3))   # more distinct values than bins: weighted quantiles
    X[rng.random(X.shape) < 0.05] = np.nan
    weight = rng.integers(1, 4, 600).astype(np.float64)
    weighted = BinMapper(63, "percentiles").fit(X, weight)
    repeated = BinMapper(63, "percentiles").fit(np.repeat(X, weight.astype(int),
                                                                     axis=0))
    np.testing.assert_array_equal(weighted.thresholds_, repeated.thresholds_)
    # and the weights move them: a heavy tail pulls the quantiles towards it
    heavy = np.where(X[:, 0] > 1.0, 50.0, 1.0)
    shifted = BinMapper(63, "percentiles").fit(X, heavy)
    assert np.median(shifted.thresholds_[0, :62]) > np.median(weighted.thresholds_[0, :62])


def test_weighted_subsample_of_the_bins_above_the_subsample_size():
    X = np.arange(1000, dtype=np.float64)[:, None]
    weight = np.where(X[:, 0] < 500, 0.0, 1.0) + 1e-12   # all the weight on the upper half
    mapper = BinMapper(15, "percentiles", subsample=100,
                       random_state=np.random.RandomState(0)).fit(X, weight)
    assert mapper.thresholds_[0, 0] > 500


def test_the_scores_are_weighted_losses():
    X, y = _data(HistGradientBoostingRegressor, "squared_error", None, n=300)
    weight = np.random.default_rng(5).uniform(0.1, 3.0, len(y))
    model = HistGradientBoostingRegressor(max_iter=10, early_stopping=True,
                                          validation_fraction=None, n_iter_no_change=20)
    model.fit(X, y, sample_weight=weight)
    # the baseline is the weighted mean, the scores the negated weighted half squared errors
    assert model._baseline[0] == pytest.approx(np.average(y, weights=weight), rel=1e-12)
    for score, prediction in zip(model.train_score_[[0, -1]],
                                 (np.full(len(y), model._baseline[0]), model.predict(X))):
        assert score == pytest.approx(-0.5 * np.average((y - prediction) ** 2, weights=weight),
                                      rel=1e-10)


def test_absolute_error_leaves_are_weighted_medians():
    X, y = _data(HistGradientBoostingRegressor, "absolute_error", None, n=200)
    weight = np.random.default_rng(6).uniform(0.1, 3.0, len(y))
    model = HistGradientBoostingRegressor(loss="absolute_error", max_iter=1, max_leaf_nodes=3,
                                          learning_rate=1.0, early_stopping=False)
    model.fit(X, y, sample_weight=weight)
    baseline = model._baseline[0]
    # the weighted median: half the weight on either side
    assert weight[y < baseline].sum() <= weight.sum() / 2 <= weight[y <= baseline].sum()
    predictions = model.predict(X)
    for value in np.unique(predictions):
        rows = predictions == value
        residual, w = y[rows] - baseline, weight[rows]
        step = value - baseline
        assert w[residual < step].sum() <= w.sum() / 2 + 1e-9
        assert w[residual <= step].sum() >= w.sum() / 2 - 1e-9


# the release these comparisons were verified with (as in test_hist_gradient_boosting.py)
SAME_TREES_AS_SCIKIT_LEARN = pytest.mark.scikit_learn(
    "1.9", reason="scikit-learn 1.6 grows other histogram trees; agreement checked from 1.9")


@SAME_TREES_AS_SCIKIT_LEARN
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("estimator, loss, n_classes", CASES, ids=IDS)
def test_weights_match_scikit_learn(estimator, loss, n_classes, weighted):
    # positive weights (scikit-learn keeps rows of weight zero: they count for
    # min_samples_leaf) and more distinct values than bins: weighted quantiles
    X, y = _data(estimator, loss, n_classes, n=400, seed=7)
    weight = np.random.default_rng(7).uniform(0.5, 3.0, len(y)) if weighted else None
    params = dict(loss=loss, max_iter=30, early_stopping=False)
    ours = estimator(**params).fit(X, y, sample_weight=weight)
    with threadpool_limits(1):   # scikit-learn's OpenMP team stalls on a loaded machine
        theirs = getattr(sk, estimator.__name__)(**params).fit(X, y, sample_weight=weight)
    if estimator is HistGradientBoostingClassifier:
        # the same trees; the weighted float32 gradients may round differently by an ulp
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-6)
        assert log_loss(y, ours.predict_proba(X), sample_weight=weight) == pytest.approx(
            log_loss(y, theirs.predict_proba(X), sample_weight=weight), rel=1e-6)
    elif loss != "absolute_error":
        np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-10,
                                   atol=1e-10 * np.abs(y).max())
    else:
        # scikit-learn's sign gradient is ±1 where the residual is 0 (ours: 0), which grows
        # other trees even without weights, and its weighted medians are lower medians (its
        # weighted fit is not its fit of repeated rows); ours fits no worse
        assert (mean_absolute_error(y, ours.predict(X), sample_weight=weight)
                <= 1.003 * mean_absolute_error(y, theirs.predict(X), sample_weight=weight))


def test_balanced_class_weight_is_the_explicit_weights():
    X, y = make_classification(400, 4, weights=[0.8, 0.2], random_state=8)
    labels = np.array(["no", "yes"])[y]
    params = dict(max_iter=10, early_stopping=False)
    balanced = HistGradientBoostingClassifier(class_weight="balanced", **params).fit(X, labels)
    counts = np.bincount(y)
    explicit = HistGradientBoostingClassifier(**params).fit(
        X, labels, sample_weight=len(y) / (2 * counts[y]))
    np.testing.assert_array_equal(balanced.decision_function(X), explicit.decision_function(X))


def test_class_weight_dict_multiplies_sample_weight():
    X, y = make_classification(300, 4, random_state=9)
    labels = np.array(["a", "b"])[y]
    weight = np.random.default_rng(9).uniform(0.5, 2.0, len(y))
    params = dict(max_iter=10, early_stopping=False)
    by_class = HistGradientBoostingClassifier(class_weight={"b": 3.0}, **params).fit(
        X, labels, sample_weight=weight)
    explicit = HistGradientBoostingClassifier(**params).fit(
        X, labels, sample_weight=weight * np.where(y == 1, 3.0, 1.0))
    np.testing.assert_array_equal(by_class.decision_function(X), explicit.decision_function(X))


def test_bad_weights_are_refused():
    X, y = _data(HistGradientBoostingRegressor, "squared_error", None, n=50)
    model = HistGradientBoostingRegressor(max_iter=2)
    with pytest.raises(ValueError, match="[Nn]egative"):
        model.fit(X, y, sample_weight=np.r_[-1.0, np.ones(49)])
    with pytest.raises(ValueError, match="sample_weight.shape"):
        model.fit(X, y, sample_weight=np.ones(49))
    with pytest.raises(ValueError, match="non-zero"):
        model.fit(X, y, sample_weight=np.zeros(50))
    with pytest.raises(ValueError, match="float32 range"):
        model.fit(X, y, sample_weight=np.full(50, 1e300))
    Xc, yc = make_classification(50, 4, random_state=10)
    classifier = HistGradientBoostingClassifier(max_iter=2)
    with pytest.raises(ValueError, match="2 classes with a positive weight"):
        classifier.fit(Xc, yc, sample_weight=(yc == 1).astype(float))
    with pytest.raises(ValueError, match="weight zero"):
        classifier.set_params(class_weight={0: 0.0, 1: 0.0}).fit(Xc, yc)
    with pytest.raises(ValueError, match="class_weight"):
        classifier.set_params(class_weight="uniform").fit(Xc, yc)
