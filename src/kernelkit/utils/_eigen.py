"""Leading eigenpairs of a centred Gram matrix and the projections built on them.

Shared by kernel PCA (Sangnier, §3.2.1) and classical MDS (Sangnier, Algorithm 16), which are the
same computation on two different Gram matrices (Sangnier, §3.2.2: "kernel PCA ... can be seen as
classical MDS applied in the feature space").
"""

import numpy as np
from scipy.linalg import LinAlgError, eigh, svd
from scipy.sparse.linalg import ArpackError, eigsh
from sklearn.utils import check_random_state

from kernelkit.utils._threads import lapack_threads
from kernelkit.utils._validation import available_memory

__all__ = ["flip_signs", "leading_eigenpairs", "linear_leading_eigenpairs", "inverse_sqrt",
           "use_arpack"]


def flip_signs(vectors, *, in_place=False):
    """Make the entry of largest magnitude of every column positive (a deterministic sign; the
    first such entry when several have that magnitude).

    ``in_place`` flips the columns of ``vectors`` itself (for a large fresh array: no copy the
    size of it) and returns it.
    """
    if vectors.shape[0] == 0 or vectors.shape[1] == 0:
        return vectors
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1
    if in_place:
        vectors *= signs
        return vectors
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
        Lanczos (``scipy.sparse.linalg.eigsh``) instead of LAPACK (``syevd`` of the whole
        spectrum when many pairs are wanted, else ``syevr``); its start vector is
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
        if not arpack and _whole_spectrum_pays(n, n_components):
            values, vectors = eigh(K, driver="evd", overwrite_a=True, check_finite=False)
            values, vectors = values[n - n_components:], vectors[:, n - n_components:]
        elif not arpack:
            values, vectors = eigh(K, subset_by_index=[n - n_components, n - 1],
                                   overwrite_a=True, check_finite=False)
    order = np.argsort(values)[::-1]
    return values[order], flip_signs(vectors[:, order], in_place=True)


def linear_leading_eigenpairs(X, n_components):
    """:func:`leading_eigenpairs` of the centred linear Gram matrix ``X_c X_cᵀ`` (``X_c``: ``X``
    minus its column means) without forming it: from the thin SVD ``X_c = U S Vᵀ`` its
    eigenvalues are ``s²`` and its eigenvectors ``U`` (kernel PCA with the linear kernel is PCA,
    Sangnier §3.2.2), in ``O(n d²)`` operations instead of the ``O(n³)`` of the Gram's.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    n_components : int
        ``1 ≤ n_components ≤ min(n_samples, n_features)``.

    Returns
    -------
    eigenvalues : ndarray of shape (n_components,)
    eigenvectors : ndarray of shape (n_samples, n_components)
        Signs fixed by :func:`flip_signs`.
    """
    Xc = X - X.mean(axis=0)
    n, d = Xc.shape
    with lapack_threads(4.0 * n * d * d + 8.0 * d**3):
        try:
            U, s, _ = svd(Xc, full_matrices=False, overwrite_a=True, check_finite=False)
        except LinAlgError:   # divide and conquer did not converge: the QR iteration
            U, s, _ = svd(X - X.mean(axis=0), full_matrices=False, check_finite=False,
                          lapack_driver="gesvd")
    return s[:n_components] ** 2, flip_signs(U[:, :n_components], in_place=True)


# From this fraction of the eigenpairs on, LAPACK's divide and conquer (syevd) of all of them is
# faster than the relatively robust representations (syevr) of the few asked for (quiet, 2
# threads, a centred RBF Gram of 1 000 samples: 50 pairs 1.68x syevr's time, 100 1.18x, 250
# 0.62x, all 0.71x; all of 300 / 3 000 samples 0.79x / 0.73x).
WHOLE_SPECTRUM_FRACTION = 0.2
# A workspace this small (up to 2 000 samples) is taken without reading the memory limits.
SMALL_WORKSPACE = 2**26


def _whole_spectrum_pays(n, n_components):
    """Whether to take the ``n_components`` leading eigenpairs of an ``n × n`` matrix from all
    of them (``syevd``): when they are at least ``WHOLE_SPECTRUM_FRACTION`` of them and its
    workspace of ``2n² + 6n + 1`` doubles, which ``syevr`` does without, is small or takes at
    most a quarter of the memory this process can get."""
    workspace = 8.0 * (2.0 * n * n + 6.0 * n + 1.0)
    return n_components >= WHOLE_SPECTRUM_FRACTION * n and (
        workspace <= SMALL_WORKSPACE or workspace <= available_memory()[0] / 4)


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
