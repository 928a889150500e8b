"""The gappy pair kernel (Kuksa, Huang & Pavlovic 2008): pairs of k-mers with a gap of up to g
letters between them, as a sparse k-mer-spectrum-like count product."""

from numbers import Integral

import numpy as np

from kernelkit._core import _spectrum_gram
from kernelkit.kernels._base import (
    ExplicitFeatureMixin,
    check_feature_columns,
    pairwise_structured_kernel,
)
from kernelkit.kernels._strings._base import StringKernel
from kernelkit.kernels._strings._kmers import (
    _HASH_MULTIPLIER,
    kmer_code_base,
    kmer_gram,
    run_length_spectra,
    spectra_features,
    squared_norms,
)
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["GappyPairKernel", "gappy_pair_kernel", "gappy_pair_spectra"]


def gappy_pair_spectra(batch, k, g, n_threads):
    """Sparse gappy pair counts of a :class:`SequenceBatch`.

    The pair (u, m, v) — k-mer u, then m = 0..g letters, then k-mer v — is coded as
    ``(m B + c(u)) B + c(v)`` with ``B = |A|^k`` and c the exact k-mer code, a bijection onto
    ``[0, (g + 1)|A|^{2k})`` while that is below 2^64; beyond, B is a fixed odd 64-bit multiplier
    and the code a polynomial hash (mod 2^64) of the k-mers' codes, which are hashed themselves
    when ``|A|^k ≥ 2^64``: distinct pairs then collide with probability about 2^-64.

    Returns
    -------
    spectra : KmerSpectra
    """
    n_letters = len(batch.alphabet)
    base, exact = kmer_code_base(n_letters, k)
    exact = exact and (g + 1) * n_letters ** (2 * k) < 2**64
    lengths = batch.lengths
    n_windows = np.maximum(lengths - k + 1, 0)
    window_offsets = np.zeros(batch.n_samples + 1, dtype=np.intp)
    np.cumsum(n_windows, out=window_offsets[1:])
    # pairs with gap m in a sequence of length n: n − 2k − m + 1 (none past the longest gap)
    widest = max(min(g, int(lengths.max()) - 2 * k), -1)
    n_pairs = np.maximum(lengths[:, None] - 2 * k - np.arange(widest + 1) + 1, 0)
    pair_offsets = np.zeros(batch.n_samples + 1, dtype=np.intp)
    np.cumsum(n_pairs.sum(axis=1), out=pair_offsets[1:])
    check_memory_request(40 * int(pair_offsets[-1]),
                         f"the gappy pair spectra with k={k}, g={g} of {batch.n_samples} "
                         f"sequences ({pair_offsets[-1]} pairs)",
                         "lower g (each sequence holds about (g + 1) pairs per letter).")
    windows = np.empty(window_offsets[-1], dtype=np.uint64)
    _spectrum_gram.kmer_codes(batch.codes, batch.offsets, k, np.uint64(base), window_offsets,
                              windows, n_threads)
    scale = n_letters**k if exact else _HASH_MULTIPLIER
    codes = np.empty(pair_offsets[-1], dtype=np.uint64)
    sequence = np.repeat(np.arange(batch.n_samples), n_windows)
    start = window_offsets[:-1][sequence]
    position = np.arange(windows.shape[0]) - start    # of each window in its sequence
    before = pair_offsets[:-1].copy()                 # start of each sequence's block of gap m
    for m in range(widest + 1):
        has_pair = position < n_pairs[sequence, m]
        left = np.flatnonzero(has_pair)
        # arithmetic mod 2^64: NumPy's uint64 arrays wrap (Python ints for the scalar product)
        gap_term = np.uint64(m * scale % 2**64)
        gapped = (windows[left] + gap_term) * np.uint64(scale) + windows[left + k + m]
        codes[before[sequence[left]] + position[left]] = gapped
        before += n_pairs[:, m]
    return run_length_spectra(codes, pair_offsets, exact, n_threads)


class GappyPairKernel(ExplicitFeatureMixin, StringKernel):
    r"""Gappy pair kernel: counts of pairs of k-mers separated by a gap of 0 to g letters.

    :math:`\Phi_{(u, m, v)}(x)` is the number of positions i with :math:`x_{i..i+k-1} = u` and
    :math:`x_{i+k+m..i+2k+m-1} = v`, for k-mers u, v and gap lengths m = 0..g, and
    :math:`k(x, y) = \sum_{(u, m, v)} \Phi_{(u, m, v)}(x) \Phi_{(u, m, v)}(y)`: a spectrum kernel
    over :math:`(g + 1)|A|^{2k}` features, so positive semi-definite. The gap length is part of
    the feature (the sparse spatial sample kernel of Kuksa, Huang & Pavlovic with two samples,
    and KeBABS' ``gappyPairKernel``): the same two k-mers at another distance are another
    feature. With g = 0 it is the spectrum kernel of the 2k-mers.

    Each sequence's pairs are coded as 64-bit integers (exact while
    :math:`(g + 1)|A|^{2k} < 2^{64}`, else hashed), sorted and counted; the Gram is the
    inverted-index sparse product of :class:`SpectrumKernel`, whose cost is the number of shared
    features, or the merge-join of the sorted lists.

    Parameters
    ----------
    k : int, default=2
        Length of each of the two k-mers, ≥ 1.
    g : int, default=3
        Largest gap between them, in letters, ≥ 0.
    alphabet : str or None, default=None
        ``None`` infers the letters from the training sequences; ``"protein"``, ``"dna"``, or a
        string of distinct letters.
    unknown : {"error", "skip"}, default="error"
        Letters outside the alphabet raise a ValueError, or are removed from their sequence.
        With ``alphabet=None`` the alphabet is the training sequences' letters, so which
        letters are removed, and so the kernel's values, depend on the training set; give
        the alphabet to make them independent of it.
    algorithm : {"sparse", "merge"}, default="sparse"
        Gram algorithm (same values): the inverted-index sparse product, or a merge-join of the
        sorted feature lists of every pair (see :class:`SpectrumKernel`).
    normalize : bool, default=False
        Cosine normalisation.
    n_jobs : int or None, default=None
        Threads. Results do not depend on it.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    alphabet_ : str
    X_fit_ : KmerSpectra
        Sparse pair counts of the training sequences.
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(x, x)`` (when ``normalize``).

    Notes
    -----
    strkernel 0.2 (``strkernel.gappy_kernel.gappypair_kernel``, default ``gapDifferent=True``)
    counts the gapped pairs (m ≥ 1) at a start i only when ``i + 2k + g + 1 < len(x)``: it drops
    every gapped pair of the last g + 2 starts, including those that fit (for "ACGT", k = 1,
    g = 1, it misses A_G and C_T). It also reads every sequence as DNA (its ``t`` argument is not
    passed on), so protein letters are coded as -1 and land on wrong features, and with g = 0 it
    returns the spectrum of the k-mers, not of the pairs. For g ≥ 1 its gap-0 features and its
    other gapped pairs equal these (checked in the tests); with ``gapDifferent=False`` it pools
    the gap lengths into one feature, another kernel. Its trie version
    (``strkernel.gappy_trie``) fails to import with NumPy ≥ 1.24 (a ragged ``np.array``).

    See Also
    --------
    SpectrumKernel : contiguous k-mers.
    WeightedDegreeKernel : positional d-mers of aligned sequences.

    References
    ----------
    P. Kuksa, P.-H. Huang, V. Pavlovic, "A fast, large-scale learning method for protein sequence
    classification", 8th International Workshop on Data Mining in Bioinformatics (BIOKDD), 2008.
    J. Palme, S. Hochreiter, U. Bodenhofer, "KeBABS: an R package for kernel-based analysis of
    biological sequences", Bioinformatics 31(15):2574–2576, 2015. Mairal & Vert, *Kernel
    Methods*, "Spectrum kernel (1/2), (2/2)".

    Examples
    --------
    >>> from kernelkit.kernels import GappyPairKernel
    >>> GappyPairKernel(k=1, g=1).fit_transform(["ACGT", "ACAT", "TTTT"])
    array([[ 5.,  2.,  0.],
           [ 2.,  5.,  0.],
           [ 0.,  0., 13.]])
    """

    _feature_columns = r"""Column :math:`(m |A|^k + c(u)) |A|^k + c(v)` counts the pair
    (u, m, v), with :math:`c(u) = \sum_t a_t |A|^{k-t}` (the letters :math:`a_1 \dots a_k` of
    u as indices into ``alphabet_``): :math:`(g + 1)|A|^{2k}` columns whatever was fitted, so
    :math:`\Phi(x) \cdot \Phi(y) = k(x, y)` for any two sequences over the alphabet. A
    feature space too wide to use is refused before any work, naming what to lower (k, g, the
    alphabet)."""

    _refit_free_params = StringKernel._refit_free_params | {"algorithm"}

    _parameter_constraints = {
        **StringKernel._parameter_constraints,
        "k": [Interval(Integral, 1, MAX_INT, closed="left")],
        "g": [Interval(Integral, 0, MAX_INT, closed="left")],
        "algorithm": [StrOptions({"merge", "sparse"})],
    }

    def __init__(self, k=2, g=3, *, alphabet=None, unknown="error", algorithm="sparse",
                 normalize=False, n_jobs=None, verbose=0):
        self.k = k
        self.g = g
        self.alphabet = alphabet
        self.unknown = unknown
        self.algorithm = algorithm
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_batch(self, batch):
        longest = int(batch.lengths.max())
        if 2 * self.k > longest:
            raise ValueError(
                f"2k={2 * self.k} is longer than every training sequence (the longest has "
                f"{longest} letters), so every gappy pair spectrum would be empty."
            )

    def _prepare(self, X, fitting):
        batch = super()._prepare(X, fitting)
        return gappy_pair_spectra(batch, self.k, self.g, self._n_threads())

    def _n_codes(self):
        """``(g + 1)|A|^{2k}``, the number of features."""
        return (self.g + 1) * len(self.alphabet_) ** (2 * self.k)

    def _gram(self, A, B=None):
        # kmer_gram sizes its table of feature ids by n_letters**k: the pairs are the words of
        # length 1 over an "alphabet" of n_codes features
        return kmer_gram(A, B, self._n_codes(), 1, self.algorithm, self._n_threads(), self.verbose,
                         "GappyPairKernel")

    def _self_similarity(self, A):
        return squared_norms(A)

    def _check_feature_space(self):
        n_letters = len(self.alphabet_)
        check_feature_columns(
            self._n_codes(),
            f"GappyPairKernel(k={self.k}, g={self.g}) explicit features over {n_letters} "
            f"letters ((g + 1)|A|^2k = {self.g + 1}·{n_letters}^{2 * self.k} pairs)",
            "lower k or g, or give a smaller alphabet; the kernel itself (transform, "
            "fit_transform) needs no explicit features.")

    def _feature_matrix(self, spectra):
        return spectra_features(spectra, self._n_codes())


def gappy_pair_kernel(X, Y=None, k=2, g=3, normalize=False, **params):
    """Gappy pair kernel Gram matrix ``K(X, Y)`` of shape ``(n_X, n_Y)`` (``K(X, X)`` if Y is
    None).

    Function form of :class:`GappyPairKernel`; ``params`` are its other parameters.

    Examples
    --------
    >>> from kernelkit.kernels import gappy_pair_kernel
    >>> gappy_pair_kernel(["ACGTAC"], ["ACTTAC"], k=1, g=2)
    array([[9.]])
    """
    return pairwise_structured_kernel(
        GappyPairKernel(k=k, g=g, normalize=normalize, **params), X, Y
    )
