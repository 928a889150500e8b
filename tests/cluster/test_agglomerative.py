"""Agglomerative clustering: oracles are SciPy's linkage, the reference twin (Kruskal and the
greedy closest-pair loop), Ward's inertia identity and the MST facts of Sangnier §2.3.2."""

import numpy as np
import pytest
from scipy.cluster.hierarchy import fcluster, is_valid_linkage, linkage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree
from scipy.spatial.distance import pdist, squareform
from sklearn.datasets import load_iris
from sklearn.metrics import adjusted_rand_score

from kernelkit import reference
from kernelkit._core import _linkage
from kernelkit.cluster import AgglomerativeClustering

METHODS = ["single", "complete", "average", "ward"]


@pytest.mark.parametrize("method, metric", [
    (method, metric) for method in METHODS for metric in ("euclidean", "manhattan", "cosine")
    if method != "ward" or metric == "euclidean"  # Ward is defined for Euclidean distances
])
def test_linkage_matrix_equals_scipy(random_seed, method, metric):
    X = np.random.default_rng(random_seed).normal(size=(150, 4))
    model = AgglomerativeClustering(n_clusters=3, linkage=method, metric=metric).fit(X)
    expected = linkage(X, method, metric={"manhattan": "cityblock"}.get(metric, metric))
    # distinct distances: no ties, so the matrices agree entry by entry
    np.testing.assert_allclose(model.linkage_matrix_, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.children_, expected[:, :2].astype(int))
    flat = fcluster(expected, 3, criterion="maxclust")
    assert adjusted_rand_score(model.labels_, flat) == 1.0


@pytest.mark.parametrize("method", METHODS)
def test_linkage_equals_scipy_on_iris_with_ties(method):
    # iris has duplicate rows and many equal distances: merge heights and partitions must agree
    # (the order of equal-height merges may differ)
    X = load_iris().data
    ours = AgglomerativeClustering(n_clusters=3, linkage=method).fit(X)
    expected = linkage(X, method)
    np.testing.assert_allclose(ours.distances_, expected[:, 2], rtol=1e-12, atol=1e-12)
    for k in (2, 3, 5, 10):
        labels = AgglomerativeClustering(n_clusters=k, linkage=method).fit(X).labels_
        if method == "single" or len(np.unique(expected[:, 2])) == len(expected):
            assert adjusted_rand_score(labels, fcluster(expected, k, "maxclust")) == 1.0
        else:
            assert len(np.unique(labels)) == k


@pytest.mark.parametrize("method", ["complete", "average", "ward"])
def test_nn_chain_matches_reference(random_seed, method):
    X = np.random.default_rng(random_seed).normal(size=(60, 3))
    Z = np.empty((59, 4))
    Z_ref = np.empty((59, 4))
    _linkage.nn_chain_linkage(pdist(X), 60, Z, method)
    reference.nn_chain_linkage(pdist(X), 60, Z_ref, method)
    np.testing.assert_allclose(Z, Z_ref, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine", "precomputed"])
def test_mst_single_linkage_matches_reference(random_seed, metric):
    X = np.random.default_rng(random_seed).normal(size=(80, 3))
    if metric == "precomputed":
        X = squareform(pdist(X, "cityblock"))
    Z = np.empty((79, 4))
    Z_ref = np.empty((79, 4))
    _linkage.mst_single_linkage(X, Z, metric)
    reference.mst_single_linkage(X, Z_ref, metric)
    np.testing.assert_allclose(Z, Z_ref, rtol=1e-12, atol=1e-12)


def test_single_linkage_heights_are_the_mst_edge_weights(rng):
    # Sangnier §2.3.2: Kruskal on the complete graph is single linkage
    X = rng.normal(size=(120, 2))
    model = AgglomerativeClustering(n_clusters=4, linkage="single").fit(X)
    mst = minimum_spanning_tree(squareform(pdist(X))).data
    np.testing.assert_allclose(np.sort(model.distances_), np.sort(mst), rtol=1e-12)


def test_cutting_mst_largest_edges_gives_single_linkage_clusters(rng):
    X = rng.normal(size=(100, 2))
    k = 5
    mst = minimum_spanning_tree(squareform(pdist(X))).tocoo()
    keep = np.argsort(mst.data)[: len(mst.data) - (k - 1)]
    forest = coo_matrix((mst.data[keep], (mst.row[keep], mst.col[keep])), shape=(100, 100))
    _, components = connected_components(forest, directed=False)
    labels = AgglomerativeClustering(n_clusters=k, linkage="single").fit(X).labels_
    assert adjusted_rand_score(labels, components) == 1.0


def test_ward_height_is_the_inertia_increase(rng):
    # SciPy's (and our) Ward height is sqrt(2 ΔI), ΔI = I(A∪B) − I(A) − I(B) (Sangnier §2.3.1)
    X = rng.normal(size=(40, 3))
    Z = AgglomerativeClustering(n_clusters=2, linkage="ward").fit(X).linkage_matrix_
    members = {i: [i] for i in range(40)}

    def inertia(rows):
        return ((X[rows] - X[rows].mean(axis=0)) ** 2).sum()

    for k, (a, b, height, size) in enumerate(Z):
        A, B = members.pop(int(a)), members.pop(int(b))
        increase = inertia(A + B) - inertia(A) - inertia(B)
        np.testing.assert_allclose(height, np.sqrt(2 * increase), rtol=1e-10)
        assert size == len(A) + len(B)
        members[40 + k] = A + B


@pytest.mark.parametrize("method", METHODS)
def test_heights_are_non_decreasing(rng, method):
    X = rng.normal(size=(200, 5))
    assert np.all(np.diff(AgglomerativeClustering(linkage=method).fit(X).distances_) >= 0)


def test_distance_threshold_and_precomputed(rng):
    X = rng.normal(size=(100, 2))
    Z = linkage(X, "average")
    threshold = float(np.median(Z[:, 2]))
    model = AgglomerativeClustering(n_clusters=None, distance_threshold=threshold,
                                    linkage="average").fit(X)
    assert model.n_clusters_ == np.count_nonzero(Z[:, 2] >= threshold) + 1
    expected = fcluster(Z, model.n_clusters_, "maxclust")
    assert adjusted_rand_score(model.labels_, expected) == 1.0
    D = squareform(pdist(X))
    for method in METHODS[:3]:
        a = AgglomerativeClustering(4, linkage=method, metric="precomputed").fit(D)
        b = AgglomerativeClustering(4, linkage=method).fit(X)
        np.testing.assert_allclose(a.linkage_matrix_, b.linkage_matrix_, rtol=1e-12)


def test_labels_numbered_by_first_sample():
    X = np.array([[10.0], [0.0], [10.1], [0.1]])
    np.testing.assert_array_equal(AgglomerativeClustering(2).fit(X).labels_, [0, 1, 0, 1])


def test_bad_input():
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match="Exactly one"):
        AgglomerativeClustering(n_clusters=2, distance_threshold=1.0).fit(X)
    with pytest.raises(ValueError, match="Exactly one"):
        AgglomerativeClustering(n_clusters=None).fit(X)
    with pytest.raises(ValueError, match="Ward"):
        AgglomerativeClustering(linkage="ward", metric="manhattan").fit(X)
    with pytest.raises(ValueError, match="larger than n_samples"):
        AgglomerativeClustering(n_clusters=6).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        AgglomerativeClustering().fit(np.array([[0.0], [np.nan]]))
    with pytest.raises(ValueError, match="square"):
        AgglomerativeClustering(linkage="single", metric="precomputed").fit(np.zeros((3, 2)))
    with pytest.raises(ValueError, match="negative"):
        AgglomerativeClustering(linkage="single", metric="precomputed").fit(-np.ones((3, 3)))
    with pytest.raises(ValueError, match="symmetric"):
        AgglomerativeClustering(linkage="average", metric="precomputed").fit(
            np.array([[0.0, 1.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="diagonal"):
        AgglomerativeClustering(linkage="average", metric="precomputed").fit(np.ones((3, 3)))
    with pytest.raises(ValueError, match="linkage"):
        AgglomerativeClustering(linkage="centroid").fit(X)


@pytest.mark.parametrize("linkage, n_lines", [("ward", 2), ("single", 1)])
def test_verbose_prints_the_stages_and_changes_nothing(linkage, n_lines, capsys):
    X = load_iris().data
    quiet = AgglomerativeClustering(3, linkage=linkage).fit(X)
    assert capsys.readouterr().err == ""
    loud = AgglomerativeClustering(3, linkage=linkage, verbose=1).fit(X)
    np.testing.assert_array_equal(quiet.linkage_matrix_, loud.linkage_matrix_)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == n_lines
    assert lines[-1].startswith(f"[AgglomerativeClustering] {linkage} linkage of 150 samples, ")


def test_prim_with_infinite_distances_gives_a_valid_tree():
    # with no finite distance from the tree to the remaining points, Prim's step still needs a
    # valid nearest tree point to index with; the infinite edge is merged last
    D = np.ones((6, 6))
    D[:3, 3:] = D[3:, :3] = np.inf
    np.fill_diagonal(D, 0.0)
    Z = np.empty((5, 4))
    _linkage.mst_single_linkage(D, Z, "precomputed")
    assert is_valid_linkage(Z)
    assert np.sum(np.isinf(Z[:, 2])) == 1 and Z[-1, 3] == 6


@pytest.mark.parametrize("method", ["complete", "average", "ward"])
def test_nn_chain_with_no_finite_distance_merges_distinct_clusters(method):
    # with every distance infinite, a stale index read past the condensed matrix and merged a
    # cluster with itself
    n = 5
    Z = np.empty((n - 1, 4))
    _linkage.nn_chain_linkage(np.full(n * (n - 1) // 2, np.inf), n, Z, method)
    assert is_valid_linkage(Z)
    assert np.all(Z[:, 0] != Z[:, 1]) and Z[-1, 3] == n
