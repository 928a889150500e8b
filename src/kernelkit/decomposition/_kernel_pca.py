"""Kernel principal component analysis, on any kernel or a precomputed Gram matrix."""

from numbers import Integral, Real

import numpy as np
from scipy.linalg import LinAlgError, solve
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.utils._eigen import (
    inverse_sqrt,
    leading_eigenpairs,
    linear_leading_eigenpairs,
    use_arpack,
)
from kernelkit.utils._gram import center_gram
from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    kernel_kind,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._progress import stage
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._validation import MAX_INT, check_fit_params, record_fit_params

__all__ = ["KernelPCA"]


class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ParameterNamesOncePerClass,
                BaseEstimator):
    """Kernel PCA: PCA of the data mapped into a reproducing-kernel feature space.

    The Gram matrix is centred in feature space,
    :math:`K_Z = (I - \\mathbf 1 \\mathbf 1^\\top / n) K (I - \\mathbf 1 \\mathbf 1^\\top / n)`; its
    leading unit eigenpairs :math:`(\\lambda_j, v_j)` give the training embedding
    :math:`U = [\\sqrt{\\lambda_1} v_1 \\mid \\dots]` and the out-of-sample map
    :math:`u_j(x) = \\lambda_j^{-1/2} v_j^\\top k_c(x)` with :math:`k_c(x)` the kernel row of
    :math:`x` centred against the training mean (Sangnier, §3.2.1, eq. 3.1). With
    ``kernel="precomputed"`` any positive semi-definite Gram matrix works, e.g. one from
    ``kernelkit.kernels``' string and graph kernels — or pass such a kernel object itself as
    ``kernel`` and fit on the strings or graphs.

    Components whose eigenvalue is not positive (a rank-deficient or indefinite Gram) are
    returned as zero columns rather than dividing by zero.

    Parameters
    ----------
    n_components : int or None, default=None
        Components to keep, ``≤ n_samples``; None keeps every component with a positive
        eigenvalue.
    kernel : {"linear", "poly", "rbf", "laplacian", "sigmoid", "cosine", "exponential", "min", \
"sinc", "precomputed"}, callable or kernel object, default="linear"
        A vector kernel (:func:`kernelkit.kernels.pairwise_kernels`); "precomputed": ``X`` is the
        Gram matrix in ``fit`` and ``K(X_new, X_fit)`` in ``transform``; a callable
        ``kernel(X, Y, **kernel_params)`` returning the Gram matrix (scikit-learn's KernelPCA
        calls a callable once per pair of rows instead); or a kernel object such as
        :class:`kernelkit.kernels.SpectrumKernel`, cloned and fitted on the training objects.
    gamma, degree, coef0 : float, default=None, 3, 1
        Kernel parameters as in :func:`kernelkit.kernels.pairwise_kernels`.
    kernel_params : dict, default=None
        Extra keyword arguments of a callable kernel.
    alpha : float, default=1.0
        Ridge of the pre-image regression (``fit_inverse_transform=True``).
    fit_inverse_transform : bool, default=False
        Learn ``inverse_transform`` by kernel ridge regression from the embedding back to the
        inputs (Bakır, Weston, Schölkopf 2004), with the same kernel on the embedding.
    eigen_solver : {"auto", "dense", "arpack"}, default="auto"
        LAPACK (dense) or Lanczos (ARPACK); "auto" uses ARPACK for fewer than 10 components
        of more than 200 samples. With the linear kernel on fewer features than samples,
        "auto" and "dense" take the eigenpairs of at most ``n_features`` components from the
        SVD of the centred data instead of the Gram matrix (the same pairs; ``O(n d²)``
        operations instead of ``O(n³)``).
    random_state : int, RandomState instance or None, default=None
        Start vector of ARPACK.
    verbose : int, default=0
        1: a line on stderr per stage of ``fit`` (Gram matrix, eigenpairs, pre-image
        regression), with its time.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components_,)
        Leading eigenvalues of the centred Gram matrix, descending.
    eigenvectors_ : ndarray of shape (n_samples, n_components_)
        Unit eigenvectors, largest-magnitude entry positive.
    embedding_ : ndarray of shape (n_samples, n_components_)
        Training embedding :math:`v_j \\sqrt{\\lambda_j}`.
    n_components_ : int
    X_fit_ : ndarray of shape (n_samples, n_features)
        Training data (the Gram matrix when precomputed).
    dual_coef_ : ndarray of shape (n_samples, n_features)
        Pre-image regression coefficients (``fit_inverse_transform=True`` only).
    n_features_in_ : int

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.2.1, eq. (3.1), Remarks 3.2.1–3.2.4; Peyré,
    *Mathematical Foundations of Data Sciences*, ch. 16 §16.5. B. Schölkopf, A. Smola, K.-R. Müller,
    "Nonlinear component analysis as a kernel eigenvalue problem", Neural Computation 10, 1998.
    G. Bakır, J. Weston, B. Schölkopf, "Learning to find pre-images", NIPS 2004.

    See Also
    --------
    PCA : the linear-kernel case.
    kernelkit.manifold.ClassicalMDS : kernel PCA of :math:`-\\frac12 D \\circ D`.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.decomposition import KernelPCA, PCA
    >>> X = np.array([[0.0, 1.0], [1.0, 3.0], [2.0, 2.0], [4.0, 5.0], [3.0, 0.0]])
    >>> Z = KernelPCA(n_components=2, kernel="linear").fit_transform(X)
    >>> np.allclose(np.abs(Z), np.abs(PCA(n_components=2).fit_transform(X)))
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "kernel": KERNEL_CONSTRAINT,
        "gamma": [Interval(Real, 0, None, closed="left"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Real],
        "kernel_params": [dict, None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_inverse_transform": ["boolean"],
        "eigen_solver": [StrOptions({"auto", "dense", "arpack"})],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
    }

    def __init__(self, n_components=None, *, kernel="linear", gamma=None, degree=3, coef0=1,
                 kernel_params=None, alpha=1.0, fit_inverse_transform=False,
                 eigen_solver="auto", random_state=None, verbose=0):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.eigen_solver = eigen_solver
        self.random_state = random_state
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit the kernel principal axes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or the Gram matrix when ``kernel="precomputed"``.
        y : ignored

        Returns
        -------
        self : KernelPCA
        """
        if self.fit_inverse_transform and kernel_kind(self.kernel) not in ("vector", "callable"):
            raise ValueError("fit_inverse_transform needs vector inputs: not available with "
                             "kernel='precomputed' or a kernel object.")
        X = validate_kernel_data(self, X, ensure_min_samples=2)
        n = len(X)
        if self.n_components is not None and self.n_components > n:
            raise ValueError(f"n_components={self.n_components} must be at most "
                             f"n_samples={n}.")
        # Indefinite similarities are accepted: their negative eigenvalues give zero components.
        label = type(self).__name__
        with stage(label, self.verbose, f"Gram matrix {n} x {n}"):
            self._kernel = resolve_kernel(self.kernel, X, gamma=self.gamma, degree=self.degree,
                                          coef0=self.coef0, kernel_params=self.kernel_params,
                                          psd=False)
            K = self._kernel.training_gram()
        self._fit_gram = K
        k = n if self.n_components is None else self.n_components
        arpack = k < n and use_arpack(self.eigen_solver, n, k)
        if self._from_data(X, k):
            # at most min(n, d) eigenvalues are not zero: all of them for n_components=None
            k = min(k, X.shape[1])
            with stage(label, self.verbose, f"{k} leading eigenpairs (SVD of the data)"):
                values, vectors = linear_leading_eigenpairs(X, k)
        else:
            with stage(label, self.verbose,
                       f"{k} leading eigenpairs ({'ARPACK' if arpack else 'LAPACK'})"):
                values, vectors = leading_eigenpairs(center_gram(K), k, arpack=arpack,
                                                     random_state=self.random_state)
        scale = inverse_sqrt(values)
        if self.n_components is None:   # those of positive eigenvalues: the leading ones
            kept = np.count_nonzero(scale)
            values, vectors, scale = values[:kept], vectors[:, :kept], scale[:kept]
        self.eigenvalues_ = values
        self.eigenvectors_ = vectors
        self.n_components_ = values.shape[0]
        self.embedding_ = vectors * (values * scale)
        self.X_fit_ = X
        if self.fit_inverse_transform:
            # Kernel ridge from the embedding back to the inputs: the pre-image map, with the
            # same kernel on the embedding (gamma=None resolved on the embedding's width).
            with stage(label, self.verbose, "pre-image regression"):
                self._embedding_kernel = resolve_kernel(
                    self.kernel, self.embedding_, gamma=self.gamma, degree=self.degree,
                    coef0=self.coef0, kernel_params=self.kernel_params)
                K_embedding = self._embedding_kernel.training_gram()
                K_embedding.flat[:: n + 1] += self.alpha
                try:
                    self.dual_coef_ = solve(K_embedding, X, assume_a="pos", overwrite_a=True)
                except LinAlgError:
                    raise ValueError(
                        f"the pre-image regression's K + alpha·I is singular (alpha={self.alpha:g}"
                        "): the kernel on the embedding is rank-deficient; use a larger alpha."
                    ) from None
        # the projection and the pre-image map were computed with these parameters
        self._fit_params = record_fit_params(self, refit_free={"verbose"})
        return self

    def fit_transform(self, X, y=None):
        """Fit and return the training embedding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
        y : ignored

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_components_)
        """
        return self.fit(X).embedding_

    def _from_data(self, X, n_components):
        """Whether the eigenpairs come from the SVD of the centred data: the linear kernel on
        fewer features than samples, for every pair of a nonzero eigenvalue
        (``n_components=None``) or at most ``n_features`` pairs, unless ARPACK is asked for."""
        if not (isinstance(self.kernel, str) and self.kernel == "linear"
                and self.eigen_solver != "arpack"):
            return False
        n, d = X.shape
        return d < n and (self.n_components is None or n_components <= d)

    def transform(self, X):
        """Project new samples on the kernel principal axes.

        Parameters
        ----------
        X : array-like of shape (n_new, n_features) or (n_new, n_samples_fit)
            Samples, or ``K(X_new, X_fit)`` when ``kernel="precomputed"``.

        Returns
        -------
        X_new : ndarray of shape (n_new, n_components_)
        """
        check_is_fitted(self)
        check_fit_params(self, self._fit_params)
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=self._fit_gram.shape[0])
        K = center_gram(self._kernel.cross(X), K_fit=self._fit_gram)
        return (K @ self.eigenvectors_) * inverse_sqrt(self.eigenvalues_)

    def inverse_transform(self, X):
        """Approximate pre-images of embedded points (kernel ridge, Bakır et al. 2004).

        Parameters
        ----------
        X : array-like of shape (n_new, n_components_)

        Returns
        -------
        X_original : ndarray of shape (n_new, n_features)
        """
        check_is_fitted(self)
        check_fit_params(self, self._fit_params)
        if not self.fit_inverse_transform:
            raise ValueError("inverse_transform needs fit_inverse_transform=True.")
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self.n_components_:
            raise ValueError(f"expected an embedding of shape (n_samples, {self.n_components_}), "
                             f"got {X.shape}.")
        return self._embedding_kernel.cross(X) @ self.dual_coef_

    @property
    def _n_features_out(self):
        return self.eigenvalues_.shape[0]

    def __sklearn_tags__(self):
        return kernel_input_tags(super().__sklearn_tags__(), self.kernel)
