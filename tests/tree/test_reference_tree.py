"""Trees of the estimators against their readable twin (``kernelkit.reference.tree``): the
histogram splitter, best-first growth and prediction, through the public API only.

Integer targets (or class labels) and unit weights make every sum of the split search exact, so
the estimator and the twin compare the same numbers and grow the same tree, bit for bit.
Prediction walks the exposed arrays and is equal everywhere.
"""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from kernelkit.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from kernelkit.reference.tree import cart_tree, tree_apply, tree_predict
from kernelkit.tree import DecisionTreeClassifier, DecisionTreeRegressor

STRUCTURE = ("children_left", "children_right", "feature", "threshold", "n_node_samples",
             "weighted_n_node_samples")


def feature_seed(random_state):
    """The seed of a tree's feature draws: scikit-learn's ``randint(0, 2³¹ − 1)`` from the
    estimator's random state."""
    return int(np.random.RandomState(random_state).randint(0, 2**31 - 1))


def assert_same_tree(tree, twin):
    for name in STRUCTURE:
        np.testing.assert_array_equal(getattr(tree, name), twin[name], err_msg=name)
    np.testing.assert_allclose(tree.value.reshape(twin["value"].shape), twin["value"],
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tree.impurity, twin["impurity"], rtol=1e-9, atol=1e-12)
    assert tree.max_depth == twin["max_depth"]


def classification(random_seed, n_samples=120):
    X, y = make_classification(n_samples, 5, n_informative=3, n_classes=3,
                               random_state=random_seed)
    return X, y


def integer_regression(random_seed, n_samples=120):
    X, y = make_regression(n_samples, 5, noise=5.0, random_state=random_seed)
    return X, np.round(y)


def grow_both(estimator, X, y, criterion, n_classes=None):
    estimator.fit(X, y)
    params = {name: estimator.get_params()[name] for name in (
        "max_depth", "min_samples_split", "min_samples_leaf", "max_features", "max_leaf_nodes",
        "splitter", "max_bins")}
    twin = cart_tree(X, y, None, feature_seed(estimator.random_state), criterion=criterion,
                     n_classes=n_classes, **params)
    return estimator.tree_, twin


HIST_CASES = [
    ("gini", dict(max_bins=8)),
    ("gini", dict(max_bins=32, max_features=2, min_samples_leaf=3)),
    ("entropy", dict(max_bins=16, max_depth=4)),
    ("squared_error", dict(max_bins=8, max_depth=5)),
    ("friedman_mse", dict(max_bins=255, max_features=3)),
]


@pytest.mark.parametrize("criterion, params", HIST_CASES)
def test_histogram_splitter_equals_twin(criterion, params, random_seed):
    if criterion in ("gini", "entropy"):
        X, y = classification(random_seed)
        estimator = DecisionTreeClassifier(criterion=criterion, splitter="hist",
                                           random_state=random_seed, **params)
        tree, twin = grow_both(estimator, X, y, criterion, n_classes=3)
    else:
        X, y = integer_regression(random_seed)
        estimator = DecisionTreeRegressor(criterion=criterion, splitter="hist",
                                          random_state=random_seed, **params)
        tree, twin = grow_both(estimator, X, y, criterion)
    assert tree.node_count > 3
    assert_same_tree(tree, twin)


def test_histogram_with_few_values_is_the_exact_tree(random_seed):
    # one bin per distinct value: the histogram candidates are the exact splitter's
    X, y = classification(random_seed)
    X = np.round(X * 3)
    twins = [cart_tree(X, y, None, 0, criterion="gini", n_classes=3, splitter=splitter)
             for splitter in ("best", "hist")]
    for name in STRUCTURE:
        np.testing.assert_array_equal(twins[0][name], twins[1][name], err_msg=name)


BEST_FIRST_CASES = [
    ("gini", "best", dict(max_leaf_nodes=6)),
    ("gini", "hist", dict(max_leaf_nodes=10, max_bins=16, max_features=3)),
    ("entropy", "best", dict(max_leaf_nodes=8, max_depth=3)),
    ("squared_error", "best", dict(max_leaf_nodes=12, min_samples_leaf=4)),
    ("squared_error", "hist", dict(max_leaf_nodes=9, max_bins=10)),
    ("friedman_mse", "best", dict(max_leaf_nodes=5, max_features=2)),
]


@pytest.mark.parametrize("criterion, splitter, params", BEST_FIRST_CASES)
def test_best_first_growth_equals_twin(criterion, splitter, params, random_seed):
    if criterion in ("gini", "entropy"):
        X, y = classification(random_seed)
        estimator = DecisionTreeClassifier(criterion=criterion, splitter=splitter,
                                           random_state=random_seed, **params)
        tree, twin = grow_both(estimator, X, y, criterion, n_classes=3)
    else:
        X, y = integer_regression(random_seed)
        estimator = DecisionTreeRegressor(criterion=criterion, splitter=splitter,
                                          random_state=random_seed, **params)
        tree, twin = grow_both(estimator, X, y, criterion)
    assert 2 < tree.n_leaves <= params["max_leaf_nodes"]
    assert_same_tree(tree, twin)


def test_best_first_splits_the_largest_decrease_first():
    # two clean cuts of different gains: with two leaves only the larger one is made
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 5)
    y = np.array([0, 0, 10, 10] * 5, dtype=float) + np.array([0, 1, 0, 1] * 5)
    twin = cart_tree(X, y, None, 0, criterion="squared_error", max_leaf_nodes=2)
    assert twin["feature"][0] == 0
    assert twin["children_left"].size == 3


def test_best_first_ties_go_to_the_older_node():
    # after the root, both children have the same decrease: the left child (id 1) is split
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 3)
    y = np.array([0.0, 1.0, 4.0, 5.0] * 3)
    twin = cart_tree(X, y, None, 0, criterion="squared_error", max_leaf_nodes=3)
    np.testing.assert_array_equal(twin["children_left"], [1, 3, -1, -1, -1])
    tree = DecisionTreeRegressor(max_leaf_nodes=3, random_state=0).fit(X, y).tree_
    np.testing.assert_array_equal(tree.children_left, twin["children_left"])


def query_points(X, tree, rng):
    """Training points, fresh points and points exactly on the thresholds."""
    on_threshold = np.repeat(X[:1], tree.node_count, axis=0)
    split = tree.feature >= 0
    on_threshold[split, tree.feature[split]] = tree.threshold[split]
    fresh = rng.normal(scale=2 * X.std(), size=(200, X.shape[1]))
    return np.vstack([X, fresh, on_threshold])


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_tree_prediction_equals_twin(splitter, random_seed):
    rng = np.random.default_rng(random_seed)
    X, y = classification(random_seed)
    classifier = DecisionTreeClassifier(splitter=splitter, max_bins=16,
                                        random_state=random_seed).fit(X, y)
    t = classifier.tree_
    Q = query_points(X, t, rng)
    arrays = (t.children_left, t.children_right, t.feature, t.threshold)
    np.testing.assert_array_equal(classifier.apply(Q), tree_apply(*arrays, Q))
    proba = tree_predict(*arrays, t.value, Q)
    np.testing.assert_array_equal(classifier.predict_proba(Q),
                                  proba / proba.sum(axis=1, keepdims=True))
    X, y = integer_regression(random_seed)
    regressor = DecisionTreeRegressor(splitter=splitter, max_leaf_nodes=20,
                                      random_state=random_seed).fit(X, y)
    t = regressor.tree_
    Q = query_points(X, t, rng)
    np.testing.assert_array_equal(
        regressor.predict(Q),
        tree_predict(t.children_left, t.children_right, t.feature, t.threshold, t.value, Q)[:, 0])


def forest_sum(trees, Q):
    """Σ_t value_t[leaf_t(x)], trees in order."""
    total = 0.0
    for t in trees:
        total = total + tree_predict(t.children_left, t.children_right, t.feature,
                                     t.threshold, t.value, Q)
    return total


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_ensemble_prediction_equals_twin(splitter, random_seed):
    rng = np.random.default_rng(random_seed)
    X, y = classification(random_seed)
    Q = np.vstack([X, rng.normal(scale=2 * X.std(), size=(200, X.shape[1]))])
    forest = RandomForestClassifier(n_estimators=7, splitter=splitter, max_depth=6,
                                    random_state=random_seed).fit(X, y)
    np.testing.assert_array_equal(
        forest.predict_proba(Q),
        forest_sum([e.tree_ for e in forest.estimators_], Q) / len(forest.estimators_))
    boosting = GradientBoostingClassifier(n_estimators=5, splitter=splitter,
                                          random_state=random_seed).fit(X, y)
    F = boosting.init_ + np.column_stack([forest_sum(trees, Q)[:, 0]
                                          for trees in zip(*boosting.estimators_)])
    np.testing.assert_array_equal(boosting.decision_function(Q), F)
    X, y = integer_regression(random_seed)
    forest = RandomForestRegressor(n_estimators=7, splitter=splitter, max_leaf_nodes=15,
                                   random_state=random_seed).fit(X, y)
    np.testing.assert_array_equal(
        forest.predict(Q),
        (forest_sum([e.tree_ for e in forest.estimators_], Q) / len(forest.estimators_))[:, 0])
    boosting = GradientBoostingRegressor(n_estimators=5, splitter=splitter,
                                         random_state=random_seed).fit(X, y)
    np.testing.assert_array_equal(
        boosting.predict(Q),
        boosting.init_ + forest_sum([trees[0] for trees in boosting.estimators_], Q)[:, 0])
