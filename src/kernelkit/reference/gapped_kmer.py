r"""Readable twin of the gapped k-mer kernels (``GappedKmerKernel``): slow, a test oracle.

Brute force over all pairs of l-mers, :math:`K(x, y) = \sum_{i, j} w_i w_j h_{d(x_i, y_j)}`,
with the published weights computed another way than the kernel's module does: the
Krawtchouk values of the l-mer filter and the count of l-mers at given distances from two
l-mers are read off products of generating polynomials (floats), not summed term by term.
A twin of the method: it takes the kernel's parameters and lists of ``str``.
"""

from math import comb, exp, floor, log

import numpy as np
from numpy.polynomial import polynomial as P

__all__ = ["gapped_kmer_kernel", "lmer_pair_weights"]

_COMPLEMENT = str.maketrans("ACGT", "TGCA")


def _lmer_filter(l, k, n_letters):
    r""":math:`f_m = |A|^{-l}\sum_{j \le k} K_j(m)`, with :math:`K_j(m)` the coefficient of
    :math:`z^j` in :math:`(1 + (|A|-1)z)^{l-m}(1 - z)^m`."""
    f = []
    for m in range(l + 1):
        poly = P.polymul(P.polypow([1.0, n_letters - 1.0], l - m), P.polypow([1.0, -1.0], m))
        f.append(float(np.sum(poly[:k + 1])) / n_letters**l)
    return np.array(f)


def _pair_count_polynomial(m, l, n_letters):
    """Coefficients ``C[m1, m2]``: l-mers u at distances m1, m2 from v, v' (d(v, v') = m).

    A position where v = v' contributes 1 (u agrees) + (|A|−1)xy (u differs from both); one
    where they differ x (u = v') + y (u = v) + (|A|−2)xy.
    """
    same = np.zeros((2, 2))
    same[0, 0], same[1, 1] = 1.0, n_letters - 1.0
    differ = np.zeros((2, 2))
    differ[1, 0], differ[0, 1], differ[1, 1] = 1.0, 1.0, n_letters - 2.0
    counts = np.ones((1, 1))
    for factor in [same] * (l - m) + [differ] * m:
        grown = np.zeros((counts.shape[0] + 1, counts.shape[1] + 1))
        for a in range(2):
            for b in range(2):
                grown[a:a + counts.shape[0], b:b + counts.shape[1]] += factor[a, b] * counts
        counts = grown
    return counts


def lmer_pair_weights(kernel_type, l, k, d, n_letters):
    r"""``h[m]`` for m = 0..min(d, l): gkm's :math:`\binom{l-m}{k}`, or the estimated l-mer
    kernels' :math:`\sum_u \tilde f_{d(u,v)}\tilde f_{d(u,v')}` (``"estimated_full"``: the
    full filter; any other type: the filter truncated at its first value ≤ 0)."""
    d = min(d, l)
    if kernel_type == "gkm":
        return np.array([comb(l - m, k) for m in range(d + 1)], dtype=np.float64)
    f = _lmer_filter(l, k, n_letters)
    if kernel_type != "estimated_full":
        # exact zeros of f come out of the floats as ±1e-18 or so; they truncate too
        cut = np.flatnonzero(f <= 1e-12 * abs(f[0]))
        if cut.size:
            f[cut[0]:] = 0.0
    return np.array([f @ _pair_count_polynomial(m, l, n_letters) @ f for m in range(d + 1)])


def _windows(x, l, weights):
    return [(x[i:i + l], weights[i]) for i in range(len(x) - l + 1)]


def _position_weights(n, center_weighted, weight_max, half_life):
    if not center_weighted:
        return [1] * n
    return [min(weight_max, floor(weight_max * exp(-log(2) * abs(n // 2 - i) / half_life) + 1))
            for i in range(n)]


def _features(x, l, reverse_complement, center_weighted, weight_max, half_life):
    n = max(len(x) - l + 1, 0)
    weights = _position_weights(n, center_weighted, weight_max, half_life)
    forward = _windows(x, l, weights)
    if not reverse_complement:
        return forward, forward
    backward = _windows(x.translate(_COMPLEMENT)[::-1], l, weights[::-1])
    return forward, forward + backward


def gapped_kmer_kernel(X, Y=None, l=11, k=7, d=3, kernel_type="estimated_truncated",
                       gamma=1.0, center_weight_max=50, center_weight_half_life=50.0,
                       reverse_complement=True, alphabet="ACGT", normalize=True):
    """``K(X, Y)`` of :class:`kernelkit.kernels.GappedKmerKernel`, by brute force over l-mer
    pairs (the forward l-mers of x against those of y, and of its reverse complement)."""
    h = lmer_pair_weights(kernel_type, l, k, d, len(alphabet))
    center_weighted = kernel_type.startswith("center_weighted")
    rbf = kernel_type.endswith("rbf")
    Y = X if Y is None else Y

    def features(x):
        return _features(x, l, reverse_complement, center_weighted, center_weight_max,
                         center_weight_half_life)

    def pair(x, y):
        total = 0.0
        for u, wu in features(x)[0]:
            for v, wv in features(y)[1]:
                m = sum(a != b for a, b in zip(u, v))
                if m < len(h):
                    total += wu * wv * h[m]
        return total

    K = np.array([[pair(x, y) for y in Y] for x in X], dtype=np.float64)
    if not (normalize or rbf):
        return K
    dx = np.array([pair(x, x) for x in X])
    dy = np.array([pair(y, y) for y in Y])
    cosine = np.zeros_like(K)
    for i in range(len(X)):
        for j in range(len(Y)):
            if dx[i] > 0 and dy[j] > 0:
                cosine[i, j] = K[i, j] / np.sqrt(dx[i] * dy[j])
    if not rbf:
        return cosine
    # ‖ψ(x) − ψ(y)‖² with ψ = φ/‖φ‖ (0 without l-mers)
    squared = (dx > 0)[:, None] * 1.0 + (dy > 0)[None, :] - 2.0 * cosine
    return np.exp(-0.5 * gamma * squared)
