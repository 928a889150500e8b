"""Fixtures of the string-kernel tests."""

import numpy as np
import pytest

PROTEIN = "ACDEFGHIKLMNPQRSTVWY"


@pytest.fixture
def make_strings(rng):
    """``make_strings(n, min_len, max_len, alphabet)``: random strings from the seeded ``rng``."""

    def make(n, min_len, max_len, alphabet=PROTEIN):
        letters = np.array(list(alphabet))
        return ["".join(rng.choice(letters, size=int(rng.integers(min_len, max_len + 1))))
                for _ in range(n)]

    return make


@pytest.fixture(scope="session")
def secreted_proteins():
    """The shipped PeNGaRoo proteins: (sequences, labels)."""
    from kernelkit.datasets import load_secreted_proteins

    sequences, labels, _ = load_secreted_proteins()
    return sequences, labels


@pytest.fixture(scope="session")
def blosum62():
    from kernelkit.datasets import load_blosum62

    return load_blosum62()
