"""GappedKmerKernel: exact weights, hand cases, the brute-force twin, properties, LS-GKM's rules
for short sequences and reverse complements, agreement with gkmsvm-lite (stored values)."""

import itertools
import json
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest

from kernelkit.kernels import GappedKmerKernel, gapped_kmer_kernel
from kernelkit.kernels._strings._gapped_kmer_weights import (
    lmer_filter,
    pair_weights,
    truncate_filter,
)
from kernelkit.reference import gapped_kmer as twin

DATA = Path(__file__).parent.parent / "data" / "gkmsvm_lite_gram.json"
KERNEL_TYPES = ["gkm", "estimated_full", "estimated_truncated", "rbf", "center_weighted",
                "center_weighted_rbf"]


def _dna(rng, n, low, high):
    return ["".join(rng.choice(list("ACGT"), rng.integers(low, high + 1))) for _ in range(n)]


def _hamming(u, v):
    return sum(a != b for a, b in zip(u, v))


# --- weights -------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel_type", ["gkm", "estimated_full", "estimated_truncated"])
@pytest.mark.parametrize("l, k, d, n_letters", [(11, 7, 3, 4), (6, 3, 6, 4), (5, 2, 5, 3),
                                                 (4, 2, 4, 2), (6, 4, 2, 20)])
def test_weights_match_the_twin(kernel_type, l, k, d, n_letters):
    np.testing.assert_allclose(pair_weights(kernel_type, l, k, d, n_letters),
                               twin.lmer_pair_weights(kernel_type, l, k, d, n_letters),
                               rtol=1e-12, atol=1e-15)


def test_gkm_weight_counts_the_shared_gapped_kmers():
    l, k = 5, 3
    h = pair_weights("gkm", l, k, l, 2)
    for v in itertools.product("AB", repeat=l):
        u = "AAAAA"
        shared = sum(all(u[p] == v[p] for p in P) for P in itertools.combinations(range(l), k))
        assert h[_hamming(u, v)] == shared


def test_lmer_filter_is_the_projection_onto_what_gapped_kmers_determine():
    # M maps l-mer counts to gapped k-mer counts; the filter is the entry of M^+ M
    l, k, n_letters = 4, 2, 3
    lmers = list(itertools.product(range(n_letters), repeat=l))
    subsets = list(itertools.combinations(range(l), k))
    M = np.zeros((len(subsets) * n_letters**k, len(lmers)))
    for j, u in enumerate(lmers):
        for s, P in enumerate(subsets):
            M[s * n_letters**k + sum(u[p] * n_letters**t for t, p in enumerate(P)), j] = 1
    projection = np.linalg.pinv(M) @ M
    f = [float(x) for x in lmer_filter(l, k, n_letters)]
    for j, u in enumerate(lmers):
        assert projection[0, j] == pytest.approx(f[_hamming(lmers[0], u)], abs=1e-12)


def test_full_filter_kernel_weights_are_the_filter_itself():
    # a projection is idempotent: sum_u f(d(u, v)) f(d(u, v')) = f(d(v, v'))
    for l, k, n_letters in [(11, 7, 4), (6, 2, 3), (5, 5, 2)]:
        f = np.array([float(x) for x in lmer_filter(l, k, n_letters)])
        np.testing.assert_allclose(pair_weights("estimated_full", l, k, l, n_letters), f,
                                   rtol=1e-12, atol=1e-15)


def test_truncated_filter_stops_at_the_first_non_positive_value():
    f = truncate_filter([Fraction(3), Fraction(1), Fraction(0), Fraction(2)])
    assert f == [3, 1, 0, 0]
    f = lmer_filter(11, 7, 4)
    assert [float(x) > 0 for x in truncate_filter(f)] == [True] * 3 + [False] * 9


def test_lsgkm_default_weights():
    # LS-GKM's weights for -t 2 -l 11 -k 7 -d 3, as gkmsvm-lite 0.1.0's port of LS-GKM's
    # calc_gkm_kernel_lmerest_wt computes them (a float recursion, not exact arithmetic)
    np.testing.assert_allclose(pair_weights("estimated_truncated", 11, 7, 3, 4),
                               [0.2200049901184684, 0.06041187953087501, 0.013319240119017195,
                                0.0017748346654116172], rtol=1e-13)


# --- hand cases ----------------------------------------------------------------------------

def test_hand_case_gapped_2mers_of_3mers():
    # 3-mers ACG, CGT vs ACG, CGA; gapped 2-mers shared: AC_, A_G, _CG (ACG twice) and CG_
    # (CGT vs CGA, one mismatch: C(2, 2) = 1); ACG vs CGA and CGT vs ACG differ everywhere
    kernel = GappedKmerKernel(l=3, k=2, d=1, kernel_type="gkm", reverse_complement=False,
                              normalize=False)
    np.testing.assert_array_equal(kernel.fit_transform(["ACGT", "ACGA"]), [[6, 4], [4, 6]])


def test_hand_case_reverse_complement():
    # rc(AAC) = GTT: x = AAC and y = GTT share every l-mer through the reverse complement
    kernel = GappedKmerKernel(l=3, k=2, d=0, kernel_type="gkm", normalize=False)
    K = kernel.fit_transform(["AAC", "GTT"])
    np.testing.assert_array_equal(K, [[3, 3], [3, 3]])
    off = kernel.set_params(reverse_complement=False).fit_transform(["AAC", "GTT"])
    np.testing.assert_array_equal(off, [[3, 0], [0, 3]])


def test_gkm_with_all_mismatches_is_the_gapped_kmer_count_dot_product(random_seed):
    rng = np.random.default_rng(random_seed)
    X = _dna(rng, 6, 3, 40) + ["ACGT" * 700]   # one sequence beyond LS-GKM's 2 047 bp
    l, k = 6, 3

    def counts(x):
        return Counter((P, "".join(x[i + p] for p in P))
                       for i in range(len(x) - l + 1)
                       for P in itertools.combinations(range(l), k))
    phi = [counts(x) for x in X]
    expected = np.array([[sum(c * b.get(key, 0) for key, c in a.items()) for b in phi]
                         for a in phi], dtype=np.float64)
    K = GappedKmerKernel(l=l, k=k, d=l - k, kernel_type="gkm", reverse_complement=False,
                         normalize=False).fit_transform(X)
    np.testing.assert_array_equal(K, expected)


# --- the twin --------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel_type", KERNEL_TYPES)
@pytest.mark.parametrize("d", [1, 2], ids=["d<l-k", "d=l-k"])
@pytest.mark.parametrize("reverse_complement", [False, True])
@pytest.mark.parametrize("normalize", [False, True])
def test_matches_the_twin(kernel_type, d, reverse_complement, normalize):
    rng = np.random.default_rng(3)
    X = _dna(rng, 7, 3, 30)         # some shorter than l
    Y = _dna(rng, 4, 3, 30)
    params = dict(l=5, k=3, d=d, kernel_type=kernel_type, gamma=0.7, center_weight_max=9,
                  center_weight_half_life=4.0, reverse_complement=reverse_complement,
                  normalize=normalize)
    kernel = GappedKmerKernel(alphabet="dna", **params)
    np.testing.assert_allclose(kernel.fit_transform(X), twin.gapped_kmer_kernel(X, **params),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(kernel.transform(Y), twin.gapped_kmer_kernel(Y, X, **params),
                               rtol=1e-10, atol=1e-12)


def test_matches_the_twin_on_proteins():
    rng = np.random.default_rng(4)
    letters = list("ACDEFGHIKLMNPQRSTVWY")
    X = ["".join(rng.choice(letters, rng.integers(4, 25))) for _ in range(6)]
    params = dict(l=4, k=2, d=2, kernel_type="estimated_truncated", reverse_complement=False)
    K = GappedKmerKernel(alphabet="protein", **params).fit_transform(X)
    np.testing.assert_allclose(K, twin.gapped_kmer_kernel(X, alphabet="ACDEFGHIKLMNPQRSTVWY",
                                                          **params), rtol=1e-10, atol=1e-12)


# --- properties ------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel_type", KERNEL_TYPES)
def test_symmetric_positive_semidefinite(kernel_type, random_seed):
    rng = np.random.default_rng(random_seed)
    X = _dna(rng, 25, 8, 60)
    K = GappedKmerKernel(l=6, k=4, d=2, kernel_type=kernel_type, normalize=False,
                         center_weight_half_life=5.0).fit_transform(X)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * np.abs(K).max()


def test_reverse_complement_of_a_sequence_is_the_same_sequence(random_seed):
    rng = np.random.default_rng(random_seed)
    X = _dna(rng, 5, 10, 40)
    rc = [x.translate(str.maketrans("ACGT", "TGCA"))[::-1] for x in X]
    kernel = GappedKmerKernel(l=5, k=3, d=2).fit(X)
    np.testing.assert_allclose(kernel.transform(rc), kernel.transform(X), rtol=1e-12)


def test_threads_do_not_change_the_result():
    rng = np.random.default_rng(5)
    X = _dna(rng, 40, 20, 120)
    one = GappedKmerKernel(l=8, k=5, d=3, n_jobs=1).fit_transform(X)
    two = GappedKmerKernel(l=8, k=5, d=3, n_jobs=2).fit_transform(X)
    np.testing.assert_array_equal(one, two)


def test_function_form():
    X, Y = ["ACGTACGT", "TTGCA"], ["ACGTTT"]
    K = gapped_kmer_kernel(X, Y, l=4, k=2, d=2)
    np.testing.assert_allclose(K, twin.gapped_kmer_kernel(X, Y, l=4, k=2, d=2), rtol=1e-10)


# --- short sequences and bad input --------------------------------------------------------------

def test_sequences_shorter_than_l_have_no_lmer():
    kernel = GappedKmerKernel(l=5, k=3, d=2, normalize=True)
    K = kernel.fit_transform(["ACGTACGT", "ACG", "TTGCATT"])
    np.testing.assert_array_equal(K[1], 0.0)
    np.testing.assert_array_equal(K[:, 1], 0.0)
    rbf = kernel.set_params(kernel_type="rbf", gamma=2.0).fit_transform(
        ["ACGTACGT", "ACG", "TT"])
    # unit-norm features, 0 for a sequence without l-mers: exp(-gamma/2) against one with
    np.testing.assert_allclose(rbf[0, 1:], np.exp(-1.0))
    np.testing.assert_allclose(rbf[1:, 1:], 1.0)


def test_every_training_sequence_shorter_than_l_is_refused():
    with pytest.raises(ValueError, match="l=5 is longer than every training sequence"):
        GappedKmerKernel(l=5, k=3).fit(["ACG", "ACGT"])


def test_empty_string_is_refused():
    with pytest.raises(ValueError, match="empty string"):
        GappedKmerKernel(l=3, k=2).fit(["ACGT", ""])


def test_reverse_complement_needs_dna():
    with pytest.raises(ValueError, match="reverse_complement=True needs DNA"):
        GappedKmerKernel(l=3, k=2).fit(["MKVL", "LLKV"])
    with pytest.raises(ValueError, match="reverse_complement=True needs DNA"):
        GappedKmerKernel(l=3, k=2, alphabet="protein").fit(["ACGT"])
    K = GappedKmerKernel(l=3, k=2, reverse_complement=False).fit_transform(["MKVL", "LLKV"])
    assert K.shape == (2, 2)


def test_unknown_letter_at_transform_gets_the_string_kernels_error():
    kernel = GappedKmerKernel(l=3, k=2).fit(["ACGTAC"])
    with pytest.raises(ValueError, match="contains the letter 'N', which is not in the alphabet"):
        kernel.transform(["ACNGT"])


@pytest.mark.parametrize("params, match", [
    (dict(l=3, k=4), "k=4 must be at most l=3"),
    (dict(l=3, k=2, d=4), "d=4 must be at most l=3"),
    (dict(l=40, k=2, reverse_complement=False), "l=40 is too long for 20 letters"),
    # refused at once (the fuzzer found |A|^l computed for l = 1e9)
    (dict(l=10**9, k=2), "l=1000000000 is too long for 4 letters"),
])
def test_inconsistent_parameters_are_refused(params, match):
    X = ["ACDEFGHIKLMNPQRSTVWY" * 3] if params["l"] == 40 else ["ACGTACGT"]
    with pytest.raises(ValueError, match=match):
        GappedKmerKernel(**params).fit(X)


# --- gkmsvm-lite (stored values) -----------------------------------------------------------------

def _stored_cases():
    return json.loads(DATA.read_text())["cases"]


@pytest.mark.parametrize("case", range(len(_stored_cases())))
def test_agrees_with_gkmsvm_lite(case):
    stored = _stored_cases()[case]
    params = stored["params"]
    K = GappedKmerKernel(**params).fit_transform(stored["X"])
    if stored["differs"] == "rbf on the raw kernel":
        # gkmsvm-lite's RBF is exp(-gamma (K(x,x) + K(y,y) - 2 K(x,y))) on the raw kernel;
        # LS-GKM's (and kernelkit's) exp(gamma (K_norm(x,y) - 1)) on the normalised one
        raw = GappedKmerKernel(**{**params, "kernel_type": "estimated_truncated",
                                  "normalize": False}).fit_transform(stored["X"])
        diag = np.diag(raw)
        theirs = np.exp(-params["gamma"] * (diag[:, None] + diag[None, :] - 2 * raw))
        np.testing.assert_allclose(theirs, stored["K"], rtol=1e-6, atol=1e-9)
        assert not np.allclose(K, stored["K"], rtol=1e-3)
    elif stored["differs"] == "gkm ignores d":
        # gkmsvm-lite's gapped k-mer kernel (-t 0) counts every m <= l - k whatever d; LS-GKM
        # cuts at d as for every kernel type
        every_m = GappedKmerKernel(**{**params, "d": params["l"] - params["k"]})
        np.testing.assert_allclose(every_m.fit_transform(stored["X"]), stored["K"],
                                   rtol=1e-6, atol=1e-9)
        assert not np.allclose(K, stored["K"], rtol=1e-3)
    elif stored["differs"] == "center weights inside the l-mer":
        # gkmsvm-lite's center weighted kernel weights the positions inside each l-mer of the
        # gapped k-mer kernel (flat over the middle M); with M >= l every weight is 1 and it is
        # the gapped k-mer kernel. LS-GKM's weights each l-mer by its distance to the sequence's
        # centre, in the estimated l-mer kernel.
        assert params["center_weight_max"] >= params["l"]
        gkm = GappedKmerKernel(l=params["l"], k=params["k"], d=params["l"] - params["k"],
                               kernel_type="gkm")
        np.testing.assert_allclose(gkm.fit_transform(stored["X"]), stored["K"], rtol=1e-6,
                                   atol=1e-9)
        assert not np.allclose(K, stored["K"], rtol=1e-3)
    else:
        np.testing.assert_allclose(K, stored["K"], rtol=1e-6, atol=1e-9)


# --- Ctrl-C ------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_jobs", [1, 2])
def test_ctrl_c_stops_the_trie_walk(ctrl_c, n_jobs):
    # one sequence of 400 000 bp: its self-similarity alone is a walk of hours, held by one
    # thread (the other has no row to take)
    setup = f"""
    import numpy as np
    from kernelkit.kernels import GappedKmerKernel
    from kernelkit.kernels._strings import _gapped_kmer
    _gapped_kmer.masked_is_cheaper = lambda *args, **kw: False
    X = ["".join(np.random.default_rng(0).choice(list("ACGT"), 400_000))]
    run = lambda: GappedKmerKernel(d=4, n_jobs={n_jobs}).fit_transform(X)
    """
    after = """
    print("refit" if GappedKmerKernel(l=3, k=2).fit_transform(["ACGT"]).shape == (1, 1) else "")
    """
    assert ctrl_c(setup, after) == ["interrupted", "refit"]


@pytest.mark.parametrize("alphabet, n_samples", [("ACDEFGHIKLMNPQRSTVWY", 1), ("ACGT", 1),
                                                 ("AB", 40)],
                         ids=["no table", "shallow table", "table of every level"])
def test_prefix_table_depths_agree_with_the_twin(alphabet, n_samples):
    # the core finds the first levels' nodes in a table as deep as the l-mers fill it (none
    # for 9 l-mers over 20 letters, down to l itself for 40 binary sequences), deeper by a
    # scan or a bisection
    rng = np.random.default_rng(6)
    X = ["".join(rng.choice(list(alphabet), rng.integers(5, 13))) for _ in range(n_samples)]
    params = dict(l=4, k=2, d=2, kernel_type="estimated_full", reverse_complement=False)
    kernel = GappedKmerKernel(alphabet=alphabet, **params)
    K = kernel.fit_transform(X)
    depth = kernel._prefix_table(kernel.X_fit_.columns["codes"]).get("prefix_depth", 0)
    assert {"ACDEFGHIKLMNPQRSTVWY": depth == 0, "ACGT": 0 < depth < 4, "AB": depth == 4}[alphabet]
    np.testing.assert_allclose(K, twin.gapped_kmer_kernel(X, alphabet=alphabet, **params),
                               rtol=1e-10, atol=1e-12)


# --- explicit features ---------------------------------------------------------------------------

@pytest.mark.parametrize("reverse_complement", [False, True])
@pytest.mark.parametrize("normalize", [False, True])
def test_explicit_features_give_the_gram(reverse_complement, normalize, random_seed):
    rng = np.random.default_rng(random_seed)
    X, Y = _dna(rng, 8, 3, 40), _dna(rng, 3, 3, 40)
    kernel = GappedKmerKernel(l=5, k=3, d=2, kernel_type="gkm", normalize=normalize,
                              reverse_complement=reverse_complement).fit(X)
    F_X, F_Y = kernel.transform_features(X), kernel.transform_features(Y)
    assert F_X.shape[1] == comb(5, 3) * 4**3
    np.testing.assert_allclose((F_X @ F_X.T).toarray(), kernel.fit_transform(X), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose((F_Y @ F_X.T).toarray(), kernel.transform(Y), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("params", [dict(kernel_type="estimated_truncated", d=2),
                                    dict(kernel_type="gkm", d=1)])
def test_explicit_features_only_for_the_gkm_kernel_with_every_mismatch(params):
    kernel = GappedKmerKernel(l=5, k=3, **params).fit(["ACGTACGT"])
    with pytest.raises(ValueError, match="explicit features are given for kernel_type='gkm'"):
        kernel.transform_features(["ACGTACGT"])
