"""Bayes classifier for a Gaussian block of continuous features and independent binary features
(the 2022 exam of Sangnier, *Introduction to machine learning*, exercise 1)."""

from numbers import Real

import numpy as np

from kernelkit.discriminant_analysis._base import GenerativeClassifier
from kernelkit.discriminant_analysis._class_statistics import validated_statistics
from kernelkit.discriminant_analysis._qda import (
    ClassCovariancesMixin,
    class_covariances,
    gaussian_class_scores,
)
from kernelkit.utils._sklearn_compat import Interval, StrOptions, _fit_context

__all__ = ["MixedNaiveBayes"]


class MixedNaiveBayes(ClassCovariancesMixin, GenerativeClassifier):
    r"""Gaussian-Bernoulli Bayes classifier.

    :math:`x = (u, v)` with :math:`u` continuous and :math:`v \in \{0, 1\}^m`; given the class
    :math:`k`, :math:`u \sim \mathcal N(\mu_k, \Sigma_k)` independently of :math:`v`, whose
    coordinates are independent Bernoulli(:math:`p_{kj}`). The Bayes rule maximises

    .. math::

        \log \pi_k + \log \mathcal N(u; \mu_k, \Sigma_k)
        + \sum_j v_j \log p_{kj} + (1 - v_j) \log(1 - p_{kj});

    for two classes it is the exam's
    :math:`\operatorname{sign}(\frac12 u^\top Q u + \alpha^\top u + \beta^\top v + b)` with
    :math:`Q = \Sigma_-^{-1} - \Sigma_+^{-1}`,
    :math:`\alpha = \Sigma_+^{-1} \mu_+ - \Sigma_-^{-1} \mu_-` and
    :math:`\beta_j = \log(p_j (1 - q_j) / (q_j (1 - p_j)))`. The parameters are the
    maximum-likelihood estimates (class means, covariances by :math:`1/n_k` and frequencies
    :math:`p_{kj}`); without binary features it is ``QuadraticDiscriminantAnalysis``.

    Parameters
    ----------
    binary_features : array-like of int or bool, "auto", default="auto"
        Columns of ``v`` (indices or a mask); "auto": the columns whose values are all 0 or 1.
        The other columns are ``u``.
    priors : array-like of shape (n_classes,), default=None
        Class probabilities; None: the class proportions.
    reg_param : float in [0, 1], default=0.0
        Regularisation of the class covariances, as in :class:`QuadraticDiscriminantAnalysis`.
    alpha : float, default=0.0
        Additive smoothing of the frequencies,
        :math:`(\mathrm{count} + \alpha) / (n_k + 2\alpha)`; 0 is the exam's
        maximum likelihood (a frequency of 0 or 1 then makes the other value impossible for
        that class: its probability is 0).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
    binary_features_ : ndarray of int
    continuous_features_ : ndarray of int
    means_ : ndarray of shape (n_classes, n_continuous)
    covariance_ : list of ndarray of shape (n_continuous, n_continuous)
    feature_prob_ : ndarray of shape (n_classes, n_binary)
        ``p_kj``.
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, exam of 18 November 2022, exercise 1.

    See Also
    --------
    QuadraticDiscriminantAnalysis : A full covariance per class, continuous columns only.
    LinearDiscriminantAnalysis : One shared covariance.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.discriminant_analysis import MixedNaiveBayes
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> u = rng.normal(size=(400, 2)) + 1.5 * y[:, None]
    >>> v = (rng.random((400, 3)) < np.where(y[:, None] == 1, 0.8, 0.2)).astype(float)
    >>> model = MixedNaiveBayes().fit(np.hstack([u, v]), y)
    >>> model.binary_features_, round(model.score(np.hstack([u, v]), y), 2)
    (array([2, 3, 4]), 0.94)
    """

    _parameter_constraints = {
        "binary_features": ["array-like", StrOptions({"auto"})],
        "priors": ["array-like", None],
        "reg_param": [Interval(Real, 0, 1, closed="both")],
        "alpha": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, *, binary_features="auto", priors=None, reg_param=0.0, alpha=0.0):
        self.binary_features = binary_features
        self.priors = priors
        self.reg_param = reg_param
        self.alpha = alpha

    def _split_columns(self, X):
        d = X.shape[1]
        if isinstance(self.binary_features, str):
            mask = np.all((X == 0) | (X == 1), axis=0)
        else:
            chosen = np.asarray(self.binary_features)
            mask = np.zeros(d, dtype=bool)
            if chosen.dtype == bool:
                if chosen.shape != (d,):
                    raise ValueError(f"binary_features as a mask needs {d} entries, got "
                                     f"{chosen.shape}.")
                mask = chosen
            elif chosen.size:
                if not np.issubdtype(chosen.dtype, np.integer) or chosen.min() < -d \
                        or chosen.max() >= d:
                    raise ValueError(f"binary_features must be column indices in [0, {d}) or a "
                                     f"boolean mask, got {self.binary_features!r}.")
                mask[chosen] = True
            values = X[:, mask]
            if not np.all((values == 0) | (values == 1)):
                raise ValueError("binary_features must hold only 0 and 1.")
        return np.flatnonzero(mask), np.flatnonzero(~mask)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Estimate priors, Gaussian parameters and Bernoulli frequencies per class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : MixedNaiveBayes
        """
        X, stats = validated_statistics(self, X, y)
        self.binary_features_, self.continuous_features_ = self._split_columns(X)
        self.classes_, self.priors_ = stats.classes, stats.priors
        U = self.continuous_features_
        self.means_ = stats.means[:, U]
        self._covariance_roots, self._gaussians = class_covariances(stats, U, self.reg_param,
                                                                   False)
        ones = np.zeros((len(self.classes_), self.binary_features_.size))
        np.add.at(ones, stats.y_index, X[:, self.binary_features_])
        self.feature_prob_ = (ones + self.alpha) / (stats.counts[:, None] + 2 * self.alpha)
        return self

    def _scores(self, X):
        if self.continuous_features_.size:
            scores = gaussian_class_scores(X[:, self.continuous_features_], self.means_,
                                           self._gaussians, self.priors_)
        else:
            scores = np.tile(np.log(self.priors_), (X.shape[0], 1))
        V = X[:, self.binary_features_]
        with np.errstate(divide="ignore"):
            log_p, log_q = np.log(self.feature_prob_), np.log1p(-self.feature_prob_)
        # 0 · log 0 = 0: a value that never occurred in a class only rules that class out
        scores += np.where(V[:, None, :] == 1, log_p[None], log_q[None]).sum(axis=2)
        return scores
