"""The estimators: :class:`HistGradientBoostingRegressor` and
:class:`HistGradientBoostingClassifier`."""

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils import compute_sample_weight

from kernelkit.ensemble._hist_gradient_boosting._boosting import (
    REFERENCES,
    SHARED_ATTRIBUTES,
    SHARED_PARAMETERS,
    BaseHistGradientBoosting,
)
from kernelkit.ensemble._losses import REGRESSION_LOSSES, make_log_loss
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import StrOptions
from kernelkit.utils._validation import check_class_labels

__all__ = ["HistGradientBoostingClassifier", "HistGradientBoostingRegressor"]


@fill_doc(references=REFERENCES, shared_attributes=SHARED_ATTRIBUTES,
          shared_parameters=SHARED_PARAMETERS)
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
                 max_bins=255, categorical_features="from_dtype", monotonic_cst=None,
                 interaction_cst=None, warm_start=False, early_stopping="auto", scoring="loss",
                 validation_fraction=0.1, n_iter_no_change=10, tol=1e-7, random_state=None,
                 n_jobs=None, verbose=0):
        self.loss = loss
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.max_bins = max_bins
        self.categorical_features = categorical_features
        self.monotonic_cst = monotonic_cst
        self.interaction_cst = interaction_cst
        self.warm_start = warm_start
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
        return REGRESSION_LOSSES[self.loss]()

    def predict(self, X):
        """Predicted targets of the rows of ``X``, shape (n_samples,) (``e^f`` for the Poisson
        loss)."""
        raw = self._raw_predict(X)
        return self._loss.inverse_link(raw)

    def staged_predict(self, X):
        """Predictions after each round (a generator of arrays of shape (n_samples,))."""
        for raw in self._staged_raw_predict(X):
            yield self._loss.inverse_link(raw)


@fill_doc(references=REFERENCES, shared_attributes=SHARED_ATTRIBUTES,
          shared_parameters=SHARED_PARAMETERS)
class HistGradientBoostingClassifier(ClassifierMixin, BaseHistGradientBoosting):
    """Second-order histogram gradient boosting for classification.

    Parameters
    ----------
    loss : {"log_loss"}, default="log_loss"
        The logistic loss for two classes (one tree per round), the multinomial cross-entropy
        for more (one tree per class and round).
    %(shared_parameters)s
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, ``{class_label: weight}`` (classes not named weigh 1), or
        "balanced": ``n_samples / (n_classes * count(class))``. They multiply
        ``sample_weight``.

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
        "class_weight": [dict, StrOptions({"balanced"}), None],
    }

    def __init__(self, loss="log_loss", *, learning_rate=0.1, max_iter=100, max_leaf_nodes=31,
                 max_depth=None, min_samples_leaf=20, l2_regularization=0.0, max_bins=255,
                 categorical_features="from_dtype", monotonic_cst=None, interaction_cst=None,
                 warm_start=False, early_stopping="auto", scoring="loss",
                 validation_fraction=0.1, n_iter_no_change=10, tol=1e-7, random_state=None,
                 n_jobs=None, verbose=0, class_weight=None):
        self.loss = loss
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.max_leaf_nodes = max_leaf_nodes
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.max_bins = max_bins
        self.categorical_features = categorical_features
        self.monotonic_cst = monotonic_cst
        self.interaction_cst = interaction_cst
        self.warm_start = warm_start
        self.early_stopping = early_stopping
        self.scoring = scoring
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.class_weight = class_weight

    def _encode_target(self, y):
        check_class_labels(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes; got "
                             f"{self.classes_.size} class.")
        return codes.astype(np.float64)

    def _make_loss(self, target):
        return make_log_loss(self.classes_.size)

    def _class_weighted(self, y, sample_weight):
        """``sample_weight`` (None: 1) times the weight of each sample's class."""
        if self.class_weight is None:
            return sample_weight
        class_weight = compute_sample_weight(self.class_weight, y)
        return class_weight if sample_weight is None else sample_weight * class_weight

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
