"""Random forests: bagged CART trees with random features per node, grown in native threads."""

import functools
import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, is_classifier
from sklearn.metrics import accuracy_score, r2_score
from sklearn.utils import check_random_state, compute_sample_weight
from sklearn.utils.validation import check_is_fitted

from kernelkit.tree import DecisionTreeClassifier, DecisionTreeRegressor
from kernelkit.tree._classes import ProbabilityVoteMixin
from kernelkit.tree._flat_tree import sum_tree_values
from kernelkit.tree._growth import TreeTrainingSet, draw_tree_seed
from kernelkit.tree._validation import (
    STOPPING_RULE_CONSTRAINTS,
    check_ensemble_size,
    growth_params,
    validate_fit_input,
    validate_predict_input,
)
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._progress import in_blocks, stage
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    RealNotInt,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import effective_n_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["RandomForestClassifier", "RandomForestRegressor"]

MAX_SEED = np.iinfo(np.int32).max
# Per-tree float weights (class_weight="balanced_subsample", or a sample drawn more than 255
# times) are handed to the builder in batches of at most this many bytes; every batch keeps all
# threads busy but for its last trees. Plain bootstraps pass one byte per sample and tree.
WEIGHT_BATCH_BYTES = 8 * 2**20
# Parameters a forest passes on to its trees.
TREE_PARAMETERS = ("criterion", "splitter", "max_depth", "min_samples_split", "min_samples_leaf",
                   "min_weight_fraction_leaf", "max_features", "max_leaf_nodes",
                   "min_impurity_decrease", "max_bins")


def n_samples_bootstrap(n_samples, max_samples, sample_weight):
    """Size of a bootstrap sample, as scikit-learn: all samples (None), ``max_samples`` (an
    int), or that fraction of the samples or of the total weight (at least 1)."""
    if max_samples is None:
        return n_samples
    if isinstance(max_samples, Integral):
        return int(max_samples)
    total = n_samples if sample_weight is None else float(sample_weight.sum())
    size = max(int(max_samples * total), 1)
    if size < max(10, n_samples ** (1 / 3)):
        warnings.warn(f"max_samples={max_samples} gives only {size} bootstrap samples; pass "
                      "max_samples as an integer instead.", UserWarning)
    return size


def bootstrap_indices(tree_random_state, n_samples, n_bootstrap, sample_weight):
    """Bootstrap sample of one tree: ``RandomState(tree_random_state).randint(0, n_samples,
    n_bootstrap)``, or draws with probabilities proportional to ``sample_weight`` — the draws of
    scikit-learn's forests for the same tree random state."""
    rng = np.random.RandomState(tree_random_state)
    if sample_weight is None:
        return rng.randint(0, n_samples, n_bootstrap)
    return rng.choice(n_samples, n_bootstrap, replace=True, p=sample_weight / sample_weight.sum())


class BaseForest(ParameterNamesOncePerClass, BaseEstimator):
    """Fitting, out-of-bag estimates and importances shared by the random forests."""

    _parameter_constraints: dict = {
        **STOPPING_RULE_CONSTRAINTS,
        "n_estimators": [Interval(Integral, 1, MAX_INT, closed="left")],
        "bootstrap": ["boolean"],
        "oob_score": ["boolean"],
        "random_state": ["random_state"],
        "max_samples": [
            None,
            Interval(RealNotInt, 0.0, 1.0, closed="right"),
            Interval(Integral, 1, MAX_INT, closed="left"),
        ],
        "verbose": ["verbose"],
    }

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Grow the forest.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training vectors (converted to float32).
        y : array-like of shape (n_samples,)
            Class labels or regression targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights: bootstrap probabilities (with ``bootstrap=True``) or the
            trees' sample weights.

        Returns
        -------
        self : object
            The fitted forest.
        """
        X, target, sample_weight = validate_fit_input(self, X, y, sample_weight,
                                                      classifier=is_classifier(self))
        if not self.bootstrap and self.max_samples is not None:
            raise ValueError("max_samples needs bootstrap=True.")
        if not self.bootstrap and self.oob_score:
            raise ValueError("Out-of-bag estimates need bootstrap=True.")
        class_weight = getattr(self, "class_weight", None)
        per_bootstrap_balance = class_weight == "balanced_subsample" and self.bootstrap
        labels = self.classes_[target.astype(np.intp)] if class_weight is not None else None
        if class_weight is not None and not per_bootstrap_balance:
            balance = "balanced" if class_weight == "balanced_subsample" else class_weight
            expanded = compute_sample_weight(balance, labels)
            sample_weight = expanded if sample_weight is None else sample_weight * expanded
        n_samples, n_features = X.shape
        params = growth_params(self, n_samples, n_features)
        random_state = check_random_state(self.random_state)
        # one random state per tree, drawn up front as scikit-learn's _set_random_states: the
        # forest does not depend on the order in which threads grow the trees
        # each tree's bootstrap counts (a byte a sample) are drawn up front
        check_ensemble_size(self, self.n_estimators, n_samples if self.bootstrap else 0)
        states = [random_state.randint(MAX_SEED) for _ in range(self.n_estimators)]
        self._n_samples_bootstrap = (
            n_samples_bootstrap(n_samples, self.max_samples, sample_weight)
            if self.bootstrap else None)
        n_threads = effective_n_threads(self.n_jobs)
        training_set = TreeTrainingSet(X, self.splitter, self.max_bins, n_threads)
        seeds = [draw_tree_seed(np.random.RandomState(state)) for state in states]
        grow = functools.partial(training_set.grow_trees, target, criterion=self.criterion,
                                 params=params, n_classes=getattr(self, "n_classes_", 1),
                                 n_threads=n_threads)
        counts = None
        if self.bootstrap and not per_bootstrap_balance:
            counts = self._bootstrap_counts(states, n_samples, sample_weight)
        # verbose: the trees in ten blocks, a line after each (each tree depends only on its
        # own seed and weights, so the blocks grow the same trees)
        trees = []
        for first, stop in in_blocks(type(self).__name__, self.verbose, self.n_estimators,
                                     "trees"):
            if not self.bootstrap:
                trees += grow(np.ones((1, n_samples)) if sample_weight is None
                              else sample_weight[None, :], seeds[first:stop])
            elif counts is not None:
                trees += grow(np.ones((1, n_samples)), seeds[first:stop],
                              tree_counts=counts[first:stop])
            else:
                # one float64 row of weights per tree, in batches of bounded memory
                batch = max(1, min(stop - first, WEIGHT_BATCH_BYTES // (8 * n_samples)))
                for low in range(first, stop, batch):
                    high = min(low + batch, stop)
                    weights = np.array([
                        self._bootstrap_weights(state, n_samples, sample_weight, labels,
                                                per_bootstrap_balance)
                        for state in states[low:high]])
                    trees += grow(weights, seeds[low:high])
        self.estimators_ = [self._fitted_tree(tree, state) for tree, state in zip(trees, states)]
        self._sample_weight = sample_weight
        if self.oob_score:
            with stage(type(self).__name__, self.verbose,
                       lambda: f"out-of-bag score {self.oob_score_:.6g}"):
                self._set_oob_score(X, target)
        return self

    def _bootstrap_counts(self, states, n_samples, sample_weight):
        """Bootstrap multiplicities of every tree as bytes, shape (n_estimators, n_samples);
        None if a sample is drawn more than 255 times (then weights are passed as floats)."""
        counts = np.empty((len(states), n_samples), dtype=np.uint8)
        for row, state in zip(counts, states):
            drawn = np.bincount(bootstrap_indices(state, n_samples, self._n_samples_bootstrap,
                                                  sample_weight), minlength=n_samples)
            if drawn.max() > np.iinfo(np.uint8).max:
                return None
            row[:] = drawn
        return counts

    def _bootstrap_weights(self, state, n_samples, sample_weight, labels,
                           per_bootstrap_balance):
        """Sample weights of the tree with random state ``state``: its bootstrap multiplicities,
        times the balanced class weights of its bootstrap sample for "balanced_subsample"."""
        indices = bootstrap_indices(state, n_samples, self._n_samples_bootstrap, sample_weight)
        weights = np.bincount(indices, minlength=n_samples).astype(np.float64)
        if per_bootstrap_balance:
            weights *= compute_sample_weight("balanced", labels, indices=indices)
        return weights

    def _fitted_tree(self, tree, state):
        """A fitted tree estimator around a grown :class:`~kernelkit.tree._flat_tree.Tree`."""
        params = {name: getattr(self, name) for name in TREE_PARAMETERS}
        estimator = self._tree_class(random_state=state, **params)
        estimator.tree_ = tree
        estimator.n_features_in_ = self.n_features_in_
        if hasattr(self, "feature_names_in_"):
            estimator.feature_names_in_ = self.feature_names_in_
        estimator.n_outputs_ = 1
        estimator.max_features_ = self.max_features_
        if hasattr(self, "classes_"):
            estimator.classes_ = self.classes_
            estimator.n_classes_ = self.n_classes_
        return estimator

    def _oob_means(self, X):
        """Mean out-of-bag prediction of every training sample (trees whose bootstrap sample
        left it out), shape (n_samples, n_values)."""
        n_samples = X.shape[0]
        sums = np.zeros((n_samples, self.estimators_[0].tree_.value.shape[1]))
        counts = np.zeros(n_samples)
        for estimator in self.estimators_:
            drawn = bootstrap_indices(estimator.random_state, n_samples,
                                      self._n_samples_bootstrap, self._sample_weight)
            unsampled = np.flatnonzero(np.bincount(drawn, minlength=n_samples) == 0)
            sums[unsampled] += estimator.tree_.predict(X[unsampled])
            counts[unsampled] += 1
        if np.any(counts == 0):
            warnings.warn("Some inputs do not have OOB scores. This probably means too few "
                          "trees were used to compute any reliable OOB estimates.", UserWarning)
        return sums / np.maximum(counts, 1)[:, None]

    def _mean_tree_values(self, X):
        """Mean over trees of the leaf values, shape (n_samples, n_values)."""
        X = validate_predict_input(self, X)
        total = sum_tree_values([e.tree_ for e in self.estimators_], X,
                                effective_n_threads(self.n_jobs))
        return total / len(self.estimators_)

    def apply(self, X):
        """Leaf of every sample in every tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_leaves : ndarray of shape (n_samples, n_estimators), intp
        """
        X = validate_predict_input(self, X)
        n_threads = effective_n_threads(self.n_jobs)
        return np.column_stack([e.tree_.apply(X, n_threads) for e in self.estimators_])

    @property
    def feature_importances_(self):
        """Mean over trees (with at least one split) of their normalised impurity-decrease
        importances, normalised; zeros if no tree has a split. Shape (n_features,)."""
        check_is_fitted(self)
        per_tree = [e.tree_.compute_feature_importances() for e in self.estimators_
                    if e.tree_.node_count > 1]
        if not per_tree:
            return np.zeros(self.n_features_in_)
        mean = np.mean(per_tree, axis=0)
        return mean / mean.sum()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        tags.input_tags.allow_nan = False
        return tags


_PARAMETERS = """n_estimators : int, default=100
        Number of trees T.
    %(criterion)s
    max_depth : int, default=None
        Maximal depth of each tree; None: grow until the other stopping rules.
    min_samples_split : int or float, default=2
        Minimal number of (distinct) samples of a node that is split; a float is a fraction.
    min_samples_leaf : int or float, default=1
        Minimal number of samples of every leaf; a float is a fraction.
    min_weight_fraction_leaf : float, default=0.0
        Minimal fraction of a tree's total weight in every leaf.
    max_features : int, float, {"sqrt", "log2"} or None, default=%(max_features)s
        Features drawn at random at every node (Sangnier, §1.6.4); a float is a fraction, None
        all of them (plain bagged trees).
    max_leaf_nodes : int, default=None
        Grow each tree best-first up to this many leaves.
    min_impurity_decrease : float, default=0.0
        Minimal weighted impurity decrease of a split.
    bootstrap : bool, default=True
        Grow every tree on a bootstrap sample (drawn with replacement; a sample drawn k times
        weighs k). False: every tree sees the whole training set.
    oob_score : bool, default=False
        Estimate the generalisation score from the out-of-bag samples of each tree.
    n_jobs : int, default=None
        Native threads growing the trees (one tree per thread) and predicting; None uses
        every thread the OpenMP runtime allows. The forest does not depend on it.
    random_state : int, RandomState instance or None, default=None
        Seeds the per-tree random states, drawn before any tree grows. Each tree's bootstrap
        and feature draws follow scikit-learn's, so the same random state gives the trees of
        scikit-learn's forest.
    max_samples : int or float, default=None
        Bootstrap sample size: all samples (None), an int, or a fraction of the samples (of the
        total sample weight when weights are given).
    splitter : {"best", "hist"}, default="best"
        Split search of the trees (see :class:`~kernelkit.tree.DecisionTreeClassifier`).
        ``"best"`` grows scikit-learn's trees for the same ``random_state``; ``"hist"`` (X
        binned once for all trees, each node histogramming only the features it draws) grows
        approximate trees of the same accuracy several times faster on large data.
    max_bins : int, default=255
        Bins per feature for ``splitter="hist"``.
    verbose : int, default=0
        Progress on stderr: with a positive value the trees grow in ten blocks, with a line
        after each (trees grown, time), and a line for the out-of-bag score. The forest does
        not depend on it."""

_REFERENCES = """.. [1] Sangnier, *Introduction to machine learning*, §1.6.3 (bagging) and
       §1.6.4 (random forests).
    .. [2] L. Breiman, "Random forests", Machine Learning 45(1), 2001."""

_NOTES = """Trees grow in parallel native threads inside the compiled builder (no processes, no
    GIL), X presorted or binned once for all of them. Sample weights given to ``fit`` set the
    bootstrap probabilities (as scikit-learn ≥ 1.7), not the trees' weights. Each tree's random
    state is ``estimators_[t].random_state``."""


@fill_doc(notes=_NOTES, references=_REFERENCES, parameters=_PARAMETERS, criterion=(
    """criterion : {"gini", "entropy", "log_loss"}, default="gini"
        Impurity of the trees' splits."""), max_features='"sqrt"')
class RandomForestClassifier(ProbabilityVoteMixin, ClassifierMixin, BaseForest):
    """Random forest classifier: bagged CART trees with a random subset of features per node.

    Sangnier, §1.6.4 [1]_: every tree is grown on a bootstrap sample and, at every node, searches
    the best split among ``max_features`` features drawn at random; the forest predicts the
    class of largest mean class probability over its T trees (soft vote, Breiman [2]_).

    Parameters
    ----------
    %(parameters)s
    class_weight : dict, "balanced", "balanced_subsample" or None, default=None
        Class weights; "balanced_subsample" computes the balanced weights on each tree's
        bootstrap sample.

    Attributes
    ----------
    estimators_ : list of DecisionTreeClassifier
        The fitted trees.
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when X has feature names that are all strings.
    n_outputs_ : int
    max_features_ : int
    feature_importances_ : ndarray of shape (n_features,)
    oob_score_ : float
        Accuracy of the out-of-bag predictions (``oob_score=True``).
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Out-of-bag class probabilities of the training samples.

    See Also
    --------
    RandomForestRegressor : the regression forest.
    kernelkit.tree.DecisionTreeClassifier : one tree.
    sklearn.ensemble.RandomForestClassifier : scikit-learn's implementation.

    Notes
    -----
    %(notes)s

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from kernelkit.ensemble import RandomForestClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> forest = RandomForestClassifier(n_estimators=50, oob_score=True, random_state=0)
    >>> forest = forest.fit(X, y)
    >>> len(forest.estimators_), round(forest.oob_score_, 3)
    (50, 0.967)
    """

    _tree_class = DecisionTreeClassifier
    _parameter_constraints: dict = {
        **BaseForest._parameter_constraints,
        "criterion": [StrOptions({"gini", "entropy", "log_loss"})],
        "class_weight": [dict, StrOptions({"balanced", "balanced_subsample"}), None],
    }

    def __init__(self, n_estimators=100, criterion="gini", max_depth=None, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_features="sqrt",
                 max_leaf_nodes=None, min_impurity_decrease=0.0, bootstrap=True, oob_score=False,
                 n_jobs=None, random_state=None, class_weight=None, max_samples=None,
                 splitter="best", max_bins=255, verbose=0):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.class_weight = class_weight
        self.max_samples = max_samples
        self.splitter = splitter
        self.max_bins = max_bins
        self.verbose = verbose

    def _set_oob_score(self, X, target):
        self.oob_decision_function_ = self._oob_means(X)
        self.oob_score_ = accuracy_score(target, np.argmax(self.oob_decision_function_, axis=1))

    def predict_proba(self, X):
        """Mean over trees of the leaf class fractions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
        """
        return self._mean_tree_values(X)


@fill_doc(notes=_NOTES, references=_REFERENCES, parameters=_PARAMETERS, criterion=(
    """criterion : {"squared_error", "friedman_mse", "absolute_error"}, default="squared_error"
        Impurity of the trees' splits."""), max_features="1.0")
class RandomForestRegressor(RegressorMixin, BaseForest):
    r"""Random forest regressor: the mean of bagged CART regression trees with random features.

    Sangnier, §1.6.3–1.6.4 [1]_: :math:`g(x) = \frac1T \sum_t g_t(x)` over trees grown on bootstrap
    samples, each searching its splits among ``max_features`` features drawn at every node.

    Parameters
    ----------
    %(parameters)s

    Attributes
    ----------
    estimators_ : list of DecisionTreeRegressor
        The fitted trees.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Defined when X has feature names that are all strings.
    n_outputs_ : int
    max_features_ : int
    feature_importances_ : ndarray of shape (n_features,)
    oob_score_ : float
        R² of the out-of-bag predictions (``oob_score=True``).
    oob_prediction_ : ndarray of shape (n_samples,)
        Out-of-bag predictions of the training samples.

    See Also
    --------
    RandomForestClassifier : the classification forest.
    kernelkit.tree.DecisionTreeRegressor : one tree.
    sklearn.ensemble.RandomForestRegressor : scikit-learn's implementation.

    Notes
    -----
    %(notes)s

    References
    ----------
    %(references)s

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from kernelkit.ensemble import RandomForestRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> forest = RandomForestRegressor(n_estimators=50, max_features=0.5, oob_score=True,
    ...                                random_state=0).fit(X, y)
    >>> round(forest.oob_score_, 3)
    0.418
    """

    _tree_class = DecisionTreeRegressor
    _parameter_constraints: dict = {
        **BaseForest._parameter_constraints,
        "criterion": [StrOptions({"squared_error", "friedman_mse", "absolute_error"})],
    }

    def __init__(self, n_estimators=100, criterion="squared_error", max_depth=None,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=1.0, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 bootstrap=True, oob_score=False, n_jobs=None, random_state=None,
                 max_samples=None, splitter="best", max_bins=255, verbose=0):
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.max_samples = max_samples
        self.splitter = splitter
        self.max_bins = max_bins
        self.verbose = verbose

    def _set_oob_score(self, X, target):
        self.oob_prediction_ = self._oob_means(X)[:, 0]
        self.oob_score_ = r2_score(target, self.oob_prediction_)

    def predict(self, X):
        """Mean of the trees' predictions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        return self._mean_tree_values(X)[:, 0]
