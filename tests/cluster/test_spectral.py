"""Similarity graphs, Laplacians (Sangnier §2.2.3–2.2.5, exact identities of the coverage table
B11–B12) and spectral clustering (Algorithms 11–13)."""


import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components
from sklearn.datasets import make_circles, make_moons
from sklearn.metrics import adjusted_rand_score

from kernelkit.cluster import SpectralClustering
from kernelkit.utils._spectral_graph import (
    graph_laplacian,
    laplacian_eigenvectors,
    n_graph_components,
    similarity_graph,
)

LAPLACIANS = ["unnormalized", "random_walk", "symmetric"]


def _random_graph(rng, n=30, density=0.3):
    W = rng.uniform(size=(n, n)) * (rng.uniform(size=(n, n)) < density)
    W = np.triu(W, 1)
    return W + W.T


def _dense(M):
    return M.toarray() if sp.issparse(M) else M


@pytest.mark.parametrize("affinity", ["rbf", "nearest_neighbors", "mutual_nearest_neighbors",
                                      "epsilon"])
def test_graphs_are_symmetric_non_negative_without_self_loops(rng, affinity):
    X = rng.normal(size=(80, 2))
    W = _dense(similarity_graph(X, affinity, n_neighbors=5, eps=0.5))
    np.testing.assert_array_equal(W, W.T)
    assert W.min() >= 0 and np.all(np.diag(W) == 0)
    assert sp.issparse(similarity_graph(X, affinity, eps=0.5)) == (affinity != "rbf")


def test_knn_graphs_and_mutual_subgraph(rng):
    X = rng.normal(size=(60, 3))
    k = 4
    knn = _dense(similarity_graph(X, "nearest_neighbors", n_neighbors=k))
    mutual = _dense(similarity_graph(X, "mutual_nearest_neighbors", n_neighbors=k))
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    np.fill_diagonal(D, np.inf)
    nearest = np.zeros_like(D, dtype=bool)
    nearest[np.arange(60)[:, None], np.argsort(D, axis=1)[:, :k]] = True
    np.testing.assert_array_equal(knn, (nearest | nearest.T).astype(float))
    np.testing.assert_array_equal(mutual, (nearest & nearest.T).astype(float))
    assert np.all(mutual <= knn)


def test_default_eps_is_the_longest_mst_edge(rng):
    # Sangnier §2.2.7: the longest MST edge connects the ε-graph, anything smaller does not
    X = rng.normal(size=(100, 2))
    W = similarity_graph(X, "epsilon")
    assert connected_components(W, directed=False)[0] == 1
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    longest = D[sp.triu(W).nonzero()].max()
    smaller = sp.csr_matrix((D < longest) & (D > 0))
    assert connected_components(smaller, directed=False)[0] > 1


@pytest.mark.parametrize("sparse", [False, True])
def test_laplacian_identities(rng, sparse):
    W = _random_graph(rng)
    W = sp.csr_matrix(W) if sparse else W
    L, degrees = graph_laplacian(W, "unnormalized")
    L_s, _ = graph_laplacian(W, "symmetric")
    L_w, _ = graph_laplacian(W, "random_walk")
    assert sp.issparse(L) == sparse and sp.issparse(L_s) == sparse
    L, L_s, L_w, Wd = _dense(L), _dense(L_s), _dense(L_w), _dense(W)
    u = rng.normal(size=30)
    diff = u[:, None] - u[None, :]
    np.testing.assert_allclose(u @ L @ u, 0.5 * (Wd * diff**2).sum(), rtol=1e-12)
    scaled = u / np.sqrt(degrees)
    np.testing.assert_allclose(u @ L_s @ u,
                               0.5 * (Wd * (scaled[:, None] - scaled[None, :]) ** 2).sum(),
                               rtol=1e-12)
    ones = np.ones(30)
    np.testing.assert_allclose(L @ ones, 0, atol=1e-12)
    np.testing.assert_allclose(L_w @ ones, 0, atol=1e-12)
    np.testing.assert_allclose(L_s @ np.sqrt(degrees), 0, atol=1e-12)
    assert np.linalg.eigvalsh(L).min() > -1e-12 and np.linalg.eigvalsh(L_s).min() > -1e-12


@pytest.mark.parametrize("solver", ["dense", "arpack", "lobpcg"])
def test_random_walk_vectors_solve_the_generalised_problem(rng, solver):
    # Sangnier Prop 61: (λ, u) eigenpair of L_w ⇔ L u = λ D u ⇔ (λ, D^{1/2} u) of L_s
    W = sp.csr_matrix(_random_graph(rng, n=60, density=0.2))
    values, U = laplacian_eigenvectors(W, 3, "random_walk", eigen_solver=solver, random_state=0,
                                       tol=1e-10 if solver == "lobpcg" else 0.0)
    L, degrees = graph_laplacian(W, "unnormalized")
    np.testing.assert_allclose(L @ U, degrees[:, None] * U * values, atol=1e-6)
    dense_values = np.linalg.eigvalsh(_dense(graph_laplacian(W, "symmetric")[0]))[:3]
    np.testing.assert_allclose(values, np.maximum(dense_values, 0), atol=1e-8)


def test_eigenvalue_zero_multiplicity_counts_components():
    # Sangnier Prop 62, with indicator vectors spanning the null space of L and L_w
    rng = np.random.default_rng(0)
    blocks = [_random_graph(rng, n, 0.8) for n in (5, 8, 6)]
    W = sp.block_diag(blocks).tocsr()
    assert n_graph_components(W) == 3
    values, U = laplacian_eigenvectors(W, 4, "unnormalized")
    np.testing.assert_allclose(values[:3], 0, atol=1e-10)
    assert values[3] > 1e-3
    starts = np.cumsum([0, 5, 8])
    for start, n in zip(starts, (5, 8, 6)):
        block = U[start:start + n, :3]
        np.testing.assert_allclose(block, np.broadcast_to(block[0], block.shape), atol=1e-10)


@pytest.mark.parametrize("laplacian", LAPLACIANS)
def test_recovers_connected_components(laplacian):
    # coverage entry B15: with exactly k components, all three algorithms find them
    rng = np.random.default_rng(1)
    W = sp.block_diag([_random_graph(rng, n, 0.8) for n in (10, 15, 12)]).tocsr()
    truth = np.repeat([0, 1, 2], [10, 15, 12])
    labels = SpectralClustering(3, affinity="precomputed", laplacian=laplacian,
                                random_state=0, n_jobs=1).fit(W).labels_
    assert adjusted_rand_score(truth, labels) == 1.0


@pytest.mark.parametrize("laplacian, affinity, params", [
    # every Laplacian on the k-NN graph, every other graph with one Laplacian
    ("unnormalized", "nearest_neighbors", dict(n_neighbors=10)),
    ("random_walk", "nearest_neighbors", dict(n_neighbors=10)),
    ("symmetric", "nearest_neighbors", dict(n_neighbors=10)),
    ("random_walk", "mutual_nearest_neighbors", dict(n_neighbors=15)),
    ("symmetric", "epsilon", dict(eps=0.2)),
    ("unnormalized", "rbf", dict(gamma=50.0)),
])
@pytest.mark.parametrize("shape", ["moons", "circles"])
def test_recovers_moons_and_circles(laplacian, affinity, params, shape):
    if shape == "moons":
        X, y = make_moons(300, noise=0.05, random_state=0)
    else:
        X, y = make_circles(300, noise=0.03, factor=0.5, random_state=0)
    labels = SpectralClustering(2, affinity=affinity, laplacian=laplacian, random_state=0,
                                n_init=3, n_jobs=1, **params).fit(X).labels_
    assert adjusted_rand_score(y, labels) >= 0.95


def test_relaxed_ratiocut_is_a_lower_bound(rng):
    # Ky Fan (Sangnier Thm 59): Σ of the k smallest eigenvalues of L ≤ RatioCut of any partition
    W = _random_graph(rng, n=25, density=0.4)
    L, _ = graph_laplacian(W)
    bound = np.linalg.eigvalsh(L)[:3].sum()
    for _ in range(20):
        labels = rng.integers(0, 3, size=25)
        H = np.stack([(labels == j) / np.sqrt(max((labels == j).sum(), 1)) for j in range(3)], 1)
        assert bound <= np.trace(H.T @ L @ H) + 1e-10


def test_sparse_graph_stays_sparse(rng):
    X = rng.normal(size=(1500, 2))
    model = SpectralClustering(3, affinity="nearest_neighbors", random_state=0, n_init=1,
                               n_jobs=1).fit(X)
    assert sp.issparse(model.affinity_matrix_)
    assert model.affinity_matrix_.nnz < 15 * 1500
    np.testing.assert_allclose(np.linalg.norm(
        SpectralClustering(3, affinity="nearest_neighbors", laplacian="symmetric",
                           random_state=0, n_init=1, n_jobs=1).fit(X).embedding_, axis=1), 1.0)


def test_warns_when_the_graph_has_more_components_than_clusters():
    W = sp.block_diag([np.ones((4, 4)) - np.eye(4)] * 3).tocsr()
    with pytest.warns(UserWarning, match="3 connected components"):
        SpectralClustering(2, affinity="precomputed", random_state=0, n_jobs=1).fit(W)


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="NaN"):
        SpectralClustering(2).fit(np.array([[0.0, np.nan], [1.0, 1.0], [2.0, 2.0]]))
    with pytest.raises(ValueError, match="larger than n_samples"):
        SpectralClustering(11).fit(X)
    with pytest.raises(ValueError, match="square"):
        SpectralClustering(2, affinity="precomputed").fit(X)
    with pytest.raises(ValueError, match="negative"):
        SpectralClustering(2, affinity="precomputed").fit(-np.ones((4, 4)))
    with pytest.raises(ValueError, match="symmetric"):
        SpectralClustering(2, affinity="precomputed").fit(np.triu(np.ones((4, 4))))
    with pytest.raises(ValueError, match="laplacian"):
        SpectralClustering(2, laplacian="normalized").fit(X)


def test_verbose_prints_the_stages_and_changes_nothing(capsys):
    X, _ = make_moons(200, noise=0.05, random_state=0)
    params = dict(n_clusters=2, affinity="nearest_neighbors", n_init=3, random_state=0)
    quiet = SpectralClustering(**params).fit(X)
    assert capsys.readouterr().err == ""
    loud = SpectralClustering(verbose=1, **params).fit(X)
    np.testing.assert_array_equal(quiet.labels_, loud.labels_)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" ")[1] for line in lines] == ["similarity", "2", "k-means,"]
    SpectralClustering(verbose=2, **params).fit(X)
    lines = capsys.readouterr().err.splitlines()
    assert sum(line.startswith("[KMeans] init ") for line in lines) == 3 and len(lines) == 6


def test_malformed_sparse_affinity_is_refused(sparse_inputs):
    """Inconsistent index arrays of a precomputed affinity are refused before scipy reads
    them."""
    sparse_inputs.assert_refused(f"from kernelkit.cluster import SpectralClustering\n{sparse_inputs.KNN_AFFINITY}", ["SpectralClustering(2, affinity='precomputed', random_state=0).fit(X)"])


def test_every_sparse_layout_gives_the_clusters_of_the_csr_affinity(rng, sparse_inputs):
    blocks = sp.block_diag([np.ones((5, 5)), np.ones((4, 4)), np.ones((6, 6))], format="csr")
    expected = SpectralClustering(3, affinity="precomputed", random_state=0).fit(blocks)
    for case, given in sparse_inputs.equivalent(blocks):
        labels = SpectralClustering(3, affinity="precomputed", random_state=0).fit(given).labels_
        np.testing.assert_array_equal(labels, expected.labels_, err_msg=case)
