"""The row-space reparametrisation of a ridge-penalised problem on wide data (more penalised
coordinates than samples), which keeps Newton's iterates while solving a problem of the size of
the sample."""

import numpy as np

__all__ = ["row_space_reduction"]


def row_space_reduction(A, n_penalised):
    """Reparametrise a problem whose loss depends on ``θ`` through ``Aθ`` and whose penalty is
    ``λ‖θ_P‖²`` on the first ``n_penalised`` coordinates ``P`` only, when those outnumber the
    rows of ``A`` (wide data).

    With ``A_P = Z Bᵀ`` (thin QR of ``A_Pᵀ``: ``B`` of shape (n_penalised, n_rows) orthonormal,
    ``Z = A_P B``) and ``θ_P = B η``, the loss and penalty are the same functions of ``η``
    (``‖Bη‖ = ‖η‖``) and the gradient maps as ``g_P = B g_η``; a minimiser, and every Newton
    or conjugate-gradient iterate from 0, lies in ``B``'s span (the gradient does, and the
    Hessian is ``λI`` on its complement). Solving in the reduced coordinates therefore gives
    the same iterates at O(n_rows² n_penalised) instead of O(n_penalised³) per Newton step.

    Returns
    -------
    reduced : ndarray of shape (n_rows, n_rows + n_free)
        ``[Z, A_free]``, the design of the reduced problem (free coordinates kept).
    expand : callable
        Maps reduced coordinates of shape (n_rows + n_free, ...) (a parameter or a gradient)
        to the original ones, shape (n_columns, ...).
    """
    basis, triangle = np.linalg.qr(A[:, :n_penalised].T)
    k = basis.shape[1]

    def expand(values):
        return np.concatenate([basis @ values[:k], values[k:]])
    return np.hstack([triangle.T, A[:, n_penalised:]]), expand
