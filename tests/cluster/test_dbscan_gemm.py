"""DBSCAN on blocked GEMM distances: the same labels as the streamed KD-tree and scikit-learn."""

import numpy as np
import pytest
from kernelkit._core import _dbscan_expansion, _dbscan_gemm
from sklearn.cluster import DBSCAN as SklearnDBSCAN
from sklearn.datasets import load_digits

from kernelkit.cluster import DBSCAN
from kernelkit.reference import dbscan as reference
from kernelkit.utils._screening import float32_screening_copy

# the GEMM path's variants: float64 or float32-screened products; clusters read from the
# ε-graph's bitmap, or from passes against the core points (max_graph_bytes=0)
VARIANTS = [dict(), dict(max_graph_bytes=0), dict(screen=True),
            dict(screen=True, max_graph_bytes=0)]


def _brute(X, eps, min_samples, n_threads=2, screen=False, max_graph_bytes=-1):
    labels, is_core = np.empty(len(X), np.intp), np.empty(len(X), np.uint8)
    X32 = float32_screening_copy(X, min_features=0) if screen else None
    assert (X32 is not None) == screen
    n = _dbscan_gemm.dbscan_gemm(X, eps, min_samples, labels, is_core, n_threads=n_threads,
                                 X32=X32, max_graph_bytes=max_graph_bytes)
    return n, labels, is_core


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


@pytest.mark.parametrize("variant", VARIANTS)
def test_pairs_at_exactly_eps_are_neighbours(random_seed, variant):
    """Integer points at distance exactly ε (5 = |(3, 4)|) with a large offset: the GEMM value
    is rounded, the exact rule says ‖x − y‖ ≤ ε, as the streamed search does."""
    rng = np.random.default_rng(random_seed)
    base = rng.integers(0, 50, size=(60, 20)).astype(float) * 10 + 1000.0
    X = np.concatenate([base, base + np.r_[3.0, 4.0, np.zeros(18)]])
    labels, is_core = np.empty(len(X), np.intp), np.empty(len(X), np.uint8)
    n_tree = _dbscan_expansion.dbscan_dense(X, 5.0, 2, labels, is_core, algorithm="kd_tree")
    n_brute, brute_labels, brute_core = _brute(X, 5.0, 2, **variant)
    assert n_brute == n_tree >= 50
    np.testing.assert_array_equal(brute_labels, labels)
    np.testing.assert_array_equal(brute_core, is_core)


@pytest.mark.parametrize("variant", VARIANTS)
def test_blocks_threads_and_borders(random_seed, variant):
    """Several row blocks, 1 vs 2 threads, border points between clusters."""
    rng = np.random.default_rng(random_seed)
    X = np.concatenate([rng.normal(c, 1.0, size=(300, 20)) for c in (0.0, 2.5, 6.0)])
    eps, m = 4.2, 8
    want = [np.empty(len(X), np.intp), np.empty(len(X), np.uint8)]
    _dbscan_expansion.dbscan_dense(X, eps, m, *want, algorithm="kd_tree")
    for n_threads in (1, 2):
        _, labels, is_core = _brute(X, eps, m, n_threads=n_threads, **variant)
        np.testing.assert_array_equal(labels, want[0])
        np.testing.assert_array_equal(is_core, want[1])
    assert (want[1] == 0).any() and (want[0] >= 0).any()


def test_brute_needs_euclidean():
    with pytest.raises(ValueError, match="Euclidean"):
        DBSCAN(metric="manhattan", algorithm="brute").fit(np.eye(4))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n_features", [5, 20])
def test_matches_reference_twins(random_seed, n_features, variant):
    rng = np.random.default_rng(random_seed)
    X = np.concatenate([rng.normal(c, 1.0, size=(80, n_features)) for c in (0.0, 3.0, 9.0)])
    eps = 1.2 * np.sqrt(n_features)
    out = [(np.empty(len(X), np.intp), np.empty(len(X), np.uint8)) for _ in range(3)]
    n_ours, *out[0] = _brute(X, eps, 6, **variant)
    n_components = reference.dbscan_dense(X, eps, 6, *out[1], algorithm="brute")
    n_search = reference.dbscan_dense(X, eps, 6, *out[2])
    assert n_ours == n_components == n_search >= 2
    for twin in out[1:]:
        np.testing.assert_array_equal(out[0][0], twin[0])
        np.testing.assert_array_equal(out[0][1], twin[1])


def test_data_beyond_float32_products_clustered_in_double_precision():
    """Entries of 1e20 would overflow float32 products: the GEMM path then runs in double
    precision (tests/utils/test_screening.py tests the guard)."""
    X = np.random.default_rng(0).normal(size=(50, 20))
    clusters = np.concatenate([X, X + 30.0]) * 1e20
    model = DBSCAN(eps=2e21, min_samples=3).fit(clusters)
    tree = DBSCAN(eps=2e21, min_samples=3, algorithm="kd_tree").fit(clusters)
    np.testing.assert_array_equal(model.labels_, tree.labels_)
    assert model.labels_.max() == 1
