"""Linear discriminant analysis: the Gaussian Bayes classifier with a shared covariance, and the
multi-class Fisher projection (Sangnier, *Introduction to machine learning*, §1.1.2, §1.1.5,
§1.2.1 and §3.3.2)."""

from numbers import Integral, Real

import numpy as np
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.discriminant_analysis._base import GenerativeClassifier
from kernelkit.discriminant_analysis._class_statistics import (
    SpikedCovariance,
    validated_statistics,
)
from kernelkit.utils._sklearn_compat import Interval, StrOptions, _fit_context
from kernelkit.utils._validation import MAX_INT

__all__ = ["LinearDiscriminantAnalysis", "ledoit_wolf_shrinkage"]


def ledoit_wolf_shrinkage(X):
    """Ledoit & Wolf's (2004) optimal weight ``α`` of ``(1 − α) S + α (tr S / d) I`` for the
    covariance ``S = XᵀX / n`` of centred rows ``X``, without forming the d × d ``S``:
    ``tr S = ‖X‖²/n``, ``Σ S_jk² = ‖XXᵀ‖²_F / n²`` (the Gram matrix of the shorter side) and
    ``Σ_jk Σ_i x_ij² x_ik² = Σ_i ‖x_i‖⁴``."""
    n, d = X.shape
    gram = X @ X.T if n < d else X.T @ X
    trace = np.sum(X**2) / n
    mu = trace / d
    sum_squares = np.sum(gram**2) / n**2
    # the variance of the entries of S (beta) against their spread around mu I (delta)
    beta = (np.sum(np.sum(X**2, axis=1) ** 2) / n - sum_squares) / n
    delta = sum_squares - 2 * mu * trace + d * mu**2
    if delta <= 0:
        return 0.0
    return float(min(beta, delta) / delta)


class LinearDiscriminantAnalysis(ClassNamePrefixFeaturesOutMixin, TransformerMixin,
                                 GenerativeClassifier):
    r"""Linear discriminant analysis: classifier and supervised projection.

    The classes are modelled as Gaussians :math:`\mathcal N(\mu_k, \Sigma)` with one covariance,
    estimated from the within-class scatter; the Bayes rule is then linear (Sangnier, Proposition
    5 and §1.2.1):

    .. math::

        \delta_k(x) = x^\top \Sigma^{-1} \mu_k - \tfrac12 \mu_k^\top \Sigma^{-1} \mu_k + \log \pi_k,

    predict :math:`\operatorname{argmax}_k \delta_k(x)`; the posterior probabilities are the
    softmax of :math:`\delta`. For two classes, :math:`w = \Sigma^{-1} (\mu_1 - \mu_0)` and
    :math:`b = \frac12 (\mu_0 + \mu_1)^\top \Sigma^{-1} (\mu_0 - \mu_1) + \log(\pi_1 / \pi_0)`
    (``coef_`` and ``intercept_``).

    ``transform`` projects on the leading eigenvectors of :math:`\Sigma^{-1} M`,
    :math:`M = \sum_k \pi_k (\mu_k - \mu)(\mu_k - \mu)^\top` the between-class covariance: at most
    :math:`C - 1` directions, each maximising the Rayleigh quotient
    :math:`w^\top M w / w^\top \Sigma w` (multi-class Fisher discriminant, §1.1.5 and §3.3.2; the
    course prints the within-class covariance as :math:`\pi \Sigma_i`, which is
    :math:`\sum_i \pi_i \Sigma_i`). ``rule="projected_centroid"`` classifies by the nearest
    projected class mean in that space, with unit-norm directions, as §1.1.5 describes (its
    ``predict_proba`` is then the softmax of :math:`-\frac12` the squared distances).

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        Class probabilities; None: the class proportions.
    covariance : {"unbiased", "mle"}, default="unbiased"
        Within-class scatter divided by :math:`n - C` (unbiased pooled estimator, §1.1.1) or by
        :math:`n` (maximum likelihood; scikit-learn's estimate when the priors are the proportions).
    shrinkage : float in [0, 1], "auto" or None, default=None
        :math:`(1 - \alpha) \Sigma + \alpha (\operatorname{tr} \Sigma / d) I`; "auto" chooses
        :math:`\alpha` by Ledoit & Wolf's formula on the
        within-class centred data.
    n_components : int, default=None
        Dimensions kept by ``transform`` (at most ``min(C − 1, n_features)``; None: all of
        them).
    rule : {"bayes", "projected_centroid"}, default="bayes"
        Classification by the Bayes rule above or by the nearest projected class mean.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
    means_ : ndarray of shape (n_classes, n_features)
    covariance_ : ndarray of shape (n_features, n_features)
        The (shrunk) shared covariance. If it is singular, its pseudo-inverse is used, with a
        warning.
    shrinkage_ : float
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
    intercept_ : ndarray of shape (1,) or (n_classes,)
    scalings_ : ndarray of shape (n_features, n_components)
        Unit-norm directions of the projection, by decreasing eigenvalue.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Each direction's share of the eigenvalues of :math:`\Sigma^{-1} M`.
    xbar_ : ndarray of shape (n_features,)
        Prior-weighted mean :math:`\sum_k \pi_k \mu_k`, subtracted before projecting.
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.1.2 (Proposition 5, Remark 1.1.2,
       Property 6, Exercise 1.3), §1.1.5, §1.2.1 and §3.3.2.
    .. [2] O. Ledoit and M. Wolf, "A well-conditioned estimator for large-dimensional covariance
       matrices", J. Multivariate Analysis 88 (2004).

    See Also
    --------
    QuadraticDiscriminantAnalysis : One covariance per class (quadratic boundaries).
    FisherDiscriminantAnalysis : The two-class Fisher rule, without a Gaussian model.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.discriminant_analysis import LinearDiscriminantAnalysis
    >>> X, y = load_iris(return_X_y=True)
    >>> lda = LinearDiscriminantAnalysis(n_components=2).fit(X, y)
    >>> round(lda.score(X, y), 2), lda.transform(X).shape
    (0.98, (150, 2))
    """

    _parameter_constraints = {
        "priors": ["array-like", None],
        "covariance": [StrOptions({"unbiased", "mle"})],
        "shrinkage": [Interval(Real, 0, 1, closed="both"), StrOptions({"auto"}), None],
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "rule": [StrOptions({"bayes", "projected_centroid"})],
    }

    def __init__(self, *, priors=None, covariance="unbiased", shrinkage=None, n_components=None,
                 rule="bayes"):
        self.priors = priors
        self.covariance = covariance
        self.shrinkage = shrinkage
        self.n_components = n_components
        self.rule = rule

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Estimate priors, class means and the shared covariance; compute the projection.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : LinearDiscriminantAnalysis
        """
        X, stats = validated_statistics(self, X, y)
        n, d = X.shape
        n_classes = stats.classes.size
        if self.covariance == "unbiased" and n <= n_classes:
            raise ValueError(f"The unbiased covariance needs more samples ({n}) than classes "
                             f"({n_classes}); use covariance='mle'.")
        if self.n_components is not None and self.n_components > min(n_classes - 1, d):
            raise ValueError(f"n_components={self.n_components} is larger than min(n_classes - "
                             f"1, n_features) = {min(n_classes - 1, d)}.")
        shrinkage = (ledoit_wolf_shrinkage(stats.centred) if self.shrinkage == "auto"
                     else float(self.shrinkage or 0.0))
        # the within-class covariance has rank at most n − C: kept by its spectrum
        self._covariance = SpikedCovariance(
            stats.centred, n - n_classes if self.covariance == "unbiased" else n, shrinkage,
            "within-class covariance")
        self.classes_, self.priors_, self.means_ = stats.classes, stats.priors, stats.means
        self.shrinkage_ = shrinkage
        coef = self._covariance.solve(self.means_)
        intercept = -0.5 * np.einsum("kd,kd->k", coef, self.means_) + np.log(self.priors_)
        self._class_coef, self._class_intercept = coef, intercept
        if n_classes == 2:
            self.coef_ = (coef[1] - coef[0])[None, :]
            self.intercept_ = np.array([intercept[1] - intercept[0]])
        else:
            self.coef_, self.intercept_ = coef, intercept
        self._fit_projection(n_classes, d)
        return self

    @property
    def covariance_(self):
        return self._covariance.matrix()

    def _fit_projection(self, n_classes, d):
        """Generalised eigenvectors ``M v = λ Σ v`` on Σ's range.

        With ``M = DᵀΠD`` (``D`` the class deviations, ``Π = diag(π)``) and ``W`` a whitening
        of Σ's range (``WWᵀ = Σ⁺``), the eigenvectors of ``WᵀMW = BᵀB``,
        ``B = Π^½ D W``, are ``Bᵀu / √λ`` for the eigenpairs ``(λ, u)`` of the C × C matrix
        ``BBᵀ = Π^½ D Σ⁺ Dᵀ Π^½``: the directions ``W Bᵀu ∝ Σ⁺ Dᵀ Π^½ u`` cost O(C d) per
        class besides ``Σ⁺``'s spectrum.
        """
        self.xbar_ = self.priors_ @ self.means_
        deviations = self.means_ - self.xbar_
        roots = np.sqrt(self.priors_)
        solved = self._covariance.solve(deviations)              # D Σ⁺
        values, vectors = np.linalg.eigh(roots[:, None] * (solved @ deviations.T) * roots)
        order = np.argsort(values)[::-1][:min(n_classes - 1, d, self._covariance.rank)]
        n_components = self.n_components or len(order)
        directions = solved.T @ (roots[:, None] * vectors[:, order[:n_components]])
        norms = np.linalg.norm(directions, axis=0)
        # a direction of zero discriminant power (equal class means) may vanish: keep it zero
        directions /= np.where(norms > 0, norms, 1.0)
        values = np.maximum(values[order], 0.0)
        self.scalings_ = directions
        self.explained_variance_ratio_ = (values[:n_components] / values.sum() if values.sum() > 0
                                          else np.zeros(n_components))
        self._projected_means = (self.means_ - self.xbar_) @ directions

    def _scores(self, X):
        if self.rule == "projected_centroid":
            projected = (X - self.xbar_) @ self.scalings_
            distances = ((projected[:, None, :] - self._projected_means[None]) ** 2).sum(axis=2)
            return -0.5 * distances
        return X @ self._class_coef.T + self._class_intercept

    def transform(self, X):
        """Project on the discriminant directions (after subtracting ``xbar_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_components)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return (X - self.xbar_) @ self.scalings_

    @property
    def _n_features_out(self):
        return self.scalings_.shape[1]
