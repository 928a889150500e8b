"""Class probabilities for SVMs: Platt's sigmoid and pairwise coupling (as LIBSVM computes them).

* Each one-vs-one decision value ``f`` is mapped to ``P(first class | f) = 1 / (1 + exp(A f + B))``
  (Platt 1999), with ``(A, B)`` fitted by Newton's method on decision values of held-out folds and
  the regularised targets of Lin, Lin & Weng (2007).
* The pairwise probabilities ``r_ij`` are coupled into class probabilities by the second method
  of Wu, Lin & Weng (2004): ``p`` minimises ``Σ_i Σ_{j≠i} (r_ji p_i − r_ij p_j)²`` on the simplex,
  solved here exactly from its KKT system (LIBSVM iterates to the same optimum).
"""

import numpy as np

__all__ = ["couple_pairwise_probabilities", "fit_sigmoid", "sigmoid_probability"]

# Probabilities are kept in [_MIN_PROBABILITY, 1 − _MIN_PROBABILITY] before coupling (LIBSVM).
_MIN_PROBABILITY = 1e-7


def _sigmoid_loss(decision, target, A, B):
    """Cross-entropy of ``target`` against ``1 / (1 + exp(A f + B))``, written without overflow."""
    z = decision * A + B
    return float(np.sum(np.where(z >= 0, target * z + np.log1p(np.exp(-np.abs(z))),
                                 (target - 1) * z + np.log1p(np.exp(-np.abs(z))))))


def fit_sigmoid(decision, positive, *, max_iter=100, min_step=1e-10, sigma=1e-12, eps=1e-5):
    """Platt's ``(A, B)`` for decision values ``decision`` of samples whose class is ``positive``.

    Newton's method with backtracking on the cross-entropy of the regularised targets
    ``(N₊ + 1)/(N₊ + 2)`` and ``1/(N₋ + 2)`` (Lin, Lin & Weng 2007, Algorithm 1).

    Parameters
    ----------
    decision : ndarray of shape (n_samples,)
    positive : ndarray of shape (n_samples,), bool
        Whether each sample belongs to the class that positive decision values point to.

    Returns
    -------
    A, B : float
    """
    decision = np.asarray(decision, dtype=np.float64)
    n_pos = int(np.count_nonzero(positive))
    n_neg = positive.size - n_pos
    target = np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    A, B = 0.0, float(np.log((n_neg + 1.0) / (n_pos + 1.0)))
    loss = _sigmoid_loss(decision, target, A, B)
    for _ in range(max_iter):
        z = decision * A + B
        # p = 1/(1 + e^z), q = 1 − p, computed on the stable side of z
        e = np.exp(-np.abs(z))
        p = np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))
        q = 1.0 - p
        d2 = p * q
        h11 = sigma + np.sum(decision * decision * d2)
        h22 = sigma + np.sum(d2)
        h21 = np.sum(decision * d2)
        d1 = target - p
        g1, g2 = np.sum(decision * d1), np.sum(d1)
        if abs(g1) < eps and abs(g2) < eps:
            break
        det = h11 * h22 - h21 * h21
        dA = -(h22 * g1 - h21 * g2) / det
        dB = -(-h21 * g1 + h11 * g2) / det
        slope = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            new_A, new_B = A + step * dA, B + step * dB
            new_loss = _sigmoid_loss(decision, target, new_A, new_B)
            if new_loss < loss + 1e-4 * step * slope:
                A, B, loss = new_A, new_B, new_loss
                break
            step /= 2.0
        else:
            break   # no sufficient decrease along the Newton direction: at the optimum
    return float(A), float(B)


def sigmoid_probability(decision, A, B):
    """``1 / (1 + exp(A f + B))``, clipped to ``[1e-7, 1 − 1e-7]``."""
    z = np.asarray(decision) * A + B
    e = np.exp(-np.abs(z))
    p = np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))
    return np.clip(p, _MIN_PROBABILITY, 1.0 - _MIN_PROBABILITY)


def couple_pairwise_probabilities(pairwise, pairs, n_classes):
    """Class probabilities from pairwise ones (Wu, Lin & Weng 2004, method 2).

    Parameters
    ----------
    pairwise : ndarray of shape (n_samples, n_pairs)
        ``r_ab = P(y = a | y ∈ {a, b}, x)`` for each pair ``(a, b)`` of ``pairs``.
    pairs : list of (int, int)
    n_classes : int

    Returns
    -------
    proba : ndarray of shape (n_samples, n_classes)
        Rows on the probability simplex.
    """
    n_samples = pairwise.shape[0]
    r = np.zeros((n_samples, n_classes, n_classes))
    for k, (a, b) in enumerate(pairs):
        r[:, a, b] = pairwise[:, k]
        r[:, b, a] = 1.0 - pairwise[:, k]
    # Q_tt = Σ_{j≠t} r_jt², Q_tj = −r_jt r_tj; minimise pᵀQp subject to Σ p = 1:
    # [Q 1; 1ᵀ 0] [p; μ] = [0; 1].
    Q = -r.transpose(0, 2, 1) * r
    diagonal = np.einsum("sjt,sjt->st", r, r)
    Q[:, np.arange(n_classes), np.arange(n_classes)] = diagonal
    system = np.zeros((n_samples, n_classes + 1, n_classes + 1))
    system[:, :n_classes, :n_classes] = Q
    system[:, :n_classes, n_classes] = 1.0
    system[:, n_classes, :n_classes] = 1.0
    rhs = np.zeros((n_samples, n_classes + 1, 1))
    rhs[:, n_classes] = 1.0
    proba = np.linalg.solve(system, rhs)[:, :n_classes, 0]
    # the optimum is non-negative (Wu et al., Theorem 2); clip rounding
    proba = np.clip(proba, 0.0, None)
    return proba / proba.sum(axis=1, keepdims=True)
