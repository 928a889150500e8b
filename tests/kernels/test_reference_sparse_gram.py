"""The Gram matrix of sparse explicit features (``_core/_gram.pyx`` ``sparse_gram``) against its
readable twin ``kernelkit.reference.gram.sparse_gram``: directly, bit for bit (the twin adds the
products of an entry in the same order), and through the spectrum kernel, whose Gram matrix is
that product on k-mer counts."""

from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit._core import _gram
from kernelkit.kernels import SpectrumKernel
from kernelkit.reference.gram import sparse_gram


def core_arrays(matrix):
    return (matrix.indptr.astype(np.intp), matrix.indices.astype(np.intp),
            matrix.data.astype(np.float64))


@pytest.mark.parametrize("n_threads", [1, 2])
def test_sparse_gram_equals_twin(n_threads, rng):
    A = sp.random(40, 60, density=0.15, format="csr", random_state=rng.integers(2**31))
    B = sp.random(30, 60, density=0.2, format="csc", random_state=rng.integers(2**31))
    A.sort_indices()
    start = rng.normal(size=(40, 30))            # the product is added to what is there
    got, want = start.copy(), start.copy()
    _gram.sparse_gram(*core_arrays(A), *core_arrays(B), got, 5, 33, n_threads)
    sparse_gram(*core_arrays(A), *core_arrays(B), want, 5, 33, n_threads)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(want[5:33], start[5:33] + (A @ B.T).toarray()[5:33], rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_array_equal(want[:5], start[:5])


def test_spectrum_kernel_is_the_twin_product(rng):
    alphabet = np.array(list("ACDEFGHIKLMNPQRSTVWY"))
    sequences = ["".join(rng.choice(alphabet, size=rng.integers(5, 40))) for _ in range(25)]
    k = 2
    spectra = [Counter(s[p:p + k] for p in range(len(s) - k + 1)) for s in sequences]
    vocabulary = {kmer: u for u, kmer in enumerate(sorted(set().union(*spectra)))}
    rows = [i for i, spectrum in enumerate(spectra) for _ in spectrum]
    cols = [vocabulary[kmer] for spectrum in spectra for kmer in spectrum]
    counts = [c for spectrum in spectra for c in spectrum.values()]
    features = sp.csr_array((counts, (rows, cols)), shape=(len(sequences), len(vocabulary)),
                            dtype=np.float64)
    features.sort_indices()
    want = np.zeros((len(sequences), len(sequences)))
    sparse_gram(*core_arrays(features), *core_arrays(features.tocsc()), want, 0,
                len(sequences), 1)
    # integer counts: every sum is exact, whatever the order
    np.testing.assert_array_equal(SpectrumKernel(k=k).fit_transform(sequences), want)
