"""Truncated SVD by random range finding (Halko, Martinsson & Tropp 2011)."""

import numpy as np
from scipy.linalg import eigh, qr, svd
from sklearn.utils import check_random_state

__all__ = ["default_power_iterations", "randomized_eigh", "randomized_svd"]


def default_power_iterations(n_components, shape):
    """Power iterations of the randomised solvers: 7 when ``n_components`` is below a tenth of
    the smaller dimension of the data (slowly decaying spectra need more), else 4."""
    return 7 if n_components < 0.1 * min(shape) else 4


def _sketch(n_rows, n_columns, random_state, dtype):
    """The Gaussian test matrix Ω, shape (n_rows, n_columns)."""
    return check_random_state(random_state).standard_normal((n_rows, n_columns)).astype(
        dtype, copy=False)


def randomized_svd(A, n_components, *, shift=None, n_oversamples=10, n_iter=None,
                   random_state=None):
    """The ``n_components`` leading singular triplets of ``A − 1 shiftᵀ``, approximately.

    Range finder with power iterations (Halko et al. 2011, Algorithms 4.4 and 5.1): ``Q`` spans
    ``(A Aᵀ)^q A Ω`` for a Gaussian ``Ω`` with ``n_components + n_oversamples`` columns, each power
    step re-orthonormalised by QR (plain powers lose the small singular directions to rounding);
    then the exact SVD of the small matrix ``Qᵀ A``. A ``shift`` (PCA's mean) is applied inside
    the products, ``(A − 1cᵀ) M = A M − 1 (cᵀ M)`` and ``(A − 1cᵀ)ᵀ M = Aᵀ M − c (1ᵀ M)``, so the
    shifted matrix is never formed.

    Parameters
    ----------
    A : ndarray of shape (n_samples, n_features)
    n_components : int
    shift : ndarray of shape (n_features,), default=None
        Subtracted from every row of ``A``; None for 0.
    n_oversamples : int, default=10
    n_iter : int, default=None
        Power iterations; None for :func:`default_power_iterations`.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    U : ndarray of shape (n_samples, n_components)
    s : ndarray of shape (n_components,)
        Singular values, decreasing.
    Vt : ndarray of shape (n_components, n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.decomposition._randomized_svd import randomized_svd
    >>> A = np.diag([5.0, 3.0, 1.0, 0.5])
    >>> np.round(randomized_svd(A, 2, random_state=0)[1], 10)
    array([5., 3.])
    """
    n_random = min(n_components + n_oversamples, *A.shape)
    if n_iter is None:
        n_iter = default_power_iterations(n_components, A.shape)
    if shift is None:
        def product(M):
            return A @ M

        def product_transposed(M):
            return A.T @ M
    else:
        def product(M):
            return A @ M - shift @ M

        def product_transposed(M):
            return A.T @ M - np.outer(shift, M.sum(axis=0))

    Q = product(_sketch(A.shape[1], n_random, random_state, A.dtype))
    Q = qr(Q, mode="economic", check_finite=False)[0]
    for _ in range(n_iter):
        Q = qr(product_transposed(Q), mode="economic", check_finite=False)[0]
        Q = qr(product(Q), mode="economic", check_finite=False)[0]
    U_small, s, Vt = svd(product_transposed(Q).T, full_matrices=False, check_finite=False)
    return (Q @ U_small)[:, :n_components], s[:n_components], Vt[:n_components]


def randomized_eigh(S, n_components, *, n_oversamples=10, n_iter=4, random_state=None):
    r"""The ``n_components`` leading eigenpairs of a symmetric p.s.d. ``S``, approximately.

    Halko et al.'s range finder run on ``S = AᵀA`` instead of ``A`` (Algorithm 4.4 with the
    Rayleigh–Ritz step of Algorithm 5.3): ``Q`` spans :math:`S^{q+1} \Omega`, the subspace from
    which the randomised SVD of ``A`` with ``q`` power iterations takes its right singular
    vectors, and the eigenvectors of :math:`Q^\top S Q` give the Ritz pairs. When ``A`` is tall
    and narrow, forming ``S`` once costs less than the ``2q + 2`` products with ``A``.

    Parameters
    ----------
    S : ndarray of shape (n_features, n_features)
        Symmetric positive semi-definite.
    n_components : int
    n_oversamples : int, default=10
    n_iter : int, default=4
        Power iterations ``q``.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    values : ndarray of shape (n_components,)
        Eigenvalues, decreasing (the squared singular values of ``A``).
    vectors : ndarray of shape (n_features, n_components)

    Examples
    --------
    The square roots of the eigenvalues of ``AᵀA`` are the singular values of ``A``:

    >>> import numpy as np
    >>> from kernelkit.decomposition._randomized_svd import randomized_eigh
    >>> A = np.diag([5.0, 3.0, 1.0, 0.5])
    >>> values, vectors = randomized_eigh(A.T @ A, 2, random_state=0)
    >>> np.round(np.sqrt(values), 10), vectors.shape
    (array([5., 3.]), (4, 2))
    """
    n_random = min(n_components + n_oversamples, S.shape[0])
    Q = S @ _sketch(S.shape[0], n_random, random_state, S.dtype)
    for _ in range(n_iter):
        Q = S @ qr(Q, mode="economic", check_finite=False)[0]
    Q = qr(Q, mode="economic", check_finite=False)[0]
    values, W = eigh(Q.T @ S @ Q, check_finite=False)
    order = slice(None, -n_components - 1, -1)
    return values[order], Q @ W[:, order]
