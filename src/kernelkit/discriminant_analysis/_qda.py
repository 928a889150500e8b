"""Quadratic discriminant analysis: the Gaussian Bayes classifier with one covariance per class
(Sangnier, *Introduction to machine learning*, §1.1.2, Proposition 4 and Proposition 7)."""

import warnings
from numbers import Real

import numpy as np
from sklearn.base import _fit_context
from sklearn.utils._param_validation import Interval, StrOptions

from kernelkit.discriminant_analysis._base import GenerativeClassifier
from kernelkit.discriminant_analysis._class_statistics import validated_statistics

__all__ = ["QuadraticDiscriminantAnalysis", "class_covariances", "gaussian_class_scores"]

# A class covariance is singular when the smallest eigenvalue of its correlation form (each
# feature scaled by its variance over all classes) is below this fraction of the largest ...
_SINGULAR_RATIO = 1e-10
# ... and is then regularised by this fraction of each feature's variance on the diagonal.
_AUTO_RIDGE = 1e-3


def regularised_covariance(covariance, reg_param, feature_variance):
    """``(1 − r) Σ + r I`` and, if that is singular, ``+ ε diag(v)`` with ``v`` the features'
    variances over all classes and ``ε`` a thousandth; returns the eigenpairs of the result and
    whether the ridge was added. Both the test and the ridge are scale-invariant: features in
    different units are treated alike."""
    d = covariance.shape[0]
    covariance = (1 - reg_param) * covariance + reg_param * np.eye(d)
    positive = feature_variance[feature_variance > 0]
    scale = np.where(feature_variance > 0, feature_variance,
                     positive.mean() if positive.size else 1.0)
    root = np.sqrt(scale)
    correlation = np.linalg.eigvalsh(covariance / np.outer(root, root))
    singular = d > 0 and correlation.min() <= _SINGULAR_RATIO * max(correlation.max(), 0.0)
    if singular:
        covariance = covariance + _AUTO_RIDGE * np.diag(scale)
    return np.linalg.eigh(covariance), singular


def class_covariances(stats, columns, reg_param, unbiased):
    """Class covariances over ``columns`` and the eigenpairs used to score (regularised where
    singular, with one warning naming the classes)."""
    covariances, eigenpairs, singular = [], [], []
    # each feature's variance over all classes: within-class plus between-class parts
    variance = stats.centred[:, columns].var(axis=0) + np.repeat(
        stats.means[:, columns], stats.counts, axis=0).var(axis=0)
    for k, count in enumerate(stats.counts):
        rows = stats.class_rows(k)[:, columns]
        covariance = rows.T @ rows / (count - 1 if unbiased else count)
        covariances.append(covariance)
        pairs, was_singular = regularised_covariance(covariance, reg_param, variance)
        eigenpairs.append(pairs)
        if was_singular:
            singular.append(str(stats.classes[k]))
    if singular:
        warnings.warn(
            f"The covariance of class{'es' if len(singular) > 1 else ''} "
            f"{', '.join(singular)} is singular (constant or collinear features, or fewer "
            "samples than features): a thousandth of each feature's variance is added to its "
            "diagonal. Set reg_param to choose the regularisation.", UserWarning, stacklevel=3)
    return covariances, eigenpairs


def gaussian_class_scores(X, means, eigenpairs, priors):
    """``log π_k − ½ log|Σ_k| − ½ (x − μ_k)ᵀΣ_k⁻¹(x − μ_k)`` for every class ``k`` (the
    ``d/2 log 2π`` common to all classes left out)."""
    scores = np.empty((X.shape[0], len(means)))
    for k, (mean, (eigenvalues, eigenvectors)) in enumerate(zip(means, eigenpairs)):
        whitened = (X - mean) @ eigenvectors / np.sqrt(eigenvalues)
        scores[:, k] = (np.log(priors[k]) - 0.5 * np.sum(np.log(eigenvalues))
                        - 0.5 * np.einsum("ij,ij->i", whitened, whitened))
    return scores


class QuadraticDiscriminantAnalysis(GenerativeClassifier):
    r"""Quadratic discriminant analysis (Gaussian Bayes classifier).

    Each class is a Gaussian :math:`\mathcal N(\mu_k, \Sigma_k)` with its own covariance; the
    Bayes rule assigns :math:`x` to

    .. math::

        \operatorname{argmin}_k \tfrac12 (x - \mu_k)^\top \Sigma_k^{-1} (x - \mu_k)
        + \tfrac12 \log |\Sigma_k| - \log \pi_k

    (Sangnier, Proposition 4), with the plug-in estimates of the means, covariances and
    proportions. The posterior probabilities are the normalised
    :math:`\pi_k \mathcal N(x; \mu_k, \Sigma_k)`.

    A singular class covariance (constant or collinear features within a class, or fewer samples
    than features, as on the digits or breast-cancer data, where scikit-learn's estimator stops
    with an error) gets a thousandth of each feature's variance added to its diagonal, with a
    warning; ``reg_param`` sets the regularisation explicitly.

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        Class probabilities; None: the class proportions.
    reg_param : float in [0, 1], default=0.0
        Each covariance becomes :math:`(1 - r) \Sigma_k + r I` (:math:`r` = ``reg_param``;
        scikit-learn's
        convention).
    covariance : {"mle", "unbiased"}, default="mle"
        Class scatter divided by :math:`n_k` (maximum likelihood, the course's plug-in estimate,
        §1.1.1, and scikit-learn's) or by :math:`n_k - 1` (unbiased).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
    means_ : ndarray of shape (n_classes, n_features)
    covariance_ : list of ndarray of shape (n_features, n_features)
        Estimated class covariances (before regularisation).
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.1.2: Proposition 4, Remark 1.1.1,
       Proposition 7 (the binary rule as a quadratic form), Exercise 1.4.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.discriminant_analysis import QuadraticDiscriminantAnalysis
    >>> X, y = load_iris(return_X_y=True)
    >>> round(QuadraticDiscriminantAnalysis().fit(X, y).score(X, y), 2)
    0.98
    """

    _parameter_constraints = {
        "priors": ["array-like", None],
        "reg_param": [Interval(Real, 0, 1, closed="both")],
        "covariance": [StrOptions({"unbiased", "mle"})],
    }

    def __init__(self, *, priors=None, reg_param=0.0, covariance="mle"):
        self.priors = priors
        self.reg_param = reg_param
        self.covariance = covariance

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Estimate priors, class means and class covariances.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : QuadraticDiscriminantAnalysis
        """
        X, stats = validated_statistics(self, X, y)
        if self.covariance == "unbiased" and stats.counts.min() < 2:
            k = stats.classes[np.argmin(stats.counts)]
            raise ValueError(f"Class {k!r} has a single sample: its unbiased covariance is "
                             "undefined; use covariance='mle' or more samples.")
        self.classes_, self.priors_, self.means_ = stats.classes, stats.priors, stats.means
        self.covariance_, self._eigenpairs = class_covariances(
            stats, np.arange(X.shape[1]), self.reg_param, self.covariance == "unbiased")
        return self

    def _scores(self, X):
        return gaussian_class_scores(X, self.means_, self._eigenpairs, self.priors_)
