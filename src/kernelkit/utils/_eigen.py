"""Leading eigenpairs of a centred Gram matrix and the projections built on them.

Shared by kernel PCA (Sangnier, §3.2.1) and classical MDS (Sangnier, Algorithm 16), which are the
same computation on two different Gram matrices (Sangnier, §3.2.2: "kernel PCA ... can be seen as
classical MDS applied in the feature space").
"""

import numpy as np
from scipy.linalg import eigh
from scipy.sparse.linalg import ArpackError, eigsh
from sklearn.utils import check_random_state

from kernelkit.utils._threads import lapack_threads

__all__ = ["flip_signs", "leading_eigenpairs", "inverse_sqrt", "use_arpack"]


def flip_signs(vectors):
    """Make the entry of largest magnitude of every column positive (a deterministic sign)."""
    if vectors.shape[0] == 0 or vectors.shape[1] == 0:
        return vectors
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1.0
    return vectors * signs


def use_arpack(eigen_solver, n_samples, n_components):
    """scikit-learn's rule for "auto": ARPACK when few components of a large matrix are wanted."""
    if eigen_solver == "auto":
        return n_samples > 200 and n_components < 10
    return eigen_solver == "arpack"


def leading_eigenpairs(K, n_components, *, arpack=False, random_state=None):
    """The ``n_components`` largest eigenvalues (descending) of symmetric ``K`` and unit vectors.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        Symmetric; overwritten (LAPACK works in place).
    n_components : int
        ``1 ≤ n_components ≤ n_samples`` (``< n_samples`` when ``arpack``).
    arpack : bool
        Lanczos (``scipy.sparse.linalg.eigsh``) instead of LAPACK ``syevr``; its start vector is
        drawn from ``random_state``, so the result is reproducible. LAPACK takes over when ARPACK
        fails (a zero matrix, no convergence).
    random_state : int, RandomState instance or None

    Returns
    -------
    eigenvalues : ndarray of shape (n_components,)
    eigenvectors : ndarray of shape (n_samples, n_components)
        Signs fixed by :func:`flip_signs`.
    """
    n = K.shape[0]
    # the tridiagonal reduction, 4n³/3 operations, or ARPACK's products (NumPy's) on the matrix
    with lapack_threads(4.0 * n**3 / 3.0, library="numpy" if arpack else "scipy"):
        if arpack:
            v0 = check_random_state(random_state).uniform(-1.0, 1.0, n)
            try:
                values, vectors = eigsh(K, k=n_components, which="LA", v0=v0)
            except ArpackError:
                # the Krylov space collapsed (K v0 = 0: a zero centred Gram of identical
                # samples) or did not converge: LAPACK below gives the exact eigenpairs
                arpack = False
        if not arpack:
            values, vectors = eigh(K, subset_by_index=[n - n_components, n - 1],
                                   overwrite_a=True, check_finite=False)
    order = np.argsort(values)[::-1]
    return values[order], flip_signs(vectors[:, order])


def inverse_sqrt(eigenvalues, rtol=1e-12):
    """``1/√λ`` for the eigenvalues above ``rtol · max|λ|``, 0 for the others.

    A component with a non-positive eigenvalue carries no variance: its scores are 0 rather
    than a division by zero (or the square root of a negative number).
    """
    floor = rtol * max(float(np.max(np.abs(eigenvalues), initial=0.0)), np.finfo(float).tiny)
    out = np.zeros_like(eigenvalues)
    positive = eigenvalues > floor
    out[positive] = 1.0 / np.sqrt(eigenvalues[positive])
    return out
