"""The KD-tree search: its tree against the sorting twin, its neighbours against the brute force
and the reference, float32 kept, thread counts, bad arrays."""

import numpy as np
import pytest
from kernelkit._core import _knn_brute, _knn_kd_tree

from kernelkit import reference
from kernelkit.neighbors import KNeighborsClassifier, KNeighborsRegressor
from kernelkit.neighbors._kd_tree import KDTreeIndex


def _tree_arrays(X, leaf_size):
    n_nodes = _knn_kd_tree.kd_tree_n_nodes(len(X), leaf_size)
    return [np.empty(len(X), dtype=np.intp), np.empty(n_nodes, dtype=np.intp),
            np.empty(n_nodes, dtype=np.intp), np.empty((n_nodes, X.shape[1])),
            np.empty((n_nodes, X.shape[1])), np.empty(X.size, dtype=X.dtype)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n_samples, leaf_size", [(1, 4), (7, 1), (100, 4), (1000, 64)])
def test_tree_equals_the_sorting_twin(dtype, n_samples, leaf_size, random_seed):
    # distinct coordinates: every median split is unique
    rng = np.random.default_rng(random_seed)
    X = rng.permutation(n_samples * 3).reshape(n_samples, 3).astype(dtype)
    ours, twin = _tree_arrays(X, leaf_size), _tree_arrays(X, leaf_size)
    _knn_kd_tree.build_kd_tree(X, *ours)
    reference.build_kd_tree(X, *twin)
    sample_at, start, end, points = ours[0], ours[1], ours[2], ours[5]
    for a, b in zip(ours[1:5], twin[1:5]):
        np.testing.assert_array_equal(a, b)
    first_leaf = (len(start) + 1) // 2 - 1
    assert np.all(end[first_leaf:] - start[first_leaf:] <= leaf_size)
    for node in range(first_leaf, len(start)):      # same rows per leaf, in any order
        s, e = start[node], end[node]
        assert set(sample_at[s:e]) == set(twin[0][s:e])
        np.testing.assert_array_equal(points[3 * s:3 * e].reshape(3, e - s).T, X[sample_at[s:e]])
    assert sorted(sample_at) == list(range(n_samples))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_tree_does_not_depend_on_the_threads_of_its_build(dtype):
    """The nodes of a level split in parallel (every level on a team when the work per thread
    is 0), the leaves turned by columns in parallel: the same arrays, bit for bit, with ties
    (small integers), whose order within a node follows the partitions' swaps."""
    rng = np.random.default_rng(4)
    X = rng.integers(-5, 6, size=(5000, 7)).astype(dtype)
    one, team = _tree_arrays(X, 8), _tree_arrays(X, 8)
    _knn_kd_tree.build_kd_tree(X, *one, n_threads=1)
    _knn_kd_tree.build_kd_tree(X, *team, n_threads=2, min_work_per_thread=0.0)
    for a, b in zip(one, team):
        np.testing.assert_array_equal(a, b)
    n_nodes = len(one[1])
    s, e = one[1][n_nodes - 1], one[2][n_nodes - 1]   # the last leaf: its rows by columns
    np.testing.assert_array_equal(one[5][7 * s:7 * e].reshape(7, e - s).T, X[one[0][s:e]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("leaf_size", [1, 3, 64])
def test_search_equals_the_reference_with_ties(dtype, leaf_size):
    rng = np.random.default_rng(0)
    # small integers: every distance is exact and many are tied (broken by the training index)
    X = rng.integers(-3, 4, size=(300, 4)).astype(dtype)
    Q = rng.integers(-4, 5, size=(50, 4)).astype(dtype)
    tree = KDTreeIndex(X, leaf_size)
    for k in (1, 7, 300):
        squared, indices = tree.query(Q, k, 2)
        want_idx, want_dist = np.empty((50, k), dtype=np.intp), np.empty((50, k))
        reference.knn_kd_tree(Q, tree.points, tree.sample_at, tree.node_start, tree.node_end,
                              tree.node_lo, tree.node_hi, want_idx, want_dist)
        np.testing.assert_array_equal(indices, want_idx)
        np.testing.assert_array_equal(squared, want_dist)


def test_search_equals_the_brute_force_bit_for_bit(random_seed):
    """Both sum the squared differences in double precision in feature order: same distances,
    same neighbours, on clustered data with duplicates."""
    rng = np.random.default_rng(random_seed)
    X = rng.normal(size=(3000, 8)) + 4 * rng.integers(0, 3, size=(3000, 1))
    X[10:20] = X[0]
    Q = np.vstack([rng.normal(size=(200, 8)) * 3, X[:5]])
    squared, indices = KDTreeIndex(X).query(Q, 12, 2)
    want_idx, want_dist = np.empty_like(indices), np.empty_like(squared)
    _knn_brute.knn_brute_screened(Q, X, Q.astype(np.float32), X.astype(np.float32), want_idx,
                                  want_dist, 2)
    np.testing.assert_array_equal(indices, want_idx)
    np.testing.assert_array_equal(squared, want_dist)


def test_float32_stays_float32_and_searches_in_double():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2000, 6)).astype(np.float32)
    y = np.arange(2000) % 4
    model = KNeighborsClassifier(10, algorithm="kd_tree").fit(X, y)
    assert model._search_index(1).tree.points.dtype == np.float32
    assert model._fit_X.dtype == np.float32
    Q = rng.normal(size=(30, 6)).astype(np.float32)
    distances, indices = model.kneighbors(Q)
    want_idx, want_dist = np.empty_like(indices), np.empty((30, 10))
    reference.knn_brute(Q, X, want_idx, want_dist)
    np.testing.assert_array_equal(indices, want_idx)
    np.testing.assert_allclose(distances, np.sqrt(want_dist), rtol=1e-14)


@pytest.mark.parametrize("estimator", [KNeighborsClassifier, KNeighborsRegressor])
def test_auto_tree_equals_brute_and_does_not_depend_on_threads(estimator):
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(25_000, 5)), rng.integers(0, 3, 25_000)
    Q = rng.normal(size=(300, 5))
    auto = estimator(6, n_jobs=2).fit(X, y)
    assert auto._search_index(2).tree is not None
    one = estimator(6, n_jobs=1).fit(X, y)
    brute = estimator(6, algorithm="brute").fit(X, y)
    for other in (one, brute):
        np.testing.assert_array_equal(auto.kneighbors(Q)[1], other.kneighbors(Q)[1])
        np.testing.assert_array_equal(auto.predict(Q), other.predict(Q))
    tree = estimator(6, algorithm="kd_tree").fit(X[:2000], y[:2000])
    brute.fit(X[:2000], y[:2000])
    np.testing.assert_array_equal(tree.kneighbors(return_distance=False),
                                  brute.kneighbors(return_distance=False))


def test_bad_arrays_are_refused():
    X = np.zeros((10, 2))
    with pytest.raises(ValueError, match="leaf size"):
        KDTreeIndex(X, 0)
    with pytest.raises(ValueError, match="leaf size"):
        KDTreeIndex(X, 10_000)
    tree = KDTreeIndex(X, 2)
    arrays = (tree.points, tree.sample_at, tree.node_start, tree.node_end, tree.node_lo,
              tree.node_hi)
    idx, dist = np.empty((3, 2), dtype=np.intp), np.empty((3, 2))
    with pytest.raises(ValueError, match="inconsistent"):
        _knn_kd_tree.knn_kd_tree(np.zeros((3, 3)), *arrays, idx, dist, 1)
    with pytest.raises(ValueError, match="inconsistent"):
        tree.query(np.zeros((3, 2)), 11, 1)
    arrays = _tree_arrays(X, 2)
    arrays[-1] = arrays[-1][:-1]
    with pytest.raises(ValueError, match="inconsistent"):
        _knn_kd_tree.build_kd_tree(X, *arrays)
    big_leaf = tree.node_end.copy()
    big_leaf[-1] += 1000
    with pytest.raises(ValueError, match="leaf holds more"):
        _knn_kd_tree.knn_kd_tree(np.zeros((3, 2)), tree.points, tree.sample_at, tree.node_start,
                                 big_leaf, tree.node_lo, tree.node_hi, idx, dist, 1)


def test_auto_keeps_the_tree_only_where_it_saves_work():
    """Clustered rows: the tree computes a few per cent of the distances and is kept; a single
    Gaussian in 16 dimensions: most of them, and the brute force is taken. The count is the
    same for any thread count."""
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 20, 20_000)
    clustered = rng.normal(scale=3.0, size=(20, 10))[labels] + rng.normal(size=(20_000, 10))
    tree = KNeighborsClassifier(10).fit(clustered, labels)._search_index(2).tree
    fractions = [tree.scanned_fraction(clustered[:300], 10, n) for n in (1, 2)]
    assert fractions[0] == fractions[1] < 0.1
    unstructured = rng.normal(size=(20_000, 16))
    assert KNeighborsClassifier(10).fit(unstructured, labels)._search_index(2).tree is None
    assert KNeighborsClassifier(10, algorithm="kd_tree").fit(unstructured, labels).\
        _search_index(2).tree.scanned_fraction(unstructured[:50], 10, 2) > 0.1
