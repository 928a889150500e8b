"""Truncated SVD by random range finding (Halko, Martinsson & Tropp 2011)."""

from scipy.linalg import qr, svd
from sklearn.utils import check_random_state

__all__ = ["randomized_svd"]


def randomized_svd(A, n_components, *, n_oversamples=10, n_iter=None, random_state=None):
    """The ``n_components`` leading singular triplets of ``A``, approximately.

    Range finder with power iterations (Halko et al. 2011, Algorithms 4.4 and 5.1): ``Q`` spans
    ``(A Aᵀ)^q A Ω`` for a Gaussian ``Ω`` with ``n_components + n_oversamples`` columns, each power
    step re-orthonormalised by QR (plain powers lose the small singular directions to rounding);
    then the exact SVD of the small matrix ``Qᵀ A``.

    Parameters
    ----------
    A : ndarray of shape (n_samples, n_features)
    n_components : int
    n_oversamples : int, default=10
    n_iter : int, default=None
        Power iterations; None means 7 when ``n_components`` is below a tenth of the smaller
        dimension (slowly decaying spectra need more), else 4.
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
    random_state = check_random_state(random_state)
    n_random = min(n_components + n_oversamples, *A.shape)
    if n_iter is None:
        n_iter = 7 if n_components < 0.1 * min(A.shape) else 4
    omega = random_state.standard_normal((A.shape[1], n_random)).astype(A.dtype, copy=False)
    Q = A @ omega
    Q = qr(Q, mode="economic", check_finite=False)[0]
    for _ in range(n_iter):
        Q = qr(A.T @ Q, mode="economic", check_finite=False)[0]
        Q = qr(A @ Q, mode="economic", check_finite=False)[0]
    U_small, s, Vt = svd(Q.T @ A, full_matrices=False, check_finite=False)
    return (Q @ U_small)[:, :n_components], s[:n_components], Vt[:n_components]
