"""Monotonic and interaction constraints of histogram gradient boosting: monotone predictions,
branches within one group, the twin, scikit-learn, threads, and bad values."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn import ensemble as sk
from sklearn.datasets import make_classification, make_regression
from threadpoolctl import threadpool_limits

from kernelkit.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from kernelkit.ensemble._hist_gradient_boosting._constraints import (
    _interaction_groups,
    grower_constraints,
)
from kernelkit.ensemble._hist_gradient_boosting._grower import MIN_HESSIAN_TO_SPLIT
from kernelkit.reference import hist_gradient_boosting as twin

# scikit-learn 1.6 grows other histogram trees (see test_hist_gradient_boosting.py)
SAME_TREES_AS_SCIKIT_LEARN = pytest.mark.scikit_learn(
    "1.9", reason="scikit-learn 1.6 grows other histogram trees; agreement checked from 1.9")


def _wiggly(n=2000, seed=0):
    """Features in [0, 1]: the target rises with feature 0 and falls with feature 1, each with a
    wiggle that an unconstrained model follows; it rises, then falls, with feature 2."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 3))
    y = (4 * X[:, 0] + np.sin(12 * X[:, 0]) - 4 * X[:, 1] - np.sin(10 * X[:, 1])
         + np.sin(6 * X[:, 2]) + 0.2 * rng.normal(size=n))
    return X, y


def _grid_scores(model, X, feature, n_rows=20, n_points=101):
    """Scores of ``n_rows`` rows of ``X`` with ``feature`` swept over a grid of [0, 1]: shape
    (n_rows, n_points)."""
    rows = np.repeat(X[:n_rows], n_points, axis=0)
    rows[:, feature] = np.tile(np.linspace(0.0, 1.0, n_points), n_rows)
    score = (model.decision_function if hasattr(model, "decision_function")
             else model.predict)
    return score(rows).reshape(n_rows, n_points)


def _monotone(scores, sign):
    return bool(np.all(sign * np.diff(scores, axis=1) >= 0))


@pytest.mark.parametrize("estimator, loss", [(HistGradientBoostingRegressor, "squared_error"),
                                             (HistGradientBoostingRegressor, "poisson"),
                                             (HistGradientBoostingClassifier, "log_loss")])
def test_predictions_are_monotone_along_every_constrained_feature(estimator, loss):
    X, y = _wiggly()
    if loss == "poisson":
        y = np.exp(y / 4)
    elif loss == "log_loss":
        y = (y > np.median(y)).astype(int)
    params = dict(loss=loss, max_iter=60, max_leaf_nodes=15, min_samples_leaf=5,
                  learning_rate=0.3, early_stopping=False)
    free = estimator(**params).fit(X, y)
    constrained = estimator(monotonic_cst=[1, -1, 0], **params).fit(X, y)
    for feature, sign in ((0, 1), (1, -1)):
        # the counter-example: the wiggles make the free model's scores go the wrong way
        assert not _monotone(_grid_scores(free, X, feature), sign)
        assert _monotone(_grid_scores(constrained, X, feature), sign)
    assert not _monotone(_grid_scores(constrained, X, 2), 1)   # feature 2 stays free


def test_monotonic_constraints_hold_with_missing_values_and_small_leaves():
    X, y = _wiggly(1500, seed=1)
    X_missing = X.copy()
    X_missing[np.random.default_rng(2).random(X.shape) < 0.1] = np.nan
    model = HistGradientBoostingRegressor(monotonic_cst=[-1, 1, 1], max_iter=40,
                                          max_leaf_nodes=63, min_samples_leaf=2,
                                          l2_regularization=1.0, early_stopping=False)
    model.fit(X_missing, -y)
    for feature, sign in ((0, -1), (1, 1), (2, 1)):
        assert _monotone(_grid_scores(model, X, feature), sign)


def _leaf_paths(tree):
    """The features split on along each root-to-leaf path of a tree (a set per leaf)."""
    paths, stack = [], [(0, frozenset())]
    while stack:
        node, used = stack.pop()
        if tree["left"][node] < 0:
            paths.append(used)
        else:
            used = used | {int(tree["feature"][node])}
            stack += [(tree["left"][node], used), (tree["left"][node] + 1, used)]
    return paths


@pytest.mark.parametrize("interaction_cst", [[{0, 1}, [1, 2]], ([3],), "pairwise",
                                             "no_interactions"])
def test_every_branch_splits_on_features_of_one_group(interaction_cst):
    X, y = make_regression(1500, 5, n_informative=5, noise=1.0, random_state=0)
    y = y + 30 * X[:, 0] * X[:, 3] * X[:, 4]   # interactions an unconstrained tree uses
    params = dict(max_iter=20, max_leaf_nodes=31, min_samples_leaf=5, early_stopping=False)
    groups = _interaction_groups(interaction_cst, 5)
    if interaction_cst == ([3],):
        assert groups == [{3}, {0, 1, 2, 4}]   # the features in no group form one more
    constrained = HistGradientBoostingRegressor(interaction_cst=interaction_cst, **params)
    free = HistGradientBoostingRegressor(**params)
    for model, expected in ((constrained, True), (free, False)):
        paths = [path for tree in model.fit(X, y)._trees for path in _leaf_paths(tree)]
        assert all(any(path <= group for group in groups) for path in paths) is expected


@pytest.mark.parametrize("constraints", [dict(monotonic_cst=[1, -1, 0, 1, 0]),
                                         dict(interaction_cst=[{0, 1}, {1, 2}]),
                                         dict(monotonic_cst=[0, 1, -1, 0, 0],
                                              interaction_cst="pairwise")])
def test_trees_match_the_twin(constraints):
    X, y = make_regression(400, 5, n_informative=4, noise=5.0, random_state=0)
    X[np.random.default_rng(1).random(X.shape) < 0.1] = np.nan
    model = HistGradientBoostingRegressor(
        max_iter=6, max_leaf_nodes=7, max_depth=4, min_samples_leaf=8, l2_regularization=0.5,
        learning_rate=0.3, max_bins=31, early_stopping=False, **constraints).fit(X, y)
    mapper = model._bin_mapper
    X_binned = mapper.transform(X, 1)
    has_missing = (X_binned == mapper.missing_bin_).any(axis=0)
    monotonic_cst = constraints.get("monotonic_cst")
    groups = _interaction_groups(constraints.get("interaction_cst"), 5)
    raw = np.full(len(y), model._baseline[0])
    for iteration in range(model.n_iter_):
        gradients = (raw - y).astype(np.float32)   # squared error: g = f − y, h = 1
        tree = twin.grow_tree(X_binned, gradients, np.ones_like(gradients), True,
                              mapper.n_bins_non_missing_, has_missing, mapper.missing_bin_, 7, 4,
                              8, MIN_HESSIAN_TO_SPLIT, 0.5, 0.3,
                              None if monotonic_cst is None else np.array(monotonic_cst), groups)
        core = model._trees[iteration]
        for name in ("feature", "bin", "missing_go_left", "left"):
            np.testing.assert_array_equal(core[name], tree[name], err_msg=name)
        np.testing.assert_allclose(core["value"], tree["value"], rtol=1e-10, atol=1e-12)
        raw += tree["value"][tree["leaf_of"]]
    np.testing.assert_allclose(model.predict(X), raw, rtol=1e-10, atol=1e-10)


# the unconstrained trees of the two libraries are the same on these data (predictions within
# 1e-13), so the constrained ones must be too: same bounds, same rejections, same groups
@SAME_TREES_AS_SCIKIT_LEARN
@pytest.mark.parametrize("constraints", [dict(),
                                         dict(monotonic_cst=[1, 0, -1, 0, 1, -1]),
                                         dict(interaction_cst=[{0, 1}, {1, 2}, {3, 4, 5}]),
                                         dict(interaction_cst="no_interactions"),
                                         dict(monotonic_cst=[1, 1, -1, 0, 0, 0],
                                              interaction_cst=[{0, 1}, {1, 2}])])
@pytest.mark.parametrize("loss", ["squared_error", "poisson"])
def test_regressor_matches_scikit_learn(constraints, loss):
    X, y = make_regression(3000, 6, n_informative=6, noise=20.0, random_state=2)
    X[np.random.default_rng(0).random(X.shape) < 0.05] = np.nan
    if loss == "poisson":
        y = np.exp(y / np.abs(y).max())
    params = dict(loss=loss, max_iter=40, early_stopping=False, **constraints)
    ours = HistGradientBoostingRegressor(**params).fit(X, y).predict(X)
    with threadpool_limits(1):   # scikit-learn's OpenMP team stalls on a loaded machine
        theirs = sk.HistGradientBoostingRegressor(**params).fit(X, y).predict(X)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9 * np.abs(theirs).max())


@SAME_TREES_AS_SCIKIT_LEARN
@pytest.mark.parametrize("constraints", [dict(monotonic_cst=[1, -1, 0, 0, 1, -1]),
                                         dict(interaction_cst="pairwise")])
def test_classifier_matches_scikit_learn(constraints):
    X, y = make_classification(3000, 6, n_informative=4, random_state=3)
    params = dict(max_iter=40, early_stopping=False, **constraints)
    ours = HistGradientBoostingClassifier(**params).fit(X, y).predict_proba(X)
    with threadpool_limits(1):
        theirs = sk.HistGradientBoostingClassifier(**params).fit(X, y).predict_proba(X)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)


@pytest.mark.parametrize("constraints", [dict(monotonic_cst=[1, -1, 0, 1, 0, 0]),
                                         dict(interaction_cst=[{0, 1}, {2, 3}])])
def test_constrained_trees_do_not_depend_on_the_thread_count(constraints):
    # above the grower's parallel thresholds
    X, y = make_regression(40_000, 6, n_informative=6, noise=10.0, random_state=4)
    params = dict(max_iter=5, early_stopping=False, **constraints)
    one = HistGradientBoostingRegressor(n_jobs=1, **params).fit(X, y)
    two = HistGradientBoostingRegressor(n_jobs=2, **params).fit(X, y)
    np.testing.assert_array_equal(one.predict(X), two.predict(X))


@pytest.mark.parametrize("neutral", [dict(monotonic_cst=[0, 0, 0, 0]),
                                     dict(interaction_cst=[[0, 1, 2, 3]]),
                                     dict(interaction_cst=[[0, 1], [1, 2, 3], [0, 2, 3]])])
def test_constraints_that_constrain_nothing_change_nothing(neutral):
    # all 0s; one group of every feature; groups holding every pair of features, with trees of
    # depth 2 (a branch splits on two features at most)
    X, y = make_regression(800, 4, n_informative=4, noise=5.0, random_state=5)
    params = dict(max_iter=10, max_depth=2, early_stopping=False)
    free = HistGradientBoostingRegressor(**params).fit(X, y)
    model = HistGradientBoostingRegressor(**params, **neutral).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), free.predict(X))


# ---------------------------------------------------------------------------- bad values

@pytest.mark.parametrize("monotonic_cst, message", [
    ([1, 0], r"monotonic_cst has shape \(2,\) but the input data X has 3 features"),
    ([1, 0, 0, 0], r"monotonic_cst has shape \(4,\)"),
    ([2, 0, 0], r"monotonic_cst must be an array-like of -1, 0 or 1. Observed values: \[2\]"),
    ([0.5, 0, 0], r"Observed values: \[0.5\]"),
    (["a", 0, 0], "monotonic_cst must be an array-like of -1, 0 or 1"),
    ({"x0": 1}, "was not fitted on data with feature names"),
])
def test_bad_monotonic_cst_is_refused(monotonic_cst, message):
    X, y = make_regression(100, 3, random_state=0)
    with pytest.raises(ValueError, match=message):
        HistGradientBoostingRegressor(monotonic_cst=monotonic_cst, max_iter=2).fit(X, y)


@pytest.mark.parametrize("by_name, message", [
    ({"b": 1, "zz": -1}, r"monotonic_cst contains 1 unexpected feature names: \['zz'\]"),
    ({f"u{i}": 1 for i in range(7)}, r"7 unexpected feature names: \['u0', .*'u4', '...'\]"),
    ({"a": 2}, r"monotonic_cst\['a'\] must be either -1, 0 or 1. Got 2"),
])
def test_bad_monotonic_cst_by_feature_name_is_refused(by_name, message):
    # the estimator as fit sees it after validate_data on a data frame with these columns
    estimator = SimpleNamespace(monotonic_cst=by_name, interaction_cst=None,
                                feature_names_in_=np.array(["a", "b", "c"], dtype=object))
    with pytest.raises(ValueError, match=message):
        grower_constraints(estimator, 3, 1)


def test_monotonic_cst_by_feature_name_sets_the_named_features():
    estimator = SimpleNamespace(monotonic_cst={"c": -1, "a": 1}, interaction_cst=None,
                                feature_names_in_=np.array(["a", "b", "c"], dtype=object))
    constraints = grower_constraints(estimator, 3, 1)
    np.testing.assert_array_equal(constraints["monotonic_cst"], [1, 0, -1])
    assert constraints["monotonic_cst"].dtype == np.int8


def test_monotonic_cst_by_feature_name_on_a_data_frame():
    pd = pytest.importorskip("pandas")
    X, y = _wiggly(500)
    frame = pd.DataFrame(X, columns=["up", "down", "free"])
    params = dict(max_iter=10, early_stopping=False)
    by_name = HistGradientBoostingRegressor(monotonic_cst={"down": -1, "up": 1}, **params)
    by_position = HistGradientBoostingRegressor(monotonic_cst=[1, -1, 0], **params)
    np.testing.assert_array_equal(by_name.fit(frame, y).predict(frame),
                                  by_position.fit(X, y).predict(X))


def test_monotonic_cst_is_refused_for_multiclass_classification():
    X, y = make_classification(200, 4, n_informative=3, n_redundant=0, n_classes=3,
                               random_state=0)
    model = HistGradientBoostingClassifier(monotonic_cst=[1, 0, 0, 0], max_iter=2)
    with pytest.raises(ValueError, match="not supported for multiclass classification"):
        model.fit(X, y)
    # two classes are one score: allowed
    model.fit(X[y < 2], y[y < 2])


@pytest.mark.parametrize("interaction_cst, message", [
    ([[0, 1], [2, 3]], r"integer indices in \[0, n_features - 1\] = \[0, 2\].*\{2, 3\}"),
    ([[-1]], r"got invalid indices: \{-1\}"),
    ([[0.5, 1]], "got invalid indices"),
    ([0, 1], "must be a sequence of tuples, lists or sets"),
])
def test_bad_interaction_cst_is_refused(interaction_cst, message):
    X, y = make_regression(100, 3, random_state=0)
    with pytest.raises(ValueError, match=message):
        HistGradientBoostingRegressor(interaction_cst=interaction_cst, max_iter=2).fit(X, y)


@pytest.mark.parametrize("name, value", [("monotonic_cst", 3), ("interaction_cst", "all"),
                                         ("interaction_cst", 2)])
def test_constraint_of_a_wrong_type_is_refused_by_the_parameter_check(name, value):
    X, y = make_regression(100, 3, random_state=0)
    with pytest.raises(ValueError, match=f"The '{name}' parameter"):
        HistGradientBoostingRegressor(**{name: value}, max_iter=2).fit(X, y)
