"""Principal component analysis (LAPACK-bound; no compiled core is needed)."""

from numbers import Integral, Real

import numpy as np
from scipy.linalg import eigh, svd
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.decomposition._randomized_svd import randomized_svd
from kernelkit.utils._eigen import flip_signs
from kernelkit.utils._sklearn_compat import Interval, StrOptions, _fit_context
from kernelkit.utils._validation import MAX_INT, check_distance_scale, warn_long_factorisation

__all__ = ["PCA"]


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Principal component analysis.

    Centres the data and keeps the leading right singular vectors of
    :math:`X - \mathbf 1 \mu^\top` (Sangnier
    §3.1, Algorithm 15; Peyré, §16.1.1). The three routes of Algorithm 15 (covariance
    eigendecomposition, Gram eigendecomposition, SVD) give the same components up to signs;
    this class uses the covariance route for tall data and the SVD otherwise, as the course
    recommends (the SVD never squares the condition number). Algorithm 15 is printed on
    uncentred data; like §3.1.2 (and every library) we centre.

    Parameters
    ----------
    n_components : int, float or None, default=None
        Components to keep: an int ``1 ≤ k ≤ min(n_samples, n_features)``; a float in (0, 1):
        the fewest components whose explained-variance ratio reaches it; None: all
        ``min(n_samples, n_features)``.
    whiten : bool, default=False
        Scale the scores to unit variance.
    svd_solver : {"auto", "full", "covariance_eigh", "randomized"}, default="auto"
        "full": LAPACK SVD of the centred data; "covariance_eigh": eigendecomposition of the
        ``n_features × n_features`` covariance (Algorithm 15 route (a)); "randomized": Halko et
        al.'s randomised SVD (int ``n_components`` only); "auto": "covariance_eigh" when
        ``n_features ≤ 1000`` and ``n_samples ≥ 10 n_features``, "randomized" when the data are
        large (``max(shape) > 500``) and ``n_components`` an int below 80 % of
        ``min(shape)``, "full" otherwise (scikit-learn's rule).
    random_state : int, RandomState instance or None, default=None
        Seed of the randomised solver.

    Attributes
    ----------
    components_ : ndarray of shape (n_components_, n_features)
        Principal axes, by decreasing variance; each row's largest-magnitude entry is positive.
    explained_variance_ : ndarray of shape (n_components_,)
        Variance of the scores, with the unbiased :math:`1/(n - 1)` (:math:`n` = ``n_samples``; the
        courses use :math:`1/n`; ratios do not depend on it).
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        Share of the total variance (Sangnier, §3.1.3,
        :math:`r = \sum_\mathrm{top} \lambda_i / \sum_i \lambda_i`).
    singular_values_ : ndarray of shape (n_components_,)
    mean_ : ndarray of shape (n_features,)
    n_components_ : int
    n_features_in_ : int

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.1.1–3.1.4, Property 65, Algorithm 15; Peyré,
    *Mathematical Foundations of Data Sciences*, ch. 16 §16.1.1. K. Pearson, "On lines and planes of
    closest fit", Phil. Mag. 2, 1901. N. Halko, P.-G. Martinsson, J. Tropp, "Finding structure with
    randomness", SIAM Review 53, 2011.

    See Also
    --------
    KernelPCA : PCA in a feature space.
    kernelkit.manifold.ClassicalMDS : the same scores from Euclidean distances.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.decomposition import PCA
    >>> X = np.array([[-1.0, -1.0], [-2.0, -1.0], [-3.0, -2.0], [1.0, 1.0], [2.0, 1.0], [3.0, 2.0]])
    >>> pca = PCA(n_components=2).fit(X)
    >>> np.round(pca.explained_variance_ratio_, 4)
    array([0.9924, 0.0076])
    >>> np.allclose(pca.inverse_transform(pca.transform(X)), X)
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left"),
                         Interval(Real, 0, 1, closed="neither"), None],
        "whiten": ["boolean"],
        "svd_solver": [StrOptions({"auto", "full", "covariance_eigh", "randomized"})],
        "random_state": ["random_state"],
    }

    def __init__(self, n_components=None, *, whiten=False, svd_solver="auto", random_state=None):
        self.n_components = n_components
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.random_state = random_state

    def _solver(self, n_samples, n_features):
        if self.svd_solver != "auto":
            return self.svd_solver
        if n_features <= 1000 and n_samples >= 10 * n_features:
            return "covariance_eigh"
        if (max(n_samples, n_features) > 500 and isinstance(self.n_components, Integral)
                and self.n_components < 0.8 * min(n_samples, n_features)):
            return "randomized"
        return "full"

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit the principal axes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self : PCA
        """
        self._fit(X)
        return self

    @_fit_context(prefer_skip_nested_validation=True)
    def fit_transform(self, X, y=None):
        """Fit and return the scores of ``X`` (from the SVD when there is one: no extra product).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_components_)
        """
        X, U, signs = self._fit(X)
        if U is None:
            return self._scores(X)
        # X − μ = U S Vᵀ, so the scores (X − μ) Vᵀ are U S (sign-flipped like Vᵀ).
        scores = U[:, : self.n_components_] * (self.singular_values_ * signs)
        return scores / self._whitening_scale() if self.whiten else scores

    def _scores(self, X):
        # X Vᵀ − μ Vᵀ: no centred copy of X.
        scores = X @ self.components_.T - self.mean_ @ self.components_.T
        return scores / self._whitening_scale() if self.whiten else scores

    def _fit(self, X):
        """Fit; return the validated X, the left singular vectors (None for the covariance
        route) and the signs applied to the components."""
        X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=2)
        check_distance_scale(X)
        n_samples, n_features = X.shape
        rank = min(n_samples, n_features)
        if isinstance(self.n_components, Integral) and self.n_components > rank:
            raise ValueError(f"n_components={self.n_components} must be at most "
                             f"min(n_samples, n_features)={rank}.")
        solver = self._solver(n_samples, n_features)
        if solver == "randomized" and not isinstance(self.n_components, Integral):
            raise ValueError("svd_solver='randomized' needs an int n_components, got "
                             f"{self.n_components!r}.")
        mean = X.mean(axis=0)
        U = None
        if solver == "covariance_eigh":
            # Algorithm 15 route (a) on centred data, without forming X − 1μᵀ:
            # (X − 1μᵀ)ᵀ(X − 1μᵀ) = XᵀX − n μμᵀ. Its eigenvalues are σ_i².
            warn_long_factorisation(
                n_samples * n_features**2 + 9.0 * n_features**3,   # XᵀX, then eigh with vectors
                f"svd_solver='covariance_eigh' on {n_samples} samples x {n_features} features",
                "it suits n_samples >> n_features; use svd_solver='full' or 'randomized'.")
            scatter = X.T @ X - n_samples * np.outer(mean, mean)
            values, vectors = eigh(scatter, overwrite_a=True, check_finite=False)
            squared = np.maximum(values[::-1], 0.0)  # rounding can make zeros slightly negative
            components = vectors[:, ::-1].T
            total = float(squared.sum())
        else:
            Xc = X - mean
            if solver == "full":
                U, singular, components = svd(Xc, full_matrices=False, overwrite_a=True,
                                              check_finite=False)
                squared = singular**2
                total = float(squared.sum())
            else:
                flat = Xc.ravel()
                total = float(flat @ flat)
                U, singular, components = randomized_svd(Xc, self.n_components,
                                                         random_state=self.random_state)
                squared = singular**2
        variance = squared / (n_samples - 1)
        ratio = squared / total if total > 0 else np.zeros_like(squared)
        if self.n_components is None:
            k = rank
        elif isinstance(self.n_components, Integral):
            k = self.n_components
        else:
            k = min(int(np.searchsorted(np.cumsum(ratio), self.n_components, side="left")) + 1,
                    rank)
        flipped = flip_signs(components[:k].T).T
        signs = np.sign((flipped * components[:k]).sum(axis=1))
        self.n_components_ = k
        self.mean_ = mean
        self.components_ = flipped.astype(X.dtype, copy=False)
        self.explained_variance_ = variance[:k].astype(X.dtype, copy=False)
        self.explained_variance_ratio_ = ratio[:k].astype(X.dtype, copy=False)
        self.singular_values_ = np.sqrt(squared[:k]).astype(X.dtype, copy=False)
        return X, U, signs

    @property
    def _n_features_out(self):
        return self.components_.shape[0]

    def _whitening_scale(self):
        # A component of zero variance stays at zero instead of dividing by zero.
        std = np.sqrt(self.explained_variance_)
        return np.where(std > 0, std, 1.0)

    def transform(self, X):
        r"""Scores :math:`(X - \mu) V^\top` (divided by the standard deviations when ``whiten``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_components_)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=[np.float64, np.float32], reset=False)
        return self._scores(X)

    def inverse_transform(self, X):
        r"""Reconstruction :math:`\mu + \sum_k z_k v_k` (Peyré, §16.1.1), the projection on the PCA
        space.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_components_)

        Returns
        -------
        X_original : ndarray of shape (n_samples, n_features)
        """
        check_is_fitted(self)
        X = np.asarray(X, dtype=self.components_.dtype)
        if X.ndim != 2 or X.shape[1] != self.n_components_:
            raise ValueError(f"expected scores of shape (n_samples, {self.n_components_}), got "
                             f"{X.shape}.")
        if self.whiten:
            X = X * self._whitening_scale()
        return X @ self.components_ + self.mean_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags
