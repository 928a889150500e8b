"""Spectrum kernel: the seed's example, the reference twin, explicit features."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelkit import reference
from kernelkit.kernels import SpectrumKernel, is_positive_definite, spectrum_kernel


def _decode(column, alphabet, k):
    letters = []
    for _ in range(k):
        column, code = divmod(column, len(alphabet))
        letters.append(alphabet[code])
    return "".join(reversed(letters))


def test_seed_example_has_the_eleven_listed_3mers():
    # Mairal & Vert, "Example: substring indexation": the 3-spectrum of CGGSLIAMMWFGV
    listed = ["CGG", "GGS", "GSL", "SLI", "LIA", "IAM", "AMM", "MMW", "MWF", "WFG", "FGV"]
    est = SpectrumKernel(k=3, alphabet="protein").fit(["CGGSLIAMMWFGV"])
    features = est.transform_features(["CGGSLIAMMWFGV"])
    assert features.shape == (1, 20**3)
    assert features.nnz == 11 == 13 - 3 + 1
    kmers = sorted(_decode(int(c), est.alphabet_, 3) for c in features.indices)
    assert kmers == sorted(listed)
    np.testing.assert_array_equal(features.data, 1.0)
    assert est.transform(["CGGSLIAMMWFGV"])[0, 0] == 11.0


@pytest.mark.parametrize("algorithm", ["merge", "sparse"])
@pytest.mark.parametrize("alphabet, k", [("ACGT", 1), ("ACGT", 3), ("ACGT", 6), ("protein", 2),
                                         ("protein", 3), ("protein", 5)])
def test_equals_reference_exactly(make_strings, algorithm, alphabet, k):
    letters = "ACDEFGHIKLMNPQRSTVWY" if alphabet == "protein" else alphabet
    X, Y = make_strings(25, 1, 80, letters), make_strings(6, 1, 80, letters)
    est = SpectrumKernel(k=k, alphabet=alphabet, algorithm=algorithm)
    X[0] = letters[0] * (k + 2)       # some sequence reaches k
    np.testing.assert_array_equal(est.fit_transform(X), reference.spectrum_kernel(X, k=k))
    np.testing.assert_array_equal(est.fit(X).transform(Y), reference.spectrum_kernel(Y, X, k=k))


@given(st.lists(st.text(alphabet="ab", min_size=1, max_size=12), min_size=1, max_size=8),
       st.integers(1, 4))
def test_property_equals_reference_and_is_psd(X, k):
    X = X + ["a" * k]
    K = SpectrumKernel(k=k, alphabet="ab").fit_transform(X)
    np.testing.assert_array_equal(K, reference.spectrum_kernel(X, k=k))
    assert np.linalg.eigvalsh(K)[0] >= -1e-9 * max(1.0, np.trace(K))


def test_hashed_codes_beyond_64_bits_match_the_reference(make_strings):
    # 4^40 > 2^64: k-mers are hashed (collisions have probability ~2^-64)
    X = make_strings(10, 30, 90, "ACGT")
    X = [x + x[:45] for x in X]        # repeated 40-mers
    np.testing.assert_array_equal(spectrum_kernel(X, k=40, alphabet="dna"),
                                  reference.spectrum_kernel(X, k=40))
    with pytest.raises(ValueError, match="do not fit 64-bit"):
        SpectrumKernel(k=40, alphabet="dna").fit(X).transform_features(X)


def test_sequences_shorter_than_k_have_no_features():
    est = SpectrumKernel(k=4).fit(["ABCDAB", "AB"])
    K = est.transform(["ABC", "ABCD"])
    np.testing.assert_array_equal(K[0], 0.0)
    assert est.transform_features(["ABC"]).nnz == 0
    assert K[1, 0] == 1.0


def test_features_reproduce_the_kernel_and_a_linear_scorer(make_strings, rng):
    X = make_strings(20, 5, 60)
    est = SpectrumKernel(k=2, alphabet="protein").fit(X)
    F = est.transform_features(X)
    np.testing.assert_array_equal((F @ F.T).toarray(), est.transform(X))
    # Mairal & Vert, "Spectrum kernel (2/2)": f(x) = Σ_i w_{x_i … x_{i+k−1}}, in O(|x|)
    w = rng.normal(size=F.shape[1])
    index = {_decode(c, est.alphabet_, 2): c for c in range(F.shape[1])}
    direct = [sum(w[index[x[i:i + 2]]] for i in range(len(x) - 1)) for x in X]
    np.testing.assert_allclose(F @ w, direct, rtol=1e-12)


def test_function_form_infers_the_alphabet_from_both_sides():
    K = spectrum_kernel(["ACGT", "TTTT"], ["GGAC"], k=2)
    np.testing.assert_array_equal(K, [[1.0], [0.0]])
    np.testing.assert_array_equal(spectrum_kernel(["ACGT"], k=1, normalize=True), [[1.0]])


def test_gram_on_all_shipped_proteins_is_psd(secreted_proteins):
    sequences, _ = secreted_proteins
    K = SpectrumKernel(k=3, normalize=True).fit_transform(sequences)
    assert K.shape == (655, 655)
    np.testing.assert_array_equal(K, K.T)
    # smallest eigenvalue ≥ −1e-8 · trace
    assert is_positive_definite(K, tol=1e-8)
