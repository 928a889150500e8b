"""The (k, m)-mismatch kernel (Leslie, Eskin, Cohen, Weston & Noble 2004)."""

from numbers import Integral

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._strings._kmers import KmerKernel
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT

__all__ = ["MismatchKernel", "mismatch_kernel"]


class MismatchKernel(KmerKernel):
    r"""(k, m)-mismatch kernel: k-mers counted up to m substitutions.

    :math:`\Phi_u(x) = \#\{i : \mathrm{Hamming}(x_{i..i+k-1}, u) \le m\}` for
    :math:`u \in A^k` and :math:`K = \sum_u \Phi_u(x) \Phi_u(y)`. Every window of x is expanded
    into its Hamming ball of radius m (the leaves a mismatch-tree traversal reaches;
    :math:`\sum_{j \le m} \binom kj (|A| - 1)^j` k-mers each), the balls are counted as in the
    spectrum kernel, and the Gram is the spectrum Gram of these counts. So ``m=0`` is exactly the
    spectrum kernel. Memory is O(total length × ball size): for proteins, 96 k-mers per window at
    (k, m) = (5, 1), 3 706 at (5, 2).

    The features range over ``A^k``, so the alphabet is part of the definition: a ball holds
    more k-mers over more letters, so :math:`k(x, x)`, and :math:`k(x, y)` wherever x and y
    share a k-mer, grow with :math:`|A|`. An inferred alphabet is the letters of the training
    sequences, which makes every value depend on the training set: give the alphabet
    (``alphabet="protein"``) for values that do not.

    Parameters
    ----------
    k : int, default=5
        Length of the k-mers, ≥ 1.
    m : int, default=1
        Mismatches allowed, :math:`0 \le m < k`.
    alphabet : str or None, default=None
        ``None`` infers the letters from the training sequences; ``"protein"``, ``"dna"``, or a
        string of distinct letters.
    unknown : {"error", "skip"}, default="error"
        Letters outside the alphabet raise a ValueError, or are removed from their sequence.
        With ``alphabet=None`` the alphabet is the training sequences' letters, so which
        letters are removed, and so the kernel's values, depend on the training set; give
        the alphabet to make them independent of it.
    algorithm : {"sparse", "merge"}, default="sparse"
        Gram algorithm (see :class:`SpectrumKernel`); both give the same values.
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
        Sparse mismatch feature counts of the training sequences.
    n_samples_fit_ : int
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``K(x, x)`` (when ``normalize``).

    See Also
    --------
    SpectrumKernel : exact k-mer matches (m = 0).

    References
    ----------
    Mairal & Vert (Mairal & Vert, *Kernel Methods* slides), "Example: substring indexation"
    (mismatch bullet) and "Spectrum kernel (2/2)" remarks. C. Leslie, E. Eskin, A. Cohen, J. Weston,
    W. S. Noble, "Mismatch string kernels for discriminative protein classification", Bioinformatics
    20(4):467–476, 2004.

    Examples
    --------
    >>> from kernelkit.kernels import MismatchKernel
    >>> MismatchKernel(k=2, m=1, alphabet="AB").fit_transform(["AA", "BB"])
    array([[3., 2.],
           [2., 3.]])
    """

    _parameter_constraints = {
        **KmerKernel._parameter_constraints,
        "k": [Interval(Integral, 1, MAX_INT, closed="left")],
        "m": [Interval(Integral, 0, MAX_INT, closed="left")],
        "algorithm": [StrOptions({"merge", "sparse"})],
    }

    def __init__(self, k=5, m=1, *, alphabet=None, unknown="error", algorithm="sparse",
                 normalize=False, n_jobs=None, verbose=0):
        self.k = k
        self.m = m
        self.alphabet = alphabet
        self.unknown = unknown
        self.algorithm = algorithm
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _mismatches(self):
        return self.m

    def _check_batch(self, batch):
        if self.m >= self.k:
            raise ValueError(
                f"m={self.m} must be smaller than k={self.k}: with m ≥ k every k-mer matches "
                "every other one."
            )
        super()._check_batch(batch)


def mismatch_kernel(X, Y=None, k=5, m=1, normalize=False, **params):
    """Mismatch kernel Gram matrix ``K(X, Y)`` (``K(X, X)`` if Y is None).

    Function form of :class:`MismatchKernel`; ``params`` are its other parameters.

    Examples
    --------
    >>> from kernelkit.kernels import mismatch_kernel
    >>> mismatch_kernel(["ACGT"], ["ACGA"], k=2, m=0, alphabet="dna")
    array([[2.]])
    """
    return pairwise_structured_kernel(MismatchKernel(k=k, m=m, normalize=normalize, **params), X, Y)
