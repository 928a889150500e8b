"""Spectral embedding (Sangnier §3.3.1, coverage entry C9)."""


import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_swiss_roll
from sklearn.manifold import SpectralEmbedding as SklearnSpectralEmbedding

from kernelkit.cluster import SpectralClustering
from kernelkit.manifold import SpectralEmbedding


def _aligned(A, B):
    """Columns of A with the signs of B's columns."""
    return A * np.sign((A * B).sum(axis=0))


@pytest.mark.parametrize("affinity", ["rbf", "precomputed"])
def test_matches_sklearn_for_the_random_walk_laplacian(affinity):
    X, _ = make_swiss_roll(300, random_state=0)
    X = X / X.std()
    if affinity == "precomputed":
        data = SpectralEmbedding(affinity="nearest_neighbors", n_neighbors=8).fit(X)
        X = data.affinity_matrix_
    ours = SpectralEmbedding(3, affinity=affinity, gamma=0.5).fit_transform(X)
    theirs = SklearnSpectralEmbedding(3, affinity=affinity, gamma=0.5,
                                      random_state=0).fit_transform(X)
    np.testing.assert_allclose(_aligned(ours, theirs), theirs, atol=1e-8)


@pytest.mark.parametrize("laplacian", ["unnormalized", "random_walk"])
def test_disconnected_graph_gives_piecewise_constant_embedding(laplacian):
    blocks = [np.ones((n, n)) - np.eye(n) for n in (4, 6, 5)]
    W = sp.block_diag(blocks).tocsr()
    with pytest.warns(UserWarning, match="not connected"):
        model = SpectralEmbedding(3, affinity="precomputed", laplacian=laplacian,
                                  drop_first=False).fit(W)
    np.testing.assert_allclose(model.eigenvalues_, 0, atol=1e-10)
    for start, n in ((0, 4), (4, 6), (10, 5)):
        block = model.embedding_[start:start + n]
        np.testing.assert_allclose(block, np.broadcast_to(block[0], block.shape), atol=1e-10)


def test_linear_kernel_with_constant_degree_matches_pca_directions():
    # Sangnier Remark 3.1.5: with W = K = XXᵀ and D = γI, the minor eigenvectors of L = D − W
    # are the leading eigenvectors of K. Rows ±y_i of unit norm give K 1 = 0 and K_ii = 1, so
    # W = K + c·11ᵀ without its diagonal has constant degrees (n−1)c − 1, is non-negative for
    # c ≥ 1, and L = ncI − K − c11ᵀ: apart from the constant vector (eigenvalue 0, dropped),
    # its minor eigenvectors are K's leading ones.
    rng = np.random.default_rng(0)
    Y = rng.normal(size=(20, 3))
    Y /= np.linalg.norm(Y, axis=1, keepdims=True)
    X = np.vstack([Y, -Y])
    K = X @ X.T
    model = SpectralEmbedding(3, affinity="precomputed", laplacian="unnormalized").fit(K + 1.5)
    leading = np.linalg.eigh(K)[1][:, ::-1][:, :3]
    np.testing.assert_allclose(np.abs(leading.T @ model.embedding_), np.eye(3), atol=1e-8)


def test_first_coordinate_orders_a_path():
    X = np.arange(30.0).reshape(-1, 1) ** 1.1
    # the 1-NN graph of increasingly spaced points is a path: its Fiedler vector is monotone
    Y = SpectralEmbedding(1, n_neighbors=1).fit_transform(X)[:, 0]
    assert np.all(np.diff(Y) > 0) or np.all(np.diff(Y) < 0)


def test_embedding_is_what_spectral_clustering_clusters():
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(50, 2)), rng.normal(size=(50, 2)) + 6])
    embedding = SpectralEmbedding(2, affinity="rbf", gamma=0.5, drop_first=False).fit(X)
    clustering = SpectralClustering(2, affinity="rbf", gamma=0.5, random_state=0,
                                    n_jobs=1).fit(X)
    np.testing.assert_allclose(embedding.embedding_, clustering.embedding_, atol=1e-10)


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.raises(ValueError, match="larger than n_samples"):
        SpectralEmbedding(6).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        SpectralEmbedding().fit(np.array([[np.nan, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    with pytest.raises(ValueError, match="symmetric"):
        SpectralEmbedding(affinity="precomputed").fit(np.triu(np.ones((5, 5))))


def test_values_near_the_float_maximum_are_refused(near_float_max):
    # the epsilon graph's squared distances overflowed to inf (a NaN radius)
    with pytest.raises(ValueError, match="overflow float64"):
        SpectralEmbedding(affinity="epsilon", random_state=0).fit(near_float_max())


def test_malformed_sparse_affinity_is_refused(sparse_inputs):
    """Inconsistent index arrays of a precomputed affinity are refused before scipy reads
    them."""
    sparse_inputs.assert_refused(f"from kernelkit.manifold import SpectralEmbedding\n{sparse_inputs.KNN_AFFINITY}", ["SpectralEmbedding(2, affinity='precomputed', random_state=0).fit(X)"])
