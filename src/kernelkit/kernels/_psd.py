"""Making an indefinite similarity matrix usable by kernel machines: the eigenvalue shift."""

import numpy as np
from scipy.linalg import eigvalsh
from sklearn.utils.validation import check_array

__all__ = ["shift_to_psd"]


def shift_to_psd(K, tol=0.0):
    """Add ``s·I`` to a symmetric matrix so that its smallest eigenvalue is at least ``tol``.

    ``s = max(0, tol − λ_min(K))``. This is how Saigo et al. (2004) use the log local alignment
    kernel, which is not positive definite. Only the training Gram is shifted: the shift amounts
    to giving every training object a private feature, so test blocks ``K(Y, X_fit)`` are used
    unchanged.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Symmetric matrix.
    tol : float, default=0.0
        Smallest eigenvalue wanted after the shift.

    Returns
    -------
    K_shifted : ndarray of shape (n_samples, n_samples)
    shift : float
        The ``s`` added to the diagonal (0.0 when K already qualifies).

    Examples
    --------
    >>> from kernelkit.kernels import shift_to_psd
    >>> K_shifted, shift = shift_to_psd([[1.0, 2.0], [2.0, 1.0]])
    >>> shift
    1.0
    >>> K_shifted
    array([[2., 2.],
           [2., 2.]])
    """
    K = check_array(K, dtype=np.float64, ensure_all_finite=True, input_name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be square, got shape {K.shape}.")
    if not np.allclose(K, K.T):
        raise ValueError("K must be symmetric for an eigenvalue shift.")
    smallest = float(eigvalsh(K, subset_by_index=[0, 0])[0])
    shift = max(0.0, tol - smallest)
    return K + shift * np.eye(K.shape[0]), shift
