"""Histogram gradient boosting: the twin, scikit-learn, missing values, losses, early stopping,
staged predictions, threads and bad input."""

import numpy as np
import pytest
from sklearn import ensemble as sk
from sklearn.datasets import make_classification, make_regression
from sklearn.metrics import accuracy_score, log_loss, r2_score
from threadpoolctl import threadpool_limits

from kernelkit.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from kernelkit.ensemble._hist_gradient_boosting import _boosting as boosting_module
from kernelkit.ensemble._hist_gradient_boosting import _grower as grower_module
from kernelkit.ensemble._hist_gradient_boosting._grower import MIN_HESSIAN_TO_SPLIT
from kernelkit.ensemble._hist_gradient_boosting._predictor import add_leaf_values
from kernelkit.reference import hist_gradient_boosting as twin


def _with_missing(X, rate, seed):
    X = X.copy()
    X[np.random.default_rng(seed).random(X.shape) < rate] = np.nan
    return X


def _regression(n=400, n_features=5, seed=0):
    X, y = make_regression(n, n_features, n_informative=4, noise=5.0, random_state=seed)
    return X, y


def _classification(n=400, n_features=5, n_classes=2, seed=0):
    return make_classification(n, n_features, n_informative=4, n_redundant=0,
                               n_classes=n_classes, random_state=seed)


TWIN_CASES = [
    (HistGradientBoostingRegressor, "squared_error", 2),
    (HistGradientBoostingRegressor, "poisson", 2),
    (HistGradientBoostingClassifier, "log_loss", 2),
    (HistGradientBoostingClassifier, "log_loss", 3),
]


@pytest.mark.parametrize("estimator, loss, n_classes", TWIN_CASES)
@pytest.mark.parametrize("missing", [0.0, 0.1])
def test_trees_and_predictions_match_the_twin(estimator, loss, n_classes, missing):
    if estimator is HistGradientBoostingRegressor:
        X, y = _regression()
        if loss == "poisson":
            y = np.exp(y / np.abs(y).max())
    else:
        X, y = _classification(n_classes=n_classes)
    X = _with_missing(X, missing, 1)
    model = estimator(loss=loss, max_iter=4, max_leaf_nodes=7, max_depth=4,
                      min_samples_leaf=8, l2_regularization=0.5, learning_rate=0.3,
                      max_bins=31, early_stopping=False, random_state=0).fit(X, y)
    mapper = model._bin_mapper
    X_binned = mapper.transform(X, 1)
    has_missing = (X_binned == mapper.missing_bin_).any(axis=0)
    target = y if estimator is HistGradientBoostingRegressor else np.searchsorted(
        model.classes_, y).astype(np.float64)
    loss_ = model._loss
    K = model.n_trees_per_iteration_
    raw = np.tile(model._baseline, (len(y), 1))
    gradients = np.empty((K, len(y)), dtype=np.float32)
    hessians = np.ones((K, len(y)), dtype=np.float32)
    for iteration in range(model.n_iter_):
        loss_.gradient_hessian(target, raw, None, gradients, hessians, 1)
        for k in range(K):
            tree = twin.grow_tree(X_binned, gradients[k], hessians[k],
                                  loss_.unit_hessians, mapper.n_bins_non_missing_,
                                  has_missing, mapper.missing_bin_, 7, 4, 8,
                                  MIN_HESSIAN_TO_SPLIT, 0.5, 0.3)
            core = model._trees[iteration * K + k]
            for name in ("feature", "bin", "missing_go_left", "left"):
                np.testing.assert_array_equal(core[name], tree[name], err_msg=name)
            np.testing.assert_allclose(core["value"], tree["value"], rtol=1e-10, atol=1e-12)
            raw[:, k] += tree["value"][tree["leaf_of"]]
            # the binned walk reaches the same leaves as the grower's partition
            np.testing.assert_allclose(twin.predict_binned(tree, X_binned, mapper.missing_bin_),
                                       tree["value"][tree["leaf_of"]])
    np.testing.assert_allclose(model._raw_predict(X), raw, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("loss, n_columns", [("squared_error", 1), ("absolute_error", 1),
                                             ("poisson", 1), ("log_loss", 1), ("log_loss", 4)])
@pytest.mark.parametrize("n_threads", [1, 2])
def test_gradients_match_the_twin(loss, n_columns, n_threads):
    from kernelkit.ensemble._losses import REGRESSION_LOSSES, make_log_loss

    rng = np.random.default_rng(11)
    n = 20_000   # above the core's parallel threshold
    raw = rng.normal(scale=3.0, size=(n, n_columns))
    raw[:5] = [[800.0], [-800.0], [0.0], [40.0], [-40.0]] if n_columns == 1 else raw[:5]
    y = (rng.integers(0, max(2, n_columns), n) if loss == "log_loss"
         else np.abs(rng.normal(size=n))).astype(np.float64)
    model = make_log_loss(max(2, n_columns)) if loss == "log_loss" else REGRESSION_LOSSES[loss]()
    if loss == "poisson":
        raw = np.clip(raw, -30, 30)
    gradients = np.empty((n_columns, n), dtype=np.float32)
    hessians = np.ones((n_columns, n), dtype=np.float32)
    model.gradient_hessian(y, raw, None, gradients, hessians, n_threads)
    expected_g, expected_h = twin.loss_gradients(loss, y, raw)
    np.testing.assert_allclose(gradients, expected_g, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(hessians, expected_h, rtol=1e-6, atol=1e-6)


# the release these comparisons were verified with; scikit-learn 1.6's HistGradientBoosting grows
# other trees on the same data (its predictions differ by up to 16 on targets of about ±100)
SAME_TREES_AS_SCIKIT_LEARN = pytest.mark.scikit_learn(
    "1.9", reason="scikit-learn 1.6 grows other histogram trees; agreement checked from 1.9")


@SAME_TREES_AS_SCIKIT_LEARN
@pytest.mark.parametrize("loss", ["squared_error", "absolute_error", "poisson"])
@pytest.mark.parametrize("missing", [0.0, 0.05])
def test_regressor_matches_scikit_learn(loss, missing):
    # below 200 000 samples the bins are scikit-learn's, so are the trees
    X, y = _regression(2000, 8, seed=1)
    if loss == "poisson":
        y = np.exp(y / np.abs(y).max())
    X = _with_missing(X, missing, 2)
    train, test = slice(0, 1500), slice(1500, None)
    ours = HistGradientBoostingRegressor(loss=loss, max_iter=30, early_stopping=False)
    theirs = sk.HistGradientBoostingRegressor(loss=loss, max_iter=30, early_stopping=False)
    p_ours = ours.fit(X[train], y[train]).predict(X[test])
    with threadpool_limits(1):   # scikit-learn's OpenMP team stalls on a loaded machine
        p_theirs = theirs.fit(X[train], y[train]).predict(X[test])
    if loss != "absolute_error":
        np.testing.assert_allclose(p_ours, p_theirs, rtol=1e-5, atol=1e-6 * np.abs(y).max())
    # (the gains of sign gradients tie often, and the two heaps break ties differently)
    assert abs(r2_score(y[test], p_ours) - r2_score(y[test], p_theirs)) < 3e-3


@SAME_TREES_AS_SCIKIT_LEARN
@pytest.mark.parametrize("n_classes", [2, 3])
def test_classifier_matches_scikit_learn(n_classes):
    X, y = _classification(3000, 10, n_classes=n_classes, seed=3)
    X = _with_missing(X, 0.02, 3)
    train, test = slice(0, 2000), slice(2000, None)
    ours = HistGradientBoostingClassifier(max_iter=40, early_stopping=False)
    theirs = sk.HistGradientBoostingClassifier(max_iter=40, early_stopping=False)
    p_ours = ours.fit(X[train], y[train]).predict_proba(X[test])
    with threadpool_limits(1):
        p_theirs = theirs.fit(X[train], y[train]).predict_proba(X[test])
    np.testing.assert_allclose(p_ours, p_theirs, atol=1e-5)
    assert abs(log_loss(y[test], p_ours) / log_loss(y[test], p_theirs) - 1) < 3e-3
    assert abs(accuracy_score(y[test], ours.predict(X[test]))
               - accuracy_score(y[test], theirs.predict(X[test]))) < 3e-3


def test_missing_values_learn_their_side():
    # the label is "x is missing": only a split sending NaN alone to one side separates it
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 2))
    y = (rng.random(600) < 0.3).astype(int)
    X[y == 1, 0] = np.nan
    model = HistGradientBoostingClassifier(max_iter=20, early_stopping=False).fit(X, y)
    assert model.score(X, y) == 1.0
    root = model._trees[0]
    assert root["feature"][0] == 0 and root["missing_go_left"][0] in (0, 1)


def test_unseen_missing_values_go_to_the_larger_child():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 1))
    y = np.where(X[:, 0] > 0.8, 10.0, 0.0)   # a small right child
    model = HistGradientBoostingRegressor(max_iter=1, max_leaf_nodes=2,
                                          early_stopping=False).fit(X, y)
    tree = model._trees[0]
    left, right = tree["left"][0], tree["left"][0] + 1
    larger = left if tree["n_samples"][left] > tree["n_samples"][right] else right
    assert model.predict([[np.nan]])[0] == pytest.approx(model._baseline[0]
                                                         + tree["value"][larger])


@pytest.mark.parametrize("loss", ["squared_error", "absolute_error", "poisson"])
def test_each_regression_loss_decreases_on_the_training_set(loss):
    X, y = _regression(800, 5, seed=4)
    if loss == "poisson":
        y = np.exp(y / np.abs(y).max())
    model = HistGradientBoostingRegressor(loss=loss, max_iter=40, early_stopping=True,
                                          validation_fraction=None, n_iter_no_change=100)
    model.fit(X, y)
    assert model.n_iter_ == 40
    assert np.all(np.diff(model.train_score_) >= -1e-12)   # negated losses never worsen much
    assert model.train_score_[-1] > model.train_score_[0]
    if loss == "poisson":
        assert np.all(model.predict(X) > 0)


def test_absolute_error_leaves_are_median_residuals():
    X, y = _regression(300, 3, seed=5)
    model = HistGradientBoostingRegressor(loss="absolute_error", max_iter=1, max_leaf_nodes=3,
                                          learning_rate=1.0, early_stopping=False).fit(X, y)
    tree = model._trees[0]
    X_binned = model._bin_mapper.transform(X, 1)
    leaf_values = twin.predict_binned(tree, X_binned, model._bin_mapper.missing_bin_)
    for value in np.unique(leaf_values):
        rows = leaf_values == value
        assert value == pytest.approx(np.median(y[rows] - np.median(y)))


def test_early_stopping_stops_on_a_plateau():
    rng = np.random.default_rng(6)
    X, y = rng.normal(size=(3000, 4)), rng.normal(size=3000)   # nothing to learn
    model = HistGradientBoostingRegressor(max_iter=200, early_stopping=True,
                                          n_iter_no_change=5, random_state=0).fit(X, y)
    assert model.n_iter_ < 200
    assert len(model.validation_score_) == len(model.train_score_) == model.n_iter_ + 1
    # the trees of the last rounds are kept: nothing is restored
    assert len(model._trees) == model.n_iter_


def test_early_stopping_auto_and_off():
    X, y = _classification(10_001, 5, seed=7)
    on = HistGradientBoostingClassifier(max_iter=3, random_state=0).fit(X, y)
    assert len(on.validation_score_) == 4
    off = HistGradientBoostingClassifier(max_iter=3, random_state=0).fit(X[:10_000], y[:10_000])
    assert off.n_iter_ == 3 and off.train_score_.size == off.validation_score_.size == 0


def test_staged_predictions_end_at_the_final_ones():
    X, y = _classification(300, 4, n_classes=3, seed=8)
    model = HistGradientBoostingClassifier(max_iter=7, early_stopping=False).fit(X, y)
    for staged, final in ((model.staged_predict_proba, model.predict_proba),
                          (model.staged_decision_function, model.decision_function),
                          (model.staged_predict, model.predict)):
        stages = list(staged(X))
        assert len(stages) == 7
        np.testing.assert_array_equal(stages[-1], final(X))
    X, y = _regression(300, 4, seed=8)
    regressor = HistGradientBoostingRegressor(max_iter=5, early_stopping=False).fit(X, y)
    stages = list(regressor.staged_predict(X))
    assert len(stages) == 5
    np.testing.assert_array_equal(stages[-1], regressor.predict(X))


@pytest.mark.parametrize("teams", ["sized by the work", "always"])
def test_thread_count_does_not_change_the_model(teams, monkeypatch):
    # large enough for the parallel gather, partition and prediction paths; "always": every
    # loop of the grower and the leaf values on the whole team, however small its work
    if teams == "always":
        monkeypatch.setattr(grower_module, "min_work_per_thread", lambda n_threads, **_: 0.0)
        monkeypatch.setattr(boosting_module, "min_work_per_thread", lambda n_threads, **_: 0.0)
    X, y = _classification(40_000, 6, seed=9)
    X = _with_missing(X, 0.01, 9)
    fits = [HistGradientBoostingClassifier(max_iter=5, early_stopping=False, n_jobs=n)
            .fit(X, y).decision_function(X) for n in (1, 2)]
    np.testing.assert_array_equal(fits[0], fits[1])


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_equal_gains_split_on_the_first_feature(n_jobs, monkeypatch):
    # copies of a column give every split the same gain on each copy: the first copy wins, on
    # one thread or with the copies' histograms and splits on different threads
    monkeypatch.setattr(grower_module, "min_work_per_thread", lambda n_threads, **_: 0.0)
    X, y = _classification(2_000, 5, seed=12)
    categories = np.digitize(X[:, 0], [-1.0, -0.3, 0.3, 1.0])
    cases = [(np.column_stack([X, X[:, 0], X[:, 0]]), None, [0, 5, 6]),
             (np.column_stack([categories, X[:, 1:], categories]), [0, 5], [0, 5])]
    for data, categorical, copies in cases:
        model = HistGradientBoostingClassifier(max_iter=3, early_stopping=False, n_jobs=n_jobs,
                                               categorical_features=categorical).fit(data, y)
        features = np.concatenate([tree["feature"] for tree in model._trees])
        assert copies[0] in features
        assert not np.isin(copies[1:], features).any()


def test_binary_decision_function_and_probabilities_agree():
    X, y = _classification(300, 4, seed=10)
    model = HistGradientBoostingClassifier(max_iter=10, early_stopping=False).fit(X, y + 5)
    np.testing.assert_array_equal(model.classes_, [5, 6])
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba[:, 1], 1 / (1 + np.exp(-model.decision_function(X))))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_bad_input_is_refused():
    X, y = _regression(100, 3)
    y_nan = y.copy()
    y_nan[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        HistGradientBoostingRegressor().fit(X, y_nan)
    X_inf = X.copy()
    X_inf[0, 0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        HistGradientBoostingRegressor().fit(X_inf, y)
    model = HistGradientBoostingRegressor(max_iter=2).fit(X, y)
    with pytest.raises(ValueError, match="infinity"):
        model.predict(X_inf)
    with pytest.raises(ValueError, match="loss"):
        HistGradientBoostingRegressor(loss="log_loss").fit(X, y)
    with pytest.raises(ValueError, match="loss"):
        HistGradientBoostingClassifier(loss="squared_error").fit(X, y > 0)
    with pytest.raises(ValueError, match="non-negative"):
        HistGradientBoostingRegressor(loss="poisson").fit(X, y)
    with pytest.raises(ValueError, match="2 classes"):
        HistGradientBoostingClassifier().fit(X, np.zeros(len(X)))
    with pytest.raises(ValueError, match="overflow"):
        HistGradientBoostingRegressor(loss="poisson", learning_rate=1e300, max_iter=3,
                                      min_samples_leaf=1).fit(X, np.abs(y) * 1e300)


@pytest.mark.parametrize("n_threads, min_work", [(1, 0.0), (2, 0.0), (2, 1e-6)])
def test_leaf_values_reach_every_sample_of_their_leaves_on_any_team(n_threads, min_work):
    # the leaves' slices as the grower leaves them: increasing, interleaved over the rows;
    # rows 1 and 9 998 in no leaf; a team (min_work 0) splits the rows at the middle
    rng = np.random.default_rng(13)
    leaf = rng.integers(0, 31, 10_000)
    leaf[[1, -2]] = -1
    samples = np.argsort(leaf, kind="stable")[2:].astype(np.int32)
    counts = np.bincount(leaf[leaf >= 0], minlength=31)
    stop = np.cumsum(counts).astype(np.intp)
    values = rng.normal(size=31)
    raw = rng.normal(size=(10_000, 2))
    expected = raw.copy()
    expected[leaf >= 0, 1] += values[leaf[leaf >= 0]]
    add_leaf_values(samples, stop - counts, stop, values, raw, 1, n_threads, min_work)
    np.testing.assert_array_equal(raw, expected)


def test_leaf_values_refuse_a_wrong_column_or_leaf_arrays():
    samples, raw = np.arange(4, dtype=np.int32), np.zeros((4, 1))
    start, stop = np.array([0], dtype=np.intp), np.array([4], dtype=np.intp)
    with pytest.raises(ValueError, match="column 1 is not a column"):
        add_leaf_values(samples, start, stop, np.ones(1), raw, 1)
    with pytest.raises(ValueError, match="one entry per leaf"):
        add_leaf_values(samples, start, stop, np.ones(2), raw, 0)


def test_small_fits_add_leaf_values_on_one_thread_without_probing(monkeypatch):
    # the cost of waking a team is measured (once per process) only where a team could pay
    asked = []
    monkeypatch.setattr(boosting_module, "min_work_per_thread",
                        lambda n_threads, **_: asked.append(n_threads) or 1.0)
    X, y = _regression(1_000, 4, seed=14)
    HistGradientBoostingRegressor(max_iter=2, n_jobs=2).fit(X, y)
    assert asked == []
    n = boosting_module.LEAF_TEAM_MIN_SAMPLES
    X, y = _regression(n, 4, seed=14)
    HistGradientBoostingRegressor(max_iter=2, n_jobs=2, early_stopping=False).fit(X, y)
    assert asked == [2]
