"""The BLOSUM62 substitution matrix (shipped; NCBI text format)."""

from importlib import resources

import numpy as np

__all__ = ["load_blosum62"]


def load_blosum62():
    """The BLOSUM62 amino-acid substitution matrix (Henikoff & Henikoff 1992).

    Scores in half-bit units, for the 20 standard amino acids, the ambiguity codes B (D/N), Z (E/Q),
    X (any), and ``*`` (stop). Shipped from the NCBI ``matblas`` file; see
    ``kernelkit/datasets/data/BLOSUM62/README.md`` for its provenance.

    Returns
    -------
    letters : str
        The 24 symbols in the file's order, ``"ARNDCQEGHILKMFPSTWYVBZX*"``.
    scores : ndarray of shape (24, 24), dtype float64
        Symmetric; ``scores[i, j]`` is the score of aligning ``letters[i]`` with ``letters[j]``.

    Examples
    --------
    >>> from kernelkit.datasets import load_blosum62
    >>> letters, scores = load_blosum62()
    >>> letters[:5], scores[letters.index("W"), letters.index("W")]
    ('ARNDC', np.float64(11.0))
    """
    text = resources.files("kernelkit.datasets").joinpath("data", "BLOSUM62", "BLOSUM62")
    rows = [line.split() for line in text.read_text(encoding="ascii").splitlines()
            if line.strip() and not line.startswith("#")]
    letters = "".join(rows[0])
    scores = np.array([[float(v) for v in row[1:]] for row in rows[1:]])
    if scores.shape != (len(letters), len(letters)) or "".join(r[0] for r in rows[1:]) != letters:
        raise RuntimeError("the shipped BLOSUM62 file is damaged")
    return letters, scores
