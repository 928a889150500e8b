"""The NormCut identities of Sangnier Exam 2021 Ex. 3 (coverage entry B16) on random graphs and
partitions, and SpectralClustering(assign_labels="weighted_kmeans"), their rounding."""

import numpy as np
import pytest
from scipy.linalg import eigh

from kernelkit.cluster import SpectralClustering
from kernelkit.cluster._kmeans import kmeans_lloyd
from kernelkit.utils._spectral_graph import laplacian_eigenvectors


def _graph(rng, n=30):
    W = rng.uniform(size=(n, n)) * (rng.uniform(size=(n, n)) < 0.4)
    W = np.triu(W, 1)
    ring = np.roll(np.eye(n), 1, axis=1)           # a cycle keeps the graph connected
    W = W + W.T + 0.1 * (ring + ring.T)
    d = W.sum(axis=1)
    return W, d, np.diag(d) - W


def _partition(rng, n, k):
    labels = np.concatenate([np.arange(k), rng.integers(0, k, n - k)])
    return rng.permutation(labels)


def _f(d, inside):
    vol, vol_c = d[inside].sum(), d[~inside].sum()
    return np.where(inside, np.sqrt(vol_c / vol), -np.sqrt(vol / vol_c))


def test_two_way_identities(rng):
    # Part A, questions 1–3, for several random cuts
    W, d, L = _graph(rng)
    trace = d.sum()
    for _ in range(5):
        inside = _partition(rng, 30, 2) == 0
        f = _f(d, inside)
        vol, vol_c = d[inside].sum(), d[~inside].sum()
        gaps = (f[inside][:, None] - f[~inside][None, :]) ** 2
        np.testing.assert_allclose(gaps, trace / vol + trace / vol_c, rtol=1e-12)
        assert d @ f == pytest.approx(0.0, abs=1e-10 * trace)            # 1ᵀDf = 0
        assert f @ (d * f) == pytest.approx(trace, rel=1e-12)              # fᵀDf = tr(D)
        cut = W[np.ix_(inside, ~inside)].sum()
        assert f @ L @ f == pytest.approx(trace * (cut / vol + cut / vol_c), rel=1e-12)


def test_relaxed_two_way_normcut_is_solved_by_the_second_generalised_eigenvector(rng):
    # Part A, questions 4–5: min fᵀLf s.t. 1ᵀDf = 0, fᵀDf = tr(D) is attained at the second
    # eigenvector of L u = λ D u, with value λ₂ tr(D) ≤ tr(D) NormCut(I) for every cut I
    W, d, L = _graph(rng)
    values, vectors = eigh(L, np.diag(d))
    f = vectors[:, 1] * np.sqrt(d.sum() / (vectors[:, 1] @ (d * vectors[:, 1])))
    assert d @ f == pytest.approx(0.0, abs=1e-9)
    assert f @ L @ f == pytest.approx(values[1] * d.sum(), rel=1e-10)
    _, H = laplacian_eigenvectors(W, 2, "random_walk")
    np.testing.assert_allclose(np.abs(H[:, 1] / np.linalg.norm(H[:, 1])),
                               np.abs(f / np.linalg.norm(f)), atol=1e-8)
    for _ in range(20):
        inside = _partition(rng, 30, 2) == 0
        g = _f(d, inside)
        assert f @ L @ f <= g @ L @ g + 1e-10


def _criterion(U, d, labels, k):
    """½ ‖P_U − P_I‖²_F with the projectors built explicitly."""
    Y = np.eye(k)[labels]
    B = np.sqrt(d)[:, None] * Y                       # range(D^{1/2} Y_I)
    P_I = B @ np.linalg.solve(B.T @ B, B.T)
    return 0.5 * np.linalg.norm(U @ U.T - P_I) ** 2


@pytest.mark.parametrize("k", [2, 3, 4])
def test_rounding_criterion_identities(rng, k):
    # Part B: L(I) = k − Σ_j (1/vol I_j) Σ_{i,ℓ∈I_j} √(d_i d_ℓ) u_iᵀu_ℓ, and the weighted
    # k-means objective on h_i = u_i/√d_i (question 1) is the same number
    W, d, _ = _graph(rng)
    _, H = laplacian_eigenvectors(W, k, "random_walk")
    U = np.sqrt(d)[:, None] * H                       # orthonormal eigenvectors of L_s
    np.testing.assert_allclose(U.T @ U, np.eye(k), atol=1e-10)
    for _ in range(5):
        labels = _partition(rng, 30, k)
        closed_form, weighted_inertia = float(k), 0.0
        for j in range(k):
            members = labels == j
            vol = d[members].sum()
            s = (np.sqrt(d[members])[:, None] * U[members]).sum(axis=0)
            closed_form -= s @ s / vol
            mu = (d[members] @ H[members]) / vol              # the minimising μ
            inertia = d[members] @ ((H[members] - mu) ** 2).sum(axis=1)
            assert inertia == pytest.approx((U[members] ** 2).sum() - s @ s / vol, rel=1e-10,
                                            abs=1e-12)
            weighted_inertia += inertia
        assert _criterion(U, d, labels, k) == pytest.approx(closed_form, rel=1e-10)
        assert weighted_inertia == pytest.approx(closed_form, rel=1e-9, abs=1e-12)


def test_criterion_decreases_along_weighted_kmeans(rng):
    # Part B, question 2 (bonus): the d-weighted k-means iterates I_t have L(I_t) non-increasing
    W, d, _ = _graph(rng, n=60)
    k = 4
    _, H = laplacian_eigenvectors(W, k, "random_walk")
    H = np.ascontiguousarray(H)
    U = np.sqrt(d)[:, None] * H
    start = H[rng.choice(60, k, replace=False)]
    values = []
    for t in range(1, 8):
        _, labels, _, _, _ = kmeans_lloyd(H, start, max_iter=t, tol=0.0, sample_weight=d,
                                          n_threads=1)
        values.append(_criterion(U, d, labels, k))
    assert np.all(np.diff(values) <= 1e-10)


def test_weighted_kmeans_assignment(rng):
    # three dense blocks joined by weak edges: the rounding recovers them
    n = 45
    blocks = np.repeat(np.arange(3), 15)
    W = np.where(blocks[:, None] == blocks[None, :], 1.0, 0.01) * rng.uniform(0.5, 1, (n, n))
    W = np.triu(W, 1) + np.triu(W, 1).T
    model = SpectralClustering(3, affinity="precomputed", assign_labels="weighted_kmeans",
                               random_state=0).fit(W)
    assert len({(a, b) for a, b in zip(blocks, model.labels_)}) == 3
    d = W.sum(axis=1)
    np.testing.assert_allclose(model.embedding_ * np.sqrt(d)[:, None],
                               laplacian_eigenvectors(W, 3, "symmetric")[1], atol=1e-8)
    # two clusters: a threshold of the second generalised eigenvector
    two = SpectralClustering(2, affinity="precomputed", assign_labels="weighted_kmeans",
                             laplacian="symmetric", random_state=0).fit(W)
    f = two.embedding_[:, 1]
    order = np.argsort(f)
    assert np.count_nonzero(np.diff(two.labels_[order])) == 1
    with pytest.raises(ValueError, match="weighted_kmeans"):
        SpectralClustering(2, assign_labels="weighted_kmeans", laplacian="unnormalized").fit(
            rng.normal(size=(20, 2)))
