"""What every string kernel shares: sequences as integer codes, the alphabet and unknown-letter
policy, and the :class:`StringKernel` base class.

A batch of ``n`` sequences (``str`` or ``bytes``; bytes are read as Latin-1, one letter per byte)
becomes one concatenated ``int32`` array of letter codes plus ``n + 1`` offsets, which is what the
compiled cores read. A letter's code is its position in the alphabet string.
"""

from dataclasses import dataclass

import numpy as np

from kernelkit.kernels._base import StructuredKernel
from kernelkit.utils._sklearn_compat import StrOptions

__all__ = ["ALPHABETS", "SequenceBatch", "StringKernel", "check_sequences", "encode",
           "infer_alphabet", "resolve_alphabet"]

#: Named alphabets: the 20 standard amino acids, and the four DNA bases (upper case).
ALPHABETS = {
    "protein": "ACDEFGHIKLMNPQRSTVWY",
    "dna": "ACGT",
}


@dataclass(frozen=True)
class SequenceBatch:
    """Integer-coded sequences: ``codes[offsets[i]:offsets[i + 1]]`` is sequence ``i``."""

    codes: np.ndarray      # (total_length,) int32, values in [0, len(alphabet))
    offsets: np.ndarray    # (n_samples + 1,) intp
    alphabet: str

    @property
    def n_samples(self):
        return self.offsets.shape[0] - 1

    @property
    def lengths(self):
        return np.diff(self.offsets)


def check_sequences(X):
    """``X`` as a list of ``str``, validated: a non-empty sequence of non-empty str/bytes.

    Raises
    ------
    TypeError
        ``X`` is a single string, not a sequence, or holds an item that is not str/bytes.
    ValueError
        ``X`` is empty or holds an empty string.
    """
    if isinstance(X, (str, bytes)):
        raise TypeError(
            "X must be a sequence of strings (e.g. a list of str), not a single string; "
            "wrap it in a list."
        )
    if isinstance(X, np.ndarray) and X.ndim != 1:
        raise ValueError(f"X must be a 1-d sequence of strings, got an array of shape {X.shape}.")
    try:
        items = list(X)
    except TypeError:
        raise TypeError(
            f"X must be a sequence of str or bytes, got {type(X).__name__}."
        ) from None
    if not items:
        raise ValueError("X is empty: at least one sequence is required.")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, (bytes, bytearray)):
            item = bytes(item).decode("latin-1")
        elif isinstance(item, np.str_):
            item = str(item)
        elif not isinstance(item, str):
            raise TypeError(
                f"X[{i}] is of type {type(item).__name__}; every sequence must be str or bytes."
            )
        if not item:
            raise ValueError(
                f"X[{i}] is an empty string; every sequence needs at least one letter."
            )
        out.append(item)
    return out


def _code_points(sequences):
    """All letters as Unicode code points (one array) and the length of each sequence."""
    joined = "".join(sequences).encode("utf-32-le")
    points = np.frombuffer(joined, dtype="<u4").astype(np.int64)
    lengths = np.fromiter((len(s) for s in sequences), dtype=np.intp, count=len(sequences))
    return points, lengths


def infer_alphabet(sequences):
    """The sorted distinct letters of validated ``sequences``, as a string."""
    points, _ = _code_points(sequences)
    return "".join(map(chr, np.unique(points)))


def resolve_alphabet(alphabet, sequences):
    """The alphabet string for ``alphabet`` = None (inferred), a name of ``ALPHABETS``, or letters.

    A name ("protein", "dna") takes precedence over reading the same string as letters.
    """
    if alphabet is None:
        return infer_alphabet(sequences)
    if not isinstance(alphabet, str) or not alphabet:
        raise ValueError(
            f"alphabet must be None, one of {sorted(ALPHABETS)} or a non-empty string of "
            f"letters, got {alphabet!r}."
        )
    letters = ALPHABETS.get(alphabet, alphabet)
    if len(set(letters)) != len(letters):
        raise ValueError(f"alphabet {alphabet!r} repeats letters.")
    return letters


def encode(sequences, alphabet, unknown="error"):
    """Encode validated sequences over ``alphabet``.

    Parameters
    ----------
    sequences : list of str
        Output of :func:`check_sequences`.
    alphabet : str
        Distinct letters; a letter's code is its index.
    unknown : {"error", "skip"}
        Letters outside the alphabet raise a ValueError, or are removed from their sequence.

    Returns
    -------
    SequenceBatch
    """
    points, lengths = _code_points(sequences)
    letters = np.fromiter(map(ord, alphabet), dtype=np.int64, count=len(alphabet))
    # a lookup table over code points (the letters seen are few and mostly ASCII)
    table = np.full(max(int(points.max()), int(letters.max())) + 1, -1, dtype=np.int32)
    table[letters] = np.arange(len(alphabet), dtype=np.int32)
    codes = table[points]
    known = codes >= 0
    if not known.all():
        seq_of_letter = np.repeat(np.arange(len(sequences)), lengths)
        if unknown == "error":
            first = int(np.flatnonzero(~known)[0])
            i = int(seq_of_letter[first])
            raise ValueError(
                f"sequence {i} contains the letter {chr(points[first])!r}, which is not in the "
                f"alphabet {alphabet!r}; pass unknown='skip' to drop such letters, or give an "
                "alphabet that contains it."
            )
        codes = codes[known]
        lengths = np.bincount(seq_of_letter[known], minlength=len(sequences)).astype(np.intp)
        empty = np.flatnonzero(lengths == 0)
        if empty.size:
            raise ValueError(
                f"sequence {int(empty[0])} has no letter of the alphabet {alphabet!r} left once "
                "unknown letters are skipped."
            )
    offsets = np.zeros(len(sequences) + 1, dtype=np.intp)
    np.cumsum(lengths, out=offsets[1:])
    return SequenceBatch(np.ascontiguousarray(codes, dtype=np.int32), offsets, alphabet)


class StringKernel(StructuredKernel):
    """Common machinery of the string kernels (not public).

    Subclasses define ``_parameter_constraints`` (extending this one), ``_gram`` and
    ``_self_similarity``; they may override ``_fit_alphabet`` (the alphabet learned at ``fit``)
    and ``_check_batch`` (checks needing the encoded training sequences, e.g. ``k`` ≤ the
    longest sequence).
    """

    _parameter_constraints = {
        **StructuredKernel._parameter_constraints,
        "alphabet": [None, str],
        "unknown": [StrOptions({"error", "skip"})],
    }

    def _fit_alphabet(self, sequences):
        return resolve_alphabet(self.alphabet, sequences)

    def _check_batch(self, batch):
        """Raise ValueError if the training batch cannot be used with these parameters."""

    def _prepare(self, X, fitting):
        sequences = check_sequences(X)
        if fitting:
            self.alphabet_ = self._fit_alphabet(sequences)
        batch = encode(sequences, self.alphabet_, self.unknown)
        if fitting:
            self._check_batch(batch)
        return batch

    def _for_pair(self, X, Y):
        # An inferred alphabet is inferred from both sets, so that X has no unknown letter.
        if self.get_params().get("alphabet", "fixed") is not None:
            return self
        return self.set_params(alphabet=resolve_alphabet(None, check_sequences(X)
                                                         + check_sequences(Y)))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        return tags
