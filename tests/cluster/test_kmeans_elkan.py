"""k-means algorithms: Elkan's and Hamerly's bounds and the float32 ranking GEMM give exactly
Lloyd's result."""

import numpy as np
import pytest
from kernelkit._core._kmeans_lloyd import lloyd_iter
from sklearn.cluster import KMeans as SklearnKMeans
from sklearn.datasets import load_digits, make_blobs

from kernelkit.cluster import KMeans, _kmeans
from kernelkit.cluster._kmeans import kmeans_lloyd
from kernelkit.reference import kmeans_elkan as kmeans_elkan_reference
from kernelkit.reference import kmeans_hamerly as kmeans_hamerly_reference
from kernelkit.reference import kmeans_lloyd as kmeans_lloyd_reference
from kernelkit.utils._screening import float32_screening_copy


def _problem(seed, n_samples, n_features, n_clusters, dtype=np.float64):
    X, _ = make_blobs(n_samples=n_samples, n_features=n_features, centers=n_clusters,
                      cluster_std=3.0, random_state=seed)
    X = (X - X.mean(axis=0)).astype(dtype)
    init = X[np.random.default_rng(seed).choice(n_samples, n_clusters, replace=False)].copy()
    return X, init


def _assert_same_run(got, want):
    np.testing.assert_array_equal(got[1], want[1])
    np.testing.assert_array_equal(got[0], want[0])
    assert got[2] == want[2]
    assert got[3] == want[3]
    np.testing.assert_array_equal(got[4], want[4])


@pytest.mark.parametrize("n_features", [2, 10, 50])
@pytest.mark.parametrize("weighted", [False, True])
def test_bounded_algorithms_are_lloyd_bit_for_bit(random_seed, n_features, weighted):
    X, init = _problem(random_seed, 1500, n_features, 12)
    w = np.random.default_rng(random_seed).uniform(0.5, 2.0, len(X)) if weighted else None
    lloyd = kmeans_lloyd(X, init, 100, 0.0, w, n_threads=2)
    assert lloyd[3] > 2
    for algorithm in ("elkan", "hamerly"):
        _assert_same_run(kmeans_lloyd(X, init, 100, 0.0, w, 2, algorithm=algorithm), lloyd)
    # with a tolerance the run stops on a shift, after a final re-assignment
    lloyd = kmeans_lloyd(X, init, 100, 1e-2, w, n_threads=2)
    for algorithm in ("elkan", "hamerly"):
        _assert_same_run(kmeans_lloyd(X, init, 100, 1e-2, w, 2, algorithm=algorithm), lloyd)


@pytest.mark.parametrize("algorithm", ["lloyd", "elkan", "hamerly"])
def test_one_vs_two_threads_bitwise(random_seed, algorithm):
    X, init = _problem(random_seed, 20_000, 20, 15)
    one = kmeans_lloyd(X, init, 30, 0.0, None, n_threads=1, algorithm=algorithm)
    two = kmeans_lloyd(X, init, 30, 0.0, None, n_threads=2, algorithm=algorithm)
    _assert_same_run(two, one)


def test_float32_ranking_is_exact_rule(random_seed, monkeypatch):
    """Ranking by a float32 GEMM (d ≥ 16) or a float64 one gives the same run."""
    X, init = _problem(random_seed, 3000, 20, 10)
    assert float32_screening_copy(X) is not None
    screened = [kmeans_lloyd(X, init, 50, 0.0, None, 2, algorithm=a)
                for a in ("lloyd", "hamerly")]
    monkeypatch.setattr(_kmeans, "float32_screening_copy", lambda X: None)
    for run, algorithm in zip(screened, ("lloyd", "hamerly")):
        _assert_same_run(run, kmeans_lloyd(X, init, 50, 0.0, None, 2, algorithm=algorithm))


@pytest.mark.parametrize("screen", [False, True])
def test_near_ties_decided_exactly(screen):
    """Samples at (almost) equal distance from two centres: the GEMM cannot tell them apart,
    the exact rule can (lowest index on exact ties)."""
    rng = np.random.default_rng(0)
    centers = np.zeros((3, 20))
    centers[0, 0], centers[1, 0], centers[2] = 1.0, -1.0, 5.0
    X = rng.standard_normal((400, 20)) * 1e-3
    X[:, 0] = 0.0                           # exactly equidistant from centres 0 and 1 ...
    X[200:300, 0] = -1e-13                  # ... or a hair closer to centre 1
    X[300:, 0] = 1e-13                      # ... or to centre 0
    labels = np.empty(len(X), dtype=np.int32)
    lloyd_iter(X, np.ones(len(X)), centers, labels,
               X_screen=X.astype(np.float32) if screen else None, n_threads=2)
    np.testing.assert_array_equal(labels, np.repeat([0, 1, 0], [200, 100, 100]))


@pytest.mark.parametrize("n_clusters", [5, 31, 32, 40, 101])
@pytest.mark.parametrize("dtype, screen", [(np.float32, False), (np.float64, False),
                                           (np.float64, True)])
def test_row_scan_is_the_exact_rule_with_ties(random_seed, n_clusters, dtype, screen):
    """The scan of the GEMM rows (scalar below 32 centres, SIMD lanes from 32, with a tail past
    the last full vector) gives the exact rule's labels, including exact ties between repeated
    centres in the same lane and in different lanes (the lowest index wins)."""
    rng = np.random.default_rng(random_seed)
    n_features = 20
    centers = rng.standard_normal((n_clusters, n_features)).astype(dtype)
    for first, copy in [(0, n_clusters - 1), (1, 9), (2, 3), (n_clusters // 2, n_clusters - 2)]:
        if first < copy < n_clusters:
            centers[copy] = centers[first]
    X = np.concatenate([rng.standard_normal((3000, n_features)),
                        np.repeat(centers, 3, axis=0)]).astype(dtype)
    labels = np.empty(len(X), dtype=np.int32)
    lloyd_iter(X, np.ones(len(X), dtype=dtype), centers, labels,
               X_screen=X.astype(np.float32) if screen else None, n_threads=2)
    x64, c64 = X.astype(np.float64), centers.astype(np.float64)
    distances = ((x64[:, None, :] - c64[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(labels, np.argmin(distances, axis=1))   # first on ties
    tied = np.flatnonzero((distances == distances.min(axis=1, keepdims=True)).sum(axis=1) > 1)
    assert len(tied) >= 3


@pytest.mark.parametrize("n_features", [2, 10])
@pytest.mark.parametrize("algorithm", ["elkan", "hamerly"])
def test_compiled_bounded_matches_reference_twins(random_seed, n_features, algorithm):
    X, init = _problem(random_seed, 400, n_features, 6)
    w = np.random.default_rng(random_seed).uniform(0.5, 2.0, len(X))
    got = kmeans_lloyd(X, init, 100, 0.0, w, n_threads=2, algorithm=algorithm)
    twin_of = {"elkan": kmeans_elkan_reference, "hamerly": kmeans_hamerly_reference}
    twin = twin_of[algorithm](X, init, 100, 0.0, w)
    lloyd_twin = kmeans_lloyd_reference(X, init, 100, 0.0, w)
    np.testing.assert_array_equal(twin[1], lloyd_twin[1])
    assert twin[3] == lloyd_twin[3]
    np.testing.assert_array_equal(got[1], twin[1])
    np.testing.assert_allclose(got[0], twin[0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got[2], twin[2], rtol=1e-10)
    np.testing.assert_allclose(got[4], twin[4], rtol=1e-8)
    assert got[3] == twin[3]


def test_float32_data_bounded_is_lloyd(random_seed):
    X, init = _problem(random_seed, 2000, 8, 7, dtype=np.float32)
    lloyd = kmeans_lloyd(X, init, 100, 0.0, None, n_threads=2)
    for algorithm in ("elkan", "hamerly"):
        _assert_same_run(kmeans_lloyd(X, init, 100, 0.0, None, 2, algorithm=algorithm), lloyd)
    assert lloyd[0].dtype == np.float32


def test_estimator_algorithms_agree_with_each_other_and_scikit_learn():
    X = load_digits().data
    init = X[np.random.default_rng(0).choice(len(X), 10, replace=False)]
    fits = {a: KMeans(10, init=init, algorithm=a, n_jobs=2).fit(X)
            for a in ("lloyd", "elkan", "hamerly", "auto")}
    for fitted in fits.values():
        np.testing.assert_array_equal(fitted.labels_, fits["lloyd"].labels_)
        np.testing.assert_array_equal(fitted.cluster_centers_, fits["lloyd"].cluster_centers_)
        assert fitted.n_iter_ == fits["lloyd"].n_iter_
    peer = SklearnKMeans(10, init=init, n_init=1, algorithm="elkan").fit(X)
    np.testing.assert_array_equal(fits["elkan"].labels_, peer.labels_)
    np.testing.assert_allclose(fits["elkan"].inertia_, peer.inertia_, rtol=1e-8)


def test_bad_algorithm():
    with pytest.raises(ValueError, match="algorithm"):
        KMeans(2, algorithm="yinyang").fit(np.eye(4))
