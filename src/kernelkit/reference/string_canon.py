"""Readable twins of the weighted degree and gappy pair string kernels (slow; test oracles only).

Twins of the methods, not of the compiled entries: they take the kernels' arguments (lists of
``str`` and the hyper-parameters) and return Gram matrices or feature dictionaries, compared with
``WeightedDegreeKernel`` (core ``_weighted_degree``) and ``GappyPairKernel`` of
:mod:`kernelkit.kernels`. Both are written from the definitions, term by term:

- weighted degree with shifts (G. Rätsch, S. Sonnenburg, "Accurate splice site prediction for
  Caenorhabditis elegans", in *Kernel Methods in Computational Biology*, MIT Press, 2004; G.
  Rätsch, S. Sonnenburg, B. Schölkopf, "RASE: recognition of alternatively spliced exons in
  C. elegans", Bioinformatics 21 (suppl. 1), 2005), for sequences of equal length L::

      k(x, x') = Σ_{d=1..D} β_d Σ_{l=1..L−d+1} Σ_{s=0..S, s+l ≤ L} δ_s μ_{d,l,s}(x, x'),
      μ_{d,l,s} = 1[u_{d,l+s}(x) = u_{d,l}(x')] + 1[u_{d,l}(x) = u_{d,l+s}(x')],
      β_d = 2(D − d + 1) / (D(D + 1)),   δ_s = 1 / (2(s + 1)),

  ``u_{d,l}(x)`` the d-mer of x starting at l (a term whose d-mer runs past the end is 0);
- gappy pair (P. Kuksa, P.-H. Huang, V. Pavlovic, "A fast, large-scale learning method for
  protein sequence classification", BIOKDD 2008): ``Φ_{(u, m, v)}(x)`` = the number of
  positions i with ``x[i:i+k] = u`` and ``x[i+k+m:i+2k+m] = v``, for k-mers u, v and a gap of
  m = 0..g letters (the gap length is part of the feature), and ``k(x, y) = Φ(x)·Φ(y)``.
"""

from collections import Counter

import numpy as np

__all__ = ["gappy_pair_features", "gappy_pair_kernel", "weighted_degree_kernel"]


def _gram(pair, X, Y, normalize):
    Y = X if Y is None else Y
    K = np.array([[pair(x, y) for y in Y] for x in X], dtype=np.float64)
    if normalize:
        diag_x = np.array([pair(x, x) for x in X])
        diag_y = np.array([pair(y, y) for y in Y])
        K = K / np.sqrt(np.outer(diag_x, diag_y))
    return K


def _dmer(x, start, d, known):
    """The d-mer of x at 0-based ``start``, or None when it runs past the end or holds a letter
    outside ``known`` (such d-mers match nothing)."""
    if start < 0 or start + d > len(x):
        return None
    word = x[start:start + d]
    if known is not None and any(letter not in known for letter in word):
        return None
    return word


def weighted_degree_kernel(X, Y=None, degree=8, shift=0, known=None, normalize=False):
    """Weighted degree (with shifts) Gram ``K(X, Y)``, the formula of the module docstring.

    Parameters
    ----------
    X, Y : list of str
        Sequences, all of one length.
    degree : int
        D, the longest d-mer compared.
    shift : int
        S, the largest shift.
    known : str or None
        Letters that match (None: every letter); a d-mer holding another letter matches nothing.
    normalize : bool
        Cosine normalisation.
    """
    D = degree
    beta = {d: 2.0 * (D - d + 1) / (D * (D + 1)) for d in range(1, D + 1)}

    def pair(x, y):
        L = len(x)
        assert len(y) == L, "the weighted degree kernel compares sequences of equal length"
        total = 0.0
        for d in range(1, D + 1):
            for l in range(1, L - d + 2):                  # 1-based, as printed
                for s in range(shift + 1):
                    if s + l > L:
                        break
                    delta = 1.0 / (2 * (s + 1))
                    a = _dmer(x, l + s - 1, d, known)
                    b = _dmer(y, l - 1, d, known)
                    mu = float(a is not None and a == b)
                    a = _dmer(x, l - 1, d, known)
                    b = _dmer(y, l + s - 1, d, known)
                    mu += float(a is not None and a == b)
                    total += beta[d] * delta * mu
        return total

    return _gram(pair, X, Y, normalize)


def gappy_pair_features(x, k, g):
    """``{(u, m, v): count}``: k-mers u, v of x separated by m = 0..g letters."""
    features = Counter()
    for m in range(g + 1):
        for i in range(len(x) - 2 * k - m + 1):
            features[(x[i:i + k], m, x[i + k + m:i + 2 * k + m])] += 1
    return features


def gappy_pair_kernel(X, Y=None, k=2, g=3, normalize=False):
    """Gappy pair Gram ``K(X, Y)`` from explicit feature dictionaries."""
    cache = {}

    def features(x):
        if x not in cache:
            cache[x] = gappy_pair_features(x, k, g)
        return cache[x]

    def pair(x, y):
        phi, psi = features(x), features(y)
        return float(sum(c * psi.get(f, 0) for f, c in phi.items()))

    return _gram(pair, X, Y, normalize)
