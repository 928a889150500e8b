"""Twin of ``kernelkit._core._gram``: vector-kernel Gram matrices and the Gram check, in NumPy.

Same entry points and arguments as the compiled module; written for reading (whole matrices, no
blocks or threads).
"""

import numpy as np

__all__ = ["KERNEL_CODES", "check_gram", "kernel_matrix", "vector_gram"]

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
    """0 if the necessary p.s.d. conditions hold; 1 negative diagonal, 2 asymmetric, 3 a
    negative 2×2 minor (tolerances as the compiled check)."""
    K = np.asarray(K, dtype=np.float64)
    diag = np.diag(K)
    if np.any(diag < -atol):
        return 1
    upper = np.triu(np.ones(K.shape, dtype=bool), 1)
    if np.any((np.abs(K - K.T) > 1e-8 * np.abs(K) + atol) & upper):
        return 2
    root = np.sqrt(np.maximum(diag, 0.0))
    if np.any((np.abs(K) > (1.0 + 1e-8) * np.outer(root, root) + atol) & upper):
        return 3
    return 0
