"""The logistic and softmax losses, with their gradients, shared by the linear and kernel
logistic regressions (Sangnier, *Introduction to machine learning*, §1.2.1; Peyré, ch. 16,
§16.4.2–16.4.3; Mairal & Vert, *Kernel Methods* slides, "Ridge logistic regression").

Scores ``z = f(x)``; binary targets ``t ∈ {0, 1}`` (``y = 2t − 1``); ``log(1 + e^{−yz})`` is
computed as ``logaddexp(0, −yz)`` and the softmax loss ``LSE(z) − z_y`` with the row maximum
subtracted first (the "LSE trick"), so no entry overflows even at ``|z| ~ 1e4``.
"""

import numpy as np
from scipy.special import expit, log_softmax, logsumexp

__all__ = ["binary_loss", "binary_loss_derivatives", "binary_loss_value", "multinomial_loss",
           "softmax"]


def binary_loss(z, t, sample_weight=None):
    """``Σ_i s_i log(1 + e^{−y_i z_i})`` and its derivative ``s (p − t)`` with respect to ``z``
    (``p = σ(z)``), and the curvature ``s p (1 − p)``; the weights ``s`` are 1 when
    ``sample_weight`` is None."""
    return ((binary_loss_value(z, t, sample_weight),)
            + binary_loss_derivatives(z, t, sample_weight))


def binary_loss_value(z, t, sample_weight=None):
    """``Σ_i s_i log(1 + e^{−y_i z_i})`` alone (a line search's trial points need no more)."""
    y = 2.0 * t - 1.0
    losses = np.logaddexp(0.0, -y * z)
    return float(np.sum(losses) if sample_weight is None else sample_weight @ losses)


def binary_loss_derivatives(z, t, sample_weight=None):
    """The derivative ``s (p − t)`` of :func:`binary_loss_value` with respect to ``z`` and the
    curvature ``s p (1 − p)``."""
    p = expit(z)
    if sample_weight is None:
        return p - t, p * (1.0 - p)
    return sample_weight * (p - t), sample_weight * (p * (1.0 - p))


def softmax(Z):
    """Row-wise ``e^{Z} / Σ e^{Z}`` (LSE trick)."""
    return np.exp(log_softmax(Z, axis=1))


def multinomial_loss(Z, D, sample_weight=None):
    """``Σ_i s_i (LSE(Z_i) − ⟨Z_i, D_i⟩)`` (``D`` one-hot) and its gradient
    ``s (softmax(Z) − D)``, row by row; the weights ``s`` are 1 when ``sample_weight`` is
    None."""
    if sample_weight is None:
        return float(np.sum(logsumexp(Z, axis=1)) - np.sum(Z * D)), softmax(Z) - D
    losses = logsumexp(Z, axis=1) - np.sum(Z * D, axis=1)
    return float(sample_weight @ losses), sample_weight[:, None] * (softmax(Z) - D)
