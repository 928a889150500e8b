"""Regularised least squares shared by ridge, kernel ridge and the Newton (IRLS) steps of the
logistic models: one Cholesky factorisation per system, with a clear error when the matrix is
not positive definite."""

from scipy.linalg import LinAlgError, cho_factor, cho_solve

__all__ = ["solve_positive_definite"]


def solve_positive_definite(A, B, what):
    """``A⁻¹ B`` for a symmetric positive definite ``A`` (Cholesky); ``what`` names ``A`` in the
    ValueError raised when it is not positive definite."""
    try:
        factor = cho_factor(A, lower=False, check_finite=False)
    except LinAlgError:
        raise ValueError(
            f"{what} is not positive definite (a Gram matrix that is not p.s.d., or a "
            "regularisation of 0 on rank-deficient data): increase the regularisation or check "
            "the kernel.") from None
    return cho_solve(factor, B, check_finite=False)
