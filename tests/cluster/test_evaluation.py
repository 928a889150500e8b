"""Silhouette and Calinski–Harabasz (Sangnier §2.5.2–2.5.3) against scikit-learn."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn import metrics
from sklearn.datasets import load_iris, make_blobs

from kernelkit.cluster import calinski_harabasz_score, silhouette_samples, silhouette_score


def _labelled(seed):
    X, y = make_blobs(300, centers=4, n_features=3, cluster_std=2.0, random_state=seed)
    return X, y


@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "cosine"])
@pytest.mark.parametrize("chunk_size", [7, 64, None])
def test_silhouette_equals_sklearn(random_seed, metric, chunk_size):
    X, y = _labelled(random_seed)
    ours = silhouette_samples(X, y, metric=metric, chunk_size=chunk_size)
    np.testing.assert_allclose(ours, metrics.silhouette_samples(X, y, metric=metric),
                               rtol=0, atol=1e-10)
    assert abs(silhouette_score(X, y, metric=metric, chunk_size=chunk_size)
               - metrics.silhouette_score(X, y, metric=metric)) <= 1e-10
    assert ours.min() >= -1 and ours.max() <= 1


def test_silhouette_on_iris_with_precomputed_distances_and_singletons():
    X, y = load_iris(return_X_y=True)
    y = y.copy()
    y[0] = 3  # a singleton cluster: s = 0
    D = metrics.pairwise_distances(X)
    ours = silhouette_samples(D, y, metric="precomputed", chunk_size=16)
    np.testing.assert_allclose(ours, metrics.silhouette_samples(D, y, metric="precomputed"),
                               atol=1e-10)
    assert ours[0] == 0.0
    assert abs(silhouette_score(X, y, sample_size=100, random_state=0)
               - metrics.silhouette_score(X, y, sample_size=100, random_state=0)) <= 1e-10


def test_far_tight_clusters_score_near_one():
    X = np.vstack([np.zeros((10, 2)), np.full((10, 2), 100.0)])
    X += np.random.default_rng(0).normal(scale=1e-3, size=X.shape)
    assert silhouette_score(X, np.repeat([0, 1], 10)) > 0.999


def test_calinski_harabasz_equals_sklearn_and_splits_variance(random_seed):
    X, y = _labelled(random_seed)
    np.testing.assert_allclose(calinski_harabasz_score(X, y),
                               metrics.calinski_harabasz_score(X, y), rtol=1e-10)
    # Sangnier §2.5.3: b + w = total variance
    n, k = len(y), 4
    w_times_n = sum(((X[y == j] - X[y == j].mean(axis=0)) ** 2).sum() for j in range(k))
    total = ((X - X.mean(axis=0)) ** 2).sum()
    score = calinski_harabasz_score(X, y)
    np.testing.assert_allclose(score, (total - w_times_n) / w_times_n * (n - k) / (k - 1),
                               rtol=1e-10)


def test_bad_labels():
    X = np.zeros((5, 2))
    for function in (silhouette_samples, calinski_harabasz_score):
        with pytest.raises(ValueError, match="Number of labels"):
            function(X, np.zeros(5))
        with pytest.raises(ValueError, match="inconsistent"):
            function(X, [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        silhouette_samples(np.array([[np.nan], [1.0], [2.0]]), [0, 1, 1])
    with pytest.raises(ValueError, match="diagonal"):
        silhouette_samples(np.ones((3, 3)), [0, 1, 1], metric="precomputed")
    with pytest.raises(ValueError, match="square"):
        silhouette_samples(np.ones((3, 2)), [0, 1, 1], metric="precomputed")


@pytest.mark.parametrize("metric", ["euclidean", "precomputed"])
def test_malformed_sparse_X_is_refused(metric, sparse_inputs):
    sparse_inputs.assert_refused(f"""
        from sklearn.metrics import pairwise_distances
        from kernelkit.cluster import silhouette_samples, silhouette_score
        Z = np.random.default_rng(0).normal(size=(12, 3))
        labels = np.arange(12) % 3
        def make():
            return sp.csr_matrix(pairwise_distances(Z) if "{metric}" == "precomputed" else Z)
        """, [f"silhouette_samples(X, labels, metric='{metric}')",
              f"silhouette_score(X, labels, metric='{metric}', sample_size=10, random_state=0)"])


def test_every_sparse_layout_gives_the_silhouette_of_the_csr_matrix(sparse_inputs):
    X = np.random.default_rng(0).normal(size=(15, 3))
    labels = np.arange(15) % 3
    D = sp.csr_matrix(metrics.pairwise_distances(X))
    expected = silhouette_samples(D, labels, metric="precomputed")
    for case, given in sparse_inputs.equivalent(D):
        np.testing.assert_allclose(silhouette_samples(given, labels, metric="precomputed"),
                                   expected, rtol=1e-12, err_msg=case)
