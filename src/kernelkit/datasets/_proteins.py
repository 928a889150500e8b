"""Secreted vs non-secreted bacterial proteins (PeNGaRoo data set, shipped)."""

from importlib import resources

import numpy as np

from kernelkit.datasets._fasta import read_fasta

__all__ = ["load_secreted_proteins"]


def load_secreted_proteins():
    """655 Gram-positive bacterial proteins, non-classically secreted (1) or not (0).

    From Zhang et al. (2020), PeNGaRoo; 175 positives and 480 negatives, lengths 66–1 594 (median
    400), the 20 standard amino acids only. The sequence-classification example of Mairal & Vert
    ("Supervised sequence classification"). Provenance:
    ``kernelkit/datasets/data/secreted_proteins/README.md``.

    Returns
    -------
    sequences : list of str
        The 655 protein sequences.
    labels : ndarray of shape (655,), dtype int64
        1 for secreted, 0 for non-secreted.
    names : list of str
        FASTA headers.

    References
    ----------
    Y. Zhang et al., "PeNGaRoo, a combined gradient boosting and ensemble learning framework for
    predicting non-classical secreted proteins", Bioinformatics 36(3):704–712, 2020.

    Examples
    --------
    >>> from kernelkit.datasets import load_secreted_proteins
    >>> sequences, labels, names = load_secreted_proteins()
    >>> len(sequences), int(labels.sum())
    (655, 175)
    """
    folder = resources.files("kernelkit.datasets").joinpath("data", "secreted_proteins")
    with resources.as_file(folder.joinpath("seqs.fasta")) as path:
        names, sequences = read_fasta(path)
    labels = np.array(folder.joinpath("classes.txt").read_text(encoding="ascii").split(),
                      dtype=np.int64)
    if labels.shape[0] != len(sequences):
        raise RuntimeError("the shipped secreted-protein files are damaged")
    return sequences, labels, names
