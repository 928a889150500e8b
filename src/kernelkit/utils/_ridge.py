"""Regularised least squares shared by ridge, kernel ridge, kernel Fisher discriminants, the
kernel-learning objective and the Newton (IRLS) steps of the logistic models: one Cholesky
factorisation per system, with a clear error when the matrix is not positive definite."""

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve

from kernelkit.utils._threads import blas_threads

__all__ = ["positive_definite_solver", "solve_positive_definite"]

_ADVICE = (" (a Gram matrix that is not p.s.d., or a regularisation of 0 on rank-deficient "
           "data): increase the regularisation or check the kernel.")


def positive_definite_solver(A, what, *, shift=0.0, lower=False, advice=_ADVICE):
    """Factorise the symmetric positive definite ``A + shift·I`` once (Cholesky) and return
    ``solve(B) -> (A + shift·I)⁻¹ B``, for as many right-hand sides ``B`` (vectors or matrices)
    as the caller needs.

    Parameters
    ----------
    A : ndarray of shape (n, n)
        Symmetric matrix, finite (not checked); never modified.
    what : str
        The name of ``A + shift·I`` in the error message.
    shift : float, default=0.0
        Ridge added to the diagonal (on a copy of ``A``); adding it off the diagonal too would
        only add zeros.
    lower : bool, default=False
        Factorise from the lower triangle (``LLᵀ``) instead of the upper one (``UᵀU``); the two
        agree up to rounding, each caller keeps one so that its results are reproducible.
    advice : str, default: a Gram matrix that is not p.s.d. or a zero regularisation
        Ends the message of the ValueError raised when ``A + shift·I`` is not positive
        definite: ``f"{what} is not positive definite{advice}"``.
    """
    if shift:
        # the copy in LAPACK's (Fortran) order, factorised in place: the one copy cho_factor
        # would otherwise make of it again (the same values, so the same factor)
        A = np.array(A, dtype=np.float64, order="F", copy=True)
        A.flat[::A.shape[0] + 1] += shift
    n = A.shape[0]
    try:
        # n³/3 operations: a small factorisation on one thread (blas_threads)
        with blas_threads(n**3 / 3.0, None):
            factor = cho_factor(A, lower=lower, overwrite_a=bool(shift), check_finite=False)
    except LinAlgError:
        raise ValueError(f"{what} is not positive definite{advice}") from None

    def solve(B):
        # not under blas_threads' operation count: the triangular solves read the whole factor
        # for few operations, bound by memory, where a second thread adds bandwidth
        return cho_solve(factor, B, check_finite=False)
    return solve


def solve_positive_definite(A, B, what, **options):
    """``(A + shift·I)⁻¹ B`` for one right-hand side ``B``; ``options`` (``shift``, ``lower``,
    ``advice``) and the error are those of :func:`positive_definite_solver`."""
    return positive_definite_solver(A, what, **options)(B)
