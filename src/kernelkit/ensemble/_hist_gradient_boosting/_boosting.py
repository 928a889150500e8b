"""The boosting loop shared by :class:`HistGradientBoostingRegressor` and
:class:`HistGradientBoostingClassifier`: binning, gradients, one tree per score column and round,
early stopping, and the raw scores of new data."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from kernelkit.ensemble._hist_gradient_boosting._categories import (
    check_fit_data,
    check_predict_data,
)
from kernelkit.ensemble._hist_gradient_boosting._constraints import grower_constraints
from kernelkit.ensemble._hist_gradient_boosting._early_stopping import EarlyStopping
from kernelkit.ensemble._hist_gradient_boosting._grower import Grower
from kernelkit.ensemble._hist_gradient_boosting._predictor import (
    add_leaf_values,
    add_tree_values,
    concatenate_trees,
)
from kernelkit.ensemble._hist_gradient_boosting._sample_weight import fit_sample_weight
from kernelkit.ensemble._hist_gradient_boosting._warm_start import (
    check_continued_fit,
    check_same_loss,
    continues_fit,
    fit_random_state,
)
from kernelkit.ensemble._validation_split import split_validation
from kernelkit.utils._binning import BinMapper
from kernelkit.utils._progress import report, report_points
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    RealNotInt,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads, min_work_per_thread
from kernelkit.utils._validation import MAX_INT

__all__ = ["BaseHistGradientBoosting", "SHARED_ATTRIBUTES", "SHARED_PARAMETERS", "REFERENCES"]

# early_stopping="auto" is on above this many samples.
AUTO_EARLY_STOPPING_SAMPLES = 10_000
# Rows the binning thresholds are cut from (a uniform subsample without replacement above it).
BINNING_SUBSAMPLE = 200_000
# Samples below which a tree's leaf values are added on one thread: a team of two must wake
# (16-62 µs measured, quiet) and pays from about 110 000 samples on the benchmark machine.
LEAF_TEAM_MIN_SAMPLES = 32_768


class BaseHistGradientBoosting(ParameterNamesOncePerClass, BaseEstimator):
    """The boosting loop shared by the classifier and the regressor."""

    _parameter_constraints = {
        "learning_rate": [Interval(Real, 0.0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "max_leaf_nodes": [Interval(Integral, 2, MAX_INT, closed="left"), None],
        "max_depth": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "min_samples_leaf": [Interval(Integral, 1, MAX_INT, closed="left")],
        "l2_regularization": [Interval(Real, 0.0, None, closed="left")],
        "monotonic_cst": ["array-like", dict, None],
        "interaction_cst": [list, tuple, StrOptions({"pairwise", "no_interactions"}), None],
        "max_bins": [Interval(Integral, 2, 255, closed="both")],
        "categorical_features": ["array-like", StrOptions({"from_dtype"}), None],
        "early_stopping": [StrOptions({"auto"}), "boolean"],
        "scoring": [str, callable, None],
        "validation_fraction": [Interval(RealNotInt, 0.0, 1.0, closed="neither"),
                                Interval(Integral, 1, MAX_INT, closed="left"), None],
        "n_iter_no_change": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0.0, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
        "warm_start": ["boolean"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the boosted trees (with ``warm_start``, add rounds to the fitted ones).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; NaN marks a missing value.
        y : array-like of shape (n_samples,)
            Targets (class labels for the classifier).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (None: 1). They multiply the gradients and Hessians and weigh
            the baseline, the losses, the scores and the bin thresholds; rows of weight zero
            are dropped.

        Returns
        -------
        self : object
        """
        continued = continues_fit(self)
        previous_loss, previous_classes = (
            (self._loss, getattr(self, "classes_", None)) if continued else (None, None))
        X, y, known_categories = check_fit_data(self, X, y, reset=not continued)
        if continued:
            check_continued_fit(self, y, previous_classes)
        target = self._encode_target(y)
        X, target, sample_weight = fit_sample_weight(self, X, y, target, sample_weight)
        loss = self._make_loss(target)
        if continued:
            check_same_loss(loss, previous_loss)
        self._loss = loss
        constraints = grower_constraints(self, X.shape[1], loss.n_columns)
        random_state = fit_random_state(self, continued)
        n_threads = effective_n_threads(self.n_jobs)
        early_stopping = (X.shape[0] > AUTO_EARLY_STOPPING_SAMPLES
                          if self.early_stopping == "auto" else self.early_stopping)
        valid = None
        if early_stopping and self.validation_fraction is not None:
            rows, validation = split_validation(target, self.validation_fraction,
                                                self._is_classifier, random_state)
            valid = (X[validation], target[validation],
                     None if sample_weight is None else sample_weight[validation])
            X, target = X[rows], target[rows]
            sample_weight = None if sample_weight is None else sample_weight[rows]
        self._bin_mapper = BinMapper(self.max_bins, "percentiles", subsample=BINNING_SUBSAMPLE,
                                     random_state=random_state).fit(
            X, sample_weight, known_categories=known_categories, n_threads=n_threads)
        grower = Grower(self._bin_mapper.transform(X, n_threads), self._bin_mapper, self,
                         n_threads, constraints)
        n_columns = loss.n_columns
        if continued:
            del self._trees[self.n_iter_ * n_columns:]   # those of an interrupted fit
        else:
            self._baseline = loss.baseline(target, sample_weight)
            self._trees = []
            self.train_score_, self.validation_score_ = [], []
        raw = self._raw_scores(X, self._trees, n_threads)
        hessians_are_constant = loss.unit_hessians and sample_weight is None
        gradients = np.empty((n_columns, X.shape[0]), dtype=np.float32)
        hessians = (np.ones((n_columns, 1), dtype=np.float32) if hessians_are_constant
                    else np.empty((n_columns, X.shape[0]), dtype=np.float32))
        if early_stopping:
            monitor = EarlyStopping(
                self, (X, target, sample_weight), valid,
                None if valid is None else self._raw_scores(valid[0], self._trees, n_threads),
                (list(self.train_score_), list(self.validation_score_)), random_state,
                n_threads)
            if not continued:
                monitor.record(raw, self._trees, 0)
        points = report_points(self.verbose, self.max_iter)
        # the leaf values' team: the grower's team sleeps again while the tree is read out, so
        # waking it is paid; below LEAF_TEAM_MIN_SAMPLES one thread (no probe of that cost)
        leaf_team = ((n_threads, min_work_per_thread(n_threads))
                     if X.shape[0] >= LEAF_TEAM_MIN_SAMPLES else (1, 0.0))
        start = time.perf_counter()
        for iteration in range(len(self._trees) // n_columns + 1, self.max_iter + 1):
            # an overflow is refused after the last round, with its reason
            with np.errstate(over="ignore", invalid="ignore"):
                loss.gradient_hessian(target, raw, sample_weight, gradients, hessians, n_threads)
            trees = []
            for k in range(n_columns):
                tree, node_start, node_stop = grower.grow(
                    gradients[k], hessians[k], hessians_are_constant)
                leaves = tree["left"] < 0
                if not loss.differentiable:
                    tree["value"][leaves] = self.learning_rate * line_search_leaves(
                        loss, target, raw, sample_weight, grower.sample_indices,
                        node_start[leaves], node_stop[leaves], k)
                add_leaf_values(grower.sample_indices, node_start[leaves], node_stop[leaves],
                                tree["value"][leaves], raw, k, *leaf_team)
                trees.append(tree)
            self._trees.extend(trees)
            line = f"iteration {iteration}/{self.max_iter}"
            stop = False
            if early_stopping:
                stop, scores = monitor.record(raw, self._trees, n_columns)
                line += scores
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
        if early_stopping:
            self.train_score_, self.validation_score_ = monitor.train_scores, monitor.valid_scores
        self.train_score_ = np.asarray(self.train_score_)
        self.validation_score_ = np.asarray(self.validation_score_)
        self._nodes, self._tree_roots = concatenate_trees(self._trees)
        return self

    def _class_weighted(self, y, sample_weight):
        """``sample_weight`` times the class weights (the classifier's ``class_weight``)."""
        return sample_weight

    def _raw_scores(self, X, trees, n_threads):
        """Raw scores of the rows of ``X`` (validated) by the baseline and ``trees``."""
        raw = np.tile(self._baseline, (X.shape[0], 1))
        if trees:
            nodes, roots = concatenate_trees(trees)
            self._add_tree_values(X, nodes, roots, 0, len(roots), raw, n_threads)
        return raw

    @staticmethod
    def _add_tree_values(X, nodes, roots, first_tree, stop_tree, raw, n_threads):
        add_tree_values(X, nodes, roots, first_tree, stop_tree, raw, n_threads)

    def _validate_predict_input(self, X):
        check_is_fitted(self)
        return check_predict_data(self, X)

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


def line_search_leaves(loss, target, raw, sample_weight, sample_indices, leaf_start, leaf_stop,
                       k):
    """The loss's line search over the leaves of a tree of column ``k``, whose samples are
    ``sample_indices[leaf_start[j]:leaf_stop[j]]`` for leaf ``j`` (the grower's partition)."""
    leaf_of = np.empty(len(target), dtype=np.intp)
    for leaf, (first, stop) in enumerate(zip(leaf_start, leaf_stop)):
        leaf_of[sample_indices[first:stop]] = leaf
    return loss.line_search(target, raw, None, sample_weight, leaf_of, len(leaf_start), k)


SHARED_PARAMETERS = """learning_rate : float, default=0.1
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
    monotonic_cst : array-like of int of shape (n_features,) or dict, default=None
        Monotonic constraint of each feature: 1, the prediction increases with it; -1, it
        decreases; 0, free. A dict maps feature names (when ``X`` has them) to constraints,
        the features it leaves out being free. A split on a constrained feature whose
        children's values are in the wrong order is rejected, and the values below each child
        are bounded by the midpoint of the two (scikit-learn's rule). Not for multiclass
        classification. With ``loss="absolute_error"`` the leaves are refitted to medians after
        growth, which may break the order.
    interaction_cst : {"pairwise", "no_interactions"} or sequence of lists/tuples/sets of int, \
default=None
        Groups of feature indices that may interact: a branch of a tree splits only on the
        features of the groups that contain every feature split on above it. Features in no
        group form one more group; "pairwise" means every pair, "no_interactions" every feature
        alone. E.g. with 5 features, ``[{0, 1}]`` is ``[{0, 1}, {2, 3, 4}]``.
    max_bins : int, default=255
        Bins of the non-missing values of each feature (at most 255); missing values get a bin
        of their own.
    categorical_features : array-like of {bool, int, str}, "from_dtype" or None, \
default="from_dtype"
        The categorical features: a boolean mask, feature indices, or column names of a data
        frame; "from_dtype": the columns of a pandas or polars data frame with a categorical
        dtype (none for an array); None: none. A column of strings, objects or a categorical
        dtype is coded by the sorted order of its categories (at most ``max_bins``; a category
        unseen at fit counts as missing); a numeric one must hold integers in
        ``[0, max_bins)`` (negative values count as missing). Columns of strings must be
        categorical. A categorical split sends a set of categories left: the best cut of the
        categories sorted by :math:`G/(H + \\text{smoothing})`.
    early_stopping : "auto" or bool, default="auto"
        Stop when the score stalls; "auto": on above 10 000 samples.
    scoring : str, callable or None, default="loss"
        What early stopping watches, on the held-out data (or the training data when
        ``validation_fraction`` is None): "loss", the loss (negated); otherwise a scikit-learn
        scorer (:func:`sklearn.metrics.check_scoring`: a scorer's name, a callable
        ``scorer(estimator, X, y)``, or None for the estimator's ``score``), on at most 10 000
        training rows. Higher is better either way.
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
        Progress on stderr: 1, a line after every tenth of the rounds; 2, after every round.
    warm_start : bool, default=False
        ``fit`` adds rounds to the trees already fitted, up to ``max_iter`` (which may not be
        smaller than ``n_iter_``), on the same data: the validation split is the first fit's."""

SHARED_ATTRIBUTES = """n_iter_ : int
        Boosting rounds fitted (fewer than ``max_iter`` after an early stop).
    n_trees_per_iteration_ : int
        Trees per round: 1, or the number of classes for a multinomial loss.
    train_score_ : ndarray of shape (n_iter_ + 1,)
        The training score (of ``scoring``: the negated loss by default) before the first
        round and after each (empty without early stopping).
    validation_score_ : ndarray of shape (n_iter_ + 1,)
        The held-out score, likewise (empty without early stopping or held-out data).
    is_categorical_ : ndarray of shape (n_features_in_,), dtype bool, or None
        The categorical features (None: none).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names of a data frame given at fit (checked at predict)."""

REFERENCES = """References
    ----------
    Ke, Meng, Finley, Wang, Chen, Ma, Ye & Liu, "LightGBM: A Highly Efficient Gradient Boosting
    Decision Tree", NeurIPS 2017 (histograms, histogram subtraction, leaf-wise growth).
    Chen & Guestrin, "XGBoost: A Scalable Tree Boosting System", KDD 2016 (the second-order
    gain and leaf values).
    Fisher, "On Grouping for Maximum Homogeneity", JASA 1958 (categories sorted by their mean
    target, then cut as numbers).

    Notes
    -----
    This is the second-order algorithm: each tree is grown on the gradients *and* Hessians of the
    loss, its split gain is :math:`G_L^2/(H_L+\\lambda) + G_R^2/(H_R+\\lambda) - G^2/(H+\\lambda)`
    and its leaves take the Newton step. :class:`kernelkit.ensemble.GradientBoostingRegressor`
    and :class:`~kernelkit.ensemble.GradientBoostingClassifier` are the first-order algorithm of
    the course (Sangnier, §1.6.5, Algorithm 3): a regression tree fitted to the negative
    gradients, then a line search per leaf."""
