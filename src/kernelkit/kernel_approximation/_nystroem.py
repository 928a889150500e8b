"""Nyström features of any kernel: vectors, callables, precomputed Grams, strings and graphs.

Williams & Seeger, "Using the Nyström method to speed up kernel machines", NIPS 2001; landmarks
by recursive ridge-leverage sampling: Musco & Musco, "Recursive sampling for the Nyström
method", NIPS 2017, Algorithm 2.
"""

from numbers import Integral, Real

import numpy as np
from scipy.linalg import eigh
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._gram import is_symmetric_gram
from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    FittedKernel,
    kernel_input_tags,
    kernel_kind,
    resolve_gamma,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, blas_threads, effective_n_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["KernelNystroem"]

# Ridge-leverage scores are estimated with this oversampling (Musco & Musco's code uses 3..5).
_RLS_OVERSAMPLE = 3.0


def _take(X, indices):
    """Rows ``indices`` of an array, or the objects ``indices`` of a sequence (as a list)."""
    if isinstance(X, np.ndarray):
        return X[indices]
    return [X[int(i)] for i in indices]


def _paired(kernel, X, landmarks):
    """A kernel object set up to evaluate ``K(X, landmarks)`` once fitted on the landmarks:
    kernelkit's string kernels infer their alphabet from both sets (``_for_pair``)."""
    kernel = clone(kernel)
    for_pair = getattr(kernel, "_for_pair", None)
    return for_pair(X, landmarks) if for_pair is not None else kernel


class _KernelBlocks:
    """``K(X[rows], X[cols])`` blocks and the diagonal of ``K(X, X)`` for any kind of kernel,
    without forming the whole Gram matrix (used by the ridge-leverage sampling)."""

    def __init__(self, kernel, kind, X, gamma, degree, coef0, kernel_params, n_threads):
        self.kernel, self.kind, self.X = kernel, kind, X
        if kind in ("vector", "callable"):
            self.fitted = FittedKernel(kind, X, X.shape[0], name=kernel, gamma=gamma,
                                       coef0=float(coef0), degree=float(degree),
                                       function=kernel if kind == "callable" else None,
                                       kernel_params=kernel_params, n_threads=n_threads)
        else:
            self.fitted = FittedKernel(kind, None, len(X), estimator=kernel)

    def block(self, rows, cols):
        if self.kind in ("vector", "callable"):
            return self.fitted.gram(self.X[rows], self.X[cols])
        if self.kind == "precomputed":
            return np.ascontiguousarray(self.X[np.ix_(rows, cols)])
        A, B = _take(self.X, rows), _take(self.X, cols)
        return np.asarray(_paired(self.kernel, A, B).fit(B).transform(A), dtype=np.float64)

    def diagonal(self):
        if self.kind == "vector":
            return self.fitted.diagonal()
        if self.kind == "precomputed":
            return np.diag(self.X).copy()
        return self.fitted.query_diagonal(self.X)


def recursive_rls_landmarks(blocks, n_samples, n_landmarks, random_state):
    """Indices of ``n_landmarks`` landmarks drawn by recursive ridge-leverage sampling.

    Musco & Musco (2017), Algorithm 2: halve the data uniformly down to about ``n_landmarks``
    points, then climb back up; at each level, the λ-ridge leverage scores
    ``τ_i = (k(x_i, x_i) − K_iS (K_SS + λ W⁻²)⁻¹ K_Si) / λ`` of the level's points are estimated
    against the weighted sample ``S`` of the level below, with
    ``λ = (tr(W K_SS W) − Σ_{top m} eig(W K_SS W)) / m``, and each point is kept with
    probability ``min(1, 3 τ_i)``, weight ``1/sqrt(p_i)``. At the top, ``n_landmarks`` distinct
    points are drawn with probabilities proportional to their scores.
    """
    rng = random_state
    perm = rng.permutation(n_samples)
    sizes = [n_samples]
    while sizes[-1] > n_landmarks:
        sizes.append((sizes[-1] + 1) // 2)
    sample = np.arange(sizes[-1])                  # positions in perm
    weights = np.ones(sample.size)
    diag = blocks.diagonal()
    for size in reversed(sizes[:-1]):
        current = perm[:size]
        KS = blocks.block(current, perm[sample])
        SKS = KS[sample]
        weighted = SKS * weights[:, None] * weights[None, :]
        eigenvalues = np.linalg.eigvalsh(weighted)
        if sample.size <= n_landmarks:
            lam = 1e-6 * max(float(np.trace(weighted)), 1e-300) / max(sample.size, 1)
        else:
            lam = (eigenvalues.sum() - np.sort(eigenvalues)[-n_landmarks:].sum()) / n_landmarks
            lam = max(lam, 1e-6 * float(np.trace(weighted)) / sample.size, 1e-300)
        R = np.linalg.pinv(SKS + np.diag(lam / weights**2), hermitian=True)
        residual = diag[current] - np.einsum("ij,jk,ik->i", KS, R, KS)
        level_scores = np.maximum(residual, 0.0) / lam
        if size == n_samples:
            scores = level_scores
            break
        probabilities = np.minimum(1.0, _RLS_OVERSAMPLE * level_scores)
        keep = np.flatnonzero(rng.random_sample(size) < probabilities)
        if keep.size < min(n_landmarks, size):
            keep = np.sort(rng.choice(size, min(n_landmarks, size), replace=False))
        sample, weights = keep, 1.0 / np.sqrt(np.maximum(probabilities[keep], 1e-12))
    p = np.maximum(scores, 1e-12 * max(scores.max(), 1e-300))
    chosen = rng.choice(n_samples, n_landmarks, replace=False, p=p / p.sum())
    return np.sort(perm[chosen])


class KernelNystroem(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ParameterNamesOncePerClass,
                     BaseEstimator):
    r"""Nyström feature map of any kernel: vectors, callables, strings and graphs.

    With landmarks :math:`L` (:math:`m` training samples), :math:`F(X) = K(X, L) K(L, L)^{-1/2}`,
    so that :math:`F(X) F(X)^\top = K(X, L) K(L, L)^+ K(L, X)` approximates :math:`K(X, X)`
    (Williams & Seeger 2001); it is exact when the landmarks are all the samples (or span the
    feature space). The inverse square root is a pseudo-inverse: eigenvalues of :math:`K(L, L)`
    below :math:`m \cdot \varepsilon \cdot \lambda_{\max}` are cut off. A linear model on
    :math:`F(X)` (kernelkit's ``SVC(kernel="linear")``, ``PCA``, ``KMeans``,
    linear models) approximates the kernel method at a cost linear in ``n_samples``.

    Parameters
    ----------
    kernel : str, callable or kernel object, default="rbf"
        A vector kernel name of :func:`kernelkit.kernels.pairwise_kernels`, ``"precomputed"``
        (``X`` is the Gram matrix at fit, ``K(X_test, X_train)`` at transform), a callable
        ``kernel(X, Y, **kernel_params)``, or a kernel object such as
        :class:`kernelkit.kernels.SpectrumKernel` or
        :class:`kernelkit.kernels.WeisfeilerLehmanKernel` (``X`` is then a sequence of strings or
        graphs).
    n_components : int, default=100
        Number of landmarks ``m`` (at most the number of training samples).
    landmarks : {"uniform", "rls"}, default="uniform"
        "uniform": ``m`` samples drawn uniformly without replacement; "rls": recursive
        ridge-leverage sampling (Musco & Musco 2017), which favours samples the others
        represent poorly and needs fewer landmarks for the same error on uneven data.
    gamma : {"scale", "auto"} or float, default=None
        γ of the vector kernels, resolved on the whole training set (None: 1 / n_features).
    degree : float, default=3
    coef0 : float, default=1
    kernel_params : dict, default=None
        Extra keyword arguments of a callable kernel.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        Threads of the compiled vector kernels.

    Attributes
    ----------
    component_indices_ : ndarray of shape (n_components,)
        Indices of the landmarks among the training samples.
    components_ : ndarray or list
        The landmarks (rows, or objects).
    normalization_ : ndarray of shape (n_components, n_components)
        :math:`K(L, L)^{-1/2}` (pseudo-inverse square root).
    n_features_in_ : int
        Only for array input.

    See Also
    --------
    kernelkit.kernel_approximation.RandomFourierFeatures : random features of
        translation-invariant vector kernels.

    References
    ----------
    C. Williams and M. Seeger, "Using the Nyström method to speed up kernel machines", NIPS 2001.
    C. Musco and C. Musco, "Recursive sampling for the Nyström method", NIPS 2017.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernel_approximation import KernelNystroem
    >>> from kernelkit.kernels import rbf_kernel
    >>> X = np.random.default_rng(0).normal(size=(40, 3))
    >>> F = KernelNystroem(gamma=0.5, n_components=40, random_state=0).fit_transform(X)
    >>> bool(np.abs(F @ F.T - rbf_kernel(X, gamma=0.5)).max() < 1e-8)
    True
    """

    _parameter_constraints = {
        "kernel": KERNEL_CONSTRAINT,
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left")],
        "landmarks": [StrOptions({"uniform", "rls"})],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0, None, closed="neither"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "kernel_params": [dict, None],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, kernel="rbf", *, n_components=100, landmarks="uniform", gamma=None,
                 degree=3, coef0=1, kernel_params=None, random_state=None, n_jobs=None):
        self.kernel = kernel
        self.n_components = n_components
        self.landmarks = landmarks
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.random_state = random_state
        self.n_jobs = n_jobs

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Choose the landmarks among ``X`` and compute ``K(L, L)^{-1/2}``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), Gram matrix, or sequence of objects
        y : None
            Ignored.

        Returns
        -------
        self : KernelNystroem
        """
        X = validate_kernel_data(self, X)
        kind = kernel_kind(self.kernel)
        n_samples = X.shape[0] if kind != "structured" else len(X)
        if kind == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"With kernel='precomputed', X must be the square training Gram "
                             f"matrix; got shape {X.shape}.")
        m = min(self.n_components, n_samples)
        rng = check_random_state(self.random_state)
        gamma = resolve_gamma(self.gamma, X) if kind == "vector" else self.gamma
        n_threads = effective_n_threads(self.n_jobs)
        if self.landmarks == "uniform" or m == n_samples:
            # a prefix of one permutation: more landmarks with the same seed are a superset
            indices = np.sort(rng.permutation(n_samples)[:m])
        else:
            blocks = _KernelBlocks(self.kernel, kind, X, gamma, self.degree, self.coef0,
                                   self.kernel_params, n_threads)
            indices = recursive_rls_landmarks(blocks, n_samples, m, rng)
        if kind == "precomputed":
            # the symmetry rule of every precomputed Gram holds for the whole matrix (the
            # landmarks' block, of smaller trace, would get a tighter tolerance); that block is
            # then made exactly symmetric (unchanged when X is)
            if not is_symmetric_gram(X, n_threads=n_threads):
                raise ValueError("Precomputed Gram matrix is not symmetric, so it is not a valid "
                                 "kernel.")
            block = X[np.ix_(indices, indices)]
            fitted = resolve_kernel("precomputed", (block + block.T) / 2, psd=False)
            fitted.rows = indices          # columns of K(X_test, X_train) to read
            self.components_ = indices
        else:
            self.components_ = _take(X, indices)
            kernel = (_paired(self.kernel, X, self.components_) if kind == "structured"
                      else self.kernel)
            fitted = resolve_kernel(kernel, self.components_, gamma=gamma, degree=self.degree,
                                    coef0=self.coef0, kernel_params=self.kernel_params,
                                    n_jobs=self.n_jobs, psd=False)
        K_LL = fitted.training_gram()
        with blas_threads(10.0 * m**3, n_threads):   # eigh with vectors, then an m x m product
            eigenvalues, vectors = eigh(K_LL)
            cutoff = max(eigenvalues.max(), 0.0) * m * np.finfo(np.float64).eps
            keep = eigenvalues > cutoff
            root = vectors[:, keep] / np.sqrt(eigenvalues[keep])
            self.normalization_ = root @ vectors[:, keep].T
        self.component_indices_ = indices
        self.n_samples_fit_ = n_samples
        self._kernel = fitted
        self._n_features_out = m
        return self

    def transform(self, X):
        """Nyström features ``K(X, L) K(L, L)^{-1/2}``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), ``K(X, X_train)``, sequence of
            objects, or dask.array of vectors
            A ``dask.array`` (e.g. rows on a cluster, or more than fits in memory) is
            transformed block of rows by block of rows, lazily.

        Returns
        -------
        F : ndarray of shape (n_samples, n_components), or dask.array for a dask.array ``X``
        """
        check_is_fitted(self)
        if type(X).__module__.partition(".")[0] == "dask":
            # no Dask import here: a dask.array knows how to map its blocks
            return X.rechunk({1: -1}).map_blocks(
                self.transform, dtype=np.float64,
                chunks=(X.chunks[0], (self.normalization_.shape[1],)))
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=self.n_samples_fit_)
        return self._kernel.cross(X) @ self.normalization_

    def __sklearn_tags__(self):
        return kernel_input_tags(super().__sklearn_tags__(), self.kernel)
