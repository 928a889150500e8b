"""The local alignment kernel (Saigo, Vert, Ueda & Akutsu 2004)."""

import math
import warnings
from numbers import Real

import numpy as np

from kernelkit._core import _local_alignment_dp
from kernelkit.kernels._base import fill_gram, pairwise_structured_kernel
from kernelkit.kernels._strings._base import StringKernel
from kernelkit.utils._sklearn_compat import Interval

__all__ = ["LocalAlignmentKernel", "local_alignment_kernel"]

# Largest finite log of a float64: exp of anything above overflows.
_LOG_MAX_FLOAT = math.log(np.finfo(np.float64).max)
# A normalised kernel value below this (the diagonal is 1) is nothing to any solver: a sequence
# whose every other value lies below it is, to a kernel machine, similar only to itself.
_LOG_NEGLIGIBLE = math.log(1e-8)


def _substitution_matrix(substitution):
    """``(letters, scores)`` from ``"blosum62"`` or a ``(letters, scores)`` pair, validated."""
    if isinstance(substitution, str):
        if substitution.lower() != "blosum62":
            raise ValueError(
                "substitution must be 'blosum62' or a (letters, scores) pair, got "
                f"{substitution!r}."
            )
        from kernelkit.datasets import load_blosum62

        return load_blosum62()
    try:
        letters, scores = substitution
    except (TypeError, ValueError):
        raise TypeError(
            "substitution must be 'blosum62' or a (letters, scores) pair: a string of n distinct "
            "letters and an (n, n) symmetric array of scores."
        ) from None
    if not isinstance(letters, str) or len(set(letters)) != len(letters) or not letters:
        raise ValueError(
            "the letters of the substitution matrix must be a string of distinct letters."
        )
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape != (len(letters), len(letters)):
        raise ValueError(
            f"substitution scores have shape {scores.shape}; expected ({len(letters)}, "
            f"{len(letters)}) for the letters {letters!r}."
        )
    if not np.isfinite(scores).all():
        raise ValueError("substitution scores must be finite.")
    if not np.array_equal(scores, scores.T):
        raise ValueError("substitution scores must be symmetric, or the kernel would not be.")
    return letters, scores


class LocalAlignmentKernel(StringKernel):
    r"""Local alignment kernel: a sum over all local alignments, :math:`\sum_\pi e^{\beta s(\pi)}`.

    :math:`K_{LA}(x, y) = \sum_\pi \exp(\beta s_{S,g}(x, y, \pi))` over every local alignment
    :math:`\pi` of x and y (including the empty one), with substitution scores :math:`S` and affine
    gap costs :math:`g(n) = d + e(n - 1)` paid for the gap in each sequence between consecutive
    aligned pairs. Unlike the Smith–Waterman score :math:`\max_\pi s(\pi)`, which is not a kernel,
    :math:`K_{LA}` is positive definite (Mairal & Vert, "LA kernel is p.d.").

    Computed by Saigo's dynamic programme in Cython, O(|x| |y|) per pair, in rescaled linear
    arithmetic (rows multiplied by powers of two and the exponent tracked), so sequences of
    thousands of letters neither overflow nor lose precision, at about ten flops per DP cell.
    :math:`K_{LA}` itself grows like :math:`\exp(\beta\, \mathrm{SW}(x, y))` and overflows float64
    for long similar sequences
    (e.g. a 400-letter protein against itself): hence ``normalize=True`` by default, which is
    done in log space; ``normalize=False`` raises if a value overflows.

    Parameters
    ----------
    beta : float, default=0.5
        Inverse temperature, > 0. As :math:`\beta` grows, :math:`\frac1\beta \log K_{LA}` tends to
        the Smith–Waterman score. :math:`\beta \cdot (\max(S, 0) - \min(S, 0) + d + e)` (:math:`d`
        = ``gap_open``, :math:`e` = ``gap_extend``) must stay below about 680.

        How to choose it: the normalised kernel is about
        :math:`\exp(-\beta\,[\tfrac12(\mathrm{SW}(x, x) + \mathrm{SW}(y, y)) - \mathrm{SW}(x, y)])`,
        and that Smith–Waterman score gap grows with the sequence length (about 5 per letter
        of an unrelated pair under BLOSUM62). Take :math:`\beta` so that :math:`\beta` times
        the gap is a few units, i.e. :math:`\beta` of the order of :math:`1 / (\text{score
        per letter} \times \text{length})`: about 0.05 for peptides of 10–20 letters, smaller
        for proteins of hundreds. Saigo et al. (2004) keep :math:`\beta \approx 0.5` with the
        ``log=True`` variant, which keeps the differences instead. A too large :math:`\beta`
        makes the normalised Gram numerically the identity (every sequence similar only to
        itself; a kernel machine then predicts the majority class): ``fit_transform`` warns
        when most sequences (half or more) have no off-diagonal entry reaching
        :math:`10^{-8}`.
    gap_open : float, default=11
        Cost :math:`d \ge 0` of a gap of length 1.
    gap_extend : float, default=1
        Cost :math:`e \ge 0` of each further position of a gap.
    substitution : "blosum62" or (str, array-like), default="blosum62"
        BLOSUM62 (shipped, 20 amino acids plus B, Z, X, *), or a pair ``(letters, scores)``: a
        string of n distinct letters and an (n, n) symmetric score matrix. Its letters are the
        alphabet.
    log : bool, default=False
        Return :math:`\frac1\beta \log K_{LA}` (normalised: :math:`\frac1\beta \log` of the
        normalised kernel), the
        practical variant of Saigo et al. This matrix is **not** guaranteed positive definite;
        use :func:`kernelkit.kernels.shift_to_psd` on the training Gram before a kernel machine.
    unknown : {"error", "skip"}, default="error"
        Letters outside the substitution matrix raise a ValueError, or are removed.
    normalize : bool, default=True
        Cosine normalisation :math:`K(x, y) / \sqrt{K(x, x) K(y, y)}`, computed in log space.
    n_jobs : int or None, default=None
        Threads. Results do not depend on it.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    alphabet_ : str
        The letters of the substitution matrix.
    substitution_scores_ : ndarray of shape (n_letters, n_letters)
    X_fit_ : SequenceBatch
        Integer-coded training sequences.
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``log K_LA(x, x)`` of the training sequences (when ``normalize``).

    See Also
    --------
    SpectrumKernel : much faster, alignment-free.
    kernelkit.kernels.shift_to_psd : make the ``log=True`` Gram usable.

    References
    ----------
    Mairal & Vert (Mairal & Vert, *Kernel Methods* slides), "Local alignment kernel (Saigo et al.,
    2004)", "LA kernel is p.d.: proof (1/2), (2/2)" (the course adds the gap costs in K_g, a sign
    slip: they are subtracted here, :math:`\exp(-\beta (g(|x|) + g(|y|)))`, and the
    :math:`n = 0` term is the empty
    alignment, weight 1). H. Saigo, J.-P. Vert, N. Ueda, T. Akutsu, "Protein homology detection
    using string alignment kernels", Bioinformatics 20(11):1682–1689, 2004.

    Examples
    --------
    >>> from kernelkit.kernels import LocalAlignmentKernel
    >>> K = LocalAlignmentKernel(beta=0.5).fit_transform(["HEAGAWGHEE", "HEAGAWGHE", "PAWHEAE"])
    >>> K.round(4)
    array([[1.    , 0.2868, 0.    ],
           [0.2868, 1.    , 0.    ],
           [0.    , 0.    , 1.    ]])
    """

    _parameter_constraints = {
        **{k: v for k, v in StringKernel._parameter_constraints.items() if k != "alphabet"},
        "beta": [Interval(Real, 0, None, closed="neither")],
        "gap_open": [Interval(Real, 0, None, closed="left")],
        "gap_extend": [Interval(Real, 0, None, closed="left")],
        "substitution": [str, tuple, list],
        "log": ["boolean"],
    }

    def __init__(self, beta=0.5, gap_open=11, gap_extend=1, substitution="blosum62", *,
                 log=False, unknown="error", normalize=True, n_jobs=None, verbose=0):
        self.beta = beta
        self.gap_open = gap_open
        self.gap_extend = gap_extend
        self.substitution = substitution
        self.log = log
        self.unknown = unknown
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    # log only chooses the output form of the Gram
    _refit_free_params = StringKernel._refit_free_params | {"log"}

    def _fit_alphabet(self, sequences):
        letters, scores = _substitution_matrix(self.substitution)
        self.substitution_scores_ = scores
        spread = self._log_spread()
        if spread > 680:
            raise ValueError(
                f"beta={self.beta} is too large for these scores: beta * (max(S, 0) - min(S, 0) "
                f"+ gap_open + gap_extend) = {spread:.4g} must stay below 680 for the rescaled "
                "DP (exp(beta * S) and the rows it multiplies must stay finite); use a smaller "
                "beta or smaller scores (already at beta ~ 1 the kernel is close to "
                "exp(beta * SW))."
            )
        return letters

    def _log_spread(self):
        """Range of the logs of the DP's multipliers ``exp(β S)``, ``exp(−β d)``, ``exp(−β e)``.

        Measured from 0 (a row may be multiplied by the largest and then the smallest): scores that
        are all large, e.g. every entry 1000, overflow ``exp(β S)`` although their spread is 0.
        """
        scores = self.substitution_scores_
        return self.beta * (max(scores.max(), 0.0) - min(scores.min(), 0.0) + self.gap_open
                            + self.gap_extend)

    def _scale_bits(self, longest):
        """T such that rows rescaled when their max leaves [2^-T, 2^T] cannot overflow in a row."""
        spread_bits = self._log_spread() / math.log(2) + math.log2(longest + 1) + 4
        return max(1, int(1000 - spread_bits))

    def _weights(self, longest):
        """The DP's weights for sequences of up to ``longest`` letters: exp(β S) per letter pair
        (``exp_scores``), the weights exp(−β d), exp(−β e) of gaps (``open_weight``,
        ``extend_weight``) and the rescaling threshold (``scale_bits``)."""
        return {"exp_scores": np.ascontiguousarray(np.exp(self.beta * self.substitution_scores_)),
                "open_weight": math.exp(-self.beta * self.gap_open),
                "extend_weight": math.exp(-self.beta * self.gap_extend),
                "scale_bits": self._scale_bits(longest)}

    def _gram(self, A, B=None):
        """``log K_LA(a_i, b_j)``; normalisation and the output form come after."""
        symmetric = B is None
        other = A if symmetric else B
        n_threads = self._n_threads()
        # the rescaling threshold follows the longest sequence of the whole computation, so
        # that blocks of a Gram (kernelkit.distributed) rescale exactly as the whole does
        weights = self._weights(int(max(A.lengths.max(), other.lengths.max(),
                                        getattr(self, "longest_", 0))))

        def fill_rows(out, start, stop):
            _local_alignment_dp.local_alignment_gram(A, other, weights, out, start, stop,
                                                     symmetric, n_threads)
        return fill_gram(fill_rows, A.n_samples, other.n_samples, symmetric, self.verbose,
                         "LocalAlignmentKernel")

    def _self_similarity(self, A):
        """``log K_LA(a_i, a_i)``."""
        diag = np.empty(A.n_samples, dtype=np.float64)
        _local_alignment_dp.local_alignment_diagonal(A, self._weights(int(A.lengths.max())),
                                                     diag, self._n_threads())
        return diag

    def _fit(self, X):
        rep = super()._fit(X)
        self.longest_ = int(rep.lengths.max())
        return rep

    def _cover(self, X):
        self.longest_ = max(self.longest_, int(self._prepare(X, fitting=False).lengths.max()))

    def _output(self, K):
        return self._from_log(K)

    def _normalize(self, K, diag_rows, diag_cols):
        # log K(x, y) − ½ (log K(x, x) + log K(y, y)): the cosine normalisation in log space,
        # with one sum per entry so that a symmetric K stays exactly symmetric
        return K - 0.5 * (diag_rows[:, None] + diag_cols[None, :])

    def _from_log(self, log_k):
        if self.log:
            return log_k / self.beta
        if log_k.max() > _LOG_MAX_FLOAT:
            raise ValueError(
                f"K_LA overflows float64 (log K_LA reaches {log_k.max():.1f}); use normalize=True "
                "(the default), log=True, or a smaller beta."
            )
        return np.exp(log_k)

    def transform(self, X):
        """Gram matrix ``K(X, X_fit)``.

        Parameters
        ----------
        X : sequence of str or bytes

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples_fit)
        """
        return self._from_log(super().transform(X))

    def fit_transform(self, X, y=None):
        """Fit on ``X`` and return ``K(X, X)``, computing each pair once.

        Parameters
        ----------
        X : sequence of str or bytes
        y : ignored

        Returns
        -------
        K : ndarray of shape (n_samples, n_samples)

        Warns
        -----
        UserWarning
            When ``normalize=True`` and half the rows or more have every off-diagonal entry
            below :math:`10^{-8}`: the Gram is numerically the identity and ``beta`` too large
            for these sequences.
        """
        log_k = super().fit_transform(X)
        if self.normalize and not self.log:
            self._warn_if_identity(log_k)
        return self._from_log(log_k)

    def _warn_if_identity(self, log_k):
        """Warn when the normalised Gram ``exp(log_k)`` is the identity to working precision:
        when the median, over rows, of a row's largest off-diagonal entry is negligible. The
        median, not the largest entry of all: one pair of near-copies among unrelated
        sequences leaves the Gram the identity everywhere else; and not the median entry:
        families of related sequences make a block-diagonal Gram, which is informative."""
        n_samples = log_k.shape[0]
        if n_samples < 2:
            return
        diagonal = log_k.diagonal().copy()
        np.fill_diagonal(log_k, -np.inf)
        typical = np.median(log_k.max(axis=1))
        np.fill_diagonal(log_k, diagonal)
        if typical < _LOG_NEGLIGIBLE:
            warnings.warn(
                f"LocalAlignmentKernel(beta={self.beta}): the normalised Gram matrix is "
                f"numerically the identity (the median over sequences of their largest "
                f"off-diagonal entry is {math.exp(typical):.1e}): beta is too large for "
                "sequences this long and most sequences are similar only to themselves. Use a "
                "smaller beta (beta times the score gap between a sequence's "
                "self-alignment and an unrelated alignment should be a few units: about 0.05 for "
                "peptides of 10-20 letters under BLOSUM62, less for longer ones) or log=True.",
                UserWarning,
                stacklevel=3,
            )


def local_alignment_kernel(X, Y=None, beta=0.5, gap_open=11, gap_extend=1,
                           substitution="blosum62", normalize=True, **params):
    """Local alignment kernel Gram matrix ``K(X, Y)`` (``K(X, X)`` if Y is None).

    Function form of :class:`LocalAlignmentKernel`; ``params`` are its other parameters.

    Examples
    --------
    >>> from kernelkit.kernels import local_alignment_kernel
    >>> K = local_alignment_kernel(["W"], ["W"], beta=0.5, normalize=False)  # 1 + e^{0.5 · 11}
    >>> round(float(K[0, 0]), 6)
    245.691932
    """
    return pairwise_structured_kernel(
        LocalAlignmentKernel(beta=beta, gap_open=gap_open, gap_extend=gap_extend,
                             substitution=substitution, normalize=normalize, **params), X, Y
    )
