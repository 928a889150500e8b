"""SMACOF as the course writes it: explicit matrices ``V``, ``V'(Z)`` and the Moore–Penrose ``V⁺``.

Sangnier, §3.2.3, Property 77 and Algorithm 17. :func:`guttman_transform` and :func:`stress` are
twins of ``kernelkit._core._smacof_guttman`` (same arguments); :func:`smacof` is the course's
whole run, the twin of :class:`kernelkit.manifold.MDS` and :func:`kernelkit.manifold.smacof`.
Every iteration builds n×n matrices; that is the point: it is the readable oracle, not the fast
path.
"""

import numpy as np

__all__ = ["guttman_transform", "smacof", "stress"]


def _distances(Z):
    diff = Z[:, None, :] - Z[None, :, :]
    return np.sqrt((diff**2).sum(axis=-1))


def _weights(weights, n):
    return np.ones((n, n)) - np.eye(n) if weights is None else np.asarray(weights, dtype=float)


def _v_matrix(weights):
    """Seed's ``V`` of Property 77 with ``α = W``: ``V_ii = 2 Σ_{j≠i} w_ij``, ``V_ij = −2 w_ij``."""
    W = weights - np.diag(np.diag(weights))
    return 2.0 * (np.diag(W.sum(axis=1)) - W)


def _v_prime(dissimilarities, weights, Z):
    """Seed's ``V'(Z)``: ``−2 w_ij d_ij / δ_ij · 1{δ_ij ≠ 0}`` off the diagonal, zero row sums."""
    dist = _distances(Z)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(dist > 0, weights * dissimilarities / dist, 0.0)
    np.fill_diagonal(ratio, 0.0)
    return 2.0 * (np.diag(ratio.sum(axis=1)) - ratio)


def stress(dissimilarities, weights, Z, n_threads=1):
    """``(Σ_{i<j} w_ij (D_ij − δ_ij)², Σ_{i<j} w_ij δ_ij²)``: pairs once, half the course's S_KS."""
    D = np.asarray(dissimilarities, dtype=float)
    W = _weights(weights, D.shape[0])
    dist = _distances(np.asarray(Z, dtype=float))
    upper = np.triu(np.ones_like(D, dtype=bool), k=1)
    return (float((W * (D - dist) ** 2)[upper].sum()), float((W * dist**2)[upper].sum()))


def guttman_transform(dissimilarities, weights, Z, out, scale=1.0, n_threads=1):
    """``out = scale · B(Z) Z`` with :math:`B(Z) = V'(Z) / 2`; returns :func:`stress` at ``Z``."""
    D = np.asarray(dissimilarities, dtype=float)
    Z = np.asarray(Z, dtype=float)
    out[...] = scale * (_v_prime(D, _weights(weights, D.shape[0]), Z) / 2.0) @ Z
    return stress(D, weights, Z)


def smacof(dissimilarities, init, weights=None, max_iter=300, eps=1e-6):
    """Sangnier, Algorithm 17: ``Z ← V⁺ V'(Z) Z`` until the relative stress decrease is below eps.

    Parameters
    ----------
    dissimilarities : ndarray of shape (n_samples, n_samples)
    init : ndarray of shape (n_samples, n_components)
    weights : ndarray of shape (n_samples, n_samples) or None
    max_iter : int
    eps : float
        Stop when ``(σ_{k−1} − σ_k) < eps · σ_{k−1}``.

    Returns
    -------
    Z : ndarray of shape (n_samples, n_components)
        The last configuration whose stress is known.
    stress_history : ndarray
        Stress (pairs once) of every configuration visited, the initial one first.
    """
    D = np.asarray(dissimilarities, dtype=float)
    W = _weights(weights, D.shape[0])
    V = _v_matrix(W)
    # Cut-off n·ε (relative), not numpy's 1e-15: V's null eigenvalue comes out of the SVD at
    # rounding level, around 1e-13 relative for n ≈ 1000, and must not be inverted.
    V_pinv = np.linalg.pinv(V, rtol=V.shape[0] * np.finfo(float).eps, hermitian=True)
    Z = np.array(init, dtype=float)
    history = [stress(D, W, Z)[0]]
    for _ in range(max_iter):
        Z_next = V_pinv @ _v_prime(D, W, Z) @ Z
        history.append(stress(D, W, Z_next)[0])
        Z = Z_next
        if history[-2] - history[-1] < eps * history[-2]:
            break
    return Z, np.array(history)
