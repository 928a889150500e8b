"""DBSCAN on blocked GEMM distances: the same labels as the streamed KD-tree and scikit-learn."""

import numpy as np
import pytest
from sklearn.cluster import DBSCAN as SklearnDBSCAN
from sklearn.datasets import load_digits

from kernelkit._core import _dbscan_inner
from kernelkit.cluster import DBSCAN
from kernelkit.reference import dbscan as reference


@pytest.mark.parametrize("eps", [15.0, 18.0, 22.0, 25.0])
def test_digits_same_labels_as_kd_tree_and_scikit_learn(eps):
    X = load_digits().data
    brute = DBSCAN(eps=eps, min_samples=5, algorithm="brute", n_jobs=2).fit(X)
    auto = DBSCAN(eps=eps, min_samples=5, n_jobs=1).fit(X)
    tree = DBSCAN(eps=eps, min_samples=5, algorithm="kd_tree").fit(X)
    peer = SklearnDBSCAN(eps=eps, min_samples=5).fit(X)
    assert brute.labels_.max() >= 3
    for labels in (auto.labels_, tree.labels_, peer.labels_):
        np.testing.assert_array_equal(brute.labels_, labels)
    np.testing.assert_array_equal(brute.core_sample_indices_, peer.core_sample_indices_)


def test_pairs_at_exactly_eps_are_neighbours(random_seed):
    """Integer points at distance exactly ε (5 = |(3, 4)|) with a large offset: the GEMM value
    is rounded, the exact rule says ‖x − y‖ ≤ ε, as the streamed search does."""
    rng = np.random.default_rng(random_seed)
    base = rng.integers(0, 50, size=(60, 20)).astype(float) * 10 + 1000.0
    X = np.concatenate([base, base + np.r_[3.0, 4.0, np.zeros(18)]])
    out = [(np.empty(len(X), np.intp), np.empty(len(X), np.uint8)) for _ in range(2)]
    n_brute = _dbscan_inner.dbscan_dense(X, 5.0, 2, *out[0], algorithm="brute", n_threads=2)
    n_tree = _dbscan_inner.dbscan_dense(X, 5.0, 2, *out[1], algorithm="kd_tree")
    assert n_brute == n_tree >= 50
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_array_equal(out[0][1], out[1][1])


def test_blocks_threads_and_borders(random_seed):
    """Several row blocks, 1 vs 2 threads, border points between clusters."""
    rng = np.random.default_rng(random_seed)
    X = np.concatenate([rng.normal(c, 1.0, size=(300, 20)) for c in (0.0, 2.5, 6.0)])
    eps, m = 4.2, 8
    want = [np.empty(len(X), np.intp), np.empty(len(X), np.uint8)]
    _dbscan_inner.dbscan_dense(X, eps, m, *want, algorithm="kd_tree")
    for n_threads in (1, 2):
        got = [np.empty(len(X), np.intp), np.empty(len(X), np.uint8)]
        _dbscan_inner.dbscan_dense(X, eps, m, *got, algorithm="brute", n_threads=n_threads)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    assert (want[1] == 0).any() and (want[0] >= 0).any()


def test_brute_needs_euclidean():
    with pytest.raises(ValueError, match="Euclidean"):
        DBSCAN(metric="manhattan", algorithm="brute").fit(np.eye(4))


@pytest.mark.parametrize("n_features", [5, 20])
def test_matches_reference_twins(random_seed, n_features):
    rng = np.random.default_rng(random_seed)
    X = np.concatenate([rng.normal(c, 1.0, size=(80, n_features)) for c in (0.0, 3.0, 9.0)])
    eps = 1.2 * np.sqrt(n_features)
    out = [(np.empty(len(X), np.intp), np.empty(len(X), np.uint8)) for _ in range(3)]
    n_ours = _dbscan_inner.dbscan_dense(X, eps, 6, *out[0], algorithm="brute", n_threads=2)
    n_components = reference.dbscan_dense(X, eps, 6, *out[1], algorithm="brute")
    n_search = reference.dbscan_dense(X, eps, 6, *out[2])
    assert n_ours == n_components == n_search >= 2
    for twin in out[1:]:
        np.testing.assert_array_equal(out[0][0], twin[0])
        np.testing.assert_array_equal(out[0][1], twin[1])
