"""CART trees: the seed's properties, compiled vs reference, hist vs exact, threads, scikit-learn,
estimator behaviour and bad input."""

import pickle

import numpy as np
import pytest
from sklearn import tree as sklearn_tree
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_digits,
    load_iris,
    make_classification,
    make_regression,
)

from kernelkit.reference import cart_tree
from kernelkit.reference.tree import impurity
from kernelkit.tree import DecisionTreeClassifier, DecisionTreeRegressor
from kernelkit.tree import _growth as trees_module
from kernelkit.utils._sklearn_compat import InvalidParameterError
from kernelkit.tree._growth import GrowthParams, TreeTrainingSet

TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold", "n_node_samples")
REGRESSION_CRITERIA = ("squared_error", "friedman_mse", "absolute_error")


def assert_same_tree(ours, theirs, values=True):
    """Same nodes, splits and (optionally) values; ``theirs`` a Tree, a dict or sklearn's."""
    get = (lambda t, name: t[name]) if isinstance(theirs, dict) else getattr
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(getattr(ours, name), get(theirs, name), err_msg=name)
    if values:
        theirs_value = np.asarray(get(theirs, "value")).reshape(ours.value.shape)
        np.testing.assert_allclose(ours.value, theirs_value, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(ours.impurity, get(theirs, "impurity"), rtol=1e-9,
                                   atol=1e-12)


def integer_regression(n_samples=150, n_features=5, random_state=0):
    """Regression data with integer targets: every sum of the split search is exact."""
    X, y = make_regression(n_samples, n_features, noise=5.0, random_state=random_state)
    return X, np.round(y)


# ------------------------------------------------------------------ the seed's properties

@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.5, 0.8])
def test_binary_gini_is_the_error_of_random_labelling(fraction, rng):
    # Remark 1.6.1: drawing a label from the cell's distribution errs with probability 2π(1−π)
    y = (rng.random(400) < fraction).astype(float)
    w = rng.integers(1, 4, 400).astype(float)
    pi = w[y == 1].sum() / w.sum()
    expected = 2 * pi * (1 - pi)
    X = rng.normal(size=(400, 2))
    root = TreeTrainingSet(X).grow_tree(y, w, criterion="gini", n_classes=2,
                                        params=GrowthParams(max_depth=1))
    assert root.impurity[0] == pytest.approx(expected, rel=1e-12)
    assert impurity("gini", y, w, 2) == pytest.approx(expected, rel=1e-12)
    # and by simulation: a label drawn from the cell's distribution
    labels = rng.random(200_000) < pi
    truth = rng.random(200_000) < pi
    assert np.mean(labels != truth) == pytest.approx(expected, abs=0.01)


@pytest.mark.parametrize("criterion", ["gini", "entropy", *REGRESSION_CRITERIA])
def test_pure_nodes_have_zero_impurity(criterion, rng):
    X = rng.normal(size=(60, 3))
    classification = criterion in ("gini", "entropy")
    y = (X[:, 0] > 0).astype(float) if classification else np.where(X[:, 0] > 0, 3.0, -1.5)
    tree = TreeTrainingSet(X).grow_tree(y, criterion=criterion, n_classes=2,
                                        params=GrowthParams())
    leaves = tree.children_left == -1
    assert tree.node_count == 3                    # one split makes both cells pure
    np.testing.assert_array_equal(tree.impurity[leaves], 0.0)
    assert tree.impurity[0] > 0
    assert impurity(criterion, y[y == y[0]], np.ones(np.sum(y == y[0])), 2) == 0.0


def _objective(criterion, X, y, w, feature, threshold):
    """The seed's split objective (Friedman: the negated term, so that all are minimised)."""
    left = X[:, feature] <= threshold
    if criterion == "friedman_mse":
        WL, WR = w[left].sum(), w[~left].sum()
        diff = np.average(y[left], weights=w[left]) - np.average(y[~left], weights=w[~left])
        return -WL * WR / (WL + WR) * diff**2
    return sum(w[side].sum() * impurity(criterion, y[side], w[side], 3)
               for side in (left, ~left)) / w.sum()


@pytest.mark.parametrize("criterion", ["gini", "entropy", *REGRESSION_CRITERIA])
def test_best_split_equals_brute_force_over_midpoints(criterion, rng):
    X = np.round(rng.normal(size=(40, 4)), 1).astype(np.float32)
    classification = criterion in ("gini", "entropy")
    y = rng.integers(0, 3, 40).astype(float) if classification else rng.normal(size=40)
    w = rng.integers(1, 4, 40).astype(float)
    best = np.inf
    for f in range(4):
        values = np.unique(X[:, f])
        for a, b in zip(values[:-1], values[1:]):
            best = min(best, _objective(criterion, X, y, w, f, a / 2 + b / 2))
    stump = TreeTrainingSet(X).grow_tree(y, w, criterion=criterion, n_classes=3,
                                         params=GrowthParams(max_depth=1))
    feature, threshold = stump.feature[0], stump.threshold[0]
    assert _objective(criterion, X, y, w, feature, threshold) == pytest.approx(best, rel=1e-9)
    values = np.unique(X[:, feature])
    k = np.searchsorted(values, threshold)        # threshold between values[k-1] and values[k]
    assert threshold == float(values[k - 1]) / 2 + float(values[k]) / 2


def test_friedman_term_is_the_sse_decrease_so_both_criteria_agree(rng):
    # parent SSE = children SSE + |L||R|/(|L|+|R|) (ȳ_L − ȳ_R)² for every split (unweighted)
    X, y = rng.normal(size=(80, 3)), rng.normal(size=80)
    sse = lambda v: np.sum((v - v.mean()) ** 2)  # noqa: E731
    for f in range(3):
        for threshold in np.sort(X[:, f])[:-1]:
            left = X[:, f] <= threshold
            nL, nR = left.sum(), (~left).sum()
            friedman = nL * nR / (nL + nR) * (y[left].mean() - y[~left].mean()) ** 2
            assert sse(y) == pytest.approx(sse(y[left]) + sse(y[~left]) + friedman, rel=1e-10)
    # hence the MSE argmin and the Friedman argmax grow the same partitions
    training_set = TreeTrainingSet(X)
    X32 = training_set.X
    mse = training_set.grow_tree(y, criterion="squared_error", params=GrowthParams(max_depth=4))
    fmse = training_set.grow_tree(y, criterion="friedman_mse", params=GrowthParams(max_depth=4))
    np.testing.assert_array_equal(mse.apply(X32), fmse.apply(X32))
    np.testing.assert_allclose(mse.predict(X32), fmse.predict(X32))


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_no_stopping_rule_fits_distinct_samples_exactly(splitter, rng):
    X = rng.normal(size=(200, 4))                  # distinct rows, < 255 values per feature
    y_class = rng.integers(0, 3, 200)
    y_reg = rng.normal(size=200)
    clf = DecisionTreeClassifier(splitter=splitter, random_state=0).fit(X, y_class)
    assert clf.score(X, y_class) == 1.0
    np.testing.assert_array_equal(clf.tree_.impurity[clf.tree_.children_left == -1], 0.0)
    reg = DecisionTreeRegressor(splitter=splitter, random_state=0).fit(X, y_reg)
    np.testing.assert_allclose(reg.predict(X), y_reg, rtol=1e-12)


# ------------------------------------------------------------------ compiled vs reference

REFERENCE_CASES = [
    ("gini", {}),
    ("gini", dict(max_features=2, min_samples_leaf=3)),
    ("entropy", dict(max_depth=4)),
    ("squared_error", dict(max_depth=5)),
    ("squared_error", dict(max_features=3, min_samples_split=10)),
    ("friedman_mse", dict(min_impurity_decrease=5.0)),
    ("absolute_error", dict(max_depth=5)),
    ("absolute_error", dict(max_features=3, min_weight_fraction_leaf=0.05)),
    ("newton", dict(max_depth=4, l2_regularization=1.0)),
]


@pytest.mark.parametrize("criterion, params", REFERENCE_CASES)
def test_compiled_equals_reference(criterion, params, random_seed):
    rng = np.random.default_rng(random_seed)
    hessian = None
    if criterion in ("gini", "entropy"):
        X, y = make_classification(150, 6, n_informative=4, n_classes=3,
                                   random_state=random_seed)
        y = y.astype(float)
    else:
        X, y = integer_regression(random_state=random_seed)
    if criterion == "newton":     # integer gradients and hessians keep every sum exact
        y, hessian = rng.integers(-5, 6, 150).astype(float), rng.integers(1, 4, 150).astype(float)
    w = rng.integers(0, 3, y.size).astype(float)    # zeros leave samples out
    seed = int(rng.integers(2**31 - 1))
    params = dict(params)
    l2 = params.pop("l2_regularization", 0.0)
    ours = TreeTrainingSet(X).grow_tree(y, w, seed, criterion=criterion, n_classes=3,
                                        hessian=hessian,
                                        params=GrowthParams(l2_regularization=l2, **params))
    reference = cart_tree(X, y, w, seed, criterion=criterion, n_classes=3, hessian=hessian,
                          l2_regularization=l2, **params)
    assert_same_tree(ours, reference)
    assert ours.max_depth == reference["max_depth"]


@pytest.mark.parametrize("criterion", ["gini", "absolute_error"])
def test_16_and_32_bit_sample_ids_grow_the_same_tree(criterion, monkeypatch):
    # up to 65 535 samples the presorted rows hold uint16 ids; force the int32 rows
    X, y = integer_regression(300, 6)
    y = (y > 0).astype(float) if criterion == "gini" else y
    params = GrowthParams(max_features=4)
    compact_set = TreeTrainingSet(X)
    compact = compact_set.grow_tree(y, seed=5, criterion=criterion, n_classes=2, params=params)
    monkeypatch.setattr(trees_module, "COMPACT_INDEX_MAX_SAMPLES", 0)
    wide_set = TreeTrainingSet(X)
    wide = wide_set.grow_tree(y, seed=5, criterion=criterion, n_classes=2, params=params)
    assert compact_set.sorted_samples.dtype == np.uint16
    assert wide_set.sorted_samples.dtype == np.int32
    assert_same_tree(wide, compact)


def test_train_leaves_are_the_leaves_of_the_training_samples(rng):
    X, y = integer_regression()
    w = rng.integers(0, 3, y.size).astype(float)
    training_set = TreeTrainingSet(X)
    tree, leaves = training_set.grow_tree(y, w, criterion="squared_error",
                                          params=GrowthParams(max_depth=4),
                                          return_train_leaves=True)
    seen = w > 0
    np.testing.assert_array_equal(leaves[seen], tree.apply(training_set.X)[seen])
    np.testing.assert_array_equal(leaves[~seen], -1)
    # overwriting leaf values changes predictions (a line search per leaf)
    tree.value[tree.children_left == -1, 0] = 7.0
    np.testing.assert_array_equal(tree.predict(training_set.X), 7.0)


def test_newton_leaves_are_newton_steps(rng):
    X = rng.normal(size=(120, 3))
    gradient, hessian = rng.normal(size=120), rng.uniform(0.5, 2.0, 120)
    tree, leaves = TreeTrainingSet(X, "hist").grow_tree(
        gradient, criterion="newton", hessian=hessian, return_train_leaves=True,
        params=GrowthParams(max_leaf_nodes=6, l2_regularization=0.5))
    assert tree.n_leaves == 6
    for leaf in np.unique(leaves):
        members = leaves == leaf
        step = -gradient[members].sum() / (hessian[members].sum() + 0.5)
        assert tree.value[leaf, 0] == pytest.approx(step, rel=1e-10)


# ------------------------------------------------------------------ hist splitter, threads

@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_hist_with_one_bin_per_value_equals_exact_on_digits(criterion):
    X, y = load_digits(return_X_y=True)            # pixels take at most 17 values
    for random_state in (0, 1):
        kwargs = dict(criterion=criterion, random_state=random_state, max_features=20)
        exact = DecisionTreeClassifier(**kwargs).fit(X, y)
        hist = DecisionTreeClassifier(splitter="hist", **kwargs).fit(X, y)
        assert_same_tree(hist.tree_, exact.tree_)


@pytest.mark.parametrize("criterion", ["squared_error", "friedman_mse"])
def test_hist_with_one_bin_per_value_equals_exact_in_regression(criterion, rng):
    X = rng.integers(0, 40, size=(300, 5)).astype(float)
    y = rng.integers(0, 100, 300).astype(float)
    for params in (dict(), dict(max_leaf_nodes=20, min_samples_leaf=3)):
        exact = DecisionTreeRegressor(criterion=criterion, random_state=3, **params).fit(X, y)
        hist = DecisionTreeRegressor(criterion=criterion, splitter="hist", random_state=3,
                                     **params).fit(X, y)
        assert_same_tree(hist.tree_, exact.tree_)


def _tied_data(n_samples, seed):
    # few values, a duplicated and a mirrored feature: many splits with equal impurity decrease
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 4, size=(n_samples, 3)).astype(float)
    return np.hstack([X, X[:, :1], 3.0 - X[:, 2:]]), rng


@pytest.mark.parametrize("seed", range(10))
def test_hist_breaks_ties_as_exact_when_the_sums_are_exact(seed):
    # integer weights, class labels and integer targets: every weight sum is exact, so both
    # splitters compute the same decreases and keep the same first maximum
    X, rng = _tied_data(40, seed)
    weights = rng.integers(1, 4, size=40).astype(float)
    labels, targets = rng.integers(0, 3, size=40), rng.integers(-3, 4, size=40).astype(float)
    for model, y in [(DecisionTreeClassifier(random_state=seed), labels),
                     (DecisionTreeClassifier(random_state=seed, max_features=2), labels),
                     (DecisionTreeRegressor(random_state=seed), targets)]:
        exact = model.fit(X, y, sample_weight=weights).tree_
        hist = model.set_params(splitter="hist").fit(X, y, sample_weight=weights).tree_
        assert_same_tree(hist, exact)


def _split_decrease(tree, node):
    left, right = tree.children_left[node], tree.children_right[node]
    weight = tree.weighted_n_node_samples
    return (weight[node] * tree.impurity[node] - weight[left] * tree.impurity[left]
            - weight[right] * tree.impurity[right])


def test_hist_ties_differ_from_exact_only_by_rounding():
    # real-valued targets: the sums are rounded in another order, so a tie may go the other
    # way; the first split that differs then decreases the impurity equally, to rounding
    n_differing = 0
    for seed in range(40):
        X, rng = _tied_data(30, seed)
        y = rng.normal(size=30)
        exact = DecisionTreeRegressor(random_state=seed).fit(X, y).tree_
        hist = DecisionTreeRegressor(splitter="hist", random_state=seed).fit(X, y).tree_
        differing = [node for node in range(min(exact.node_count, hist.node_count))
                     if (exact.feature[node], exact.threshold[node])
                     != (hist.feature[node], hist.threshold[node])]
        if differing:
            n_differing += 1
            node = differing[0]          # preorder: same tree above it
            np.testing.assert_allclose(_split_decrease(hist, node), _split_decrease(exact, node),
                                       rtol=1e-12)
    assert n_differing > 0               # the data do hold ties broken differently


def test_hist_counts_values_closer_than_1e7_as_one():
    # the exact splitter never cuts between values less than 1e-7 apart; nor do the bins
    X = np.array([[0.0], [1e-8], [0.0], [1e-8], [1.0], [1.0]])
    y = np.array([0, 1, 0, 1, 1, 1])
    exact = DecisionTreeClassifier().fit(X, y).tree_
    hist = DecisionTreeClassifier(splitter="hist").fit(X, y).tree_
    assert_same_tree(hist, exact)
    assert exact.node_count == 3 and exact.threshold[0] == pytest.approx(0.5, abs=1e-7)


def test_hist_bins_are_quantiles_and_thresholds_midpoints(rng):
    X = rng.normal(size=(5000, 2))
    X[:, 1] = np.round(X[:, 1], 1)                 # about 70 distinct values
    training_set = TreeTrainingSet(X, "hist", max_bins=100)
    assert training_set.n_bins[0] == 100
    X32 = X.astype(np.float32)
    assert training_set.n_bins[1] == np.unique(X32[:, 1]).size < 100
    counts = np.bincount(training_set.binned[0], minlength=100)
    assert counts.min() >= 49 and counts.max() <= 51
    # every training value lies between its bin's bounds, bins are ordered
    codes = training_set.binned[0]
    assert np.all(training_set.bin_lower[0, codes] <= X32[:, 0])
    assert np.all(X32[:, 0] <= training_set.bin_upper[0, codes])
    assert np.all(training_set.bin_upper[0, :99] < training_set.bin_lower[0, 1:100])


@pytest.mark.parametrize("splitter", ["best", "hist"])
def test_one_and_two_threads_grow_the_same_tree(splitter):
    # nodes of more than 2¹⁸ (sample × feature) steps are evaluated and partitioned by
    # several threads: here the top levels
    X, y = make_classification(12_000, 30, n_informative=10, random_state=0)
    one = DecisionTreeClassifier(splitter=splitter, random_state=0, n_jobs=1).fit(X, y)
    two = DecisionTreeClassifier(splitter=splitter, random_state=0, n_jobs=2).fit(X, y)
    assert_same_tree(two.tree_, one.tree_)
    np.testing.assert_array_equal(one.apply(X), two.apply(X))
    reg_one = DecisionTreeRegressor(splitter=splitter, random_state=0, n_jobs=1).fit(X, X[:, 0])
    reg_two = DecisionTreeRegressor(splitter=splitter, random_state=0, n_jobs=2).fit(X, X[:, 0])
    assert_same_tree(reg_two.tree_, reg_one.tree_)


# ------------------------------------------------------------------ scikit-learn

PEER_CASES = [
    (load_iris, DecisionTreeClassifier, sklearn_tree.DecisionTreeClassifier, {}),
    (load_breast_cancer, DecisionTreeClassifier, sklearn_tree.DecisionTreeClassifier, {}),
    (load_breast_cancer, DecisionTreeClassifier, sklearn_tree.DecisionTreeClassifier,
     dict(criterion="entropy", max_leaf_nodes=12)),
    (load_digits, DecisionTreeClassifier, sklearn_tree.DecisionTreeClassifier, {}),
    (load_digits, DecisionTreeClassifier, sklearn_tree.DecisionTreeClassifier,
     dict(criterion="entropy", max_features="sqrt", min_samples_leaf=2)),
    (load_diabetes, DecisionTreeRegressor, sklearn_tree.DecisionTreeRegressor, {}),
    (load_diabetes, DecisionTreeRegressor, sklearn_tree.DecisionTreeRegressor,
     dict(criterion="absolute_error", max_depth=6, min_impurity_decrease=0.5)),
]


@pytest.mark.parametrize("load, ours, peer, params", PEER_CASES)
def test_same_trees_as_scikit_learn(load, ours, peer, params):
    X, y = load(return_X_y=True)
    test = np.arange(0, y.size, 4)
    train = np.setdiff1d(np.arange(y.size), test)
    for random_state in (0, 1):
        a = ours(random_state=random_state, **params).fit(X[train], y[train])
        b = peer(random_state=random_state, **params).fit(X[train], y[train])
        assert_same_tree(a.tree_, b.tree_)
        np.testing.assert_array_equal(a.predict(X[test]), b.predict(X[test]))
        np.testing.assert_array_equal(a.apply(X[test]), b.apply(X[test]))
        np.testing.assert_allclose(a.feature_importances_, b.feature_importances_, atol=1e-12)
        if hasattr(b, "predict_proba"):
            np.testing.assert_allclose(a.predict_proba(X[test]), b.predict_proba(X[test]),
                                       atol=1e-12)


# ------------------------------------------------------------------ estimator behaviour

def test_string_labels_and_probabilities():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    clf = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, names)
    np.testing.assert_array_equal(clf.classes_, names[[0, 50, 100]])
    assert set(clf.predict(X)) <= set(names)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.classes_[proba.argmax(axis=1)], clf.predict(X))
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(X)), proba)


def test_integer_weights_equal_repeated_samples(rng):
    X, y = integer_regression(60, 3)
    repeats = rng.integers(0, 3, 60)
    weighted = DecisionTreeRegressor(random_state=0).fit(X, y, sample_weight=repeats)
    repeated = DecisionTreeRegressor(random_state=0).fit(np.repeat(X, repeats, axis=0),
                                                         np.repeat(y, repeats))
    np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))


def test_class_weight_equals_sample_weight():
    X, y = load_iris(return_X_y=True)
    by_class = DecisionTreeClassifier(class_weight={0: 1, 1: 3, 2: 2}, random_state=0).fit(X, y)
    by_sample = DecisionTreeClassifier(random_state=0).fit(X, y, np.array([1, 3, 2])[y])
    assert_same_tree(by_class.tree_, by_sample.tree_)


def test_stopping_rules_are_respected(rng):
    X, y = make_classification(500, 8, random_state=0)
    tree = DecisionTreeClassifier(max_leaf_nodes=7, random_state=0).fit(X, y)
    assert tree.get_n_leaves() == 7
    tree = DecisionTreeClassifier(min_samples_leaf=12, random_state=0).fit(X, y)
    leaves = tree.tree_.children_left == -1
    assert tree.tree_.n_node_samples[leaves].min() >= 12
    tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    assert tree.get_depth() == 3
    split = DecisionTreeClassifier(min_samples_split=0.2, random_state=0).fit(X, y).tree_
    assert split.n_node_samples[split.children_left != -1].min() >= 100
    shallow = DecisionTreeClassifier(min_impurity_decrease=0.01, random_state=0).fit(X, y)
    assert shallow.get_n_leaves() < DecisionTreeClassifier(random_state=0).fit(X, y).get_n_leaves()


def test_pickle_round_trip():
    X, y = load_diabetes(return_X_y=True)
    reg = DecisionTreeRegressor(max_depth=5, random_state=0).fit(X, y)
    again = pickle.loads(pickle.dumps(reg))
    np.testing.assert_array_equal(again.predict(X), reg.predict(X))
    assert_same_tree(again.tree_, reg.tree_)


def test_max_features_draws_depend_on_random_state():
    X, y = load_breast_cancer(return_X_y=True)
    a = DecisionTreeClassifier(max_features=3, random_state=0).fit(X, y).tree_
    b = DecisionTreeClassifier(max_features=3, random_state=1).fit(X, y).tree_
    c = DecisionTreeClassifier(max_features=3, random_state=0).fit(X, y).tree_
    assert a.node_count != b.node_count or not np.array_equal(a.feature, b.feature)
    assert_same_tree(a, c)


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("Estimator", [DecisionTreeClassifier, DecisionTreeRegressor])
def test_bad_input_is_reported(Estimator):
    X, y = make_classification(30, 3, n_informative=2, n_redundant=0, random_state=0)
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Estimator().fit(X_nan, y)
    with pytest.raises(ValueError, match="infinity"):
        Estimator().fit(np.where(X > 1, np.inf, X), y)
    with pytest.raises(ValueError, match="infinity"), np.errstate(over="ignore",
                                                                 invalid="ignore"):
        Estimator().fit(X * 1e300, y)               # beyond the float32 range
    with pytest.raises(InvalidParameterError, match="max_depth"):
        Estimator(max_depth=0).fit(X, y)
    with pytest.raises(InvalidParameterError, match="max_bins"):
        Estimator(max_bins=256).fit(X, y)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Estimator().fit(X, y[:-1])
    with pytest.raises(ValueError, match="2D array"):
        Estimator().fit(X[:, 0], y)
    with pytest.raises(ValueError, match="max_features"):
        Estimator(max_features=4).fit(X, y)
    with pytest.raises(ValueError, match="Negative values"):
        Estimator().fit(X, y, sample_weight=-np.ones(30))
    with pytest.raises(ValueError, match="at least one non-zero"):
        Estimator().fit(X, y, sample_weight=np.zeros(30))
    fitted = Estimator().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :2])
    with pytest.raises(ValueError, match="NaN"):
        fitted.predict(X_nan)


def test_absolute_error_needs_the_exact_splitter():
    X, y = integer_regression(30, 3)
    with pytest.raises(ValueError, match="absolute_error"):
        DecisionTreeRegressor(criterion="absolute_error", splitter="hist").fit(X, y)


def test_continuous_labels_are_rejected_by_the_classifier():
    X, y = integer_regression(30, 3)
    with pytest.raises(ValueError, match="Unknown label type"):
        DecisionTreeClassifier().fit(X, y + 0.5)
