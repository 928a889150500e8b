"""The gapped k-mer kernels of gkm-SVM (Ghandi et al. 2014) and LS-GKM (Lee 2016)."""

from dataclasses import dataclass
from itertools import combinations
from math import comb
from numbers import Integral, Real

import numpy as np
from scipy import sparse

from kernelkit._core import _gapped_kmer_gram, _gapped_kmer_masked, _spectrum_gram
from kernelkit.kernels._base import (
    ExplicitFeatureMixin,
    check_feature_columns,
    fill_gram,
    pairwise_structured_kernel,
)
from kernelkit.kernels._strings._base import ALPHABETS, StringKernel, resolve_alphabet
from kernelkit.kernels._strings._gapped_kmer_masks import (
    letter_bits,
    masked_is_cheaper,
    masked_plan,
    tile_size,
)
from kernelkit.kernels._strings._gapped_kmer_weights import center_weights, pair_weights
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT

__all__ = ["GappedKmerKernel", "gapped_kmer_kernel"]

#: kernel_type -> LS-GKM's -t value
KERNEL_TYPES = {"gkm": 0, "estimated_full": 1, "estimated_truncated": 2, "rbf": 3,
                "center_weighted": 4, "center_weighted_rbf": 5}
_COMPLEMENT = {"A": "T", "C": "G", "G": "C", "T": "A"}
#: sequences of a masked-match tile (at most): a side of the Gram's, the diagonal's
_GRAM_TILE, _DIAGONAL_TILE = 512, 256


@dataclass(frozen=True)
class GappedKmerSequences:
    """Sequences as the core reads them, with their l-mers and raw self-similarities."""

    rows: dict          # letters, offsets, window_offsets, weights, max_windows
    columns: dict       # codes, seq, weight: l-mers (and reverse complements) sorted by code
    raw_diag: np.ndarray  # (n_samples,) K(x, x) before normalisation
    # bit-packed l-mers by sequence for the masked-match core (None when l letters do not fit
    # 64 bits): "rows" the forward ones, "own" with reverse complements (packed, weights, ptr)
    masked: dict | None

    @property
    def n_samples(self):
        return self.rows["offsets"].shape[0] - 1


class GappedKmerKernel(ExplicitFeatureMixin, StringKernel):
    r"""Gapped k-mer string kernels of gkm-SVM and LS-GKM: l-mers compared up to d mismatches.

    Every kernel type is a weighted count of the pairs of l-mers of x and y by their number m
    of mismatches (the mismatch profile :math:`N_m(x, y)`):

    .. math::

        K(x, y) = \sum_{m=0}^{d} h_m N_m(x, y), \qquad
        N_m(x, y) = \sum_{i, j:\ \mathrm{Hamming}(x_i, y_j) = m} w_i w_j,

    over the l-mers :math:`x_i` of x and :math:`y_j` of y (and, with ``reverse_complement``, of
    the reverse complement of y), with position weights :math:`w` (1 except for the center
    weighted types). The kernel types (LS-GKM's ``-t`` value in brackets):

    - ``"gkm"`` [0], the gapped k-mer kernel (full filter): :math:`h_m = \binom{l-m}{k}`, the
      gapped k-mers (k informative positions of l) two l-mers at distance m share; with
      :math:`d \ge l - k` it is exactly the dot product of gapped k-mer counts.
    - ``"estimated_full"`` [1]: the dot product of the l-mer counts estimated from the gapped
      k-mer counts, :math:`\hat c = M^+ M c` (:math:`M` maps l-mer counts to gapped k-mer
      counts); :math:`h_m = f_m = |A|^{-l}\sum_{j \le k} K_j(m)` (Krawtchouk polynomials).
    - ``"estimated_truncated"`` [2, LS-GKM's default]: the same with the filter :math:`f`
      truncated at its first non-positive value, :math:`h_m = \sum_u \tilde f_{d(u,v)}
      \tilde f_{d(u,v')}` for l-mers v, v' at distance m.
    - ``"rbf"`` [3]: :math:`\exp(\gamma (\hat K(x, y) - 1))` on the cosine-normalised
      estimated-truncated kernel :math:`\hat K` (gkmrbf).
    - ``"center_weighted"`` [4] and ``"center_weighted_rbf"`` [5] (wgkm): types 2 and 3 with
      position weights decaying away from the sequence's centre,
      :math:`w_i = \min(M, \lfloor M 2^{-|c - i|/H} + 1\rfloor)`, c the middle l-mer,
      M = ``center_weight_max``, H = ``center_weight_half_life``.

    ``d`` cuts the sum at d mismatches (:math:`h_m = 0` for m > d). With
    ``reverse_complement`` (DNA only) an l-mer and its reverse complement are one feature:
    :math:`K(x, y) = \frac12\langle\phi(x) + \phi(\bar x), \phi(y) + \phi(\bar y)\rangle`,
    which is LS-GKM's sum over the l-mers of x against those of y and of :math:`\bar y`.
    LS-GKM always normalises (``normalize=True`` here by default). An RBF type is computed on
    the normalised features :math:`\psi = \phi/\|\phi\|`, as
    :math:`\exp(-\frac\gamma2\|\psi(x) - \psi(y)\|^2)`, so its diagonal is 1 and
    ``normalize`` changes nothing.

    A sequence shorter than l has no l-mer: :math:`\phi = 0`, its Gram entries are 0 (its
    RBF entries :math:`\exp(-\gamma/2)`, 1 with itself or another such sequence). Empty
    strings are refused, as by every string kernel. The estimated filters are computed for
    the alphabet's size :math:`|A|` (4 for DNA, as in LS-GKM): with ``alphabet=None`` and
    ``reverse_complement=False`` that size, so every value of the estimated types, depends on
    the letters of the training sequences; give the alphabet for values that do not.

    The mismatch profile is counted in one of two ways, whichever a cost estimate (the work
    of each for random letters: sort steps and products against trie steps) says is cheaper;
    both give the same integers, so the same values bit for bit. *Masked matches*: for a set
    F of j free positions, the pairs of l-mers equal outside F, summed over the
    :math:`\binom lj` sets F, count a pair at distance m :math:`\binom{l-m}{j-m}` times,
    :math:`M_j = \sum_{m \le j} \binom{l-m}{j-m} N_m` (triangular with a unit diagonal, so
    :math:`N_0..N_d` follow exactly from :math:`M_0..M_d`; the ``gkm`` type with
    :math:`d = l - k` is :math:`M_{l-k}` alone); the Gram is cut into tiles of sequences,
    whose l-mers are sorted by masked code for every F and paired within a code, in exact
    integers. *The trie walk* of LS-GKM, which carries a row's l-mers down the trie of the
    training l-mers and drops those past d mismatches, stays the cheaper for many masks
    (large d, 20 letters) or few sequences; an l-mer must also fit 64 bits packed
    (:math:`\lceil \log_2 |A| \rceil l \le 64`) for the masked path. Memory is linear in the
    total length (plus the Gram and, per thread, one tile). Measured on a quiet machine
    (2 threads, 300 bp, l = 11, k = 7, reverse complements, normalised): at n = 2 000 the
    masked path takes 5–6 µs per Gram entry (``"estimated_truncated"``, d = 3) and 7 µs
    (``"gkm"``, d = 4), against 90–115 µs for gkmsvm-lite (timed at n = 400: it compares
    every pair of l-mers, so its cost per entry does not fall with n); the trie walk took
    77 µs and 345 µs (n = 2 000, a loaded machine).

    Parameters
    ----------
    l : int, default=11
        Length of the l-mers, ≥ 1, with :math:`|A|^l < 2^{63}`.
    k : int, default=7
        Informative positions of a gapped k-mer, 1 ≤ k ≤ l.
    d : int, default=3
        Largest number of mismatches counted, 0 ≤ d ≤ l.
    kernel_type : str, default="estimated_truncated"
        One of "gkm", "estimated_full", "estimated_truncated", "rbf", "center_weighted",
        "center_weighted_rbf" (above).
    gamma : float, default=1.0
        γ of the RBF types (> 0).
    center_weight_max : int, default=50
        M of the center weighted types, 1..255 (LS-GKM's ``-M``).
    center_weight_half_life : float, default=50.0
        H of the center weighted types, > 0 (LS-GKM's ``-H``).
    reverse_complement : bool, default=True
        Count an l-mer and its reverse complement as one feature (LS-GKM's default; ``-R``
        turns it off). Needs DNA: the alphabet "dna" or letters among ACGT, else ValueError.
    alphabet : str or None, default=None
        ``None`` infers the letters from the training sequences ("ACGT" with
        ``reverse_complement``); "dna", "protein", or a string of distinct letters.
    unknown : {"error", "skip"}, default="error"
        Letters outside the alphabet raise a ValueError, or are removed from their sequence.
    normalize : bool, default=True
        Cosine normalisation :math:`K(x, y)/\sqrt{K(x, x)K(y, y)}`.
    n_jobs : int or None, default=None
        Threads. Results do not depend on it.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    alphabet_ : str
    X_fit_ : GappedKmerSequences
        The training sequences' l-mers.
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``K(x, x)`` (when ``normalize``).

    See Also
    --------
    MismatchKernel : k-mers counted up to m substitutions.
    SpectrumKernel : exact k-mer counts.

    References
    ----------
    M. Ghandi, D. Lee, M. Mohammad-Noori, M. A. Beer, "Enhanced regulatory sequence prediction
    using gapped k-mer features", PLoS Computational Biology 10(7):e1003711, 2014. D. Lee,
    "LS-GKM: a new gkm-SVM for large-scale datasets", Bioinformatics 32(14):2196–2198, 2016.
    Mairal & Vert, *Kernel Methods*, "String kernels" (spectrum and mismatch kernels).

    Examples
    --------
    >>> from kernelkit.kernels import GappedKmerKernel
    >>> kernel = GappedKmerKernel(l=3, k=2, d=1, kernel_type="gkm", reverse_complement=False,
    ...                           normalize=False)
    >>> kernel.fit_transform(["ACGT", "ACGA"])
    array([[6., 4.],
           [4., 6.]])
    """

    _feature_columns = r"""For ``kernel_type="gkm"`` with ``d >= l - k`` only (the other
    types weigh l-mer pairs, not shared features). Column :math:`s |A|^k + c` counts the
    gapped k-mer with informative positions :math:`P_s` (the s-th k-subset of the l positions
    in lexicographic order, counted from 0) and letters :math:`a_1 \dots a_k` (indices into
    ``alphabet_``), :math:`c = \sum_t a_t |A|^{k-t}`, over the l-mers of x; with
    ``reverse_complement`` the counts of x and of its reverse complement are added and divided
    by :math:`\sqrt 2`. :math:`\binom lk |A|^k` columns, so
    :math:`\Phi(x) \cdot \Phi(y) = K(x, y)`. Measured on a loaded machine (300 bp, no
    reverse complements, n = 300), these features and a SciPy sparse product gave the Gram
    about 2.6× faster than the trie walk of ``transform``."""

    _parameter_constraints = {
        **StringKernel._parameter_constraints,
        "l": [Interval(Integral, 1, MAX_INT, closed="left")],
        "k": [Interval(Integral, 1, MAX_INT, closed="left")],
        "d": [Interval(Integral, 0, MAX_INT, closed="left")],
        "kernel_type": [StrOptions(set(KERNEL_TYPES))],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "center_weight_max": [Interval(Integral, 1, 255, closed="both")],
        "center_weight_half_life": [Interval(Real, 0, None, closed="neither")],
        "reverse_complement": ["boolean"],
    }

    def __init__(self, l=11, k=7, d=3, *, kernel_type="estimated_truncated", gamma=1.0,
                 center_weight_max=50, center_weight_half_life=50.0, reverse_complement=True,
                 alphabet=None, unknown="error", normalize=True, n_jobs=None, verbose=0):
        self.l = l
        self.k = k
        self.d = d
        self.kernel_type = kernel_type
        self.gamma = gamma
        self.center_weight_max = center_weight_max
        self.center_weight_half_life = center_weight_half_life
        self.reverse_complement = reverse_complement
        self.alphabet = alphabet
        self.unknown = unknown
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_lengths(self):
        if self.k > self.l:
            raise ValueError(f"k={self.k} must be at most l={self.l}: a gapped k-mer takes k "
                             "of the l positions of an l-mer.")
        if self.d > self.l:
            raise ValueError(f"d={self.d} must be at most l={self.l}: two l-mers differ in at "
                             "most l positions.")

    def _fit_alphabet(self, sequences):
        alphabet = resolve_alphabet(self.alphabet, sequences)
        if self.reverse_complement:
            if not set(alphabet) <= set(ALPHABETS["dna"]):
                raise ValueError(
                    f"reverse_complement=True needs DNA over the letters ACGT, but the alphabet "
                    f"is {alphabet!r}; pass reverse_complement=False for other sequences.")
            alphabet = ALPHABETS["dna"]
        # l > 62 first: the power of a huge l would take long to compute
        if self.l > 62 or max(len(alphabet), 2) ** self.l >= 2**63:
            raise ValueError(f"l={self.l} is too long for {len(alphabet)} letters: l-mers are "
                             "coded as 64-bit integers (|A|^l < 2^63); lower l.")
        return alphabet

    def _check_batch(self, batch):
        longest = int(batch.lengths.max())
        if self.l > longest:
            raise ValueError(f"l={self.l} is longer than every training sequence (the longest "
                             f"has {longest} letters), so every Gram entry would be 0; lower l.")

    def _params(self):
        n_letters = len(self.alphabet_)
        lmer_type = {"rbf": "estimated_truncated", "center_weighted": "estimated_truncated",
                     "center_weighted_rbf": "estimated_truncated"}.get(self.kernel_type,
                                                                      self.kernel_type)
        powers = np.array([n_letters**t for t in range(self.l + 1)], dtype=np.uint64)
        return {"l": self.l, "d": min(self.d, self.l), "n_letters": n_letters,
                "powers": powers,
                "h": pair_weights(lmer_type, self.l, self.k, self.d, n_letters)}

    def _window_weights(self, n_windows):
        if not self.kernel_type.startswith("center_weighted"):
            return np.ones(int(n_windows.sum()), dtype=np.int32)
        # one weight vector per distinct number of l-mers (sequences often share a length)
        by_count = {int(n): center_weights(int(n), self.center_weight_max,
                                           self.center_weight_half_life)
                    for n in np.unique(n_windows)}
        parts = [by_count[int(n)] for n in n_windows]
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.int32)

    def _lmers(self, codes, offsets, n_windows, window_offsets, weights):
        """Codes of every l-mer window (base |A|, first letter most significant), their
        sequences, weights and bit-packed codes (``letter_bits`` bits a letter, or None)."""
        bases = [len(self.alphabet_)]
        if self._packs():
            bases.append(1 << letter_bits(len(self.alphabet_)))
        windows = []
        for base in bases:
            windows.append(np.empty(int(window_offsets[-1]), dtype=np.uint64))
            _spectrum_gram.kmer_codes(codes, offsets, self.l, np.uint64(base), window_offsets,
                                      windows[-1], self._n_threads())
        seq = np.repeat(np.arange(offsets.shape[0] - 1, dtype=np.intp), n_windows)
        return windows[0], seq, weights, windows[1] if len(windows) > 1 else None

    def _packs(self):
        """Whether an l-mer fits 64 bits packed, as the masked-match core reads it."""
        return letter_bits(len(self.alphabet_)) * self.l <= 64

    def _reverse_complements(self, codes, offsets):
        """Letter codes of the reverse complement of each sequence."""
        lengths = np.diff(offsets)
        position = np.arange(codes.shape[0])
        mirror = np.repeat(offsets[:-1] + offsets[1:] - 1, lengths) - position
        complement = np.array([self.alphabet_.index(_COMPLEMENT[a]) for a in self.alphabet_],
                              dtype=np.int32)
        return complement[codes[mirror]]

    def _prepare(self, X, fitting):
        if fitting:
            self._check_lengths()
        batch = super()._prepare(X, fitting)
        n_windows = np.maximum(batch.lengths - self.l + 1, 0)
        window_offsets = np.zeros(batch.n_samples + 1, dtype=np.intp)
        np.cumsum(n_windows, out=window_offsets[1:])
        weights = self._window_weights(n_windows)
        rows = {"letters": batch.codes, "offsets": batch.offsets,
                "window_offsets": window_offsets, "weights": weights,
                "max_windows": int(n_windows.max())}
        parts = [self._lmers(batch.codes, batch.offsets, n_windows, window_offsets, weights)]
        rows["lmer_codes"] = parts[0][0]
        masked_rows = {"packed": parts[0][3], "weights": weights, "ptr": window_offsets}
        if self.reverse_complement:
            # the l-mer of the reverse complement at j is that of x at n − 1 − j, reversed
            mirror = (np.repeat(window_offsets[:-1] + window_offsets[1:] - 1, n_windows)
                      - np.arange(weights.shape[0]))
            parts.append(self._lmers(self._reverse_complements(batch.codes, batch.offsets),
                                     batch.offsets, n_windows, window_offsets,
                                     weights[mirror]))
        codes, seq, weight = (np.concatenate(p) for p in list(zip(*parts))[:3])
        own_order = np.lexsort((codes, seq))
        own = {"codes": codes[own_order], "seq": seq[own_order], "weight": weight[own_order],
               "ptr": np.searchsorted(seq[own_order], np.arange(batch.n_samples + 1))}
        masked = None
        if masked_rows["packed"] is not None:
            packed = np.concatenate([p[3] for p in parts])
            masked = {"rows": masked_rows, "own": {
                "packed": packed[own_order], "weights": own["weight"], "ptr": own["ptr"]}}
        raw_diag = np.empty(batch.n_samples, dtype=np.float64)
        plan = self._masked_plan(masked, n_windows, np.diff(own["ptr"]), _DIAGONAL_TILE,
                                 _DIAGONAL_TILE, diagonal=True)
        if plan is not None:
            _gapped_kmer_masked.masked_diagonal(masked["rows"], masked["own"], plan, raw_diag,
                                                self._n_threads())
        else:
            _gapped_kmer_gram.gapped_kmer_diagonal(rows, own, self._params(), raw_diag,
                                                   self._n_threads())
        order = np.argsort(codes, kind="stable")
        columns = {"codes": codes[order], "seq": seq[order], "weight": weight[order]}
        columns.update(self._prefix_table(columns["codes"]))
        return GappedKmerSequences(rows, columns, raw_diag, masked)

    def _masked_plan(self, masked, row_lmers, col_lmers, tile_rows, tile_cols, diagonal):
        """The masked-match core's plan, or None when the trie walk is estimated cheaper
        (or the l-mers are not packed)."""
        if masked is None:
            return None
        params = self._params()
        plan = masked_plan(self.l, params["d"], params["h"], len(self.alphabet_), tile_rows,
                           tile_cols)
        max_weight = (self.center_weight_max if self.kernel_type.startswith("center_weighted")
                      else 1)
        cheaper = masked_is_cheaper(plan, len(self.alphabet_), row_lmers, col_lmers,
                                    max_weight, diagonal)
        return plan if cheaper else None

    def _prefix_table(self, codes):
        """The first entry of every prefix of the first levels of the l-mer trie: as many
        levels as the entries fill (at most one slot per entry, plus one level)."""
        n_letters = len(self.alphabet_)
        depth = 0
        while depth < self.l and n_letters ** (depth + 1) <= 2 * max(codes.shape[0], 1):
            depth += 1
        if depth == 0:
            return {}
        bounds = np.arange(n_letters**depth + 1, dtype=np.uint64) * np.uint64(
            n_letters ** (self.l - depth))
        # the last bound, |A|^l, is past every code
        starts = np.searchsorted(codes, bounds[:-1], side="left").astype(np.intp)
        return {"prefix_start": np.append(starts, codes.shape[0]), "prefix_depth": depth}

    def _gram(self, A, B=None):
        other = A if B is None else B
        params = self._params()
        n_threads = self._n_threads()
        strands = 2 if self.reverse_complement else 1
        tile_rows, tile_cols = tile_size(A.n_samples, other.n_samples, n_threads, _GRAM_TILE)
        plan = self._masked_plan(A.masked, np.diff(A.rows["window_offsets"]),
                                 strands * np.diff(other.rows["window_offsets"]), tile_rows,
                                 tile_cols, diagonal=False)

        def fill_rows(out, start, stop):
            if plan is not None:
                _gapped_kmer_masked.masked_gram(A.masked["rows"], other.masked["own"], plan,
                                                out, start, stop, B is None, n_threads)
            else:
                _gapped_kmer_gram.gapped_kmer_gram(A.rows, other.columns, params, out, start,
                                                   stop, n_threads)
        K = fill_gram(fill_rows, A.n_samples, other.n_samples, plan is not None and B is None,
                      self.verbose, "GappedKmerKernel")
        if self.kernel_type.endswith("rbf"):
            K = self._rbf(K, A.raw_diag, other.raw_diag)
        return K

    def _rbf(self, K, diag_rows, diag_cols):
        """:math:`\\exp(-\\gamma/2 \\|\\psi(x) - \\psi(y)\\|^2)` on the unit-norm features
        (ψ = 0 for a sequence without l-mers)."""
        scale_rows = np.where(diag_rows > 0, 1.0 / np.sqrt(np.where(diag_rows > 0, diag_rows,
                                                                     1.0)), 0.0)
        scale_cols = np.where(diag_cols > 0, 1.0 / np.sqrt(np.where(diag_cols > 0, diag_cols,
                                                                     1.0)), 0.0)
        cosine = K * (scale_rows[:, None] * scale_cols[None, :])
        norms = (diag_rows > 0).astype(np.float64)[:, None] + (diag_cols > 0)[None, :]
        squared_distance = np.maximum(norms - 2.0 * cosine, 0.0)
        return np.exp(-0.5 * self.gamma * squared_distance)

    def _self_similarity(self, A):
        if self.kernel_type.endswith("rbf"):
            return np.ones(A.n_samples)
        return A.raw_diag

    def _check_feature_space(self):
        if self.kernel_type != "gkm" or self.d < self.l - self.k:
            raise ValueError(
                f"explicit features are given for kernel_type='gkm' with d >= l - k only "
                f"(kernel_type={self.kernel_type!r}, d={self.d}, l - k = {self.l - self.k}): the "
                "other kernels weigh pairs of l-mers, not shared gapped k-mers; compute the "
                "kernel with transform instead.")
        n_letters = len(self.alphabet_)
        check_feature_columns(
            comb(self.l, self.k) * n_letters**self.k,
            f"GappedKmerKernel(l={self.l}, k={self.k}) explicit features over {n_letters} "
            f"letters (C(l, k) |A|^k gapped k-mers)",
            "lower k or l; the kernel itself (transform, fit_transform) needs no explicit "
            "features.")

    def _feature_matrix(self, rep):
        rows = rep.rows
        n_windows = np.diff(rows["window_offsets"])
        strands = [rows["letters"]]
        if self.reverse_complement:
            strands.append(self._reverse_complements(rows["letters"], rows["offsets"]))
        # each window's first letter, in the concatenated letters of either strand
        starts = (np.repeat(rows["offsets"][:-1] - rows["window_offsets"][:-1], n_windows)
                  + np.arange(int(rows["window_offsets"][-1])))
        n_letters = len(self.alphabet_)
        place = n_letters ** np.arange(self.k - 1, -1, -1, dtype=np.int64)
        columns = [s * n_letters**self.k + strand[starts[:, None] + np.array(P)] @ place
                   for s, P in enumerate(combinations(range(self.l), self.k))
                   for strand in strands]
        columns = np.concatenate(columns) if columns else np.empty(0, dtype=np.int64)
        row_of = np.tile(np.repeat(np.arange(rep.n_samples), n_windows),
                         comb(self.l, self.k) * len(strands))
        value = 1.0 / np.sqrt(len(strands))
        return sparse.csr_array(
            (np.full(columns.shape[0], value), (row_of, columns)),
            shape=(rep.n_samples, comb(self.l, self.k) * n_letters**self.k))


def gapped_kmer_kernel(X, Y=None, l=11, k=7, d=3, normalize=True, **params):
    """Gapped k-mer kernel Gram matrix ``K(X, Y)`` (``K(X, X)`` if Y is None).

    Function form of :class:`GappedKmerKernel`; ``params`` are its other parameters.

    Examples
    --------
    >>> from kernelkit.kernels import gapped_kmer_kernel
    >>> gapped_kmer_kernel(["ACGT"], ["ACGA"], l=3, k=2, d=1, kernel_type="gkm",
    ...                    reverse_complement=False, normalize=False)
    array([[4.]])
    """
    return pairwise_structured_kernel(
        GappedKmerKernel(l=l, k=k, d=d, normalize=normalize, **params), X, Y)
