"""Prediction shared by the generative classifiers: everything follows from the per-class
log-posterior scores ``log π_k + log p(x | k)`` up to a per-sample constant."""

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.utils._sklearn_compat import ParameterNamesOncePerClass

__all__ = ["GenerativeClassifier"]


class GenerativeClassifier(ClassifierMixin, ParameterNamesOncePerClass, BaseEstimator):
    """Base of classifiers defined by class scores ``_scores(X)`` of shape (n, n_classes)."""

    def _validated_scores(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return self._scores(X)

    def decision_function(self, X):
        """Log-posterior scores (up to a constant); for two classes, the log-odds of
        ``classes_[1]`` against ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        scores = self._validated_scores(X)
        return scores[:, 1] - scores[:, 0] if scores.shape[1] == 2 else scores

    def predict(self, X):
        """Class of largest posterior probability (Bayes rule with the plug-in estimates)."""
        scores = self._validated_scores(X)
        return self.classes_[np.argmax(scores, axis=1)]

    def predict_log_proba(self, X):
        """Log of the posterior class probabilities, shape (n_samples, n_classes)."""
        scores = self._validated_scores(X)
        return scores - logsumexp(scores, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior class probabilities, shape (n_samples, n_classes)."""
        return np.exp(self.predict_log_proba(X))
