"""Quadratic discriminant analysis: the Gaussian Bayes classifier with one covariance per class
(Sangnier, *Introduction to machine learning*, §1.1.2, Proposition 4 and Proposition 7)."""

import warnings
from numbers import Real

import numpy as np
from scipy.linalg import cho_factor, cho_solve

from kernelkit.discriminant_analysis._base import GenerativeClassifier
from kernelkit.discriminant_analysis._class_statistics import validated_statistics
from kernelkit.utils._sklearn_compat import Interval, StrOptions, _fit_context
from kernelkit.utils._validation import check_memory_request, warn_long_factorisation

__all__ = ["ClassCovariancesMixin", "EigenGaussian", "LowRankGaussian",
           "QuadraticDiscriminantAnalysis", "class_covariances", "gaussian_class_scores"]

# A class covariance is singular when the smallest eigenvalue of its correlation form (each
# feature scaled by its variance over all classes) is below this fraction of the largest ...
_SINGULAR_RATIO = 1e-10
# ... and is then regularised by this fraction of each feature's variance on the diagonal.
_AUTO_RIDGE = 1e-3


class EigenGaussian:
    """Log-density terms of a Gaussian whose covariance is given by all its eigenpairs
    ``Σ = V diag(λ) Vᵀ`` (``λ > 0``)."""

    def __init__(self, eigenvalues, eigenvectors):
        self._whitening = eigenvectors / np.sqrt(eigenvalues)
        self.log_det = float(np.sum(np.log(eigenvalues)))

    def mahalanobis(self, Y):
        """``yᵀΣ⁻¹y`` for every row ``y`` of ``Y``."""
        whitened = Y @ self._whitening
        return np.einsum("ij,ij->i", whitened, whitened)


class LowRankGaussian:
    """Log-density terms of a Gaussian with covariance ``Σ = diag(δ) + FᵀF`` (``δ > 0``,
    ``F`` of shape (m, d), m < d): by Woodbury's identity
    ``Σ⁻¹ = Δ⁻¹ − Δ⁻¹Fᵀ (I + FΔ⁻¹Fᵀ)⁻¹ FΔ⁻¹`` and the matrix determinant lemma
    ``|Σ| = |Δ| |I + FΔ⁻¹Fᵀ|``, so fitting costs O(m² d) and scoring O(m d) per sample
    instead of O(d³) and O(d²)."""

    def __init__(self, diagonal, factor):
        self._diagonal = diagonal
        self._scaled = factor / diagonal                       # F Δ⁻¹
        # I + FΔ⁻¹Fᵀ is the identity plus a p.s.d. matrix: its Cholesky factor exists
        core = np.eye(factor.shape[0]) + self._scaled @ factor.T
        self._cholesky = cho_factor(core, lower=True)
        self.log_det = float(np.sum(np.log(diagonal))
                             + 2.0 * np.sum(np.log(np.diag(self._cholesky[0]))))

    def mahalanobis(self, Y):
        """``yᵀΣ⁻¹y = yᵀΔ⁻¹y − pᵀ(I + FΔ⁻¹Fᵀ)⁻¹p`` with ``p = FΔ⁻¹y``, for every row of ``Y``."""
        projected = Y @ self._scaled.T
        solved = cho_solve(self._cholesky, projected.T)
        return (np.einsum("ij,ij->i", Y / self._diagonal, Y)
                - np.einsum("ji,ij->i", solved, projected))


def _count_eigenvalues_below(diagonal, factor, x):
    """Number of eigenvalues of ``diag(e) + GᵀG`` (``G`` of shape (m, d)) below ``x``, in
    O(m² d), by Sylvester's law of inertia on ``[[diag(e) − xI, Gᵀ], [G, −I]]``: eliminating
    either diagonal block gives ``neg(diag(e) + GᵀG − xI) = #{e_j < x}
    + neg(−I − G diag(e − x)⁻¹ Gᵀ) − m``."""
    shifted = diagonal - x
    # an eigenvalue of diag(e) exactly at x: count below the next float instead
    shifted[shifted == 0] = -np.finfo(np.float64).tiny
    schur = -np.eye(factor.shape[0]) - (factor / shifted) @ factor.T
    return int(np.sum(shifted < 0) + np.sum(np.linalg.eigvalsh(schur) < 0) - factor.shape[0])


def _low_rank_is_singular(diagonal, factor):
    """Whether ``λ_min ≤ ratio · λ_max`` for ``M = diag(e) + GᵀG`` with fewer rows in ``G``
    than columns, without forming ``M``.

    ``λ_min`` lies in ``[e_(1), e_(m+1)]`` (a rank-``m`` p.s.d. update moves each eigenvalue up
    by at most ``m`` places) and ``λ_max`` in ``[max(max e, ‖G‖²), max e + ‖G‖²]``; only when
    these bounds do not decide, the eigenvalue counts of :func:`_count_eigenvalues_below`
    narrow ``λ_max`` by bisection until they do.
    """
    m = factor.shape[0]
    norm = np.linalg.eigvalsh(factor @ factor.T)[-1] if m else 0.0
    low, high = max(diagonal.max(), norm), diagonal.max() + norm
    ordered = np.sort(diagonal)
    if ordered[0] > _SINGULAR_RATIO * high:
        return False
    if ordered[m] <= _SINGULAR_RATIO * low:
        return True
    while True:
        if _count_eigenvalues_below(diagonal, factor, _SINGULAR_RATIO * low) > 0:
            return True
        if _count_eigenvalues_below(diagonal, factor, _SINGULAR_RATIO * high) == 0:
            return False
        middle = 0.5 * (low + high)
        if not low < middle < high:                # λ_max known to the last bit
            return True
        if _count_eigenvalues_below(diagonal, factor, middle) < diagonal.size:
            low = middle                            # an eigenvalue at or above the middle
        else:
            high = middle


def _feature_scale(feature_variance):
    """Each feature's variance, the mean positive variance standing in for a zero one."""
    positive = feature_variance[feature_variance > 0]
    return np.where(feature_variance > 0, feature_variance,
                    positive.mean() if positive.size else 1.0)


def regularised_covariance(rows, divisor, reg_param, feature_variance):
    """The Gaussian of covariance ``(1 − r) Σ + r I``, ``Σ = RᵀR / divisor`` (``R`` the centred
    rows), and, if that is singular, ``+ ε diag(v)`` with ``v`` the features' variances over all
    classes and ``ε`` a thousandth; returns it and whether the ridge was added. Both the test
    and the ridge are scale-invariant: features in different units are treated alike.

    With fewer rows than features, ``Σ`` has rank below ``d``: the covariance is kept as the
    diagonal ``r + ε v`` plus the low-rank ``(1 − r) RᵀR / divisor``
    (:class:`LowRankGaussian`), so the cost follows ``min(n_k, d)``.
    """
    n_rows, d = rows.shape
    scale = _feature_scale(feature_variance)
    root = np.sqrt(scale)
    if n_rows >= d:
        covariance = (1 - reg_param) * (rows.T @ rows / divisor) + reg_param * np.eye(d)
        correlation = np.linalg.eigvalsh(covariance / np.outer(root, root))
        singular = d > 0 and correlation.min() <= _SINGULAR_RATIO * max(correlation.max(), 0.0)
        if singular:
            covariance = covariance + _AUTO_RIDGE * np.diag(scale)
        return EigenGaussian(*np.linalg.eigh(covariance)), singular
    factor = np.sqrt((1 - reg_param) / divisor) * rows
    # rank(Σ) < d: without reg_param the smallest eigenvalue is 0
    singular = reg_param == 0 or _low_rank_is_singular(reg_param / scale, factor / root)
    diagonal = np.full(d, float(reg_param))
    if singular:
        diagonal += _AUTO_RIDGE * scale
    return LowRankGaussian(diagonal, factor), singular


def class_covariances(stats, columns, reg_param, unbiased):
    """The scaled centred rows ``R_k / √(n_k − 1 or n_k)`` of every class over ``columns``
    (``Σ_k = R_kᵀR_k``, kept factored) and the Gaussians used to score (regularised where
    singular, with one warning naming the classes)."""
    roots, gaussians, singular = [], [], []
    d = len(columns)
    warn_long_factorisation(
        sum(4.0 * count * d * min(count, d) for count in stats.counts),
        f"The class covariances of {stats.counts.sum()} samples x {d} features",
        "reduce the number of features first (PCA, feature selection).")
    # each feature's variance over all classes: within-class plus between-class parts
    variance = stats.centred[:, columns].var(axis=0) + np.repeat(
        stats.means[:, columns], stats.counts, axis=0).var(axis=0)
    for k, count in enumerate(stats.counts):
        rows = stats.class_rows(k)[:, columns]
        divisor = count - 1 if unbiased else count
        roots.append(rows / np.sqrt(divisor))
        gaussian, was_singular = regularised_covariance(rows, divisor, reg_param, variance)
        gaussians.append(gaussian)
        if was_singular:
            singular.append(str(stats.classes[k]))
    if singular:
        warnings.warn(
            f"The covariance of class{'es' if len(singular) > 1 else ''} "
            f"{', '.join(singular)} is singular (constant or collinear features, or fewer "
            "samples than features): a thousandth of each feature's variance is added to its "
            "diagonal. Set reg_param to choose the regularisation.", UserWarning, stacklevel=3)
    return roots, gaussians


def gaussian_class_scores(X, means, gaussians, priors):
    """``log π_k − ½ log|Σ_k| − ½ (x − μ_k)ᵀΣ_k⁻¹(x − μ_k)`` for every class ``k`` (the
    ``d/2 log 2π`` common to all classes left out)."""
    scores = np.empty((X.shape[0], len(means)))
    for k, (mean, gaussian) in enumerate(zip(means, gaussians)):
        scores[:, k] = (np.log(priors[k]) - 0.5 * gaussian.log_det
                        - 0.5 * gaussian.mahalanobis(X - mean))
    return scores


class ClassCovariancesMixin:
    """``covariance_``, formed on request from the factored class covariances: a list of
    ``n_classes`` dense d × d matrices is the one quadratic-size object of these models."""

    @property
    def covariance_(self):
        d = self._covariance_roots[0].shape[1]
        check_memory_request(8.0 * d * d * len(self._covariance_roots),
                             f"covariance_ of {len(self._covariance_roots)} classes and {d} "
                             "features", "score with the fitted model instead of reading "
                             "covariance_, or reduce the number of features.")
        return [root.T @ root for root in self._covariance_roots]


class QuadraticDiscriminantAnalysis(ClassCovariancesMixin, GenerativeClassifier):
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

    See Also
    --------
    LinearDiscriminantAnalysis : One covariance shared by the classes (linear boundaries).
    MixedNaiveBayes : Gaussian and categorical columns, independent given the class.

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
        self._covariance_roots, self._gaussians = class_covariances(
            stats, np.arange(X.shape[1]), self.reg_param, self.covariance == "unbiased")
        return self

    def _scores(self, X):
        return gaussian_class_scores(X, self.means_, self._gaussians, self.priors_)
