"""Local alignment kernel: brute-force enumeration, the log-space DP, Smith–Waterman limit,
long sequences, the log variant and its eigenvalue shift."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelkit import reference
from kernelkit.datasets import load_blosum62
from kernelkit.kernels import LocalAlignmentKernel, local_alignment_kernel, shift_to_psd

SMALL = ("ABC", np.array([[2.0, -1.0, 0.5], [-1.0, 3.0, -2.0], [0.5, -2.0, 1.0]]))


@pytest.mark.parametrize("beta", [0.2, 0.7, 1.5])
@pytest.mark.parametrize("gap_open, gap_extend", [(0.0, 0.0), (1.0, 0.5), (3.0, 1.0)])
def test_dp_equals_enumeration_of_all_local_alignments(make_strings, beta, gap_open, gap_extend):
    X = make_strings(6, 1, 5, "ABC")
    K = local_alignment_kernel(X, beta=beta, gap_open=gap_open, gap_extend=gap_extend,
                               substitution=SMALL, normalize=False)
    brute = [[reference.local_alignment_kernel_bruteforce(x, y, beta, gap_open, gap_extend, SMALL)
              for y in X] for x in X]
    np.testing.assert_allclose(K, brute, rtol=1e-12, atol=0)


def test_blosum62_dp_equals_enumeration(make_strings, blosum62):
    X = make_strings(5, 1, 5)
    K = local_alignment_kernel(X, beta=0.5, gap_open=2, gap_extend=1, normalize=False)
    brute = [[reference.local_alignment_kernel_bruteforce(x, y, 0.5, 2, 1, blosum62) for y in X]
             for x in X]
    np.testing.assert_allclose(K, brute, rtol=1e-12, atol=0)


def test_equals_the_five_table_log_space_dp(make_strings, blosum62):
    X, Y = make_strings(5, 20, 120), make_strings(3, 20, 120)
    est = LocalAlignmentKernel(beta=1.0, log=True, normalize=False).fit(X)
    expected = reference.local_alignment_kernel(Y, X, beta=1.0, substitution=blosum62,
                                                normalize=False, log=True)
    np.testing.assert_allclose(est.transform(Y), expected, rtol=1e-10)


def test_long_sequences_neither_overflow_nor_lose_precision(secreted_proteins, blosum62):
    sequences, _ = secreted_proteins
    x = max(sequences, key=len)                   # 1 594 letters
    y = x[200:1400]
    L = LocalAlignmentKernel(beta=0.5, log=True, normalize=False).fit([x]).transform([x, y])
    assert np.isfinite(L).all()
    # log K_LA(x, x) is far beyond float64's range (K ≈ e^{4000})
    assert L[0, 0] * 0.5 > 1000
    # bracketed by the Smith–Waterman score: max ≤ sum ≤ (number of alignments) · max
    sw = reference.smith_waterman_score(y[:300], y[:300], 11, 1, blosum62)
    L_short = local_alignment_kernel([y[:300]], beta=0.5, log=True, normalize=False)[0, 0]
    assert sw <= L_short <= sw + 2 * 300 * math.log(2) / 0.5
    # and equal to the log-space reference DP on a 300 x 300 problem whose K overflows
    expected = reference.local_alignment_kernel([y[:300]], beta=0.5, substitution=blosum62,
                                                normalize=False, log=True)[0, 0]
    assert L_short == pytest.approx(expected, rel=1e-10)


def test_tends_to_smith_waterman_as_beta_grows(make_strings, blosum62):
    X = make_strings(4, 30, 60)
    sw = np.array([[reference.smith_waterman_score(x, y, 11, 1, blosum62) for y in X] for x in X])
    errors = []
    for beta in (0.5, 2.0, 8.0, 20.0):
        L = local_alignment_kernel(X, beta=beta, log=True, normalize=False)
        assert (L >= sw - 1e-9).all()             # (1/β) log Σ exp(β s) ≥ max s
        errors.append(np.abs(L - sw).max())
    assert errors == sorted(errors, reverse=True)
    assert errors[-1] < 0.5


def test_log_variant_is_the_log_of_the_normalized_kernel(make_strings):
    X = make_strings(8, 10, 80)
    with warnings.catch_warnings():   # at beta=0.3 the Gram may well be the identity: no matter
        warnings.simplefilter("ignore", UserWarning)
        K = LocalAlignmentKernel(beta=0.3).fit_transform(X)
    L = LocalAlignmentKernel(beta=0.3, log=True).fit_transform(X)
    np.testing.assert_allclose(np.exp(0.3 * L), K, rtol=1e-12)


def test_shift_makes_the_log_variant_psd(secreted_proteins):
    sequences, _ = secreted_proteins
    X = [s for s in sequences if len(s) < 120][:30]
    L = LocalAlignmentKernel(beta=0.5, log=True, normalize=False).fit_transform(X)
    shifted, shift = shift_to_psd(L)
    assert shift >= 0.0
    assert np.linalg.eigvalsh(shifted)[0] >= -1e-8 * np.trace(shifted)
    np.testing.assert_array_equal(shifted - shift * np.eye(len(X)), L)


def test_smith_waterman_scores_are_not_a_kernel(blosum62):
    # Mairal & Vert: SW "is not a kernel"; three sequences already give a negative eigenvalue
    X = ["WWW", "WWWCCC", "CCC"]
    sw = np.array([[reference.smith_waterman_score(x, y, 11, 1, blosum62) for y in X] for x in X])
    assert np.linalg.eigvalsh(sw)[0] < 0
    K = local_alignment_kernel(X, beta=0.5, normalize=False)
    assert np.linalg.eigvalsh(K)[0] > 0


def test_unnormalized_overflow_raises(secreted_proteins):
    x = max(secreted_proteins[0], key=len)
    with pytest.raises(ValueError, match="overflows float64"):
        local_alignment_kernel([x], beta=0.5, normalize=False)


@pytest.mark.parametrize(
    "params, error, match",
    [
        ({"beta": 0.0}, ValueError, "'beta' parameter"),
        ({"beta": -1.0}, ValueError, "'beta' parameter"),
        ({"beta": 40.0}, ValueError, "too large for these scores"),
        ({"gap_open": -1.0}, ValueError, "'gap_open' parameter"),
        ({"substitution": "pam250"}, ValueError, "'blosum62' or a \\(letters, scores\\) pair"),
        ({"substitution": ("AB", np.eye(3))}, ValueError, "shape \\(3, 3\\)"),
        ({"substitution": ("AB", [[1.0, 2.0], [0.0, 1.0]])}, ValueError, "symmetric"),
        ({"substitution": ("AA", np.eye(2))}, ValueError, "distinct letters"),
        ({"substitution": ("AB", [[1.0, np.nan], [np.nan, 1.0]])}, ValueError, "finite"),
        ({"substitution": ("AB",)}, TypeError, "pair"),
    ],
)
def test_bad_parameters(params, error, match):
    with pytest.raises(error, match=match):
        LocalAlignmentKernel(**params).fit(["AB", "BA"])


def test_alphabet_is_the_substitution_matrix(blosum62):
    est = LocalAlignmentKernel().fit(["ACDX"])
    assert est.alphabet_ == blosum62[0]
    np.testing.assert_array_equal(est.substitution_scores_, blosum62[1])


@given(st.lists(st.text(alphabet="ACDWK", min_size=1, max_size=6), min_size=2, max_size=7),
       st.sampled_from([0.1, 0.5, 1.0]))
def test_property_psd_and_equal_to_enumeration(X, beta):
    # Mairal & Vert, "LA kernel is p.d.": exp(β BLOSUM62) is p.d. on the 20 amino acids for these β
    K = local_alignment_kernel(X, beta=beta, gap_open=3, gap_extend=1, normalize=False)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K / np.trace(K))[0] >= -1e-10
    sub = load_blosum62()
    x, y = X[0], X[-1]
    assert K[0, -1] == pytest.approx(
        reference.local_alignment_kernel_bruteforce(x, y, beta, 3, 1, sub), rel=1e-12)


def test_shift_to_psd_checks_its_input():
    with pytest.raises(ValueError, match="square"):
        shift_to_psd(np.ones((2, 3)))
    with pytest.raises(ValueError, match="symmetric"):
        shift_to_psd([[1.0, 2.0], [0.0, 1.0]])
    K, shift = shift_to_psd(np.eye(3))
    assert shift == 0.0
    np.testing.assert_array_equal(K, np.eye(3))


@pytest.mark.parametrize("symmetric", [True, False])
def test_simd_lanes_give_the_scalar_values_bit_for_bit(symmetric):
    """Pairs in SIMD lanes (lengths from 1 to hundreds, padded lanes, a last partial block) run
    exactly the scalar DP's operations."""
    from kernelkit._core import _local_alignment_dp
    from kernelkit.datasets import load_secreted_proteins

    proteins = load_secreted_proteins()[0]
    rows = proteins[:13] + ["W", "AC"]
    kernel = LocalAlignmentKernel(beta=0.5, normalize=False, log=True).fit(rows)
    A = kernel.X_fit_
    B = A if symmetric else kernel._prepare(proteins[20:31], fitting=False)
    weights = kernel._weights(int(max(A.lengths.max(), B.lengths.max())))
    results = []
    for lanes in (False, True):
        out = np.zeros((A.n_samples, B.n_samples))
        # two row chunks, as the Gram layer calls it
        for start, stop in ((0, 6), (6, A.n_samples)):
            _local_alignment_dp.local_alignment_gram(A, B, weights, out, start, stop,
                                                     symmetric, 2, lanes)
        results.append(out)
    np.testing.assert_array_equal(results[1], results[0])
    assert np.all(np.isfinite(results[0])) and np.all(results[0] > 0)


def _peptides(n_samples, length):
    rng = np.random.default_rng(0)
    return ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), length)) for _ in range(n_samples)]


def test_identity_gram_of_a_too_large_beta_warns():
    # At beta = 0.5 the normalised kernel of unrelated 20-letter peptides is about
    # exp(-0.5 * 80): the Gram is the identity to working precision and a kernel machine can only
    # predict the majority class. The fit says so and points at beta.
    X = _peptides(40, 20)
    with pytest.warns(UserWarning, match=r"numerically the identity.*smaller beta"):
        K = LocalAlignmentKernel(beta=0.5).fit_transform(X)
    off_diagonal = K[~np.eye(len(X), dtype=bool)]
    assert off_diagonal.max() < 1e-12
    np.testing.assert_array_equal(np.diag(K), 1.0)   # the diagonal is restored after the check


@pytest.mark.parametrize("params", [dict(beta=0.05), dict(beta=0.5, log=True),
                                    dict(beta=0.5, normalize=False, log=True)])
def test_informative_gram_does_not_warn(params):
    X = _peptides(40, 20)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        K = LocalAlignmentKernel(**params).fit_transform(X)
    if params.get("log") is None:
        assert np.median(K[~np.eye(len(X), dtype=bool)]) > 0.1


@pytest.mark.parametrize("score", [1000.0, 1e300])
def test_large_scores_are_finite_or_refused(score):
    # scores all equal (spread 0) passed the spread check, then exp(beta * S) or the rows it
    # multiplies overflowed: a NaN Gram (1000) or an overflow warning (1e300)
    letters = "ACDEFG"
    substitution = (letters, np.full((6, 6), score))
    sequences = ["ACDEFG", "ACD", "GFE"]
    if score > 1e3:
        with pytest.raises(ValueError, match="too large for these scores"):
            LocalAlignmentKernel(substitution=substitution).fit(sequences)
        return
    K = LocalAlignmentKernel(substitution=substitution, log=True, normalize=False)
    log_k = K.fit_transform(sequences)
    assert np.isfinite(log_k).all()
    # the best alignment of x with itself matches all its letters: log K >= beta * score * |x|
    assert log_k[0, 0] >= 0.5 * score * 6
    normalized = LocalAlignmentKernel(substitution=substitution).fit_transform(sequences)
    np.testing.assert_allclose(np.diag(normalized), 1.0)


def _mutant(rng, sequence, n_substitutions=1):
    """``sequence`` with ``n_substitutions`` letters replaced by random ones."""
    letters = list(sequence)
    for i in rng.choice(len(letters), n_substitutions, replace=False):
        letters[i] = rng.choice(list("ACDEFGHIKLMNPQRSTVWY"))
    return "".join(letters)


def test_numerically_diagonal_gram_of_short_peptides_warns(rng):
    # At the default beta, unrelated 15-mers give normalised values about 1e-16 to 1e-12; one
    # pair of near-copies among them gives one large entry, and the Gram is still the identity
    # for every other sequence
    X = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 15)) for _ in range(40)]
    X.append(_mutant(rng, X[0]))
    with pytest.warns(UserWarning, match=r"numerically the identity \(the median over "
                                         r"sequences .* is \d\.\de-\d\d\).*smaller beta"):
        K = LocalAlignmentKernel().fit_transform(X)
    off_diagonal = K[~np.eye(len(X), dtype=bool)]
    assert np.median(off_diagonal) < 1e-12 and off_diagonal.max() > 1e-8


def test_families_of_related_peptides_do_not_warn(rng):
    # a block-diagonal Gram: each sequence is similar to its family, not to the others
    ancestors = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 15)) for _ in range(8)]
    X = [_mutant(rng, ancestor) for ancestor in ancestors for _ in range(5)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        K = LocalAlignmentKernel().fit_transform(X)
    assert np.median(K[~np.eye(len(X), dtype=bool)]) < 1e-12   # most pairs are unrelated
