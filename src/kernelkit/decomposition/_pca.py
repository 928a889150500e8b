"""Principal component analysis (BLAS- and LAPACK-bound; no compiled core is needed)."""

from numbers import Integral, Real

import numpy as np
from scipy.linalg import get_lapack_funcs, svd
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import assert_all_finite, check_is_fitted, validate_data

from kernelkit.decomposition._randomized_svd import (
    default_power_iterations,
    randomized_eigh,
    randomized_svd,
)
from kernelkit.utils._eigen import flip_signs
from kernelkit.utils._scatter import mean_and_scatter, row_block_product
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import (
    N_JOBS_CONSTRAINT,
    blas_threads,
    effective_n_threads,
    fold_row_blocks,
)
from kernelkit.utils._validation import (
    MAX_INT,
    check_distance_scale,
    check_finite_result,
    warn_long_factorisation,
)

__all__ = ["PCA"]

# Rows of a block of the tall-skinny QR, per column: blocks much taller than wide (each QR then
# adds few rows to the R it carries), still in the cache.
_TSQR_BLOCK_ELEMENTS = 2**17
# Panel width of LAPACK's recursive blocked QR (``geqrt``): mostly matrix-matrix products, where
# ``geqrf`` on a narrow block spends its time in matrix-vector updates.
_QR_PANEL = 32


def _centred_r_factor(X, mean, n_threads):
    """The triangular factor ``R`` (``n_features × n_features``) of ``X − 1μᵀ = QR``.

    Tall-skinny QR (Demmel, Grigori, Hoemmen & Langou, "Communication-optimal parallel and
    sequential QR and LU factorizations", SIAM J. Sci. Comput. 34, 2012): each row slot of
    :func:`~kernelkit.utils._threads.fold_row_blocks` carries an ``R``, stacks the next centred
    block under it and factors the stack again; the slots' factors are stacked and factored
    once more. ``Q`` is never formed, ``X`` is read once and never copied, and the singular
    values and right singular vectors of ``R`` are those of the centred data, with the
    accuracy of an SVD of it (orthogonal transformations only, no squared condition number).
    """
    n_samples, n_features = X.shape
    geqrt = get_lapack_funcs("geqrt", dtype=X.dtype)
    panel = min(_QR_PANEL, n_features)
    block_rows = max(2 * n_features, _TSQR_BLOCK_ELEMENTS // n_features)
    below_diagonal = np.tril_indices(n_features, -1)

    def fold(stack, start, stop):
        # stack: Fortran-ordered [R; block], R in its first n_features rows (zeros at first)
        if stack is None:
            stack = np.zeros((n_features + block_rows, n_features), dtype=X.dtype, order="F")
        else:
            stack[below_diagonal] = 0.0  # geqrt leaves its reflectors under R's diagonal
        if stop - start < block_rows:  # the last, shorter block of the data
            shorter = np.empty((n_features + stop - start, n_features), dtype=X.dtype, order="F")
            shorter[:n_features] = stack[:n_features]
            stack = shorter
        np.subtract(X[start:stop], mean, out=stack[n_features:])
        return geqrt(panel, stack, overwrite_a=1)[0]   # in place: stack is Fortran-ordered

    stacks = fold_row_blocks(fold, n_samples, block_rows, n_threads)
    factors = np.vstack([np.triu(stack[:n_features]) for stack in stacks])
    return np.triu(geqrt(panel, factors, overwrite_a=1)[0][:n_features])


def _centred_sum_of_squares(X, mean):
    """``‖X − 1μᵀ‖²_F`` block by block (no centred copy of ``X``)."""
    block_rows = max(1, _TSQR_BLOCK_ELEMENTS // X.shape[1])
    total = 0.0
    for start in range(0, X.shape[0], block_rows):
        block = X[start:start + block_rows] - mean
        total += float(np.einsum("ij,ij->", block, block))
    return total


def _check_finite_scatter(X, mean, scatter):
    """Raise when ``X`` has a NaN or infinite entry or the scatter matrix overflowed, both seen
    on the d-sized results rather than by passes over the n × d input (a non-finite ``x_ij``
    makes ``μ_j`` or ``S_jj = Σ_i (x_ij − μ_j)²`` non-finite): scikit-learn's message for a
    non-finite input, else :func:`check_distance_scale`'s when the input's scale explains the
    overflow."""
    if not (np.isfinite(scatter).all() and np.isfinite(mean).all()):
        assert_all_finite(X, estimator_name="PCA", input_name="X")
        check_distance_scale(X)
        check_finite_result(scatter, "the scatter matrix (X - mean)ᵀ(X - mean)")


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ParameterNamesOncePerClass,
          BaseEstimator):
    r"""Principal component analysis.

    Centres the data and keeps the leading right singular vectors of
    :math:`X - \mathbf 1 \mu^\top` (Sangnier
    §3.1, Algorithm 15; Peyré, §16.1.1). The three routes of Algorithm 15 (covariance
    eigendecomposition, Gram eigendecomposition, SVD) give the same components up to signs;
    this class uses the covariance route for tall data and the SVD otherwise, as the course
    recommends (the SVD never squares the condition number). Algorithm 15 is printed on
    uncentred data; like §3.1.2 (and every library) we centre, block by block: the centred
    data are never copied whole.

    Parameters
    ----------
    n_components : int, float or None, default=None
        Components to keep: an int ``1 ≤ k ≤ min(n_samples, n_features)``; a float in (0, 1):
        the fewest components whose explained-variance ratio reaches it; None: all
        ``min(n_samples, n_features)``.
    whiten : bool, default=False
        Scale the scores to unit variance.
    svd_solver : {"auto", "full", "covariance_eigh", "randomized"}, default="auto"
        "full": the exact SVD of the centred data (for ``n_samples ≥ 2 n_features``, the SVD of
        the ``n_features × n_features`` triangular factor of its tall-skinny QR, which has the
        same singular values and right singular vectors; otherwise LAPACK's SVD of a centred
        copy); "covariance_eigh": eigendecomposition of the ``n_features × n_features``
        covariance (Algorithm 15 route (a)), formed from centred row blocks; "randomized":
        Halko et al.'s randomised SVD (int ``n_components`` only), run on that covariance when
        forming it costs less than the power iterations' products with the data (narrow data);
        "auto": "covariance_eigh" when ``n_features ≤ 1000`` and ``n_samples ≥ 10
        n_features``, "randomized" when the data are large (``max(shape) > 500``) and
        ``n_components`` an int below 80 % of ``min(shape)``, "full" otherwise
        (scikit-learn's rule).
    random_state : int, RandomState instance or None, default=None
        Seed of the randomised solver.
    n_jobs : int, default=None
        Threads of the row-block products (the covariance, the tall-skinny QR, the scores),
        each BLAS call on one thread, so that a core kept busy by another process does not stall
        a team of BLAS threads; None for every usable CPU. The result does not depend on it.

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
    randomness", SIAM Review 53, 2011. J. Demmel, L. Grigori, M. Hoemmen, J. Langou,
    "Communication-optimal parallel and sequential QR and LU factorizations", SIAM J. Sci.
    Comput. 34, 2012.

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
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, n_components=None, *, whiten=False, svd_solver="auto", random_state=None,
                 n_jobs=None):
        self.n_components = n_components
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.random_state = random_state
        self.n_jobs = n_jobs

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
            return self._scores(X, effective_n_threads(self.n_jobs))
        # X − μ = U S Vᵀ, so the scores (X − μ) Vᵀ are U S (sign-flipped like Vᵀ).
        scores = U[:, : self.n_components_] * (self.singular_values_ * signs)
        return scores / self._whitening_scale() if self.whiten else scores

    def _scores(self, X, n_threads):
        # X Vᵀ − μ Vᵀ: no centred copy of X.
        scores = row_block_product(X, self.components_.T, shift=self.mean_, n_threads=n_threads)
        return scores / self._whitening_scale() if self.whiten else scores

    def _fit(self, X):
        """Fit; return the validated X, the left singular vectors (None for the covariance
        route) and the signs applied to the components."""
        # the scatter matrix's routes test finiteness on their d-sized results
        # (_check_finite_scatter), the others here; an error met before is raised after that
        # test, as scikit-learn's validation would
        X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=2,
                          ensure_all_finite=False)

        def refuse(message):
            assert_all_finite(X, estimator_name="PCA", input_name="X")
            raise ValueError(message)

        n_samples, n_features = X.shape
        rank = min(n_samples, n_features)
        if isinstance(self.n_components, Integral) and self.n_components > rank:
            refuse(f"n_components={self.n_components} must be at most "
                   f"min(n_samples, n_features)={rank}.")
        solver = self._solver(n_samples, n_features)
        if solver == "randomized" and not isinstance(self.n_components, Integral):
            refuse("svd_solver='randomized' needs an int n_components, got "
                   f"{self.n_components!r}.")
        n_threads = effective_n_threads(self.n_jobs)
        U = None
        if solver not in ("covariance_eigh", "randomized"):
            assert_all_finite(X, estimator_name="PCA", input_name="X")
            check_distance_scale(X)
            mean = X.mean(axis=0)
        if solver == "randomized":
            n_iter = default_power_iterations(self.n_components, X.shape)
            n_random = min(self.n_components + 10, rank)
            # n d² for the scatter matrix against 2 n d l per product with the data, 2q + 2 of
            # them: the scatter matrix is cheaper when d < 4 (q + 1) l
            if n_features < 4 * (n_iter + 1) * n_random:
                solver = "randomized_scatter"
            else:
                assert_all_finite(X, estimator_name="PCA", input_name="X")
                check_distance_scale(X)
                mean = X.mean(axis=0)
        if solver in ("covariance_eigh", "randomized_scatter"):
            # Algorithm 15 route (a): the eigenvalues of (X − 1μᵀ)ᵀ(X − 1μᵀ) are σ_i².
            warn_long_factorisation(
                n_samples * n_features**2 + 9.0 * n_features**3,   # XᵀX, then eigh with vectors
                f"svd_solver={self.svd_solver!r} on {n_samples} samples x {n_features} features",
                "it suits n_samples >> n_features; use svd_solver='full' or 'randomized'.")
            with np.errstate(over="ignore", invalid="ignore"):   # tested on the result
                mean, scatter = mean_and_scatter(X, n_threads=n_threads)
            _check_finite_scatter(X, mean, scatter)
            total = float(np.trace(scatter))
            with blas_threads(10.0 * n_features**3, n_threads):
                if solver == "covariance_eigh":
                    # NumPy's eigh (LAPACK syevd), scikit-learn's choice too: 48 vs 61 µs for
                    # SciPy's default at d = 20, 0.98 vs 1.70 ms at d = 100 (measured, loaded)
                    values, vectors = np.linalg.eigh(scatter)
                    values, vectors = values[::-1], vectors[:, ::-1]
                else:
                    values, vectors = randomized_eigh(scatter, self.n_components, n_iter=n_iter,
                                                      random_state=self.random_state)
            squared = np.maximum(values, 0.0)  # rounding can make zeros slightly negative
            components = vectors.T
        elif solver == "full" and n_samples >= 2 * n_features:
            # the last QR, of the slots' stacked factors, and the SVD: O(n_features³) each
            with blas_threads(22.0 * n_features**3, n_threads):
                singular, components = svd(_centred_r_factor(X, mean, n_threads),
                                           check_finite=False)[1:]
            squared = singular**2
            total = float(squared.sum())
        elif solver == "full":
            U, singular, components = svd(X - mean, full_matrices=False, overwrite_a=True,
                                          check_finite=False)
            squared = singular**2
            total = float(squared.sum())
        else:
            total = _centred_sum_of_squares(X, mean)
            U, singular, components = randomized_svd(X, self.n_components, shift=mean,
                                                     n_iter=n_iter,
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
        return self._scores(X, effective_n_threads(self.n_jobs))

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
