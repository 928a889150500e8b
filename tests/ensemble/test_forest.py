"""Random forests: bagged trees with the same seeds, threads, scikit-learn, out-of-bag estimates,
bad input."""

import numpy as np
import pytest
from sklearn import ensemble as sklearn_ensemble
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris, make_classification
from sklearn.utils import compute_sample_weight

from kernelkit.ensemble import RandomForestClassifier, RandomForestRegressor
from kernelkit.tree import DecisionTreeClassifier, DecisionTreeRegressor
from kernelkit.utils._sklearn_compat import InvalidParameterError

TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold", "n_node_samples")


def assert_same_tree(ours, theirs):
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name), err_msg=name)
    np.testing.assert_allclose(ours.value, np.asarray(theirs.value).reshape(ours.value.shape),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("Forest, Tree", [(RandomForestClassifier, DecisionTreeClassifier),
                                          (RandomForestRegressor, DecisionTreeRegressor)])
def test_all_features_is_bagged_trees_with_the_same_seeds(Forest, Tree):
    # Sangnier §1.6.4: with max_features = d a random forest is bagging of CART trees
    X, y = load_breast_cancer(return_X_y=True)
    forest = Forest(n_estimators=6, max_features=None, random_state=0).fit(X, y)
    n = y.size
    total = 0.0
    for estimator in forest.estimators_:
        state = estimator.random_state
        # the bootstrap sample is reproducible from the tree's random state
        drawn = np.random.RandomState(state).randint(0, n, n)
        bagged = Tree(random_state=state).fit(X, y, sample_weight=np.bincount(drawn, minlength=n))
        assert_same_tree(estimator.tree_, bagged.tree_)
        total = total + (bagged.predict_proba(X) if Forest is RandomForestClassifier
                         else bagged.predict(X))
    mean = total / len(forest.estimators_)
    got = forest.predict_proba(X) if Forest is RandomForestClassifier else forest.predict(X)
    np.testing.assert_allclose(got, mean, rtol=1e-12)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_forest_sum_routes_values_at_and_next_to_thresholds_as_the_trees(n_jobs):
    # the forest walk compares with float32 thresholds (the largest float32 at most each float64
    # midpoint): samples exactly at a threshold or one float32 step either side must go where
    # a tree's float64 comparison sends them
    X, y = make_classification(400, 5, random_state=0)
    forest = RandomForestClassifier(n_estimators=5, random_state=0, n_jobs=n_jobs).fit(X, y)
    rows = []
    for estimator in forest.estimators_:
        tree = estimator.tree_
        for node in np.flatnonzero(tree.children_left != -1)[:20]:
            at = np.float32(tree.threshold[node])
            for value in (at, np.nextafter(at, np.float32(-np.inf)),
                          np.nextafter(at, np.float32(np.inf))):
                row = X[0].astype(np.float32)
                row[tree.feature[node]] = value
                rows.append(row)
    probe = np.vstack([np.array(rows), X.astype(np.float32)])
    expected = np.mean([e.tree_.predict(probe) for e in forest.estimators_], axis=0)
    np.testing.assert_allclose(forest.predict_proba(probe), expected, rtol=0, atol=1e-15)


def test_without_bootstrap_every_tree_sees_all_samples():
    X, y = load_iris(return_X_y=True)
    forest = RandomForestClassifier(n_estimators=4, bootstrap=False, max_features=2,
                                    random_state=1).fit(X, y)
    for estimator in forest.estimators_:
        single = DecisionTreeClassifier(max_features=2, random_state=estimator.random_state)
        assert_same_tree(estimator.tree_, single.fit(X, y).tree_)
        assert estimator.tree_.n_node_samples[0] == y.size


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_one_and_two_threads_grow_the_same_forest(splitter):
    X, y = make_classification(600, 12, random_state=0)
    one = RandomForestClassifier(n_estimators=8, splitter=splitter, random_state=0,
                                 n_jobs=1).fit(X, y)
    two = RandomForestClassifier(n_estimators=8, splitter=splitter, random_state=0,
                                 n_jobs=2).fit(X, y)
    for a, b in zip(one.estimators_, two.estimators_):
        assert_same_tree(a.tree_, b.tree_)
    np.testing.assert_array_equal(one.predict_proba(X), two.predict_proba(X))


WEIGHTED_BOOTSTRAP = pytest.mark.scikit_learn(
    "1.9", reason="earlier releases use sample and class weights otherwise in the bootstrap")


@pytest.mark.parametrize("params", [{}, dict(max_samples=0.5, min_samples_leaf=3),
                                    pytest.param(dict(class_weight="balanced",
                                                      criterion="entropy"),
                                                 marks=WEIGHTED_BOOTSTRAP),
                                    dict(bootstrap=False, max_depth=4)])
def test_same_forest_as_scikit_learn(params):
    X, y = load_breast_cancer(return_X_y=True)
    ours = RandomForestClassifier(n_estimators=10, random_state=0, **params).fit(X, y)
    theirs = sklearn_ensemble.RandomForestClassifier(n_estimators=10, random_state=0,
                                                     **params).fit(X, y)
    for a, b in zip(ours.estimators_, theirs.estimators_):
        assert_same_tree(a.tree_, b.tree_)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)
    np.testing.assert_allclose(ours.feature_importances_, theirs.feature_importances_,
                               atol=1e-12)
    np.testing.assert_array_equal(ours.apply(X), theirs.apply(X))


def test_balanced_subsample_weights_each_bootstrap_sample():
    # fractional weights: sums depend on the summation order, so ties between equal splits
    # may break differently from scikit-learn; the weights themselves are scikit-learn's
    X, y = load_breast_cancer(return_X_y=True)
    forest = RandomForestClassifier(n_estimators=5, class_weight="balanced_subsample",
                                    random_state=0).fit(X, y)
    for estimator in forest.estimators_:
        drawn = np.random.RandomState(estimator.random_state).randint(0, y.size, y.size)
        weights = np.bincount(drawn, minlength=y.size) * compute_sample_weight(
            "balanced", y, indices=drawn)
        single = DecisionTreeClassifier(max_features="sqrt",
                                        random_state=estimator.random_state)
        assert_same_tree(estimator.tree_, single.fit(X, y, sample_weight=weights).tree_)
    theirs = sklearn_ensemble.RandomForestClassifier(
        n_estimators=5, class_weight="balanced_subsample", random_state=0).fit(X, y)
    assert np.mean(forest.predict(X) == theirs.predict(X)) >= 0.98


def test_class_weights_follow_string_labels():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    by_name = RandomForestClassifier(n_estimators=3, class_weight={"versicolor": 3.0},
                                     random_state=0).fit(X, names)
    by_code = RandomForestClassifier(n_estimators=3, class_weight={1: 3.0},
                                     random_state=0).fit(X, y)
    for a, b in zip(by_name.estimators_, by_code.estimators_):
        assert_same_tree(a.tree_, b.tree_)
    balanced = RandomForestClassifier(n_estimators=3, class_weight="balanced_subsample",
                                      random_state=0)
    assert set(balanced.fit(X, names).predict(X)) <= set(names)


def test_same_regression_forest_and_oob_as_scikit_learn():
    X, y = load_diabetes(return_X_y=True)
    params = dict(n_estimators=20, max_features=0.5, oob_score=True, random_state=2)
    ours = RandomForestRegressor(**params).fit(X, y)
    theirs = sklearn_ensemble.RandomForestRegressor(**params).fit(X, y)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-12)
    assert ours.oob_score_ == pytest.approx(theirs.oob_score_, rel=1e-12)
    np.testing.assert_allclose(ours.oob_prediction_, theirs.oob_prediction_, rtol=1e-12)


@pytest.mark.parametrize("random_state", [0, 1, 2])
def test_held_out_scores_within_one_percent_of_scikit_learn(random_state):
    X, y = make_classification(1500, 20, n_informative=8, random_state=random_state)
    train, test = slice(0, 1000), slice(1000, None)
    params = dict(n_estimators=25, random_state=random_state, oob_score=True)
    ours = RandomForestClassifier(**params).fit(X[train], y[train])
    theirs = sklearn_ensemble.RandomForestClassifier(**params).fit(X[train], y[train])
    assert abs(ours.score(X[test], y[test]) - theirs.score(X[test], y[test])) <= 0.01
    assert ours.oob_score_ == pytest.approx(theirs.oob_score_, abs=0.01)
    np.testing.assert_allclose(ours.oob_decision_function_, theirs.oob_decision_function_,
                               atol=1e-12)
    reg = RandomForestRegressor(n_estimators=25, random_state=random_state)
    peer = sklearn_ensemble.RandomForestRegressor(n_estimators=25, random_state=random_state)
    target = X[:, 0] * 2 + X[:, 1] ** 2
    r2 = reg.fit(X[train], target[train]).score(X[test], target[test])
    assert r2 == pytest.approx(peer.fit(X[train], target[train]).score(X[test], target[test]),
                               abs=0.01)


@WEIGHTED_BOOTSTRAP
def test_sample_weight_sets_bootstrap_probabilities_as_scikit_learn():
    X, y = load_iris(return_X_y=True)
    w = np.random.default_rng(0).integers(0, 4, y.size).astype(float)
    ours = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y, sample_weight=w)
    theirs = sklearn_ensemble.RandomForestClassifier(n_estimators=5, random_state=0)
    theirs.fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-12)


def test_hist_forest_is_close_to_exact():
    X, y = make_classification(1000, 10, random_state=3)
    exact = RandomForestClassifier(n_estimators=20, oob_score=True,
                                   random_state=0).fit(X[:700], y[:700])
    hist = RandomForestClassifier(n_estimators=20, splitter="hist", max_bins=32, oob_score=True,
                                  random_state=0).fit(X[:700], y[:700])
    assert abs(exact.score(X[700:], y[700:]) - hist.score(X[700:], y[700:])) <= 0.03
    assert hist.oob_score_ == pytest.approx(exact.oob_score_, abs=0.03)


def test_too_few_trees_warns_about_missing_oob_predictions():
    X, y = load_iris(return_X_y=True)
    with pytest.warns(UserWarning, match="do not have OOB scores"):
        RandomForestClassifier(n_estimators=1, oob_score=True, random_state=0).fit(X, y)


@pytest.mark.parametrize("Forest", [RandomForestClassifier, RandomForestRegressor])
def test_bad_input_is_reported(Forest):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(InvalidParameterError, match="n_estimators"):
        Forest(n_estimators=0).fit(X, y)
    with pytest.raises(InvalidParameterError, match="max_depth"):
        Forest(max_depth=-1).fit(X, y)
    with pytest.raises(ValueError, match="bootstrap"):
        Forest(bootstrap=False, oob_score=True).fit(X, y)
    with pytest.raises(ValueError, match="bootstrap"):
        Forest(bootstrap=False, max_samples=10).fit(X, y)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Forest(n_estimators=2).fit(X_nan, y)
    fitted = Forest(n_estimators=2).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :3])


@pytest.mark.parametrize("params", [dict(), dict(bootstrap=False),
                                    dict(class_weight="balanced_subsample")])
def test_verbose_prints_ten_blocks_and_grows_the_same_forest(params, capsys):
    X, y = load_breast_cancer(return_X_y=True)
    quiet = RandomForestClassifier(n_estimators=25, random_state=0, **params).fit(X, y)
    assert capsys.readouterr().err == ""
    loud = RandomForestClassifier(n_estimators=25, random_state=0, verbose=1,
                                  oob_score=params.get("bootstrap", True), **params).fit(X, y)
    for ours, theirs in zip(quiet.estimators_, loud.estimators_):
        assert_same_tree(ours.tree_, theirs.tree_)
    lines = capsys.readouterr().err.splitlines()
    trees = [line for line in lines if " trees, " in line]
    assert [line.split(" trees")[0] for line in trees] == [
        f"[RandomForestClassifier] {n}/25" for n in (3, 5, 8, 10, 13, 15, 18, 20, 23, 25)]
    assert len(lines) == 10 + params.get("bootstrap", True)
    if params.get("bootstrap", True):
        assert lines[-1].startswith("[RandomForestClassifier] out-of-bag score ")
