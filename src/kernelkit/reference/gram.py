"""Twin of ``kernelkit._core._gram``: vector-kernel Gram matrices, the Gram check and the Gram
matrix of sparse explicit features, in NumPy and Python loops.

Same entry points and arguments as the compiled module; written for reading (whole matrices, no
blocks or threads). Compared with the compiled module in ``tests/utils/test_kernels.py`` and
``tests/kernels/test_reference_sparse_gram.py``.
"""

import numpy as np

__all__ = ["KERNEL_CODES", "check_gram", "kernel_matrix", "sparse_gram", "vector_gram"]

# The codes of kernelkit._core._gram.VECTOR_KERNELS (a test checks they agree) and of a
# precomputed Gram (kernelkit._core._smo_solver.PRECOMPUTED_KERNEL).
KERNEL_CODES = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3, "laplacian": 4, "cosine": 5,
                "exponential": 6, "min": 7, "sinc": 8, "precomputed": -1}


def kernel_matrix(X, Y, kernel, gamma, coef0, degree):
    """``K[i, j] = k(x_i, y_j)`` for a vector-kernel code (Mairal & Vert, "Examples of kernels";
    Sangnier, Ex 1.4.2 for the exponential kernel; ``gamma`` is the band limit Ω of sinc)."""
    X, Y = np.asarray(X, dtype=np.float64), np.asarray(Y, dtype=np.float64)
    dots = X @ Y.T
    sq_x, sq_y = np.sum(X * X, axis=1), np.sum(Y * Y, axis=1)
    if kernel == KERNEL_CODES["linear"]:
        return dots
    if kernel == KERNEL_CODES["poly"]:
        return (gamma * dots + coef0) ** degree
    if kernel == KERNEL_CODES["rbf"]:
        return np.exp(-gamma * np.maximum(sq_x[:, None] + sq_y[None, :] - 2.0 * dots, 0.0))
    if kernel == KERNEL_CODES["sigmoid"]:
        return np.tanh(gamma * dots + coef0)
    if kernel == KERNEL_CODES["laplacian"]:
        return np.exp(-gamma * np.abs(X[:, None, :] - Y[None, :, :]).sum(axis=2))
    if kernel == KERNEL_CODES["cosine"]:
        norms = np.sqrt(np.outer(sq_x, sq_y))
        return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
    if kernel == KERNEL_CODES["exponential"]:
        return np.exp(gamma * dots)
    if kernel == KERNEL_CODES["min"]:
        return np.minimum(X[:, None, :], Y[None, :, :]).sum(axis=2)
    if kernel == KERNEL_CODES["sinc"]:
        # sin(Ω t) / (π t) = (Ω/π) sinc(Ω t / π) with numpy's normalised sinc
        diff = X[:, None, :] - Y[None, :, :]
        return np.prod(gamma / np.pi * np.sinc(gamma * diff / np.pi), axis=2)
    raise ValueError(f"unknown kernel code {kernel}")


def vector_gram(X, Y, symmetric, kernel, gamma, coef0, degree, out, n_threads):
    """Fill ``out`` with ``K(X, Y)`` (``K(X, X)`` when ``symmetric``); ``n_threads`` ignored."""
    out[...] = kernel_matrix(X, X if symmetric else Y, kernel, gamma, coef0, degree)
    if symmetric:
        upper = np.triu_indices(out.shape[0], 1)
        out.T[upper] = out[upper]


def check_gram(K, atol, n_threads=1):
    """The failing conditions as the compiled check's bits (tolerances as there): 1 a diagonal
    entry below ``-atol``, 2 asymmetric, 4 a negative 2×2 minor, 8 a NaN or infinite entry."""
    K = np.asarray(K, dtype=np.float64)
    diag = np.diag(K)
    upper = np.triu(np.ones(K.shape, dtype=bool), 1)
    root = np.sqrt(np.where(diag > 0.0, diag, 0.0))
    with np.errstate(invalid="ignore"):
        failing = [np.any(diag < -atol),
                   np.any((np.abs(K - K.T) > 1e-8 * np.abs(K) + atol) & upper),
                   np.any((np.abs(K) > (1.0 + 1e-8) * np.outer(root, root) + atol) & upper),
                   not np.isfinite(K).all()]
    return sum(bit for bit, fails in zip((1, 2, 4, 8), failing) if fails)


def sparse_gram(indptr_a, indices_a, data_a, colptr_b, rows_b, data_b, out, row_start, row_stop,
                n_threads):
    """Add ``A Bᵀ`` to rows ``[row_start, row_stop)`` of ``out`` by an inverted index; A in CSR
    form, B in CSC form (the posting list of every feature: the rows of B holding it).

    ``K[i, j] = Σ_u A[i, u] B[j, u]``: row ``i`` walks its features ``u`` and, for each, the rows
    ``j`` of B holding ``u``, adding ``A[i, u] B[j, u]`` to ``out[i, j]``; pairs sharing no
    feature are never visited. The products of an entry are added in the order of row ``i``'s
    features, as the compiled product adds them.

    Parameters
    ----------
    indptr_a, indices_a, data_a : CSR arrays of A (feature ids increasing within a row)
    colptr_b, rows_b, data_b : CSC arrays of B over the same feature ids
    out : ndarray of shape (n_a, n_b), float64
        Receives ``out[i] += (A Bᵀ)[i]`` for ``row_start ≤ i < row_stop``.
    row_start, row_stop : int
    n_threads : int
        Ignored.
    """
    for i in range(row_start, row_stop):
        for p in range(indptr_a[i], indptr_a[i + 1]):
            u, a_iu = indices_a[p], data_a[p]
            for q in range(colptr_b[u], colptr_b[u + 1]):
                out[i, rows_b[q]] += a_iu * data_b[q]
