"""k-means++ seeding (Sangnier Algorithm 10): D² probabilities, not D⁴ (coverage entry B2)."""

import numpy as np
import pytest
from scipy.linalg import blas
from scipy.stats import chisquare

from kernelkit._core._kmeans_seeding import candidate_distances, weighted_cumsum
from kernelkit.cluster import kmeans_plusplus


def test_chosen_points_are_distinct_and_rows_of_X(random_seed):
    X = np.random.default_rng(random_seed).normal(size=(50, 3))
    centers, idx = kmeans_plusplus(X, 10, random_state=random_seed, n_local_trials=1)
    assert np.unique(idx).size == 10  # a chosen point has D = 0, so probability 0
    np.testing.assert_array_equal(centers, X[idx])


def test_second_centre_frequencies_follow_d_squared():
    """Chi-square test of the second draw against w_i D_i² / Σ w_j D_j² (plain algorithm)."""
    X = np.array([[0.0], [1.0], [2.0], [4.0]])
    w = np.ones(4)
    counts = np.zeros((4, 4))
    for seed in range(4000):
        _, idx = kmeans_plusplus(X, 2, sample_weight=w, random_state=seed, n_local_trials=1)
        counts[idx[0], idx[1]] += 1
    for first in range(4):
        d2 = (X[:, 0] - X[first, 0]) ** 2
        expected = counts[first].sum() * d2 / d2.sum()
        assert counts[first, first] == 0
        keep = expected > 0
        _, p = chisquare(counts[first][keep], expected[keep])
        assert p > 1e-3
        # D⁴ weighting (the 001/002 typo) would be rejected: check it is clearly worse
        d4 = d2**2
        _, p4 = chisquare(counts[first][keep], counts[first].sum() * d4[keep] / d4.sum())
        if first == 0:
            assert p4 < 1e-6


def test_separated_blobs_get_one_seed_each():
    rng = np.random.default_rng(0)
    centres = np.array([[0, 0], [100, 0], [0, 100], [100, 100]], dtype=float)
    X = np.concatenate([c + rng.normal(scale=0.5, size=(50, 2)) for c in centres])
    for seed in range(20):
        _, idx = kmeans_plusplus(X, 4, random_state=seed)
        assert sorted(idx // 50) == [0, 1, 2, 3]


def test_zero_weight_points_never_chosen():
    X = np.arange(20.0).reshape(10, 2)
    w = np.array([0.0, 1.0] * 5)
    for seed in range(20):
        _, idx = kmeans_plusplus(X, 3, sample_weight=w, random_state=seed)
        assert np.all(idx % 2 == 1)


def test_bad_input():
    with pytest.raises(ValueError, match="n_samples=2 should be >= n_clusters=3"):
        kmeans_plusplus(np.zeros((2, 2)), 3)
    with pytest.raises(ValueError, match="n_clusters"):
        kmeans_plusplus(np.zeros((2, 2)), 0)
    with pytest.raises(ValueError, match="NaN"):
        kmeans_plusplus(np.array([[np.nan, 0.0], [1.0, 1.0]]), 1)


def _products(A, X):
    """``A Xᵀ`` by SciPy's BLAS, the GEMM the core calls (NumPy's may be another build)."""
    gemm = blas.sgemm if A.dtype == np.float32 else blas.dgemm
    return np.ascontiguousarray(gemm(1.0, A, X, trans_b=True))


def _candidate_distances_numpy(A, X, closest):
    """The seeding's distances as NumPy evaluates the expression, op by op, on the products of
    SciPy's GEMM."""
    d2 = (A**2).sum(axis=1)[:, None] - 2.0 * _products(A, X) + (X**2).sum(axis=1)[None, :]
    return np.minimum(closest, np.maximum(d2, 0.0))


def _core_distances(A, X, closest, *threads):
    out = np.full((len(A), len(X)), np.nan, dtype=X.dtype)
    candidate_distances(X, A, (A**2).sum(axis=1), (X**2).sum(axis=1), closest, out, *threads)
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_candidate_distances_are_numpys_bit_for_bit(dtype):
    """The compiled pass rounds as the NumPy expression does, in the data's type and in its
    order (``(‖a‖² + ‖x‖²) − 2p`` differs in the last bits of some of these values), on the
    products of one GEMM per block of samples."""
    rng = np.random.default_rng(0)
    X = (rng.normal(size=(9_000, 7)) * 1e3 + 5e3).astype(dtype)
    A = X[[3, 3, 8_999, 0]]                       # repeated and chosen rows: clamped values
    closest = _candidate_distances_numpy(X[[10]], X, np.full(len(X), np.inf, dtype=dtype))[0]
    expected = _candidate_distances_numpy(A, X, closest)
    found = _core_distances(A, X, closest)
    assert found.dtype == dtype and expected.dtype == dtype
    np.testing.assert_array_equal(found.view(np.uint8), expected.view(np.uint8))
    assert np.count_nonzero(found == 0) >= 3 and np.any(found < closest)
    assert np.any(found == closest)
    with pytest.raises(ValueError, match="shapes do not match"):
        _core_distances(np.ascontiguousarray(A[:, :3]), X, closest)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_candidate_distances_do_not_depend_on_the_team(dtype):
    """Blocks of 4 096 samples shared by two threads (a team forced by a zero work threshold)
    give the values of one thread, bit for bit, over several blocks and a partial last one."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(10_000, 5)).astype(dtype)
    A = X[[7, 70, 7_000]]
    closest = _candidate_distances_numpy(X[[3]], X, np.full(len(X), np.inf, dtype=dtype))[0]
    one, team = _core_distances(A, X, closest, 1, 0.0), _core_distances(A, X, closest, 2, 0.0)
    np.testing.assert_array_equal(team.view(np.uint8), one.view(np.uint8))
    np.testing.assert_array_equal(one, _candidate_distances_numpy(A, X, closest))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_weighted_cumsum_is_numpys_bit_for_bit(dtype):
    """The seeding's running sum of ``w_i D_i`` rounds each product in the data's type, then
    adds in order, as ``np.cumsum(w * D)`` does (a fused multiply-add, or float64 products of
    float32 data, would differ in the last bits)."""
    rng = np.random.default_rng(2)
    w = rng.uniform(0.0, 3.0, 50_000).astype(dtype)
    D = (rng.exponential(size=50_000) * 1e3).astype(dtype)
    out = np.empty_like(D)
    weighted_cumsum(w, D, out)
    np.testing.assert_array_equal(out.view(np.uint8), np.cumsum(w * D).view(np.uint8))
    with pytest.raises(ValueError, match="shapes do not match"):
        weighted_cumsum(w[:-1], D, out)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n_local_trials", [None, 1])
def test_seeding_is_the_step_by_step_numpy_seeding(dtype, n_local_trials, random_seed):
    """Greedy D² sampling with the NumPy expression at every step: the same centres (the
    compiled steps reuse two buffers in turn; one step's chosen row is the next one's input)."""
    rng = np.random.default_rng(random_seed)
    X = rng.normal(size=(300, 4)).astype(dtype)
    w = rng.uniform(0.0, 2.0, len(X)).astype(dtype)
    trials = 2 + int(np.log(8)) if n_local_trials is None else n_local_trials
    state = np.random.RandomState(random_seed)
    first = state.choice(len(X), p=w / w.sum())
    indices = [first]
    closest = _candidate_distances_numpy(X[[first]], X, np.full(len(X), np.inf, dtype=dtype))[0]
    for _ in range(7):
        cumulative = np.cumsum(w * closest)
        draws = state.uniform(size=trials) * cumulative[-1]
        candidates = np.minimum(np.searchsorted(cumulative, draws, side="right"), len(X) - 1)
        distances = _candidate_distances_numpy(X[candidates], X, closest)
        best = int(np.argmin(distances @ w))
        closest = distances[best]
        indices.append(candidates[best])
    centers, idx = kmeans_plusplus(X, 8, sample_weight=w, random_state=random_seed,
                                   n_local_trials=n_local_trials)
    np.testing.assert_array_equal(idx, indices)
    np.testing.assert_array_equal(centers, X[indices])
