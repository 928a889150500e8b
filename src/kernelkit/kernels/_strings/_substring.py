"""The gap-weighted subsequence kernel (Lodhi, Saunders, Shawe-Taylor, Cristianini & Watkins
2002)."""

from numbers import Integral, Real

import numpy as np

from kernelkit._core import _substring_dp
from kernelkit.kernels._base import fill_gram, pairwise_structured_kernel
from kernelkit.kernels._strings._base import StringKernel
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["SubstringKernel", "substring_kernel"]


class SubstringKernel(StringKernel):
    r"""Gap-weighted subsequence kernel: common subsequences of length k, decayed by their span.

    :math:`\Phi_u(s) = \sum_{i: s[i] = u} \lambda^{i_k - i_1 + 1}` over all index tuples
    :math:`i_1 < \dots < i_k` spelling :math:`u \in A^k`, and
    :math:`K(s, t) = \sum_u \Phi_u(s) \Phi_u(t)`, computed by Lodhi's O(k |s| |t|) dynamic
    programme in Cython (one pair per thread, each pair computed once).

    Convention: this is Lodhi et al.'s decay by the span :math:`i_k - i_1 + 1`. The course's wording
    ("decaying with the number of gaps") would use the span minus k, which multiplies every feature
    by :math:`\lambda^{-k}` and the kernel by :math:`\lambda^{-2k}`: the two kernels differ by that
    constant factor, so they are equal after normalisation.

    Parameters
    ----------
    k : int, default=3
        Subsequence length, ≥ 1.
    lambda_ : float, default=0.5
        Decay, in (0, 1].
    alphabet : str or None, default=None
        ``None`` infers the letters from the training sequences; ``"protein"``, ``"dna"``, or a
        string of distinct letters.
    unknown : {"error", "skip"}, default="error"
        Letters outside the alphabet raise a ValueError, or are removed from their sequence.
        With ``alphabet=None`` the alphabet is the training sequences' letters, so which
        letters are removed, and so the kernel's values, depend on the training set; give
        the alphabet to make them independent of it.
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
    X_fit_ : SequenceBatch
        Integer-coded training sequences.
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``K(x, x)`` (when ``normalize``).

    See Also
    --------
    SpectrumKernel : contiguous k-mers only.

    References
    ----------
    Mairal & Vert (Mairal & Vert, *Kernel Methods* slides), "Example: substring indexation" (gapped
    substring bullet). H. Lodhi, C. Saunders, J. Shawe-Taylor, N. Cristianini, C. Watkins, "Text
    classification using string kernels", JMLR 2:419–444, 2002 (Section 4.2, the K'' recursion).

    Examples
    --------
    >>> from kernelkit.kernels import SubstringKernel
    >>> SubstringKernel(k=2, lambda_=0.5).fit_transform(["cat", "cart"])
    array([[0.140625  , 0.1015625 ],
           [0.1015625 , 0.22265625]])
    """

    _parameter_constraints = {
        **StringKernel._parameter_constraints,
        "k": [Interval(Integral, 1, MAX_INT, closed="left")],
        "lambda_": [Interval(Real, 0, 1, closed="right")],
    }

    def __init__(self, k=3, lambda_=0.5, *, alphabet=None, unknown="error", normalize=False,
                 n_jobs=None, verbose=0):
        self.k = k
        self.lambda_ = lambda_
        self.alphabet = alphabet
        self.unknown = unknown
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _check_batch(self, batch):
        longest = int(batch.lengths.max())
        if self.k > longest:
            raise ValueError(
                f"k={self.k} is longer than every training sequence (the longest has {longest} "
                "letters), so every kernel value would be zero."
            )

    def _check_dp_rows(self, columns, n_threads):
        # each thread's DP holds the k rows K'_1..K'_k over the longest column sequence
        longest = int(columns.lengths.max(initial=0))
        check_memory_request(8.0 * self.k * (longest + 1) * n_threads,
                             f"SubstringKernel(k={self.k}) on sequences of up to {longest} "
                             f"letters ({n_threads} threads)",
                             "lower k, or n_jobs (each thread keeps k rows of the sequence's "
                             "length).")

    def _gram(self, A, B=None):
        symmetric = B is None
        other = A if symmetric else B
        n_threads = self._n_threads()
        self._check_dp_rows(other, n_threads)

        def fill_rows(out, start, stop):
            _substring_dp.substring_gram(A, other, self.k, float(self.lambda_), out, start,
                                         stop, symmetric, n_threads)
        return fill_gram(fill_rows, A.n_samples, other.n_samples, symmetric, self.verbose,
                         "SubstringKernel")

    def _self_similarity(self, A):
        diag = np.empty(A.n_samples, dtype=np.float64)
        n_threads = self._n_threads()
        self._check_dp_rows(A, n_threads)
        _substring_dp.substring_diagonal(A, self.k, float(self.lambda_), diag, n_threads)
        # a sequence with k letters has K(x, x) ≥ λ^{2k} > 0: a zero is an underflow, and the
        # normalised Gram would be silently zero
        underflow = (diag == 0.0) & (A.lengths >= self.k)
        if np.any(underflow):
            raise ValueError(
                f"K(x, x) underflows float64 for sequence {int(np.flatnonzero(underflow)[0])}: "
                f"lambda_**(2k) = {self.lambda_}**{2 * self.k} is below the smallest double; "
                "use a larger lambda_ or a smaller k.")
        return diag


def substring_kernel(X, Y=None, k=3, lambda_=0.5, normalize=False, **params):
    """Gap-weighted subsequence kernel Gram matrix ``K(X, Y)`` (``K(X, X)`` if Y is None).

    Function form of :class:`SubstringKernel`; ``params`` are its other parameters.

    Examples
    --------
    >>> from kernelkit.kernels import substring_kernel
    >>> substring_kernel(["ab"], ["ab"], k=1, lambda_=0.5)
    array([[0.5]])
    """
    return pairwise_structured_kernel(
        SubstringKernel(k=k, lambda_=lambda_, normalize=normalize, **params), X, Y
    )
