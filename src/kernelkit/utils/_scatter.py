"""Products of tall data by row blocks: scatter matrices ``Σ_i w_i (x_i − c)(x_i − c)ᵀ`` by
blocked rank-k updates, shared by PCA (the covariance, with ``c`` the mean) and the logistic
regressions' Newton steps (the Hessian ``Aᵀ diag(w) A``), and products ``(X − 1cᵀ) M`` with a
narrow ``M`` (PCA's scores)."""

import numpy as np
from scipy.linalg import get_blas_funcs

from kernelkit.utils._threads import fold_row_blocks

__all__ = ["row_block_product", "scatter_matrix"]

# Elements of one block buffer: 2 MiB of float64, which stays in the cache between the centring
# and the rank-k update that reads it back.
_BLOCK_ELEMENTS = 2**18


def scatter_matrix(X, *, shift=None, weights=None, n_threads=1):
    r"""The scatter matrix :math:`S = \sum_i w_i (x_i - c)(x_i - c)^\top` of the rows of ``X``.

    The rows are shifted (and scaled by :math:`\sqrt{w_i}`) block by block into a buffer that
    stays in the cache, and each block is added by a symmetric rank-k update (BLAS ``syrk``, half
    the products of a general ``Xᵀ X``). Centring the blocks before the product keeps the
    accuracy of a centred copy of ``X``, without the copy: the shortcut
    :math:`X^\top X - n \mu\mu^\top` loses about :math:`\log_{10}(\mu^2 / \sigma^2)` digits to
    cancellation when the mean is large against the spread. The blocks run on ``n_threads``
    threads (:func:`~kernelkit.utils._threads.fold_row_blocks`); the result does not depend on
    ``n_threads``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        float64 or float32 (the products run in that precision), C-contiguous.
    shift : ndarray of shape (n_features,), default=None
        The centre :math:`c`; None for 0.
    weights : ndarray of shape (n_samples,), default=None
        Non-negative weights :math:`w_i`; None for 1.
    n_threads : int, default=1

    Returns
    -------
    S : ndarray of shape (n_features, n_features)
        Symmetric, of ``X``'s dtype.
    """
    n_samples, n_features = X.shape
    dtype = X.dtype
    syrk = get_blas_funcs("syrk", dtype=dtype)
    block_rows = max(1, _BLOCK_ELEMENTS // max(n_features, 1))
    root = None if weights is None else np.sqrt(weights).astype(dtype, copy=False)

    def fold(state, start, stop):
        if state is None:
            state = (np.zeros((n_features, n_features), dtype=dtype, order="F"),
                     np.empty((block_rows, n_features), dtype=dtype))
        total, buffer = state
        block = buffer[: stop - start]
        if shift is None:
            block[...] = X[start:stop]
        else:
            np.subtract(X[start:stop], shift, out=block)
        if root is not None:
            block *= root[start:stop, None]
        # blockᵀ block added to the upper triangle of the Fortran-ordered total, in place
        return syrk(1.0, block.T, beta=1.0, c=total, overwrite_c=1), buffer

    states = fold_row_blocks(fold, n_samples, block_rows, n_threads)
    total = states[0][0]
    for state in states[1:]:
        total += state[0]
    return np.triu(total) + np.triu(total, 1).T


def row_block_product(X, M, *, shift=None, n_threads=1):
    """``(X − 1cᵀ) M``, computed as ``X M − 1 (cᵀ M)`` row block by row block.

    Each block's product is one BLAS call on one thread, the blocks shared by ``n_threads``
    threads (:func:`~kernelkit.utils._threads.fold_row_blocks`), which writes the rows of the
    result in place: no team of BLAS threads to stall when another process keeps a core busy.
    The result does not depend on ``n_threads``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    M : ndarray of shape (n_features, n_columns)
    shift : ndarray of shape (n_features,), default=None
        The centre :math:`c`; None for 0.
    n_threads : int, default=1

    Returns
    -------
    product : ndarray of shape (n_samples, n_columns)
    """
    M = np.asarray(M, dtype=X.dtype)
    product = np.empty((X.shape[0], M.shape[1]), dtype=X.dtype)
    offset = None if shift is None else shift @ M

    def fold(state, start, stop):
        rows = product[start:stop]
        np.matmul(X[start:stop], M, out=rows)
        if offset is not None:
            rows -= offset
        return state

    fold_row_blocks(fold, X.shape[0], max(1, _BLOCK_ELEMENTS // max(X.shape[1], 1)), n_threads)
    return product
