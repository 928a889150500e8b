r"""Weights :math:`h_m` of an l-mer pair with m mismatches, and LS-GKM's position weights.

Every gapped k-mer kernel is :math:`K(x, y) = \sum_{i, j} w_i w_j h_{d(x_i, y_j)}` over the
l-mers of x and y (d: Hamming distance, :math:`h_m = 0` for m > the cut ``d``). The weights
are computed in exact rational arithmetic (so a filter value that is exactly 0 is 0), then
rounded once to float64.

- gapped k-mer kernel: :math:`h_m = \binom{l-m}{k}`, the gapped k-mers (k of the l positions)
  two l-mers at Hamming distance m share.
- estimated l-mer filter: the gapped k-mer counts determine the l-mer counts up to the kernel
  of the map :math:`M` from l-mer counts to gapped k-mer counts; the minimum-norm estimate is
  :math:`\hat c = M^+ M c`, a projection whose entries depend on the Hamming distance only,
  :math:`f_m = |A|^{-l} \sum_{j=0}^{k} K_j(m)` with the Krawtchouk polynomials
  :math:`K_j(m) = \sum_s (-1)^s (|A|-1)^{j-s} \binom ms \binom{l-m}{j-s}` (the gkm kernel
  :math:`M^\top M` acts on the characters of support j by :math:`|A|^{l-k}\binom{l-j}{k-j}`,
  nonzero iff j ≤ k). The truncated filter keeps :math:`f_m` up to its first value
  :math:`\le 0` and sets the rest to 0 (LS-GKM: below 1e-50).
- estimated l-mer kernels: :math:`h_m = \sum_u \tilde f_{d(u, v)} \tilde f_{d(u, v')}` over
  all l-mers u, for v, v' at distance m; with the full filter this is :math:`f_m` again
  (a projection is idempotent).
"""

from fractions import Fraction
from functools import lru_cache
from math import comb, exp, floor, log

import numpy as np

__all__ = ["center_weights", "lmer_filter", "pair_weights", "truncate_filter"]


def _krawtchouk(j, m, l, n_letters):
    return sum((-1) ** s * (n_letters - 1) ** (j - s) * comb(m, s) * comb(l - m, j - s)
               for s in range(j + 1))


def lmer_filter(l, k, n_letters):
    """:math:`f_m`, m = 0..l, the entries of the projection :math:`M^+ M` (Fractions)."""
    return [Fraction(sum(_krawtchouk(j, m, l, n_letters) for j in range(k + 1)), n_letters**l)
            for m in range(l + 1)]


def truncate_filter(f):
    """``f`` up to (not including) its first value ≤ 0, zeros after."""
    out = list(f)
    for m, value in enumerate(f):
        if value <= 0:
            out[m:] = [Fraction(0)] * (len(f) - m)
            break
    return out


def _shared_neighbours(m, m1, m2, l, n_letters):
    """Number of l-mers u at distance m1 from v and m2 from v', where d(v, v') = m.

    On the l − m positions where v = v', u differs from both (t of them, |A| − 1 letters each)
    or from neither; on the m where they differ, u equals v (p), equals v' (q) or neither (r,
    |A| − 2 letters): m1 = t + q + r, m2 = t + p + r, p + q + r = m.
    """
    total = 0
    for t in range(l - m + 1):
        r = m1 + m2 - 2 * t - m
        q, p = m1 - t - r, m2 - t - r
        if r < 0 or p < 0 or q < 0:
            continue
        arrangements = comb(m, r) * comb(m - r, p)
        total += comb(l - m, t) * (n_letters - 1) ** t * arrangements * (n_letters - 2) ** r
    return total


def pair_weights(kernel_type, l, k, d, n_letters):
    """``h`` (ndarray of shape (d + 1,), float64) for ``kernel_type`` ("gkm", or an estimated
    l-mer kernel: "estimated_full", or the truncated filter for the others)."""
    return np.array(_pair_weights(kernel_type, l, k, min(d, l), n_letters), dtype=np.float64)


@lru_cache(maxsize=64)
def _pair_weights(kernel_type, l, k, d, n_letters):
    # exact rational arithmetic costs milliseconds: computed once per parameter set
    if kernel_type == "gkm":
        return tuple(float(comb(l - m, k)) for m in range(d + 1))
    f = lmer_filter(l, k, n_letters)
    if kernel_type != "estimated_full":
        f = truncate_filter(f)
    h = [sum(f[m1] * f[m2] * _shared_neighbours(m, m1, m2, l, n_letters)
             for m1 in range(l + 1) for m2 in range(l + 1) if f[m1] and f[m2])
         for m in range(d + 1)]
    return tuple(float(value) for value in h)


def center_weights(n_windows, weight_max, half_life):
    r"""LS-GKM's wgkm position weights of the ``n_windows`` l-mers of one sequence:
    :math:`w_i = \min(M, \lfloor M 2^{-|c - i| / H} + 1 \rfloor)`, c = ``n_windows // 2``."""
    center = n_windows // 2
    return np.array([min(weight_max, floor(weight_max * exp(-log(2) * abs(center - i)
                                                            / half_life) + 1))
                     for i in range(n_windows)], dtype=np.int32)
