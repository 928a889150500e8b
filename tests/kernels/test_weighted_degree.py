"""Weighted degree kernel (with shifts): the formula term by term, hand cases, features, input."""


import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelkit.kernels import WeightedDegreeKernel, weighted_degree_kernel
from kernelkit.reference import string_canon as reference



def _aligned(rng, n, length, letters):
    return ["".join(rng.choice(list(letters), size=length)) for _ in range(n)]


@pytest.mark.parametrize("letters, degree, shift, length", [
    ("ACGT", 1, 0, 12), ("ACGT", 3, 0, 20), ("ACGT", 8, 0, 30), ("ACGT", 4, 2, 15),
    ("ACGT", 8, 5, 25), ("AC", 3, 40, 9), ("ACDEFGHIKLMNPQRSTVWY", 5, 3, 18),
    ("ACGT", 12, 1, 6),                   # degree beyond the length
])
def test_equals_the_formula(rng, letters, degree, shift, length):
    X, Y = _aligned(rng, 14, length, letters), _aligned(rng, 5, length, letters)
    X[1] = X[0][:length // 2] + X[1][length // 2:]          # long runs of matches
    est = WeightedDegreeKernel(degree, shift, alphabet=letters)
    np.testing.assert_allclose(est.fit_transform(X),
                               reference.weighted_degree_kernel(X, degree=degree, shift=shift),
                               rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(est.fit(X).transform(Y),
                               reference.weighted_degree_kernel(Y, X, degree=degree, shift=shift),
                               rtol=1e-13, atol=1e-13)


@given(st.lists(st.text(alphabet="ab", min_size=7, max_size=7), min_size=1, max_size=7),
       st.integers(1, 9), st.integers(0, 8))
def test_property_equals_the_formula_and_is_psd(X, degree, shift):
    K = WeightedDegreeKernel(degree, shift, alphabet="ab").fit_transform(X)
    np.testing.assert_allclose(K, reference.weighted_degree_kernel(X, degree=degree, shift=shift),
                               rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K)[0] >= -1e-9 * max(1.0, np.trace(K))


def test_hand_cases():
    # D = 2: β = (2/3, 1/3). ACGT vs ACGA: the 1-mers at 1, 2, 3 and the 2-mers at 1, 2 match.
    assert weighted_degree_kernel(["ACGT"], ["ACGA"], degree=2)[0, 0] == pytest.approx(8 / 3)
    # k(x, x) = Σ_d β_d (L − d + 1) = 4·2/3 + 3·1/3
    assert weighted_degree_kernel(["ACGT"], degree=2)[0, 0] == pytest.approx(11 / 3)
    # CGTA is ACGT moved by one: no match in place; with S = 1, x's 1-mers at 2, 3, 4 and 2-mers
    # at 2, 3 meet y's one position earlier, weighted δ_1 = 1/4: (3·2/3 + 2·1/3)/4
    assert weighted_degree_kernel(["ACGT"], ["CGTA"], degree=2)[0, 0] == 0.0
    assert weighted_degree_kernel(["ACGT"], ["CGTA"], degree=2,
                                  shift=1)[0, 0] == pytest.approx(2 / 3)
    # S = 2 adds nothing here (GT/CG and AC/TA, two positions apart, do not match); for ACGT
    # against GTAC it adds δ_2 (2·2/3 + 1/3) for GT at 3 and 1
    assert weighted_degree_kernel(["ACGT"], ["CGTA"], degree=2,
                                  shift=2)[0, 0] == pytest.approx(2 / 3)
    assert weighted_degree_kernel(["ACGT"], ["GTAC"], degree=2,
                                  shift=2)[0, 0] == pytest.approx((2 * 2 / 3 + 1 / 3) / 6
                                                                  + (2 * 2 / 3 + 1 / 3) / 6)


def test_weights_of_the_published_form(rng):
    # D = 1: β_1 = 1, and k(x, x) counts the L matching positions
    X = _aligned(rng, 3, 10, "ACGT")
    np.testing.assert_allclose(np.diag(weighted_degree_kernel(X, degree=1)), 10.0)
    # shifts only add (every term is non-negative) and a shift beyond L − 1 adds nothing
    K0 = weighted_degree_kernel(X, degree=3)
    K3 = weighted_degree_kernel(X, degree=3, shift=3)
    assert np.all(K3 >= K0)
    np.testing.assert_array_equal(weighted_degree_kernel(X, degree=3, shift=9),
                                  weighted_degree_kernel(X, degree=3, shift=10**6))


def test_huge_degree_and_shift_cost_only_the_length(rng):
    # only d ≤ L and s < L have terms: D = 10^12 and S = 10^12 allocate O(L), not O(D) or O(S)
    X = _aligned(rng, 5, 12, "ACGT")
    K = WeightedDegreeKernel(degree=10**12, shift=10**12).fit_transform(X)
    np.testing.assert_allclose(K, WeightedDegreeKernel(degree=10**12, shift=11).fit_transform(X))
    beta = 2.0 * (10**12 - np.arange(1, 13) + 1) / (1e12 * (1e12 + 1))
    np.testing.assert_allclose(np.diag(WeightedDegreeKernel(degree=10**12).fit_transform(X)),
                               np.sum(beta * (12 - np.arange(1, 13) + 1)), rtol=1e-12)


def test_invariant_to_sample_order_and_symmetric(rng):
    X = _aligned(rng, 12, 16, "ACGT")
    K = WeightedDegreeKernel(5, 2).fit_transform(X)
    order = rng.permutation(len(X))
    np.testing.assert_array_equal(WeightedDegreeKernel(5, 2).fit_transform([X[i] for i in order]),
                                  K[np.ix_(order, order)])
    np.testing.assert_array_equal(K, K.T)


def test_normalize(rng):
    X = _aligned(rng, 8, 14, "ACGT")
    K = WeightedDegreeKernel(4, 2, normalize=True).fit_transform(X)
    np.testing.assert_allclose(np.diag(K), 1.0)
    np.testing.assert_allclose(K, reference.weighted_degree_kernel(X, degree=4, shift=2,
                                                                   normalize=True), rtol=1e-13)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_threads_give_the_same_values(rng, n_jobs):
    X = _aligned(rng, 40, 30, "ACGT")
    np.testing.assert_array_equal(WeightedDegreeKernel(6, 3, n_jobs=n_jobs).fit_transform(X),
                                  WeightedDegreeKernel(6, 3, n_jobs=1).fit_transform(X))


def test_features_reproduce_the_kernel(rng):
    X, Y = _aligned(rng, 15, 20, "ACGT"), _aligned(rng, 4, 20, "ACGT")
    est = WeightedDegreeKernel(degree=5, alphabet="dna").fit(X)
    F, G = est.transform_features(X), est.transform_features(Y)
    assert F.shape == (15, sum((20 - d + 1) * 4**d for d in range(1, 6)))
    # one feature per (degree, position) in every sequence
    np.testing.assert_array_equal(np.diff(F.indptr), sum(20 - d + 1 for d in range(1, 6)))
    np.testing.assert_allclose((F @ F.T).toarray(), est.transform(X), rtol=1e-13)
    np.testing.assert_allclose((G @ F.T).toarray(), est.transform(Y), rtol=1e-13)


def test_feature_columns_are_degree_position_kmer():
    est = WeightedDegreeKernel(degree=2, alphabet="ACGT").fit(["ACGT"])
    F = est.transform_features(["GTAC"])
    # d = 1: columns l·4 + c(letter) for l = 0..3; d = 2 after the 16 of d = 1: l·16 + c(2-mer)
    expected = [0 * 4 + 2, 1 * 4 + 3, 2 * 4 + 0, 3 * 4 + 1,
                16 + 0 * 16 + (2 * 4 + 3), 16 + 1 * 16 + (3 * 4 + 0), 16 + 2 * 16 + (0 * 4 + 1)]
    np.testing.assert_array_equal(F.indices, expected)
    np.testing.assert_allclose(F.data, np.sqrt([2 / 3] * 4 + [1 / 3] * 3))


def test_features_need_shift_zero():
    est = WeightedDegreeKernel(degree=2, shift=1).fit(["ACGT", "ACGA"])
    with pytest.raises(ValueError, match="shift=0 only"):
        est.transform_features(["ACGT"])


def test_unknown_letters_match_nothing_under_skip(rng):
    X = _aligned(rng, 10, 15, "ACGTN")
    X[0] = "N" * 15
    with pytest.raises(ValueError, match="not in the alphabet"):
        WeightedDegreeKernel(3, alphabet="dna").fit(X)
    est = WeightedDegreeKernel(3, 1, alphabet="dna", unknown="skip")
    K = est.fit_transform(X)
    np.testing.assert_allclose(K, reference.weighted_degree_kernel(X, degree=3, shift=1,
                                                                   known="ACGT"), rtol=1e-13)
    np.testing.assert_array_equal(K[0], 0.0)          # N matches nothing, not even N
    assert np.linalg.eigvalsh(K)[0] >= -1e-9 * np.trace(K)
    normalized = est.set_params(normalize=True).fit_transform(X)
    np.testing.assert_array_equal(normalized[0], 0.0)
    np.testing.assert_allclose(np.diag(normalized)[1:], 1.0)
    # features leave out the d-mers that cover an N
    F = WeightedDegreeKernel(3, alphabet="dna", unknown="skip").fit(X).transform_features(X)
    assert F[[0]].nnz == 0
    np.testing.assert_allclose((F @ F.T).toarray(), weighted_degree_kernel(
        X, degree=3, alphabet="dna", unknown="skip"), rtol=1e-13)


def test_unequal_lengths_are_refused():
    with pytest.raises(ValueError, match="sequence 2 has 3 letters, the first sequence 4"):
        WeightedDegreeKernel().fit(["ACGT", "ACGA", "ACG"])
    est = WeightedDegreeKernel().fit(["ACGT", "ACGA"])
    with pytest.raises(ValueError, match="sequence 1 has 5 letters, the training sequences 4"):
        est.transform(["ACGT", "ACGTA"])
    with pytest.raises(ValueError, match="one length"):
        weighted_degree_kernel(["ACGT"], ["ACG"])


@pytest.mark.parametrize("X, error, match", [
    (["ACGT", ""], ValueError, "empty string"),
    ([], ValueError, "empty"),
    ("ACGT", TypeError, "single string"),
    (["ACGT", 3], TypeError, "str or bytes"),
])
def test_bad_sequences(X, error, match):
    with pytest.raises(error, match=match):
        WeightedDegreeKernel().fit(X)


@pytest.mark.parametrize("params, match", [
    ({"degree": 0}, "degree"), ({"degree": 1.5}, "degree"), ({"shift": -1}, "shift"),
    ({"unknown": "mismatch"}, "unknown"),
])
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        WeightedDegreeKernel(**params).fit(["ACGT", "ACGA"])


def test_changed_degree_needs_a_refit():
    from sklearn.exceptions import NotFittedError

    est = WeightedDegreeKernel(degree=3).fit(["ACGT", "ACGA"])
    est.set_params(degree=2)
    with pytest.raises(NotFittedError, match="degree"):
        est.transform(["ACGT"])


def test_splice_sequences_against_the_formula_and_features(shared_data):
    splice = shared_data / "uci_splice" / "splice.csv"
    if not splice.exists():
        pytest.skip(f"needs the UCI splice data ({splice})")
    rows = [line.split(",") for line in splice.read_text().splitlines()[1:]]
    X = [row[2].strip() for row in rows][:300]
    est = WeightedDegreeKernel(degree=8, alphabet="dna", unknown="skip")
    K = est.fit_transform(X)
    F = est.transform_features(X)
    np.testing.assert_allclose((F @ F.T).toarray(), K, rtol=1e-12)
    some = X[:6]
    np.testing.assert_allclose(
        WeightedDegreeKernel(8, 2, alphabet="dna", unknown="skip").fit_transform(some),
        reference.weighted_degree_kernel(some, degree=8, shift=2, known="ACGT"), rtol=1e-13)
    assert np.linalg.eigvalsh(K[:100, :100])[0] >= -1e-9 * np.trace(K)


def test_ctrl_c_stops_one_long_pair(ctrl_c):
    # one pair of 200 000 letters with 50 000 shifts: 2·10^10 comparisons, minutes; the pair
    # looks at the signals between shifts
    setup = """
    import numpy as np
    from kernelkit.kernels import WeightedDegreeKernel
    rng = np.random.default_rng(0)
    X = ["".join(rng.choice(list("ACGT"), 200_000)) for _ in range(2)]
    run = lambda: WeightedDegreeKernel(8, 50_000, n_jobs=1).fit_transform(X)
    """
    after = """
    print(WeightedDegreeKernel(2).fit_transform(["ACGT", "ACGA"])[0, 1].round(4))
    """
    assert ctrl_c(setup, after) == ["interrupted", "2.6667"]
