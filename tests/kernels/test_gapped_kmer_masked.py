"""GappedKmerKernel's masked-match core: the masks, the counts' identity, agreement with the twin
and bit for bit with the trie walk over tiles of every shape, the choice of path, Ctrl-C."""

import itertools
from math import comb

import numpy as np
import pytest

from kernelkit.kernels import GappedKmerKernel
from kernelkit.kernels._strings import _gapped_kmer
from kernelkit.kernels._strings._gapped_kmer_masks import (
    letter_bits,
    masked_is_cheaper,
    masked_plan,
    tile_size,
)
from kernelkit.kernels._strings._gapped_kmer_weights import pair_weights
from kernelkit.reference import gapped_kmer as twin

KERNEL_TYPES = ["gkm", "estimated_full", "estimated_truncated", "rbf", "center_weighted",
                "center_weighted_rbf"]


def _seqs(rng, n, low, high, letters="ACGT"):
    return ["".join(rng.choice(list(letters), rng.integers(low, high + 1))) for _ in range(n)]


@pytest.fixture
def path(monkeypatch):
    """``path(masked, tile_rows, tile_cols, diagonal_tile)``: force the masked path (or the
    trie walk) and the masked path's tile sizes."""
    def force(masked, tile_rows=256, tile_cols=256, diagonal_tile=256):
        monkeypatch.setattr(_gapped_kmer, "masked_is_cheaper", lambda *args, **kw: masked)
        monkeypatch.setattr(_gapped_kmer, "tile_size", lambda *args: (tile_rows, tile_cols))
        monkeypatch.setattr(_gapped_kmer, "_DIAGONAL_TILE", diagonal_tile)
    return force


def _both_paths(path, X, Y, tiles, **params):
    """fit_transform(X) and transform(Y) by the masked path (tiles) and by the trie walk."""
    results = []
    for masked in (True, False):
        path(masked, *tiles)
        kernel = GappedKmerKernel(**params)
        results.append((kernel.fit_transform(X), kernel.transform(Y)))
    return results


# --- the masks ---------------------------------------------------------------------------------

@pytest.mark.parametrize("l, d, n_letters", [(6, 3, 4), (5, 5, 3), (4, 2, 20), (11, 2, 4)])
def test_a_masks_key_is_the_letters_outside_its_free_positions(l, d, n_letters):
    rng = np.random.default_rng(0)
    h = pair_weights("estimated_full", l, 2, d, n_letters)
    plan = masked_plan(l, d, h, n_letters, 8, 8)
    bits = letter_bits(n_letters)
    lmers = rng.integers(0, n_letters, size=(30, l))
    lmers[1::2, : l // 2] = lmers[::2, : l // 2]     # pairs sharing their first half
    codes = [sum(int(a) << (bits * (l - 1 - p)) for p, a in enumerate(u)) for u in lmers]
    frees = [free for j in range(d + 1) for free in itertools.combinations(range(l), j)]
    assert len(frees) == plan["key_bits"].shape[0]
    for t, free in enumerate(frees):
        kept = [p for p in range(l) if p not in free]
        assert plan["key_bits"][t] == bits * len(kept)
        assert plan["level"][t] == len(free)
        keys = []
        for code in codes:
            key = 0
            for r in range(plan["run_ptr"][t], plan["run_ptr"][t + 1]):
                key |= ((code >> int(plan["run_shift"][r])) & int(plan["run_bits"][r])) << int(
                    plan["run_place"][r])
            keys.append(key)
        for (a, u), (b, v) in itertools.combinations(enumerate(lmers), 2):
            assert (keys[a] == keys[b]) == bool(np.array_equal(u[kept], v[kept]))


def test_masked_matches_count_a_pair_at_distance_m_binomially_often():
    # the identity the core inverts: a pair at Hamming distance m has equal masked codes under
    # C(l − m, j − m) of the masks of size j
    l = 6
    u = np.zeros(l, dtype=int)
    for m in range(l + 1):
        v = np.r_[np.ones(m, dtype=int), np.zeros(l - m, dtype=int)]
        for j in range(l + 1):
            matched = sum(np.array_equal(np.delete(u, free), np.delete(v, free))
                          for free in itertools.combinations(range(l), j))
            assert matched == (comb(l - m, j - m) if j >= m else 0)


def test_only_the_last_level_for_the_gapped_kmer_kernel_with_every_mismatch():
    l, k = 11, 7
    plan = masked_plan(l, l - k, pair_weights("gkm", l, k, l - k, 4), 4, 8, 8)
    assert plan["n_levels"] == 1 and plan["key_bits"].shape[0] == comb(l, l - k)
    plan = masked_plan(l, 3, pair_weights("gkm", l, k, 3, 4), 4, 8, 8)
    assert plan["n_levels"] == 4 and plan["key_bits"].shape[0] == sum(comb(l, j)
                                                                     for j in range(4))
    plan = masked_plan(l, 3, pair_weights("estimated_truncated", l, k, 3, 4), 4, 8, 8)
    assert plan["n_levels"] == 4
    np.testing.assert_array_equal(plan["binomial"].reshape(4, 4)[3], [165, 45, 9, 1])


# --- the masked path against the twin and the trie walk ------------------------------------------

@pytest.mark.parametrize("kernel_type", KERNEL_TYPES)
@pytest.mark.parametrize("d", [1, 2, 5], ids=["d<l-k", "d=l-k", "d=l"])
@pytest.mark.parametrize("reverse_complement", [False, True])
def test_masked_path_matches_the_twin(path, kernel_type, d, reverse_complement):
    rng = np.random.default_rng(7)
    X = _seqs(rng, 9, 3, 30)            # some shorter than l, more sequences than a tile
    Y = _seqs(rng, 5, 3, 30)
    params = dict(l=5, k=3, d=d, kernel_type=kernel_type, gamma=0.7, center_weight_max=9,
                  center_weight_half_life=4.0, reverse_complement=reverse_complement,
                  normalize=False)
    path(True, 4, 3, 2)
    kernel = GappedKmerKernel(alphabet="dna", **params)
    np.testing.assert_allclose(kernel.fit_transform(X), twin.gapped_kmer_kernel(X, **params),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(kernel.transform(Y), twin.gapped_kmer_kernel(Y, X, **params),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("tiles", [(7, 5, 3), (1, 1, 1), (23, 23, 23), (4, 64, 5)],
                         ids=["uneven", "one sequence", "one tile", "wide"])
@pytest.mark.parametrize("params", [
    dict(l=6, k=3, d=3, kernel_type="estimated_truncated"),
    dict(l=6, k=3, d=3, kernel_type="gkm", normalize=False),     # M_d alone
    dict(l=6, k=4, d=3, kernel_type="gkm", normalize=False),     # every level
    dict(l=6, k=3, d=0, kernel_type="estimated_full", normalize=False),
    dict(l=5, k=2, d=5, kernel_type="estimated_full", reverse_complement=False),
    dict(l=5, k=2, d=2, kernel_type="center_weighted", center_weight_half_life=3.0,
         normalize=False),
], ids=["truncated", "gkm top level", "gkm d<l-k", "d=0", "d=l", "center weighted"])
def test_masked_path_equals_the_trie_walk_bit_for_bit(path, tiles, params):
    rng = np.random.default_rng(8)
    X = _seqs(rng, 23, 2, 45)
    Y = _seqs(rng, 11, 2, 45)
    (masked_fit, masked_transform), (trie_fit, trie_transform) = _both_paths(
        path, X, Y, tiles, **params)
    np.testing.assert_array_equal(masked_fit, trie_fit)
    np.testing.assert_array_equal(masked_transform, trie_transform)


def test_masked_path_on_proteins(path):
    rng = np.random.default_rng(9)
    letters = "ACDEFGHIKLMNPQRSTVWY"
    X, Y = _seqs(rng, 12, 3, 30, letters), _seqs(rng, 4, 3, 30, letters)
    params = dict(l=4, k=2, d=2, kernel_type="estimated_truncated", reverse_complement=False,
                  alphabet="protein")
    (masked_fit, masked_transform), (trie_fit, trie_transform) = _both_paths(
        path, X, Y, (5, 3, 4), **params)
    np.testing.assert_array_equal(masked_fit, trie_fit)
    np.testing.assert_array_equal(masked_transform, trie_transform)
    np.testing.assert_allclose(masked_fit, twin.gapped_kmer_kernel(
        X, alphabet=letters, **{k: v for k, v in params.items() if k != "alphabet"}),
        rtol=1e-10, atol=1e-12)


def test_masked_path_with_progress_blocks(path, capsys):
    # verbose fills the Gram in row blocks that do not start at a tile's edge
    rng = np.random.default_rng(10)
    X = _seqs(rng, 30, 8, 40)
    path(True, 4, 4, 4)
    quiet = GappedKmerKernel(l=5, k=3, d=2).fit_transform(X)
    loud = GappedKmerKernel(l=5, k=3, d=2, verbose=2).fit_transform(X)
    np.testing.assert_array_equal(quiet, loud)


def test_masked_path_threads_do_not_change_the_result(path):
    rng = np.random.default_rng(11)
    X = _seqs(rng, 40, 20, 120)
    path(True, 8, 8, 8)
    one = GappedKmerKernel(l=8, k=5, d=3, n_jobs=1).fit_transform(X)
    two = GappedKmerKernel(l=8, k=5, d=3, n_jobs=2).fit_transform(X)
    np.testing.assert_array_equal(one, two)


# --- the choice of path -------------------------------------------------------------------------

def _choice(l, k, d, n_letters, n, length, diagonal=False, kernel_type="estimated_truncated"):
    plan = masked_plan(l, d, pair_weights(kernel_type, l, k, d, n_letters), n_letters, 256, 256)
    rows = np.full(n, length - l + 1)
    return masked_is_cheaper(plan, n_letters, rows, 2 * rows, 1, diagonal)


def test_the_cost_estimate_picks_the_masked_path_for_lsgkms_defaults():
    assert _choice(11, 7, 3, 4, 400, 300)
    assert _choice(11, 7, 4, 4, 2000, 300, kernel_type="gkm")


def test_the_cost_estimate_keeps_the_trie_walk_where_masks_explode():
    # 20 letters: few l-mers fill a trie level, while each mask sorts every l-mer
    assert not _choice(4, 2, 2, 20, 6, 25)
    # l = 11, d = 8: 1 981 masks against the l-mers of one sequence
    assert not _choice(11, 7, 8, 4, 1, 300, diagonal=True)


def test_tiles_shrink_until_every_thread_has_two():
    assert tile_size(20_000, 20_000, 2, 512) == (512, 512)
    assert tile_size(400, 400, 2, 512) == (256, 256)
    assert tile_size(30, 5, 8, 512) == (64, 64)


def test_an_lmer_that_does_not_fit_64_bits_takes_the_trie_walk():
    # 20 letters take 5 bits: 13 of them do not fit 64 bits packed (20^13 < 2^63 does)
    rng = np.random.default_rng(12)
    letters = "ACDEFGHIKLMNPQRSTVWY"
    X = _seqs(rng, 3, 14, 20, letters)
    params = dict(l=13, k=11, d=1, kernel_type="gkm", reverse_complement=False)
    kernel = GappedKmerKernel(alphabet="protein", **params)
    K = kernel.fit_transform(X)
    assert kernel.X_fit_.masked is None
    np.testing.assert_allclose(K, twin.gapped_kmer_kernel(X, alphabet=letters, **params),
                               rtol=1e-10)


def test_counts_that_might_overflow_take_the_trie_walk():
    plan = masked_plan(11, 3, pair_weights("estimated_truncated", 11, 7, 3, 4), 4, 256, 256)
    huge = np.array([2**28])
    assert not masked_is_cheaper(plan, 4, huge, 2 * huge, 255, diagonal=True)


# --- Ctrl-C -------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_jobs", [1, 2])
def test_ctrl_c_stops_the_masked_tiles(ctrl_c, n_jobs):
    # many sequences: the Gram's tiles take minutes
    setup = f"""
    import numpy as np
    from kernelkit.kernels import GappedKmerKernel
    from kernelkit.kernels._strings import _gapped_kmer
    _gapped_kmer.masked_is_cheaper = lambda *args, **kw: True
    X = ["".join(np.random.default_rng(0).choice(list("ACGT"), 2_000)) for _ in range(3_000)]
    run = lambda: GappedKmerKernel(d=4, n_jobs={n_jobs}).fit_transform(X)
    """
    after = """
    print("refit" if GappedKmerKernel(l=3, k=2).fit_transform(["ACGT"]).shape == (1, 1) else "")
    """
    assert ctrl_c(setup, after) == ["interrupted", "refit"]
