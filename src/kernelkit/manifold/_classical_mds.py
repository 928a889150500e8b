"""Classical (Torgerson) multidimensional scaling with Gower's out-of-sample embedding."""

import warnings
from numbers import Integral

import numpy as np
from scipy.linalg import eigvalsh
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._dissimilarity import cross_dissimilarities, fit_dissimilarities
from kernelkit.utils._eigen import inverse_sqrt, leading_eigenpairs, use_arpack
from kernelkit.utils._gram import center_gram
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import lapack_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["ClassicalMDS", "classical_scaling"]

# Warn when the negative eigenvalues carry more than this share of Σ|λ|: the dissimilarities are
# then far from Euclidean and the embedding discards real structure.
NEGATIVE_MASS_WARNING = 0.05


def _gram_from_dissimilarities(D):
    """``−½ D∘D``: the (uncentred) Gram matrix whose double centring is Torgerson's ``B``."""
    return -0.5 * D * D


def classical_scaling(dissimilarities, n_components):
    """Leading part of Torgerson's scaling (Sangnier, Algorithm 16), without the full spectrum.

    Parameters
    ----------
    dissimilarities : ndarray of shape (n_samples, n_samples)
        Validated plain (not squared) dissimilarities.
    n_components : int

    Returns
    -------
    embedding : ndarray of shape (n_samples, n_components)
        ``V Λ^{1/2}`` on the positive leading eigenvalues, zero columns for the others.
    """
    B = center_gram(_gram_from_dissimilarities(dissimilarities))
    # Lanczos for a few components of a large matrix (O(n²) per step instead of the O(n³)
    # tridiagonalisation); a fixed start vector keeps the initialisation deterministic.
    arpack = use_arpack("auto", B.shape[0], n_components)
    values, vectors = leading_eigenpairs(B, n_components, arpack=arpack, random_state=0)
    return vectors * (values * inverse_sqrt(values))


class ClassicalMDS(TransformerMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Classical multidimensional scaling (Torgerson–Gower principal coordinates).

    Double-centres the squared dissimilarities, :math:`B = -\frac12 H (D \circ D) H` with
    :math:`H = I - \mathbf 1 \mathbf 1^\top / n` (Sangnier, Property 72), and embeds with the
    leading eigenpairs, :math:`Z = V_p \Lambda_p^{1/2}`
    (Algorithm 16). On Euclidean distances this equals the PCA scores up to column signs
    (Sangnier, §3.2.2).

    Negative eigenvalues (non-Euclidean dissimilarities, Sangnier, Remark 3.2.6) are reported in
    ``eigenvalues_``; a selected component with a non-positive eigenvalue gets zero coordinates,
    and a warning is raised when the negative eigenvalues carry more than 5 % of
    :math:`\sum_i |\lambda_i|`.

    Unlike the course's remark that classical MDS is transductive, ``transform`` embeds new points
    by Gower's formula :math:`z = \Lambda_p^{-1/2} V_p^\top b` where :math:`b` is the new point's
    row of :math:`-\frac12 D \circ D`
    centred against the training statistics (Gower 1968); on a training point it returns that
    point's embedding exactly when the dissimilarities are Euclidean.

    Parameters
    ----------
    n_components : int, default=2
        Dimension of the embedding, ``1 ≤ n_components < n_samples``.
    dissimilarity : {"euclidean", "precomputed"}, default="euclidean"
        "euclidean": ``X`` holds samples and the Euclidean distances are used; "precomputed":
        ``X`` is the symmetric matrix of (plain, not squared) dissimilarities.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        Coordinates of the training samples.
    eigenvalues_ : ndarray of shape (n_samples,)
        Every eigenvalue of ``B``, descending; negative ones measure the non-Euclidean part.
    n_features_in_ : int
        Number of features (``n_samples`` for "precomputed").

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.2.2, Property 72, Algorithm 16, Remark 3.2.6.
    W. S. Torgerson, "Multidimensional scaling: I. Theory and method", Psychometrika 17, 1952.
    J. C. Gower, "Adding a point to vector diagrams in multivariate analysis", Biometrika 55, 1968.

    See Also
    --------
    kernelkit.decomposition.PCA : the same embedding from the data matrix.
    kernelkit.decomposition.KernelPCA : classical MDS in a feature space.
    MDS : metric and nonmetric stress minimisation (SMACOF).

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.manifold import ClassicalMDS
    >>> X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0], [3.0, 4.0]])
    >>> mds = ClassicalMDS(n_components=2).fit(X)
    >>> np.round(mds.eigenvalues_[:2], 6)
    array([16.,  9.])
    >>> np.allclose(mds.transform(X), mds.embedding_)
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left")],
        "dissimilarity": [StrOptions({"euclidean", "precomputed"})],
    }

    def __init__(self, n_components=2, *, dissimilarity="euclidean"):
        self.n_components = n_components
        self.dissimilarity = dissimilarity

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.dissimilarity == "precomputed"
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or dissimilarities when ``dissimilarity="precomputed"``.
        y : ignored

        Returns
        -------
        self : ClassicalMDS
        """
        X, D = fit_dissimilarities(self, X)
        n = D.shape[0]
        if self.n_components >= n:
            raise ValueError(
                f"n_components={self.n_components} must be smaller than n_samples={n}."
            )
        gram = _gram_from_dissimilarities(D)
        B = center_gram(gram)
        with lapack_threads(4.0 * n**3 / 3.0):   # the tridiagonal reduction
            eigenvalues = eigvalsh(B)[::-1]
        negative_mass = -eigenvalues[eigenvalues < 0].sum()
        total_mass = np.abs(eigenvalues).sum()
        if total_mass > 0 and negative_mass > NEGATIVE_MASS_WARNING * total_mass:
            warnings.warn(
                f"the dissimilarities are far from Euclidean: negative eigenvalues carry "
                f"{negative_mass / total_mass:.1%} of the spectrum's mass; the embedding "
                "ignores them.",
                UserWarning,
                stacklevel=2,
            )
        values, vectors = leading_eigenpairs(B, self.n_components)
        scale = inverse_sqrt(values)
        if np.any(scale[: self.n_components] == 0):
            warnings.warn(
                "some requested components have non-positive eigenvalues; their coordinates "
                "are 0.",
                UserWarning,
                stacklevel=2,
            )
        self.eigenvalues_ = eigenvalues
        self.embedding_ = vectors * (values * scale)
        self._projection = vectors * scale
        self._fit_gram = gram
        self._X_fit = X
        return self

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
        y : ignored

        Returns
        -------
        embedding : ndarray of shape (n_samples, n_components)
        """
        return self.fit(X).embedding_

    def transform(self, X):
        """Embed new samples by Gower's out-of-sample formula.

        Parameters
        ----------
        X : array-like of shape (n_new, n_features) or (n_new, n_samples_fit)
            New samples, or their dissimilarities to the training samples when
            ``dissimilarity="precomputed"``.

        Returns
        -------
        embedding : ndarray of shape (n_new, n_components)
        """
        check_is_fitted(self)
        D_new = cross_dissimilarities(self, X, self._X_fit)
        gram = center_gram(_gram_from_dissimilarities(D_new), K_fit=self._fit_gram)
        return gram @ self._projection
