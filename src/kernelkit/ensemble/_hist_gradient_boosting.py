"""Second-order histogram gradient boosting (Ke et al., "LightGBM: A Highly Efficient Gradient
Boosting Decision Tree", NeurIPS 2017; Chen & Guestrin, "XGBoost: A Scalable Tree Boosting
System", KDD 2016).

The data are binned once (:class:`~kernelkit.ensemble._hist_binning.BinMapper`); every round
computes the loss's gradients and Hessians in float32, grows one tree per score column on the
bins with the compiled leaf-wise grower (``kernelkit._core._hist_grower``), and adds the leaves'
Newton values to the training scores from the grower's partition of the samples (the training
set is never routed through the tree again).
"""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit._core._hist_grower import grow_tree
from kernelkit._core._hist_predict import add_leaf_values, add_tree_values
from kernelkit.ensemble._hist_binning import BinMapper
from kernelkit.ensemble._hist_losses import LOSSES, make_log_loss
from kernelkit.ensemble._validation_split import split_validation
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._progress import report, report_points
from kernelkit.utils._sklearn_compat import (
    Interval,
    RealNotInt,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads
from kernelkit.utils._validation import MAX_INT, check_class_labels

__all__ = ["HistGradientBoostingClassifier", "HistGradientBoostingRegressor"]

# A split needs at least this much Hessian on each side (scikit-learn's and LightGBM's guard
# against leaves whose Newton step divides by almost nothing).
MIN_HESSIAN_TO_SPLIT = 1e-3
# early_stopping="auto" is on above this many samples.
AUTO_EARLY_STOPPING_SAMPLES = 10_000
# Fields of a grown tree, in the order of the flat arrays of the predictor.
_TREE_FIELDS = ("feature", "bin", "threshold", "missing_go_left", "left", "value", "n_samples")


def _concatenate(trees):
    """One flat node array per field over ``trees``, children renumbered, and each tree's
    root."""
    sizes = np.array([tree["left"].size for tree in trees], dtype=np.intp)
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    flat = {name: np.concatenate([tree[name] for tree in trees]) for name in _TREE_FIELDS}
    left = np.concatenate([np.where(tree["left"] >= 0, tree["left"] + root, -1)
                           for tree, root in zip(trees, roots)])
    flat["left"] = left.astype(np.intp)
    return flat, roots


class _Grower:
    """The work space of the grower for one training set, reused by every tree."""

    def __init__(self, X_binned, bin_mapper, estimator, n_threads):
        n_samples = X_binned.shape[0]
        self.X_binned = X_binned
        self.bin_mapper = bin_mapper
        self.root_counts = np.stack([np.bincount(X_binned[:, f], minlength=256)
                                     for f in range(X_binned.shape[1])]).astype(np.float64)
        self.has_missing_values = (self.root_counts[:, bin_mapper.missing_bin_] > 0).astype(
            np.uint8)
        self.max_leaf_nodes = (estimator.max_leaf_nodes if estimator.max_leaf_nodes is not None
                               else MAX_INT)
        self.max_depth = -1 if estimator.max_depth is None else estimator.max_depth
        self.min_samples_leaf = estimator.min_samples_leaf
        self.l2_regularization = float(estimator.l2_regularization)
        self.learning_rate = float(estimator.learning_rate)
        self.n_threads = n_threads
        # every leaf holds min_samples_leaf samples, so no tree has more leaves than this
        max_leaves = max(1, min(self.max_leaf_nodes, n_samples // self.min_samples_leaf))
        max_nodes = 2 * max_leaves - 1
        self.sample_indices = np.empty(n_samples, dtype=np.int32)
        self.identity = np.arange(n_samples, dtype=np.int32)
        self.partition_buffer = np.empty(n_samples, dtype=np.int32)
        self.ordered_gradients = np.empty(n_samples, dtype=np.float32)
        self.ordered_hessians = np.empty(n_samples, dtype=np.float32)
        self.nodes = {name: np.empty(max_nodes, dtype=dtype) for name, dtype in (
            ("feature", np.intp), ("bin", np.intp), ("missing_go_left", np.uint8),
            ("left", np.intp), ("right", np.intp), ("value", np.float64), ("start", np.intp),
            ("stop", np.intp), ("gain", np.float64))}

    def grow(self, gradients, hessians, hessians_are_constant):
        """Grow a tree; returns it (a dict of node arrays) with the slice of
        ``self.sample_indices`` of each node."""
        np.copyto(self.sample_indices, self.identity)
        nodes = self.nodes
        n_nodes = grow_tree(
            self.X_binned, gradients, hessians, hessians_are_constant,
            self.bin_mapper.n_bins_non_missing_, self.has_missing_values, self.root_counts,
            self.bin_mapper.missing_bin_, self.max_leaf_nodes, self.max_depth,
            self.min_samples_leaf, MIN_HESSIAN_TO_SPLIT, self.l2_regularization,
            self.learning_rate, self.sample_indices, self.partition_buffer,
            self.ordered_gradients, self.ordered_hessians, nodes["feature"], nodes["bin"],
            nodes["missing_go_left"], nodes["left"], nodes["right"], nodes["value"],
            nodes["start"], nodes["stop"], nodes["gain"], self.n_threads)
        tree = {name: nodes[name][:n_nodes].copy()
                for name in ("feature", "bin", "missing_go_left", "left", "value", "gain")}
        is_split = tree["left"] >= 0
        # thresholds beyond a feature's last one are +inf: all non-missing values go left
        tree["threshold"] = np.where(
            is_split, self.bin_mapper.thresholds_[np.where(is_split, tree["feature"], 0),
                                                  np.minimum(tree["bin"],
                                                             self.bin_mapper.max_bins - 1)],
            0.0)
        tree["n_samples"] = nodes["stop"][:n_nodes] - nodes["start"][:n_nodes]
        return tree, nodes["start"][:n_nodes], nodes["stop"][:n_nodes]


class BaseHistGradientBoosting(BaseEstimator):
    """The boosting loop shared by the classifier and the regressor."""

    _parameter_constraints = {
        "learning_rate": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "max_leaf_nodes": [Interval(Integral, 2, MAX_INT, closed="left"), None],
        "max_depth": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "min_samples_leaf": [Interval(Integral, 1, MAX_INT, closed="left")],
        "l2_regularization": [Interval(Real, 0.0, None, closed="left")],
        "max_bins": [Interval(Integral, 2, 255, closed="both")],
        "early_stopping": [StrOptions({"auto"}), "boolean"],
        "scoring": [StrOptions({"loss"})],
        "validation_fraction": [Interval(RealNotInt, 0.0, 1.0, closed="neither"),
                                Interval(Integral, 1, MAX_INT, closed="left"), None],
        "n_iter_no_change": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0.0, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the boosted trees.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; NaN marks a missing value.
        y : array-like of shape (n_samples,)
            Targets (class labels for the classifier).

        Returns
        -------
        self : object
        """
        X, y = validate_data(self, X, y, dtype=np.float64, order="C",
                             ensure_all_finite="allow-nan", y_numeric=not self._is_classifier)
        target = self._encode_target(y)
        self._loss = self._make_loss(target)
        random_state = check_random_state(self.random_state)
        n_threads = effective_n_threads(self.n_jobs)
        early_stopping = (X.shape[0] > AUTO_EARLY_STOPPING_SAMPLES
                          if self.early_stopping == "auto" else self.early_stopping)
        X_valid = y_valid = None
        if early_stopping and self.validation_fraction is not None:
            rows, validation = split_validation(target, self.validation_fraction,
                                                self._is_classifier, random_state)
            X, X_valid, target, y_valid = X[rows], X[validation], target[rows], target[validation]
        self._bin_mapper = BinMapper(self.max_bins, random_state).fit(X)
        grower = _Grower(self._bin_mapper.transform(X, n_threads), self._bin_mapper, self,
                         n_threads)
        loss = self._loss
        n_columns = loss.n_columns
        self._baseline = loss.baseline(target)
        raw = np.tile(self._baseline, (X.shape[0], 1))
        gradients = np.empty((n_columns, X.shape[0]), dtype=np.float32)
        hessians = (np.ones((n_columns, 1), dtype=np.float32) if loss.hessians_are_constant
                    else np.empty((n_columns, X.shape[0]), dtype=np.float32))
        train_scores, valid_scores = [], []
        if early_stopping:
            train_scores.append(-loss(target, raw))
            if X_valid is not None:
                raw_valid = np.tile(self._baseline, (X_valid.shape[0], 1))
                valid_scores.append(-loss(y_valid, raw_valid))
        self._trees = []
        points = report_points(self.verbose, self.max_iter)
        start = time.perf_counter()
        for iteration in range(1, self.max_iter + 1):
            # an overflow is refused after the last round, with its reason
            with np.errstate(over="ignore", invalid="ignore"):
                loss.gradients(target, raw, gradients, hessians, n_threads)
            trees = []
            for k in range(n_columns):
                tree, node_start, node_stop = grower.grow(
                    gradients[k], hessians[k], loss.hessians_are_constant)
                leaves = tree["left"] < 0
                if loss.refits_leaves:
                    tree["value"][leaves] = self.learning_rate * loss.leaf_values(
                        target, raw[:, k], grower.sample_indices, node_start[leaves],
                        node_stop[leaves])
                add_leaf_values(grower.sample_indices, node_start[leaves], node_stop[leaves],
                                tree["value"][leaves], raw, k, n_threads)
                trees.append(tree)
            self._trees.extend(trees)
            line = f"iteration {iteration}/{self.max_iter}"
            stop = False
            if early_stopping:
                with np.errstate(over="ignore", invalid="ignore"):
                    train_scores.append(-loss(target, raw))
                line += f", training loss {-train_scores[-1]:.6g}"
                scores = train_scores
                if X_valid is not None:
                    flat, roots = _concatenate(trees)
                    self._add_tree_values(X_valid, flat, roots, 0, n_columns, raw_valid,
                                          n_threads)
                    valid_scores.append(-loss(y_valid, raw_valid))
                    line += f", validation loss {-valid_scores[-1]:.6g}"
                    scores = valid_scores
                stop = self._should_stop(scores)
            if iteration in points or (stop and self.verbose):
                report(type(self).__name__, line + (", early stop" if stop else ""), start)
            if stop:
                break
        if not np.isfinite(raw).all():
            raise ValueError(
                f"The boosted scores overflow float64 with learning_rate={self.learning_rate:g}:"
                " use a smaller learning_rate or rescale the target.")
        self.n_iter_ = len(self._trees) // n_columns
        self.n_trees_per_iteration_ = n_columns
        self.train_score_ = np.asarray(train_scores)
        self.validation_score_ = np.asarray(valid_scores)
        self._nodes, self._tree_roots = _concatenate(self._trees)
        return self

    def _should_stop(self, scores):
        """scikit-learn's rule: no score of the last ``n_iter_no_change`` beats the one before
        them by more than ``tol`` (scores are negated losses: higher is better)."""
        reference_position = self.n_iter_no_change + 1
        if len(scores) < reference_position:
            return False
        reference_score = scores[-reference_position] + self.tol
        return not any(score > reference_score for score in scores[-reference_position + 1:])

    @staticmethod
    def _add_tree_values(X, nodes, roots, first_tree, stop_tree, raw, n_threads):
        add_tree_values(X, nodes, roots, first_tree, stop_tree, raw, n_threads)

    def _validate_predict_input(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, order="C",
                             ensure_all_finite="allow-nan", reset=False)

    def _raw_predict(self, X):
        X = self._validate_predict_input(X)
        raw = np.tile(self._baseline, (X.shape[0], 1))
        self._add_tree_values(X, self._nodes, self._tree_roots, 0, len(self._tree_roots), raw,
                              effective_n_threads(self.n_jobs))
        return raw

    def _staged_raw_predict(self, X):
        X = self._validate_predict_input(X)
        raw = np.tile(self._baseline, (X.shape[0], 1))
        n_threads = effective_n_threads(self.n_jobs)
        K = self.n_trees_per_iteration_
        for iteration in range(self.n_iter_):
            self._add_tree_values(X, self._nodes, self._tree_roots, iteration * K,
                                  (iteration + 1) * K, raw, n_threads)
            yield raw.copy()


_SHARED_PARAMETERS = """learning_rate : float, default=0.1
        Shrinkage :math:`\\nu` of every leaf value.
    max_iter : int, default=100
        Boosting rounds (each grows one tree per score column).
    max_leaf_nodes : int or None, default=31
        Leaves of each tree (None: no bound).
    max_depth : int or None, default=None
        Depth of each tree (None: no bound; the root has depth 0).
    min_samples_leaf : int, default=20
        Samples of each leaf.
    l2_regularization : float, default=0.0
        :math:`\\lambda` of the gain and of the leaf values :math:`-\\nu G/(H + \\lambda)`.
    max_bins : int, default=255
        Bins of the non-missing values of each feature (at most 255); missing values get a bin
        of their own.
    early_stopping : "auto" or bool, default="auto"
        Stop when the score stalls; "auto": on above 10 000 samples.
    scoring : "loss", default="loss"
        What early stopping watches: the loss on the held-out data (or the training data when
        ``validation_fraction`` is None).
    validation_fraction : float, int or None, default=0.1
        Held-out share (or count) of the training data for early stopping.
    n_iter_no_change : int, default=10
        Stop when none of the last ``n_iter_no_change`` scores beats the one before them by
        more than ``tol``.
    tol : float, default=1e-7
    random_state : int, RandomState or None, default=None
        Seeds the subsample of the binning thresholds and the validation split.
    n_jobs : int, default=None
        Threads of the histograms, partitions and predictions (None: all the CPUs OpenMP
        allows); the trees do not depend on it.
    verbose : int, default=0
        Progress on stderr: 1, a line after every tenth of the rounds; 2, after every round."""

_SHARED_ATTRIBUTES = """n_iter_ : int
        Boosting rounds fitted (fewer than ``max_iter`` after an early stop).
    n_trees_per_iteration_ : int
        Trees per round: 1, or the number of classes for a multinomial loss.
    train_score_ : ndarray of shape (n_iter_ + 1,)
        Negated training loss before the first round and after each (empty without early
        stopping).
    validation_score_ : ndarray of shape (n_iter_ + 1,)
        Negated held-out loss, likewise (empty without early stopping or held-out data).
    n_features_in_ : int"""

_REFERENCES = """References
    ----------
    Ke, Meng, Finley, Wang, Chen, Ma, Ye & Liu, "LightGBM: A Highly Efficient Gradient Boosting
    Decision Tree", NeurIPS 2017 (histograms, histogram subtraction, leaf-wise growth).
    Chen & Guestrin, "XGBoost: A Scalable Tree Boosting System", KDD 2016 (the second-order
    gain and leaf values).

    Notes
    -----
    This is the second-order algorithm: each tree is grown on the gradients *and* Hessians of the
    loss, its split gain is :math:`G_L^2/(H_L+\\lambda) + G_R^2/(H_R+\\lambda) - G^2/(H+\\lambda)`
    and its leaves take the Newton step. :class:`kernelkit.ensemble.GradientBoostingRegressor`
    and :class:`~kernelkit.ensemble.GradientBoostingClassifier` are the first-order algorithm of
    the course (Sangnier, §1.6.5, Algorithm 3): a regression tree fitted to the negative
    gradients, then a line search per leaf."""


@fill_doc(references=_REFERENCES, shared_attributes=_SHARED_ATTRIBUTES,
          shared_parameters=_SHARED_PARAMETERS)
class HistGradientBoostingRegressor(RegressorMixin, BaseHistGradientBoosting):
    """Second-order histogram gradient boosting for regression.

    Parameters
    ----------
    loss : {"squared_error", "absolute_error", "poisson"}, default="squared_error"
        ``absolute_error`` grows each tree on the gradient's sign (Hessian 1), then sets every
        leaf to the median of its samples' residuals. ``poisson`` has a log link (targets must
        be non-negative, not all zero).
    %(shared_parameters)s

    Attributes
    ----------
    %(shared_attributes)s

    %(references)s

    See Also
    --------
    HistGradientBoostingClassifier
    GradientBoostingRegressor : the first-order gradient boosting of the course.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from kernelkit.ensemble import HistGradientBoostingRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = HistGradientBoostingRegressor(max_iter=50, random_state=0).fit(X, y)
    >>> model.n_iter_
    50
    >>> bool(model.score(X, y) > 0.6)
    True
    """

    _is_classifier = False
    _parameter_constraints = {
        **BaseHistGradientBoosting._parameter_constraints,
        "loss": [StrOptions({"squared_error", "absolute_error", "poisson"})],
    }

    def __init__(self, loss="squared_error", *, learning_rate=0.1, max_iter=100,
                 max_leaf_nodes=31, max_depth=None, min_samples_leaf=20, l2_regularization=0.0,
                 max_bins=255, early_stopping="auto", scoring="loss", validation_fraction=0.1,
                 n_iter_no_change=10, tol=1e-7, random_state=None, n_jobs=None, verbose=0):
        self.loss = loss
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.max_bins = max_bins
        self.early_stopping = early_stopping
        self.scoring = scoring
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _encode_target(self, y):
        if self.loss == "poisson" and (np.any(y < 0) or np.sum(y) <= 0):
            raise ValueError("loss='poisson' needs non-negative targets with a positive sum.")
        return np.ascontiguousarray(y, dtype=np.float64)

    def _make_loss(self, target):
        return LOSSES[self.loss]()

    def predict(self, X):
        """Predicted targets of the rows of ``X``, shape (n_samples,) (``e^f`` for the Poisson
        loss)."""
        raw = self._raw_predict(X)
        return self._loss.inverse_link(raw)

    def staged_predict(self, X):
        """Predictions after each round (a generator of arrays of shape (n_samples,))."""
        for raw in self._staged_raw_predict(X):
            yield self._loss.inverse_link(raw)


@fill_doc(references=_REFERENCES, shared_attributes=_SHARED_ATTRIBUTES,
          shared_parameters=_SHARED_PARAMETERS)
class HistGradientBoostingClassifier(ClassifierMixin, BaseHistGradientBoosting):
    """Second-order histogram gradient boosting for classification.

    Parameters
    ----------
    loss : {"log_loss"}, default="log_loss"
        The logistic loss for two classes (one tree per round), the multinomial cross-entropy
        for more (one tree per class and round).
    %(shared_parameters)s

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    %(shared_attributes)s

    %(references)s

    See Also
    --------
    HistGradientBoostingRegressor
    GradientBoostingClassifier : the first-order gradient boosting of the course.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from kernelkit.ensemble import HistGradientBoostingClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = HistGradientBoostingClassifier(max_iter=50, random_state=0).fit(X, y)
    >>> round(model.score(X, y), 2)
    1.0
    """

    _is_classifier = True
    _parameter_constraints = {
        **BaseHistGradientBoosting._parameter_constraints,
        "loss": [StrOptions({"log_loss"})],
    }

    def __init__(self, loss="log_loss", *, learning_rate=0.1, max_iter=100, max_leaf_nodes=31,
                 max_depth=None, min_samples_leaf=20, l2_regularization=0.0, max_bins=255,
                 early_stopping="auto", scoring="loss", validation_fraction=0.1,
                 n_iter_no_change=10, tol=1e-7, random_state=None, n_jobs=None, verbose=0):
        self.loss = loss
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.max_bins = max_bins
        self.early_stopping = early_stopping
        self.scoring = scoring
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _encode_target(self, y):
        check_class_labels(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes; got "
                             f"{self.classes_.size} class.")
        return codes.astype(np.float64)

    def _make_loss(self, target):
        return make_log_loss(self.classes_.size)

    def decision_function(self, X):
        """Raw scores of the rows of ``X``: shape (n_samples,) for two classes,
        (n_samples, n_classes) for more."""
        raw = self._raw_predict(X)
        return raw[:, 0] if raw.shape[1] == 1 else raw

    def predict_proba(self, X):
        """Class probabilities, shape (n_samples, n_classes)."""
        raw = self._raw_predict(X)
        return self._loss.inverse_link(raw)

    def predict(self, X):
        """Most probable class of each sample."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def staged_decision_function(self, X):
        """Raw scores after each round (a generator)."""
        for raw in self._staged_raw_predict(X):
            yield raw[:, 0] if raw.shape[1] == 1 else raw

    def staged_predict_proba(self, X):
        """Class probabilities after each round (a generator)."""
        for raw in self._staged_raw_predict(X):
            yield self._loss.inverse_link(raw)

    def staged_predict(self, X):
        """Predicted classes after each round (a generator)."""
        for proba in self.staged_predict_proba(X):
            yield self.classes_[np.argmax(proba, axis=1)]
