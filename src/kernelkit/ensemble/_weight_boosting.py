"""AdaBoost: binary (Freund & Schapire), SAMME and SAMME.R (Zhu, Zou, Rosset & Hastie 2009)
(Sangnier, *Introduction to machine learning*, §1.6.4, Algorithm 2, Property 13, Theorem 14).
"""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from kernelkit.tree._growth import GrowthParams, TreeTrainingSet, draw_tree_seed
from kernelkit.tree._validation import (
    check_ensemble_size,
    validate_fit_input,
    validate_predict_input,
)
from kernelkit.utils._progress import report, report_points
from kernelkit.utils._sklearn_compat import (
    HasMethods,
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import effective_n_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["AdaBoostClassifier"]

# SAMME.R: probabilities are clipped away from 0 before their logarithm (as scikit-learn did).
_EPS = np.finfo(np.float64).eps


class _CompiledStump:
    """A depth-1 tree of the compiled builder, grown on the training set prepared once."""

    def __init__(self, tree, n_classes):
        self.tree = tree
        self.n_classes = n_classes

    def predict_proba(self, X):
        return self.tree.predict(X)

    def predict(self, X):
        return np.argmax(self.tree.predict(X), axis=1)


class AdaBoostClassifier(ClassifierMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""AdaBoost with decision stumps (compiled) or any classifier that accepts sample weights.

    ``algorithm="binary"`` is the course's Algorithm 2: with :math:`D_1 = 1/n`, fit :math:`g_t`
    on the weights :math:`D_t`,

    .. math::

        \varepsilon_t = \sum_i D_t(i) \mathbb 1\{g_t(X_i) \ne Y_i\}, \qquad
        w_t = \tfrac12 \log \frac{1 - \varepsilon_t}{\varepsilon_t},

        D_{t+1}(i) = D_t(i) e^{-w_t Y_i g_t(X_i)} / Z_t, \qquad
        Z_t = 2 \sqrt{\varepsilon_t (1 - \varepsilon_t)}

    (Property 13), and predict :math:`\operatorname{sign}(\sum_t w_t g_t(x))`; the training error
    is at most :math:`\prod_t Z_t` (Theorem 14). ``"SAMME"`` is its multi-class form,
    :math:`w_t = \log((1 - \varepsilon_t) / \varepsilon_t) + \log(C - 1)` (equal to the binary
    algorithm, up to a factor 2 on the weights, for :math:`C = 2`); ``"SAMME.R"`` uses the base
    learner's class probabilities (Zhu et al. 2009; scikit-learn removed it). ``learning_rate``
    multiplies every :math:`w_t`.

    A base learner without error (:math:`\varepsilon_t = 0`) ends the boosting, keeping it with
    weight 1; one no better than random guessing (:math:`\varepsilon_t \ge (C - 1)/C`) ends it
    too, and raises a ValueError
    if it is the first.

    Parameters
    ----------
    estimator : classifier with ``fit(X, y, sample_weight)``, default=None
        None: decision stumps grown by the compiled tree builder (the data are presorted once).
    n_estimators : int, default=50
    learning_rate : float, default=1.0
    algorithm : {"SAMME", "SAMME.R", "binary"}, default="SAMME"
        "binary" needs two classes.
    random_state : int, RandomState or None, default=None
        Seeds the base learners (ties between equally good stumps).
    verbose : int, default=0
        Progress on stderr: 1, a line after every tenth of the stages (weighted error, time)
        and when boosting stops early; 2, a line after every stage.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list
        The base learners.
    estimator_weights_ : ndarray of shape (n_estimators_,)
        :math:`w_t` (times the learning rate).
    estimator_errors_ : ndarray of shape (n_estimators_,)
        :math:`\varepsilon_t`.
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.6.4: Algorithm 2 (AdaBoost), Property 13,
       Theorem 14.
    .. [2] Y. Freund, R. E. Schapire, "A decision-theoretic generalization of on-line learning and an
       application to boosting", Journal of Computer and System Sciences 55(1), 1997.
    .. [3] J. Zhu, H. Zou, S. Rosset, T. Hastie, "Multi-class AdaBoost", Statistics and Its
       Interface 2(3), 2009 (SAMME, SAMME.R).

    See Also
    --------
    GradientBoostingClassifier : Boosting by gradient steps on a differentiable loss.
    RandomForestClassifier : Averaging decorrelated deep trees instead of reweighting shallow ones.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from kernelkit.ensemble import AdaBoostClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = AdaBoostClassifier(n_estimators=100, random_state=0).fit(X, y)
    >>> round(model.score(X, y), 2)
    1.0
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_estimators": [Interval(Integral, 1, MAX_INT, closed="left")],
        "learning_rate": [Interval(Real, 0.0, None, closed="neither")],
        "algorithm": [StrOptions({"SAMME", "SAMME.R", "binary"})],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, estimator=None, *, n_estimators=50, learning_rate=1.0, algorithm="SAMME",
                 random_state=None, verbose=0):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.algorithm = algorithm
        self.random_state = random_state
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Boost.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Initial weights ``D_1`` (normalised); None: uniform.

        Returns
        -------
        self : AdaBoostClassifier
        """
        X, codes, sample_weight = validate_fit_input(self, X, y, sample_weight, classifier=True)
        codes = codes.astype(int)
        C = self.n_classes_
        if C < 2:
            raise ValueError(f"AdaBoost needs at least two classes; got {C} class.")
        if self.algorithm == "binary" and C != 2:
            raise ValueError(f"algorithm='binary' needs two classes, got {C}; use 'SAMME'.")
        D = np.full(len(codes), 1.0 / len(codes)) if sample_weight is None \
            else sample_weight / sample_weight.sum()
        random_state = check_random_state(self.random_state)
        check_ensemble_size(self, self.n_estimators)
        fit_learner = self._learner_factory(X, codes, random_state)
        self.estimators_, weights, errors = [], [], []
        points = report_points(self.verbose, self.n_estimators)
        start = time.perf_counter()
        for stage in range(1, self.n_estimators + 1):
            learner, proba = fit_learner(D)
            predicted = np.argmax(proba, axis=1)
            wrong = predicted != codes
            error = float(D[wrong].sum())
            if error >= (C - 1) / C:
                if not self.estimators_:
                    raise ValueError(
                        f"The first base learner is no better than random guessing (weighted "
                        f"error {error:.3g} >= (C - 1)/C): AdaBoost cannot start.")
                break
            self.estimators_.append(learner)
            errors.append(error)
            if stage in points:
                report(type(self).__name__,
                       f"stage {stage}/{self.n_estimators}: weighted error {error:.6g}", start)
            if error <= 0:                        # a perfect learner: nothing left to boost
                weights.append(1.0)
                break
            if self.algorithm == "SAMME.R":
                weights.append(1.0)
                log_proba = np.log(np.clip(proba, _EPS, None))
                coding = np.where(np.eye(C, dtype=bool)[codes], 1.0, -1.0 / (C - 1))
                D = D * np.exp(-self.learning_rate * (C - 1) / C
                               * np.einsum("ij,ij->i", coding, log_proba))
            else:
                w = np.log((1 - error) / error) + (np.log(C - 1) if self.algorithm == "SAMME"
                                                   else 0.0)
                w *= 0.5 if self.algorithm == "binary" else 1.0
                w *= self.learning_rate
                weights.append(w)
                # binary: D e^{−w y g} = D e^{−w} (right) or e^{w} (wrong); SAMME: D e^{w·wrong}
                factor = np.where(wrong, np.exp(w), np.exp(-w)) if self.algorithm == "binary" \
                    else np.where(wrong, np.exp(w), 1.0)
                D = D * factor
            total = D.sum()
            if not np.isfinite(total) or total <= 0:
                break
            D /= total
        self.estimator_weights_ = np.array(weights)
        self.estimator_errors_ = np.array(errors)
        if self.verbose and len(self.estimators_) < self.n_estimators:
            report(type(self).__name__, f"stopped after {len(self.estimators_)} stages", start)
        return self

    def _learner_factory(self, X, codes, random_state):
        """``fit(D) -> (learner, class probabilities on X)``."""
        C = self.n_classes_
        if self.estimator is None:
            n_threads = effective_n_threads(None)
            training_set = TreeTrainingSet(X, "best", n_threads=n_threads)
            params = GrowthParams(max_depth=1)
            target = codes.astype(np.float64)

            def fit_stump(D):
                # the threads share the root's features (the tree builder's rule for large
                # nodes); the stump does not depend on their number
                tree, leaves = training_set.grow_tree(
                    target, D, draw_tree_seed(random_state), criterion="gini", params=params,
                    n_classes=C, n_threads=n_threads, return_train_leaves=True)
                unseen = leaves < 0
                if unseen.any():
                    leaves[unseen] = tree.apply(X[unseen])
                return _CompiledStump(tree, C), tree.value[leaves]
            return fit_stump

        def fit_learner(D):
            learner = clone(self.estimator)
            if "random_state" in learner.get_params():
                learner.set_params(random_state=draw_tree_seed(random_state))
            learner.fit(X, codes, sample_weight=D)
            return learner, self._learner_proba(learner, X)
        return fit_learner

    def _learner_proba(self, learner, X):
        if self.algorithm == "SAMME.R":
            return learner.predict_proba(X)
        return np.eye(self.n_classes_)[np.asarray(learner.predict(X), dtype=int)]

    def _stage_scores(self, X, learner, weight):
        """A stage's contribution to the class scores."""
        C = self.n_classes_
        proba = self._learner_proba(learner, X)
        if self.algorithm == "SAMME.R":
            log_proba = np.log(np.clip(proba, _EPS, None))
            return self.learning_rate * (C - 1) * (log_proba
                                                    - log_proba.mean(axis=1, keepdims=True))
        # symmetric votes, w for the predicted class and −w/(C − 1) for the others (their sum is
        # 0: Zhu et al.'s coding, scikit-learn's scale)
        return weight * (proba * (1 + 1 / (C - 1)) - 1 / (C - 1))

    def staged_decision_function(self, X):
        r"""Class scores after each stage (a generator): the weighted votes
        :math:`\sum_t w_t c_t(x)` with :math:`c_t` the vote 1 for the predicted class and
        :math:`-1/(C - 1)` for the others, divided by :math:`\sum_t w_t` (SAMME.R: the sum of the
        stages' log-probability scores); for two classes the score of ``classes_[1]`` minus that of
        ``classes_[0]``."""
        check_is_fitted(self)
        X = validate_predict_input(self, X)
        scores = np.zeros((X.shape[0], self.n_classes_))
        total = 0.0
        for learner, weight in zip(self.estimators_, self.estimator_weights_):
            scores += self._stage_scores(X, learner, weight)
            total += weight
            # discrete votes are averaged over the weights (scikit-learn's scale)
            current = scores if self.algorithm == "SAMME.R" else scores / total
            yield current[:, 1] - current[:, 0] if self.n_classes_ == 2 else current.copy()

    def decision_function(self, X):
        r""":math:`\sum_t w_t g_t(x)` as class scores (the difference for two classes)."""
        for scores in self.staged_decision_function(X):
            pass
        return scores

    def predict(self, X):
        """The class of largest weighted vote."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def staged_predict(self, X):
        """Predictions after each stage (a generator)."""
        for scores in self.staged_decision_function(X):
            yield (self.classes_[(scores > 0).astype(int)] if scores.ndim == 1
                   else self.classes_[np.argmax(scores, axis=1)])

    def predict_proba(self, X):
        """Softmax of the class scores divided by :math:`C - 1` (scikit-learn's convention)."""
        scores = self.decision_function(X)
        if scores.ndim == 1:
            scores = np.column_stack([-scores, scores]) / 2
        scores = scores / (self.n_classes_ - 1)
        scores = np.exp(scores - scores.max(axis=1, keepdims=True))
        return scores / scores.sum(axis=1, keepdims=True)

    @property
    def feature_importances_(self):
        """Importances of the base learners averaged with the weights ``w_t``."""
        check_is_fitted(self)
        importances = [learner.tree.compute_feature_importances()
                       if isinstance(learner, _CompiledStump) else learner.feature_importances_
                       for learner in self.estimators_]
        weights = self.estimator_weights_
        return np.average(importances, axis=0, weights=weights) if weights.sum() > 0 \
            else np.mean(importances, axis=0)
