"""Gappy pair kernel: feature dictionaries, hand cases, strkernel where it is right, input."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelkit.kernels import GappyPairKernel, SpectrumKernel, gappy_pair_kernel
from kernelkit.reference import string_canon as reference

PROTEIN = "ACDEFGHIKLMNPQRSTVWY"


@pytest.mark.parametrize("algorithm", ["sparse", "merge"])
@pytest.mark.parametrize("letters, k, g", [("ACGT", 1, 0), ("ACGT", 1, 3), ("ACGT", 2, 2),
                                           ("ACGT", 3, 5), (PROTEIN, 1, 2), (PROTEIN, 2, 3)])
def test_equals_the_feature_dictionaries(make_strings, algorithm, letters, k, g):
    X, Y = make_strings(20, 1, 60, letters), make_strings(6, 1, 60, letters)
    X[0] = letters[0] * (2 * k + g + 2)
    est = GappyPairKernel(k, g, alphabet=letters, algorithm=algorithm)
    np.testing.assert_array_equal(est.fit_transform(X), reference.gappy_pair_kernel(X, k=k, g=g))
    np.testing.assert_array_equal(est.fit(X).transform(Y),
                                  reference.gappy_pair_kernel(Y, X, k=k, g=g))


@given(st.lists(st.text(alphabet="ab", min_size=1, max_size=12), min_size=1, max_size=8),
       st.integers(1, 3), st.integers(0, 4))
def test_property_equals_the_dictionaries_and_is_psd(X, k, g):
    X = X + ["a" * (2 * k)]
    K = GappyPairKernel(k, g, alphabet="ab").fit_transform(X)
    np.testing.assert_array_equal(K, reference.gappy_pair_kernel(X, k=k, g=g))
    assert np.linalg.eigvalsh(K)[0] >= -1e-9 * max(1.0, np.trace(K))


def test_hand_case():
    # ACGT, k = 1, g = 1: AC, CG, GT with no gap, A_G and C_T with a gap of one letter
    est = GappyPairKernel(k=1, g=1, alphabet="ACGT").fit(["ACGT"])
    F = est.transform_features(["ACGT"])
    gap0 = [0 * 4 + 1, 1 * 4 + 2, 2 * 4 + 3]               # c(u)·4 + c(v)
    gap1 = [16 + 0 * 4 + 2, 16 + 1 * 4 + 3]                # the gap-1 block starts at 4²
    np.testing.assert_array_equal(F.indices, gap0 + gap1)
    np.testing.assert_array_equal(F.data, 1.0)
    # the gap length is part of the feature: AC (gap 0) and A_C (gap 1) do not match
    assert gappy_pair_kernel(["AC"], ["AGC"], k=1, g=1)[0, 0] == 0.0
    assert gappy_pair_kernel(["AGC"], ["ATC"], k=1, g=1)[0, 0] == 1.0


def test_gap_zero_is_the_spectrum_of_2k_mers(make_strings):
    X = make_strings(15, 4, 40)
    np.testing.assert_array_equal(GappyPairKernel(2, 0).fit_transform(X),
                                  SpectrumKernel(4).fit_transform(X))


def test_invariant_to_sample_order(make_strings, rng):
    X = make_strings(12, 5, 40)
    K = GappyPairKernel(2, 3).fit_transform(X)
    order = rng.permutation(len(X))
    np.testing.assert_array_equal(GappyPairKernel(2, 3).fit_transform([X[i] for i in order]),
                                  K[np.ix_(order, order)])


def test_features_reproduce_the_kernel(make_strings):
    X, Y = make_strings(20, 5, 60), make_strings(5, 5, 60)
    est = GappyPairKernel(2, 3, alphabet="protein").fit(X)
    F, G = est.transform_features(X), est.transform_features(Y)
    assert F.shape == (20, 4 * 20**4)
    np.testing.assert_array_equal((F @ F.T).toarray(), est.transform(X))
    np.testing.assert_array_equal((G @ F.T).toarray(), est.transform(Y))
    # every sequence of length n has Σ_m (n − 2k − m + 1) pairs
    lengths = np.array([len(x) for x in X])
    expected = sum(np.maximum(lengths - 4 - m + 1, 0) for m in range(4))
    np.testing.assert_array_equal(np.asarray(F.sum(axis=1)).ravel(), expected)


def test_normalize(make_strings):
    X = make_strings(10, 8, 40)
    K = GappyPairKernel(1, 2, normalize=True).fit_transform(X)
    np.testing.assert_allclose(np.diag(K), 1.0)
    np.testing.assert_allclose(K, reference.gappy_pair_kernel(X, k=1, g=2, normalize=True),
                               rtol=1e-14)


def test_hashed_codes_beyond_64_bits_match_the_dictionaries(make_strings):
    # 4 · 4^34 > 2^64: the pair codes are hashed (collisions have probability ~2^-64)
    X = make_strings(8, 40, 80, "ACGT")
    X = [x + x for x in X]
    np.testing.assert_array_equal(gappy_pair_kernel(X, k=17, g=3, alphabet="dna"),
                                  reference.gappy_pair_kernel(X, k=17, g=3))
    with pytest.raises(ValueError, match="do not fit 64-bit"):
        GappyPairKernel(17, 3, alphabet="dna").fit(X).transform_features(X)


def test_short_sequences_have_no_pairs():
    est = GappyPairKernel(k=2, g=1).fit(["ABCDAB", "AB"])
    K = est.transform(["ABC", "ABCD"])
    np.testing.assert_array_equal(K[0], 0.0)
    assert K[1, 0] == 1.0
    with pytest.raises(ValueError, match="2k=6 is longer than every training sequence"):
        GappyPairKernel(k=3).fit(["ABCDA", "AB"])


def test_unknown_letters():
    with pytest.raises(ValueError, match="not in the alphabet"):
        GappyPairKernel(1, 1, alphabet="dna").fit(["ACNGT"])
    # skipped letters are removed: ACNGT is read as ACGT
    np.testing.assert_array_equal(
        gappy_pair_kernel(["ACNGT"], ["ACGT"], k=1, g=1, alphabet="dna", unknown="skip"),
        gappy_pair_kernel(["ACGT"], k=1, g=1))


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_threads_give_the_same_values(make_strings, n_jobs):
    X = make_strings(40, 20, 120)
    np.testing.assert_array_equal(GappyPairKernel(2, 3, n_jobs=n_jobs).fit_transform(X),
                                  GappyPairKernel(2, 3, n_jobs=1).fit_transform(X))


@pytest.mark.parametrize("X, error, match", [
    (["ACGT", ""], ValueError, "empty string"),
    ([], ValueError, "empty"),
    ("ACGT", TypeError, "single string"),
])
def test_bad_sequences(X, error, match):
    with pytest.raises(error, match=match):
        GappyPairKernel(1, 1).fit(X)


@pytest.mark.parametrize("params, match", [
    ({"k": 0}, "'k'"), ({"g": -1}, "'g'"), ({"g": 1.5}, "'g'"), ({"algorithm": "dense"},
                                                                  "algorithm"),
])
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        GappyPairKernel(**params).fit(["ACGTACGT"])


# ------------------------------------------------------------------------------ strkernel 0.2
def _strkernel_rule(x, k, g):
    """strkernel's feature vector of x (gapDifferent=True), written out: the gap-0 pairs at every
    start, the gapped pairs (m ≥ 1) only at starts i with i + 2k + g + 1 < len(x), in columns
    (m·4^k + c(u))·4^k + c(v) over ACGT."""
    def code(word):
        return int("".join(str("ACGT".index(c)) for c in word), 4)

    row = np.zeros((g + 1) * 4 ** (2 * k))
    for m in range(g + 1):
        for i in range(len(x) - 2 * k - m + 1):
            if m == 0 or i + 2 * k + g + 1 < len(x):
                row[(m * 4**k + code(x[i:i + k])) * 4**k + code(x[i + k + m:i + 2 * k + m])] += 1
    return row


@pytest.mark.parametrize("k, g", [(1, 1), (1, 2), (2, 1), (2, 3)])
def test_strkernel_agrees_where_it_is_right(make_strings, k, g):
    strkernel = pytest.importorskip("strkernel.gappy_kernel")
    X = make_strings(12, 2 * k + g + 3, 40, "ACGT")
    theirs = strkernel.gappypair_kernel(X, k=k, g=g, sparse=False)   # gapDifferent=True
    ours = GappyPairKernel(k, g, alphabet="dna").fit(X).transform_features(X).toarray()
    # the same column layout (gap, u, v) over ACGT, and the same gap-0 block
    width = 4 ** (2 * k)
    np.testing.assert_array_equal(theirs[:, :width], ours[:, :width])
    # the gapped blocks are the definition minus the pairs of strkernel's end rule ...
    np.testing.assert_array_equal(theirs, [_strkernel_rule(x, k, g) for x in X])
    # ... so strkernel loses gapped pairs that fit, which the kernel counts
    assert np.all(theirs <= ours) and theirs.sum() < ours.sum()


def test_strkernel_gap_zero_is_the_k_spectrum(make_strings):
    # with g = 0 strkernel returns the spectrum of the k-mers, not of the pairs (2k-mers)
    strkernel = pytest.importorskip("strkernel.gappy_kernel")
    X = make_strings(10, 4, 30, "ACGT")
    theirs = strkernel.gappypair_kernel(X, k=2, g=0, sparse=False)
    np.testing.assert_array_equal(
        theirs, SpectrumKernel(2, alphabet="dna").fit(X).transform_features(X).toarray())
    assert GappyPairKernel(2, 0).fit(X).transform_features(X).shape[1] == 4**4


def test_strkernel_drops_gapped_pairs_at_the_end():
    strkernel = pytest.importorskip("strkernel.gappy_kernel")
    theirs = strkernel.gappypair_kernel(["ACGT"], k=1, g=1, sparse=False)[0]
    ours = GappyPairKernel(1, 1, alphabet="dna").fit(["ACGT"]).transform_features(["ACGT"])
    assert set(np.flatnonzero(theirs)) == {1, 6, 11}            # AC, CG, GT
    assert set(ours.indices) == {1, 6, 11, 16 + 2, 16 + 7}       # and A_G, C_T
