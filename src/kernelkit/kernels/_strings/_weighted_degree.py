"""The weighted degree kernel, with shifts (Rätsch & Sonnenburg 2004; Rätsch, Sonnenburg &
Schölkopf 2005): positional d-mer matches between aligned sequences of equal length."""

from numbers import Integral

import numpy as np
from scipy import sparse

from kernelkit._core import _weighted_degree
from kernelkit.kernels._base import (
    ExplicitFeatureMixin,
    check_feature_columns,
    fill_gram,
    pairwise_structured_kernel,
)
from kernelkit.kernels._strings._base import StringKernel, check_sequences, encode, infer_alphabet
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["WeightedDegreeKernel", "weighted_degree_kernel"]


def degree_weights(degree, length):
    """``β_d = 2(D − d + 1) / (D(D + 1))`` for d = 1..min(D, L) (d-mers longer than the
    sequences never occur; the D weights sum to 1)."""
    d = np.arange(1, min(degree, length) + 1, dtype=np.float64)
    return 2.0 * (degree - d + 1) / (float(degree) * (degree + 1))


def _start_weights(degree, length):
    """``W[r] = Σ_{d ≤ min(r, D)} β_d`` for r = 0..L: what a start followed by r matching
    positions adds (its d-mers match for d = 1..min(r, D))."""
    prefix = np.cumsum(degree_weights(degree, length))      # W[r] for r = 1..min(D, L)
    weights = np.full(length + 1, prefix[-1])
    weights[0] = 0.0
    weights[1:prefix.shape[0] + 1] = prefix
    return weights


def _shift_weights(shift, length):
    """``δ_s = 1 / (2(s + 1))`` for s = 0..min(S, L − 1) (a shift of L or more leaves no pair of
    d-mers); entry 0 is unused by the core, which counts the unshifted matches once, with weight
    ``2 δ_0 = 1``."""
    s = np.arange(min(shift, length - 1) + 1, dtype=np.float64)
    return 1.0 / (2.0 * (s + 1.0))


class WeightedDegreeKernel(ExplicitFeatureMixin, StringKernel):
    r"""Weighted degree kernel, with shifts: d-mer matches at the same (or a nearby) position.

    For sequences of one length L, degree D and shift S,

    .. math::

        k(x, x') = \sum_{d=1}^{D} \beta_d \sum_{l=1}^{L-d+1}
        \sum_{s=0,\ s+l \le L}^{S} \delta_s \big(
        1[u_{d,l+s}(x) = u_{d,l}(x')] + 1[u_{d,l}(x) = u_{d,l+s}(x')] \big),

    with :math:`u_{d,l}(x)` the d-mer of x starting at position l (a term whose d-mer runs past
    the end is 0), :math:`\beta_d = 2(D-d+1)/(D(D+1))` and :math:`\delta_s = 1/(2(s+1))`. With
    S = 0 this is the weighted degree kernel of Rätsch & Sonnenburg (2004),
    :math:`\sum_d \beta_d \sum_l 1[u_{d,l}(x) = u_{d,l}(x')]`; the shifts (Rätsch, Sonnenburg &
    Schölkopf 2005) let a d-mer match the same d-mer up to S positions away, with a weight that
    decreases with the distance. This is the published form, as Shogun's
    ``WeightedDegreePositionStringKernel`` documents it with constant position weights
    :math:`\gamma_l = 1`; Shogun's code weights a shift s ≥ 1 by :math:`1/(2s)` instead of the
    documented :math:`1/(2(s+1))` (so its values differ from the formula for S ≥ 1; for S = 0 the
    two agree).

    The kernel is positive semi-definite: it is
    :math:`\sum_d \beta_d \sum_{p,q} A_{pq} 1[u_{d,p}(x) = u_{d,q}(x')]` with
    :math:`A_{pq} = \delta_{|p-q|}` (and 1 on the diagonal), a band Toeplitz matrix whose symbol
    :math:`1 + \sum_{s=1}^{S} \cos(s\theta)/(s+1)` stays at or above 1/2 (checked numerically
    for S ≤ 3000), times the match kernel of positioned d-mers.

    Computation (compiled, parallel over pairs): along each of the 2S + 1 diagonals the runs of
    matching positions give every degree at once (the d-mers at a start match for every
    d ≤ min(r, D), r the number of matching positions from there on), so a pair costs
    O((2S + 1) L) whatever D.

    Parameters
    ----------
    degree : int, default=8
        D, the longest d-mer compared, ≥ 1 (d-mers longer than the sequences never match).
    shift : int, default=0
        S, the largest shift, ≥ 0. Shifts of L or more add nothing.
    alphabet : str or None, default=None
        ``None`` infers the letters from the training sequences; ``"dna"`` (ACGT), ``"protein"``,
        or a string of distinct letters.
    unknown : {"error", "skip"}, default="error"
        Letters outside the alphabet raise a ValueError, or match nothing: their position is kept
        (the sequences stay aligned) and every d-mer covering it is left out of the feature space.
        With ``alphabet=None`` the alphabet is the training sequences' letters, so which
        letters are left out, and so the kernel's values, depend on the training set; give
        the alphabet to make them independent of it.
    normalize : bool, default=False
        Cosine normalisation :math:`k(x, y) / \sqrt{k(x, x) k(y, y)}`.
    n_jobs : int or None, default=None
        Threads. Results do not depend on it.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    alphabet_ : str
        The letters; a letter's code is its index.
    sequence_length_ : int
        L, the length of every training sequence; sequences passed to ``transform`` must have it.
    X_fit_ : ndarray of shape (n_samples_fit, sequence_length_), dtype int32
        Letter codes of the training sequences (-1: a letter outside the alphabet).
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(x, x)`` of the training sequences (when ``normalize``).

    Notes
    -----
    Sequences of different lengths raise a ValueError naming the first one whose length differs:
    the kernel compares positions, and there is no one right way to align sequences of different
    lengths (pad or crop them to a common window around the site of interest first). GraKeL and
    strkernel have no weighted degree kernel; its values are checked against the formula summed
    term by term (``kernelkit.reference.string_canon``).

    See Also
    --------
    SpectrumKernel : position-free k-mer counts.
    GappyPairKernel : pairs of k-mers with a gap between them.

    References
    ----------
    G. Rätsch, S. Sonnenburg, "Accurate splice site prediction for Caenorhabditis elegans", in
    B. Schölkopf, K. Tsuda, J.-P. Vert (eds.), *Kernel Methods in Computational Biology*, MIT
    Press, 2004, 277–298. G. Rätsch, S. Sonnenburg, B. Schölkopf, "RASE: recognition of
    alternatively spliced exons in C. elegans", Bioinformatics 21 (suppl. 1):i369–i377, 2005.
    Mairal & Vert, *Kernel Methods*, "String kernels" (the spectrum kernel this one positions).

    Examples
    --------
    >>> from kernelkit.kernels import WeightedDegreeKernel
    >>> WeightedDegreeKernel(degree=2).fit_transform(["ACGT", "ACGA", "TCGT"])
    array([[3.66666667, 2.66666667, 2.66666667],
           [2.66666667, 3.66666667, 1.66666667],
           [2.66666667, 1.66666667, 3.66666667]])
    """

    _feature_columns = r"""For ``shift=0`` only (a shifted match weighs pairs of positions,
    which one positional feature map does not express). One column per (degree d, start
    position l, d-mer u), in that order: column
    :math:`\sum_{d' < d} (L - d' + 1)|A|^{d'} + l\,|A|^d + c(u)` with l counted from 0 and
    :math:`c(u) = \sum_t a_t |A|^{d-t}` (the letters :math:`a_1 \dots a_d` of u as indices
    into ``alphabet_``), of value :math:`\sqrt{\beta_d}` where x holds u at l:
    :math:`\sum_{d=1}^{\min(D, L)} (L - d + 1)|A|^d` columns whatever was fitted, so
    :math:`\Phi(x) \cdot \Phi(y) = k(x, y)` for any two sequences of length
    ``sequence_length_``. d-mers covering a letter outside the alphabet have no column. A
    feature space too wide to use is refused before any work, naming what to lower (degree,
    the alphabet)."""

    _parameter_constraints = {
        **StringKernel._parameter_constraints,
        "degree": [Interval(Integral, 1, MAX_INT, closed="left")],
        "shift": [Interval(Integral, 0, MAX_INT, closed="left")],
    }

    def __init__(self, degree=8, shift=0, *, alphabet=None, unknown="error", normalize=False,
                 n_jobs=None, verbose=0):
        self.degree = degree
        self.shift = shift
        self.alphabet = alphabet
        self.unknown = unknown
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _prepare(self, X, fitting):
        sequences = check_sequences(X)
        if fitting:
            self.alphabet_ = self._fit_alphabet(sequences)
        lengths = np.fromiter(map(len, sequences), dtype=np.intp, count=len(sequences))
        expected = int(lengths[0]) if fitting else self.sequence_length_
        differ = np.flatnonzero(lengths != expected)
        if differ.size:
            i = int(differ[0])
            where = "the first sequence" if fitting else "the training sequences"
            raise ValueError(
                f"the weighted degree kernel compares sequences of one length: sequence {i} has "
                f"{lengths[i]} letters, {where} {expected}; pad or crop the sequences to a "
                "common window first."
            )
        if fitting:
            self.sequence_length_ = expected
        return self._encode(sequences).reshape(len(sequences), expected)

    def _encode(self, sequences):
        """Letter codes, with -1 for letters outside the alphabet under ``unknown="skip"``
        (coded past the alphabet, then marked)."""
        extra = ""
        if self.unknown == "skip":
            extra = "".join(sorted(set(infer_alphabet(sequences)) - set(self.alphabet_)))
        codes = encode(sequences, self.alphabet_ + extra, "error").codes
        codes[codes >= len(self.alphabet_)] = -1
        return codes

    def _weights(self):
        return (_start_weights(self.degree, self.sequence_length_),
                _shift_weights(self.shift, self.sequence_length_))

    def _gram(self, A, B=None):
        symmetric = B is None
        other = A if symmetric else B
        n_threads = self._n_threads()
        start_weights, shift_weights = self._weights()

        def fill_rows(out, start, stop):
            _weighted_degree.weighted_degree_gram(A, other, start_weights, shift_weights, out,
                                                  start, stop, symmetric, n_threads)
        return fill_gram(fill_rows, A.shape[0], other.shape[0], symmetric, self.verbose,
                         "WeightedDegreeKernel")

    def _self_similarity(self, A):
        diag = np.empty(A.shape[0], dtype=np.float64)
        _weighted_degree.weighted_degree_diagonal(A, *self._weights(), diag, self._n_threads())
        return diag

    def _feature_sizes(self):
        """Number of columns of each degree d = 1..min(D, L): ``(L - d + 1)|A|^d``."""
        length, n_letters = self.sequence_length_, len(self.alphabet_)
        return [(length - d + 1) * n_letters**d for d in range(1, min(self.degree, length) + 1)]

    def _check_feature_space(self):
        if self.shift != 0:
            raise ValueError(
                f"explicit features are given for shift=0 only (shift={self.shift}): a shifted "
                "match weighs pairs of positions, which one positional feature map does not "
                "express; compute the kernel with transform instead."
            )
        n_letters = len(self.alphabet_)
        check_feature_columns(
            sum(self._feature_sizes()),
            f"WeightedDegreeKernel(degree={self.degree}) explicit features over {n_letters} "
            f"letters and {self.sequence_length_} positions (sum over d <= degree of "
            "(L - d + 1)|A|^d)",
            "lower degree or give a smaller alphabet; the kernel itself (transform, "
            "fit_transform) needs no explicit features.")

    def _feature_matrix(self, codes):
        codes = codes.astype(np.int64)
        n_samples, length = codes.shape
        n_letters = len(self.alphabet_)
        sizes = self._feature_sizes()
        beta = degree_weights(self.degree, length)
        word = np.zeros((n_samples, length), dtype=np.int64)  # code of the d-mer at each start
        known = codes >= 0                                    # its letters are all known
        columns, values, offset = [], [], 0
        for d in range(1, len(sizes) + 1):
            starts = length - d + 1
            word = word[:, :starts] * n_letters + codes[:, d - 1:]
            known = known[:, :starts] & (codes[:, d - 1:] >= 0)
            column = offset + np.arange(starts) * n_letters**d + word
            columns.append(np.where(known, column, -1))
            values.append(np.full((n_samples, starts), np.sqrt(beta[d - 1])))
            offset += sizes[d - 1]
        columns, values = np.hstack(columns), np.hstack(values)
        keep = columns >= 0
        indptr = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
        return sparse.csr_array((values[keep], columns[keep], indptr),
                                shape=(n_samples, offset))


def weighted_degree_kernel(X, Y=None, degree=8, shift=0, normalize=False, **params):
    """Weighted degree kernel Gram matrix ``K(X, Y)`` of shape ``(n_X, n_Y)`` (``K(X, X)`` if Y
    is None).

    Function form of :class:`WeightedDegreeKernel`; ``params`` are its other parameters.

    Examples
    --------
    >>> from kernelkit.kernels import weighted_degree_kernel
    >>> weighted_degree_kernel(["ACGT"], ["CGTA"], degree=2, shift=1)
    array([[0.66666667]])
    """
    return pairwise_structured_kernel(
        WeightedDegreeKernel(degree=degree, shift=shift, normalize=normalize, **params), X, Y
    )
