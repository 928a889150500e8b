"""Gradient boosting of regression trees (Sangnier, *Introduction to machine learning*, §1.6.5,
Algorithm 3; Friedman, "Greedy function approximation: a gradient boosting machine", 2001).

Round ``m``: the negative gradients ``r_i = −∂L(y_i, f(x_i))/∂f`` are fitted by a regression
tree (on the data prepared once: presorted for ``splitter="best"``, binned for ``"hist"``), then
every leaf ``R`` gets the value of the line search ``γ_R = argmin_γ Σ_{i ∈ R} L(y_i, f(x_i) +
γ)`` — exact for the squared and absolute losses (mean and median of the residuals), one Newton
step for the logistic and exponential losses — and ``f ← f + ν γ``. The losses are those of
``kernelkit.ensemble._losses``, shared with histogram gradient boosting.
"""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from kernelkit.tree._flat_tree import sum_tree_values
from kernelkit.tree._growth import TreeTrainingSet, draw_tree_seed
from kernelkit.tree._validation import (
    STOPPING_RULE_CONSTRAINTS,
    check_ensemble_size,
    growth_params,
    validate_fit_input,
    validate_predict_input,
)
from kernelkit.ensemble._losses import (
    AbsoluteError,
    ExponentialLoss,
    HalfSquaredError,
    make_log_loss,
)
from kernelkit.ensemble._validation_split import split_validation
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._progress import report, report_points
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import effective_n_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["GradientBoostingClassifier", "GradientBoostingRegressor"]


# ---------------------------------------------------------------------------- estimators
class BaseGradientBoosting(ParameterNamesOncePerClass, BaseEstimator):
    """Stage-wise fitting shared by the classifier and the regressor."""

    _parameter_constraints = {
        **STOPPING_RULE_CONSTRAINTS,
        "learning_rate": [Interval(Real, 0.0, None, closed="neither")],
        "n_estimators": [Interval(Integral, 1, MAX_INT, closed="left")],
        "subsample": [Interval(Real, 0.0, 1.0, closed="right")],
        "criterion": [StrOptions({"friedman_mse", "squared_error"})],
        "validation_fraction": [Interval(Real, 0.0, 1.0, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "tol": [Interval(Real, 0.0, None, closed="left")],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the stages.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : object
        """
        X, target, sample_weight = validate_fit_input(self, X, y, sample_weight,
                                                      classifier=self._is_classifier)
        weight = np.ones(len(target)) if sample_weight is None else sample_weight
        self._loss = self._make_loss(target)
        random_state = check_random_state(self.random_state)
        rows = np.arange(len(target))
        validation = None
        if self.n_iter_no_change is not None:
            rows, validation = split_validation(target, self.validation_fraction,
                                                self._is_classifier, random_state)
        X_train, y_train, w_train = X[rows], target[rows], weight[rows]
        params = growth_params(self, len(rows), X.shape[1])
        n_threads = effective_n_threads(self.n_jobs)
        training_set = TreeTrainingSet(X_train, self.splitter, self.max_bins, n_threads)
        self.init_ = self._loss.baseline(y_train, w_train)
        F = np.tile(self.init_, (len(rows), 1))
        if validation is not None:
            F_valid = np.tile(self.init_, (len(validation), 1))
            best, stall = np.inf, 0
        check_ensemble_size(self, self.n_estimators * self._loss.n_columns)
        self.estimators_, self.train_score_ = [], []
        n_bag = max(1, int(round(self.subsample * len(rows))))
        points = report_points(self.verbose, self.n_estimators)
        start = time.perf_counter()
        for stage in range(1, self.n_estimators + 1):
            in_bag = w_train
            if self.subsample < 1.0:
                in_bag = np.zeros(len(rows))
                chosen = random_state.choice(len(rows), n_bag, replace=False)
                in_bag[chosen] = w_train[chosen]
            residual = self._loss.negative_gradient(y_train, F)
            trees = []
            for k in range(self._loss.n_columns):
                tree, leaves = training_set.grow_tree(
                    residual[:, k], in_bag, draw_tree_seed(random_state),
                    criterion=self.criterion, params=params, n_threads=n_threads,
                    return_train_leaves=True)
                seen = leaves >= 0
                gamma = self._loss.line_search(y_train[seen], F[seen], residual[seen, k],
                                               in_bag[seen], leaves[seen], tree.node_count, k)
                # an overflow is refused after the stage, with its reason
                with np.errstate(over="ignore", invalid="ignore"):
                    tree.value[:, 0] = self.learning_rate * gamma
                    # every training sample moves, in the bag or not
                    unseen = ~seen
                    leaves[unseen] = tree.apply(X_train[unseen])
                    F[:, k] += tree.value[leaves, 0]
                trees.append(tree)
            with np.errstate(over="ignore", invalid="ignore"):
                score = self._reported_loss(y_train, F, w_train)
            if not (np.isfinite(score) and np.isfinite(F).all()):
                raise ValueError(
                    f"The boosted predictions or their loss overflow float64 after "
                    f"{len(self.estimators_) + 1} stages with learning_rate="
                    f"{self.learning_rate:g}: use a smaller learning_rate (0.01-1 is usual) or "
                    "rescale the target.")
            self.estimators_.append(trees)
            self.train_score_.append(score)
            line = f"stage {stage}/{self.n_estimators}: training loss {score:.6g}"
            stop = False
            if validation is not None:
                for k, tree in enumerate(trees):
                    F_valid[:, k] += tree.predict(X[validation])[:, 0]
                score = self._reported_loss(target[validation], F_valid, weight[validation])
                line += f", validation loss {score:.6g}"
                if score < best - self.tol:
                    best, stall = score, 0
                else:
                    stall += 1
                    stop = stall >= self.n_iter_no_change
            if stage in points or (stop and self.verbose):
                report(type(self).__name__, line + (", early stop" if stop else ""), start)
            if stop:
                break
        self.train_score_ = np.array(self.train_score_)
        self.n_estimators_ = len(self.estimators_)
        return self

    def _reported_loss(self, y, F, weight):
        """The loss of ``train_score_`` and of early stopping: the loss's value, twice that of
        the half squared error (the mean squared error, as this estimator always reported)."""
        factor = 2.0 if isinstance(self._loss, HalfSquaredError) else 1.0
        return factor * self._loss(y, F, weight)

    def _raw_predict(self, X):
        check_is_fitted(self)
        X = validate_predict_input(self, X)
        trees_by_column = list(zip(*self.estimators_))
        return self.init_ + np.column_stack([sum_tree_values(list(trees), X)[:, 0]
                                             for trees in trees_by_column])

    def _staged_raw_predict(self, X):
        check_is_fitted(self)
        X = validate_predict_input(self, X)
        F = np.tile(self.init_, (X.shape[0], 1))
        for trees in self.estimators_:
            for k, tree in enumerate(trees):
                F[:, k] += tree.predict(X)[:, 0]
            yield F.copy()

    @property
    def feature_importances_(self):
        """Mean decrease of the squared error of the residual trees, normalised."""
        check_is_fitted(self)
        total = sum(tree.compute_feature_importances(normalize=False)
                    for trees in self.estimators_ for tree in trees)
        return total / total.sum() if np.sum(total) > 0 else total


_SHARED_PARAMETERS = """learning_rate : float, default=0.1
        Shrinkage :math:`\\nu` of every stage.
    n_estimators : int, default=100
        Boosting stages.
    subsample : float in (0, 1], default=1.0
        Fraction of the samples (drawn without replacement) each stage's tree is fitted on
        (stochastic gradient boosting).
    criterion : {"friedman_mse", "squared_error"}, default="friedman_mse"
        Split criterion of the residual trees (Friedman's improvement is maximised; the course
        prints it as an argmin).
    splitter : {"best", "hist"}, default="best"
        Exact presorted splits, or histograms over at most ``max_bins`` quantile bins (the
        choice for large data).
    max_depth : int, default=3
    min_samples_split, min_samples_leaf, min_weight_fraction_leaf, max_features,
    max_leaf_nodes, min_impurity_decrease, max_bins
        Stopping rules of the trees, as :class:`kernelkit.tree.DecisionTreeRegressor`.
    validation_fraction : float, default=0.1
        Held-out share for early stopping.
    n_iter_no_change : int, default=None
        Stop when the held-out loss has not decreased by ``tol`` for this many stages
        (None: no early stopping).
    tol : float, default=1e-4
    random_state : int, RandomState or None, default=None
        Seeds the subsamples, the validation split and the trees' feature draws.
    n_jobs : int, default=None
        Threads inside the trees' large nodes.
    verbose : int, default=0
        Progress on stderr: 1, a line after every tenth of the stages (training and
        validation losses, time) and at an early stop; 2, a line after every stage."""


_REFERENCES = """.. [1] Sangnier, *Introduction to machine learning*, §1.6.5, Algorithm 3 (gradient
       boosting).
    .. [2] J. H. Friedman, "Greedy function approximation: a gradient boosting machine", Annals
       of Statistics 29(5), 2001."""


@fill_doc(shared_parameters=_SHARED_PARAMETERS, references=_REFERENCES)
class GradientBoostingRegressor(RegressorMixin, BaseGradientBoosting):
    """Gradient boosting for regression (Sangnier, §1.6.5, Algorithm 3).

    :math:`f_0` is the mean (squared error) or the median (absolute error) of the targets; each
    stage fits a regression tree to the negative gradients and sets every leaf to the exact line
    search — the mean, respectively the median, of the residuals in the leaf — times :math:`\\nu`.

    Parameters
    ----------
    loss : {"squared_error", "absolute_error"}, default="squared_error"
    %(shared_parameters)s

    Attributes
    ----------
    estimators_ : list of list of Tree
        The trees of every stage (their leaf values include :math:`\\nu`).
    init_ : ndarray of shape (1,)
        ``f_0``.
    train_score_ : ndarray of shape (n_estimators_,)
        Training loss (weighted mean) after every stage: the mean squared error, or the mean
        absolute error.
    n_estimators_ : int
        Stages fitted (fewer with early stopping).
    feature_importances_ : ndarray of shape (n_features,)
    n_features_in_ : int

    References
    ----------
    %(references)s

    See Also
    --------
    HistGradientBoostingRegressor : Second-order boosting on binned features, for large samples.
    GradientBoostingClassifier : The classifier.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from kernelkit.ensemble import GradientBoostingRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = GradientBoostingRegressor(n_estimators=50, random_state=0).fit(X, y)
    >>> bool(model.train_score_[-1] < model.train_score_[0])
    True
    """

    _is_classifier = False
    _parameter_constraints = {
        **BaseGradientBoosting._parameter_constraints,
        "loss": [StrOptions({"squared_error", "absolute_error"})],
    }

    def __init__(self, loss="squared_error", learning_rate=0.1, n_estimators=100,
                 subsample=1.0, criterion="friedman_mse", splitter="best", max_depth=3,
                 min_samples_split=2, min_samples_leaf=1, min_weight_fraction_leaf=0.0,
                 max_features=None, max_leaf_nodes=None, min_impurity_decrease=0.0,
                 max_bins=255, validation_fraction=0.1, n_iter_no_change=None, tol=1e-4,
                 random_state=None, n_jobs=None, verbose=0):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.max_bins = max_bins
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _make_loss(self, target):
        # the weighted median of the first-order line search: the lower middle value
        return HalfSquaredError() if self.loss == "squared_error" else AbsoluteError("lower")

    def predict(self, X):
        r""":math:`f_0 + \sum_m \nu \gamma_m(x)`."""
        return self._raw_predict(X)[:, 0]

    def staged_predict(self, X):
        """Predictions after each stage (a generator)."""
        for F in self._staged_raw_predict(X):
            yield F[:, 0]


@fill_doc(shared_parameters=_SHARED_PARAMETERS, references=_REFERENCES)
class GradientBoostingClassifier(ClassifierMixin, BaseGradientBoosting):
    """Gradient boosting for classification (Sangnier, §1.6.5, Algorithm 3).

    ``log_loss``: the binomial deviance (:math:`f_0` the log-odds; leaves take one Newton step
    :math:`\\sum r / \\sum p (1 - p)`), or for :math:`K` classes the softmax deviance with one tree
    per class and stage (Friedman's step
    :math:`\\frac{K - 1}{K} \\sum r / \\sum |r| (1 - |r|)`). ``exponential``: AdaBoost's loss
    :math:`e^{-yF}` (two classes; :math:`f_0` half the log-odds).

    Parameters
    ----------
    loss : {"log_loss", "exponential"}, default="log_loss"
    %(shared_parameters)s

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of list of Tree
        One tree per stage (two classes) or per stage and class.
    init_ : ndarray of shape (1,) or (n_classes,)
    train_score_ : ndarray of shape (n_estimators_,)
        Training loss (weighted mean) after every stage: :math:`\\log(1 + e^F) - yF`,
        :math:`\\log \\sum_k e^{F_k} - F_y` or :math:`e^{-(2y - 1)F}`.
    n_estimators_ : int
    feature_importances_ : ndarray of shape (n_features,)
    n_features_in_ : int

    References
    ----------
    %(references)s

    See Also
    --------
    HistGradientBoostingClassifier : Second-order boosting on binned features, for large samples.
    AdaBoostClassifier : Boosting by reweighting the samples.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from kernelkit.ensemble import GradientBoostingClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = GradientBoostingClassifier(n_estimators=50, random_state=0).fit(X, y)
    >>> round(model.score(X, y), 2)
    1.0
    """

    _is_classifier = True
    _parameter_constraints = {
        **BaseGradientBoosting._parameter_constraints,
        "loss": [StrOptions({"log_loss", "exponential"})],
    }

    def __init__(self, loss="log_loss", learning_rate=0.1, n_estimators=100, subsample=1.0,
                 criterion="friedman_mse", splitter="best", max_depth=3, min_samples_split=2,
                 min_samples_leaf=1, min_weight_fraction_leaf=0.0, max_features=None,
                 max_leaf_nodes=None, min_impurity_decrease=0.0, max_bins=255,
                 validation_fraction=0.1, n_iter_no_change=None, tol=1e-4, random_state=None,
                 n_jobs=None, verbose=0):
        self.loss = loss
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.subsample = subsample
        self.criterion = criterion
        self.splitter = splitter
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_features = max_features
        self.max_leaf_nodes = max_leaf_nodes
        self.min_impurity_decrease = min_impurity_decrease
        self.max_bins = max_bins
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _make_loss(self, target):
        if self.n_classes_ < 2:
            raise ValueError(f"GradientBoostingClassifier needs at least two classes; got "
                             f"{self.n_classes_} class.")
        if self.loss == "exponential":
            if self.n_classes_ != 2:
                raise ValueError("loss='exponential' is a two-class loss; use 'log_loss' for "
                                 f"{self.n_classes_} classes.")
            return ExponentialLoss()
        return make_log_loss(self.n_classes_, centered=False)

    def decision_function(self, X):
        """Raw scores ``F(x)``: shape (n_samples,) for two classes."""
        F = self._raw_predict(X)
        return F[:, 0] if F.shape[1] == 1 else F

    def predict_proba(self, X):
        """Class probabilities."""
        F = self._raw_predict(X)   # first: NotFittedError before a fit
        return self._loss.inverse_link(F)

    def predict(self, X):
        """Most probable class."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]

    def staged_predict_proba(self, X):
        """Probabilities after each stage (a generator)."""
        for F in self._staged_raw_predict(X):
            yield self._loss.inverse_link(F)

    def staged_predict(self, X):
        """Predictions after each stage (a generator)."""
        for proba in self.staged_predict_proba(X):
            yield self.classes_[np.argmax(proba, axis=1)]
