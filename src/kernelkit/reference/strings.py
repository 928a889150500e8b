"""Readable twins of the string kernels (slow; test oracles only).

Twins of the methods, not of the compiled entries: they take the kernels' arguments (lists of
``str``, ``k``, ...) and return Gram matrices, compared with ``SpectrumKernel``,
``MismatchKernel``, ``SubstringKernel`` and ``LocalAlignmentKernel`` of :mod:`kernelkit.kernels`,
which run the cores ``_spectrum_gram``, ``_mismatch_neighborhood``, ``_substring_dp`` and
``_local_alignment_dp``.

Spectrum and mismatch kernels by explicit feature dictionaries; the gap-weighted subsequence
kernel by Lodhi's recursion written as printed and by brute-force enumeration of index tuples;
the local alignment kernel by Saigo's five-table DP in log space and by brute-force enumeration
of all local alignments (short strings only). Sequences are plain ``str``; substitution matrices
are ``(letters, scores)`` pairs.
"""

import itertools
import math
from collections import Counter
from functools import lru_cache

import numpy as np

__all__ = [
    "local_alignment_kernel",
    "local_alignment_kernel_bruteforce",
    "mismatch_kernel",
    "smith_waterman_score",
    "spectrum_kernel",
    "substring_kernel",
    "substring_kernel_bruteforce",
]


def _gram(pair, X, Y):
    Y = X if Y is None else Y
    return np.array([[pair(x, y) for y in Y] for x in X], dtype=np.float64)


def _kernel_matrix(pair, X, Y, normalize):
    """``K(X, Y)`` from a pair function, cosine-normalised on request."""
    K = _gram(pair, X, Y)
    if normalize:
        diag_x = [pair(x, x) for x in X]
        diag_y = diag_x if Y is None else [pair(y, y) for y in Y]
        K = K / np.sqrt(np.outer(diag_x, diag_y))
    return K


def _dot(phi, psi):
    return float(sum(c * psi.get(u, 0) for u, c in phi.items()))


def spectrum_features(x, k):
    """``{k-mer: count}`` of the string x."""
    return Counter(x[i:i + k] for i in range(len(x) - k + 1))


def spectrum_kernel(X, Y=None, k=3, normalize=False):
    """Spectrum kernel Gram ``K(X, Y)`` from explicit k-mer count dictionaries."""
    features = {s: spectrum_features(s, k) for s in list(X) + list(Y or [])}
    return _kernel_matrix(lambda x, y: _dot(features[x], features[y]), X, Y, normalize)


def mismatch_features(x, k, m, alphabet):
    """``{u: #windows of x within Hamming distance m of u}`` by brute force over all of A^k."""
    windows = [x[i:i + k] for i in range(len(x) - k + 1)]
    phi = {}
    for letters in itertools.product(alphabet, repeat=k):
        u = "".join(letters)
        count = sum(sum(a != b for a, b in zip(u, w)) <= m for w in windows)
        if count:
            phi[u] = count
    return phi


def mismatch_kernel(X, Y=None, k=5, m=1, alphabet="ACGT", normalize=False):
    """Mismatch kernel Gram ``K(X, Y)`` from explicit feature dictionaries over ``alphabet^k``."""
    features = {s: mismatch_features(s, k, m, alphabet) for s in list(X) + list(Y or [])}
    return _kernel_matrix(lambda x, y: _dot(features[x], features[y]), X, Y, normalize)


def _substring_pair(s, t, k, lam):
    """Lodhi et al. (2002), Section 4.2, written as printed (memoised recursion on prefixes)."""

    @lru_cache(maxsize=None)
    def k_prime(i, p, q):                     # K'_i(s[:p], t[:q])
        if i == 0:
            return 1.0
        if min(p, q) < i:
            return 0.0
        x = s[p - 1]
        total = lam * k_prime(i, p - 1, q)
        for j in range(1, q + 1):             # t_j = x
            if t[j - 1] == x:
                total += k_prime(i - 1, p - 1, j - 1) * lam ** (q - j + 2)
        return total

    total = 0.0
    for p in range(1, len(s) + 1):            # K_k(sx, t) = K_k(s, t) + Σ_{j: t_j = x} ...
        for j in range(1, len(t) + 1):
            if t[j - 1] == s[p - 1]:
                total += k_prime(k - 1, p - 1, j - 1) * lam * lam
    return total


def substring_kernel(X, Y=None, k=3, lambda_=0.5, normalize=False):
    """Gap-weighted subsequence kernel Gram ``K(X, Y)`` (decay by span, Lodhi's convention)."""
    return _kernel_matrix(lambda x, y: _substring_pair(x, y, k, lambda_), X, Y, normalize)


def substring_features(s, k, lam):
    """``{u: Σ_{i: s[i] = u} λ^{span(i)}}`` by enumerating every index tuple."""
    phi = Counter()
    for idx in itertools.combinations(range(len(s)), k):
        phi["".join(s[i] for i in idx)] += lam ** (idx[-1] - idx[0] + 1)
    return phi


def substring_kernel_bruteforce(x, y, k=3, lambda_=0.5):
    """``K(x, y)`` for one pair from the explicit features (short strings only)."""
    return _dot(substring_features(x, k, lambda_), substring_features(y, k, lambda_))


def _scores(substitution):
    letters, scores = substitution
    index = {a: i for i, a in enumerate(letters)}
    scores = np.asarray(scores, dtype=np.float64)
    return lambda a, b: float(scores[index[a], index[b]])


def _logaddexp(*values):
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values))


def log_local_alignment(x, y, beta, gap_open, gap_extend, substitution):
    """``log K_LA(x, y)`` by Saigo's DP (catalogue D13) with all five tables, in log space."""
    S = _scores(substitution)
    n, m = len(x), len(y)
    NEG = -math.inf
    M = [[NEG] * (m + 1) for _ in range(n + 1)]
    X = [[NEG] * (m + 1) for _ in range(n + 1)]
    Yt = [[NEG] * (m + 1) for _ in range(n + 1)]
    X2 = [[NEG] * (m + 1) for _ in range(n + 1)]
    Y2 = [[NEG] * (m + 1) for _ in range(n + 1)]
    d, e = beta * gap_open, beta * gap_extend
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            M[i][j] = beta * S(x[i - 1], y[j - 1]) + _logaddexp(
                0.0, X[i - 1][j - 1], Yt[i - 1][j - 1], M[i - 1][j - 1])
            X[i][j] = _logaddexp(M[i - 1][j] - d, X[i - 1][j] - e)
            Yt[i][j] = _logaddexp(M[i][j - 1] - d, X[i][j - 1] - d, Yt[i][j - 1] - e)
            X2[i][j] = _logaddexp(M[i - 1][j], X2[i - 1][j])
            Y2[i][j] = _logaddexp(M[i][j - 1], X2[i][j - 1], Y2[i][j - 1])
    return _logaddexp(0.0, X2[n][m], Y2[n][m], M[n][m])


def local_alignment_kernel(X, Y=None, beta=0.5, gap_open=11, gap_extend=1, substitution=None,
                           normalize=True, log=False):
    """Local alignment kernel Gram with the semantics of the compiled one (log-space DP)."""
    def pair(x, y):
        return log_local_alignment(x, y, beta, gap_open, gap_extend, substitution)

    L = _gram(pair, X, Y)
    if normalize:
        dx = np.array([pair(z, z) for z in X])
        dy = dx if Y is None else np.array([pair(z, z) for z in Y])
        L = L - 0.5 * dx[:, None] - 0.5 * dy[None, :]
    return L / beta if log else np.exp(L)


def _local_alignments(n, m):
    """Every local alignment of lengths (n, m): increasing lists of aligned pairs (i, j)."""
    yield ()
    for size in range(1, min(n, m) + 1):
        for rows in itertools.combinations(range(n), size):
            for cols in itertools.combinations(range(m), size):
                yield tuple(zip(rows, cols))


def _alignment_score(x, y, pairs, S, gap_open, gap_extend):
    g = lambda length: 0.0 if length == 0 else gap_open + gap_extend * (length - 1)  # noqa: E731
    score = sum(S(x[i], y[j]) for i, j in pairs)
    for (i0, j0), (i1, j1) in zip(pairs, pairs[1:]):
        score -= g(i1 - i0 - 1) + g(j1 - j0 - 1)
    return score


def local_alignment_kernel_bruteforce(x, y, beta=0.5, gap_open=11, gap_extend=1,
                                      substitution=None):
    r""":math:`K_{LA}(x, y) = \sum_\pi e^{\beta s(\pi)}` by enumerating all local alignments
    (length ≤ ~6)."""
    S = _scores(substitution)
    return math.fsum(
        1.0 if not pairs else math.exp(beta * _alignment_score(x, y, pairs, S, gap_open,
                                                                gap_extend))
        for pairs in _local_alignments(len(x), len(y))
    )


def smith_waterman_score(x, y, gap_open=11, gap_extend=1, substitution=None):
    r""":math:`\max_\pi s(\pi)` over the same local alignments (the empty one scores 0): Saigo's
    DP in the (max, +) semiring."""
    S = _scores(substitution)
    n, m = len(x), len(y)
    NEG = -math.inf
    M = [[NEG] * (m + 1) for _ in range(n + 1)]
    X = [[NEG] * (m + 1) for _ in range(n + 1)]
    Yt = [[NEG] * (m + 1) for _ in range(n + 1)]
    best = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            M[i][j] = S(x[i - 1], y[j - 1]) + max(0.0, X[i - 1][j - 1], Yt[i - 1][j - 1],
                                                  M[i - 1][j - 1])
            X[i][j] = max(M[i - 1][j] - gap_open, X[i - 1][j] - gap_extend)
            Yt[i][j] = max(M[i][j - 1] - gap_open, X[i][j - 1] - gap_open,
                           Yt[i][j - 1] - gap_extend)
            best = max(best, M[i][j])
    return best
