"""Bagging: any estimator fitted on bootstrap samples, predictions averaged (Sangnier,
*Introduction to machine learning*, §1.6.3; Breiman, "Bagging predictors", 1996)."""

from numbers import Integral

import numpy as np
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.tree import DecisionTreeClassifier, DecisionTreeRegressor
from kernelkit.tree._growth import draw_tree_seed
from kernelkit.tree._validation import check_ensemble_size
from kernelkit.utils._progress import in_blocks
from kernelkit.utils._sklearn_compat import (
    HasMethods,
    Interval,
    ParameterNamesOncePerClass,
    RealNotInt,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads
from kernelkit.utils._validation import MAX_INT, check_class_labels

__all__ = ["BaggingClassifier", "BaggingRegressor"]


def _fit_one(estimator, X, y, rows):
    return estimator.fit(X[rows], y[rows])


class BaseBagging(ParameterNamesOncePerClass, BaseEstimator):
    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, MAX_INT, closed="left")],
        "max_samples": [Interval(Integral, 1, MAX_INT, closed="left"),
                        Interval(RealNotInt, 0.0, 1.0, closed="right")],
        "bootstrap": ["boolean"],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, estimator=None, n_estimators=10, *, max_samples=1.0, bootstrap=True,
                 random_state=None, n_jobs=None, verbose=0):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.bootstrap = bootstrap
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit every estimator on its own sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : object
        """
        X, y = validate_data(self, X, y, y_numeric=not self._is_classifier)
        if self._is_classifier:
            check_class_labels(y)
            self.classes_, y = np.unique(y, return_inverse=True)
        n = X.shape[0]
        size = self.max_samples if isinstance(self.max_samples, Integral) \
            else max(1, int(self.max_samples * n))
        if size > n:
            raise ValueError(f"max_samples={self.max_samples} is larger than the {n} samples.")
        random_state = check_random_state(self.random_state)
        base = self.estimator if self.estimator is not None else self._default_estimator()
        # each estimator's clone and its sample indices
        check_ensemble_size(self, self.n_estimators, 8.0 * size)
        estimators, self.estimators_samples_ = [], []
        for _ in range(self.n_estimators):
            estimator = clone(base)
            if "random_state" in estimator.get_params():
                estimator.set_params(random_state=draw_tree_seed(random_state))
            rows = (random_state.randint(0, n, size) if self.bootstrap
                    # a subset in the data's order: all the samples are the data itself
                    else np.sort(random_state.permutation(n)[:size]))
            estimators.append(estimator)
            self.estimators_samples_.append(rows)
        # threads: the compiled trees (and most numerical estimators) release the GIL; verbose
        # fits them in ten blocks, a line after each
        parallel = Parallel(n_jobs=effective_n_threads(self.n_jobs), prefer="threads")
        self.estimators_ = []
        for first, stop in in_blocks(type(self).__name__, self.verbose, self.n_estimators,
                                     "estimators"):
            self.estimators_ += parallel(
                delayed(_fit_one)(e, X, y, rows)
                for e, rows in zip(estimators[first:stop],
                                   self.estimators_samples_[first:stop]))
        return self

    def _check_predict(self, X):
        check_is_fitted(self)
        return validate_data(self, X, reset=False)


class BaggingClassifier(ClassifierMixin, BaseBagging):
    """Bagging for classification: the mean of the estimators' class probabilities (their
    majority vote when they have no ``predict_proba``).

    Parameters
    ----------
    estimator : classifier, default=None
        None: a kernelkit ``DecisionTreeClassifier`` (full depth).
    n_estimators : int, default=10
    max_samples : int or float, default=1.0
        Samples drawn for each estimator (a float: that fraction of the data).
    bootstrap : bool, default=True
        Draw with replacement (bagging); False: a subset without replacement (pasting).
    random_state : int, RandomState or None, default=None
        Seeds the samples and the estimators' own ``random_state``.
    n_jobs : int, default=None
        Estimators fitted in parallel threads.
    verbose : int, default=0
        Progress on stderr: with a positive value the estimators are fitted in ten blocks,
        with a line after each (estimators fitted, time).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of estimators
    estimators_samples_ : list of ndarray
        Rows each estimator was fitted on.
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.6.3 (bagging and random forests).
    .. [2] L. Breiman, "Bagging predictors", Machine Learning 24(2), 1996.

    See Also
    --------
    BaggingRegressor : The same for regression.
    RandomForestClassifier : Bagged trees that also draw the features of each split.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.ensemble import BaggingClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> round(BaggingClassifier(n_estimators=20, random_state=0).fit(X, y).score(X, y), 2)
    1.0
    """

    _is_classifier = True

    def _default_estimator(self):
        return DecisionTreeClassifier()

    def predict_proba(self, X):
        """Mean class probabilities over the estimators, shape (n_samples, n_classes)."""
        X = self._check_predict(X)
        proba = np.zeros((X.shape[0], len(self.classes_)))
        for estimator in self.estimators_:
            # an estimator whose sample missed a class knows only its own classes
            columns = np.asarray(estimator.classes_, dtype=int)
            if hasattr(estimator, "predict_proba"):
                proba[:, columns] += estimator.predict_proba(X)
            else:
                proba[np.arange(X.shape[0]), np.asarray(estimator.predict(X), dtype=int)] += 1
        return proba / len(self.estimators_)

    def predict(self, X):
        """Class of largest mean probability."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class BaggingRegressor(RegressorMixin, BaseBagging):
    """Bagging for regression: the mean of the estimators' predictions.

    Parameters
    ----------
    estimator : regressor, default=None
        None: a kernelkit ``DecisionTreeRegressor`` (full depth).
    n_estimators : int, default=10
    max_samples : int or float, default=1.0
    bootstrap : bool, default=True
    random_state : int, RandomState or None, default=None
    n_jobs : int, default=None
    verbose : int, default=0

    Attributes
    ----------
    estimators_ : list of estimators
    estimators_samples_ : list of ndarray
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.6.3 (bagging and random forests).
    .. [2] L. Breiman, "Bagging predictors", Machine Learning 24(2), 1996.

    See Also
    --------
    BaggingClassifier : The same for classification.
    RandomForestRegressor : Bagged trees that also draw the features of each split.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from kernelkit.ensemble import BaggingRegressor
    >>> X, y = load_diabetes(return_X_y=True)
    >>> model = BaggingRegressor(n_estimators=20, random_state=0).fit(X, y)
    >>> bool(model.score(X, y) > 0.8)
    True
    """

    _is_classifier = False

    def _default_estimator(self):
        return DecisionTreeRegressor()

    def predict(self, X):
        """Mean prediction over the estimators."""
        X = self._check_predict(X)
        return np.mean([estimator.predict(X) for estimator in self.estimators_], axis=0)
