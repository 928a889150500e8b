"""KMeans (``algorithm`` lloyd, elkan, hamerly) against the readable twins of
``kernelkit.reference.kmeans``: Lloyd's iterations and Elkan's and Hamerly's bounds as their
papers state them, through the public estimator.

Where every sample's nearest centre is clearly nearer than the second (well-separated
distances), the exact methods and the compiled, screened core make the same decisions. On a
near tie they need not: the adversarial case shows what the core's bound margins are for.
"""

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from kernelkit.cluster import KMeans
from kernelkit.reference.kmeans import kmeans_elkan, kmeans_hamerly, kmeans_lloyd

TWINS = {"lloyd": kmeans_lloyd, "elkan": kmeans_elkan, "hamerly": kmeans_hamerly}
# relative gap between every sample's nearest and second-nearest centre, at every iteration,
# far above the rounding of a distance (relative 1e-16) and the bounds' margins
MIN_RELATIVE_GAP = 1e-9


def well_separated_problem(seed, n_features, n_clusters=5):
    X, _ = make_blobs(n_samples=300, n_features=n_features, centers=n_clusters,
                      cluster_std=2.0, center_box=(-15, 15), random_state=seed)
    rng = np.random.default_rng(seed)
    init = X[rng.choice(len(X), n_clusters, replace=False)].copy()
    return X, init, rng.uniform(0.5, 2.0, len(X))


def smallest_relative_gap(X, init, w, n_iter):
    """Over the centres of every iteration: min over samples of (d₂ − d₁)/d₂."""
    gaps = []
    for t in range(n_iter + 1):
        centers = kmeans_lloyd(X, init, t, 0.0, w)[0]
        d = np.sort(np.linalg.norm(X[:, None, :] - centers[None, :, :], axis=2), axis=1)
        gaps.append(np.min((d[:, 1] - d[:, 0]) / d[:, 1]))
    return min(gaps)


@pytest.mark.parametrize("n_features", [2, 20])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("algorithm", ["lloyd", "elkan", "hamerly"])
def test_kmeans_equals_twin_on_well_separated_distances(algorithm, weighted, n_features,
                                                        random_seed):
    X, init, w = well_separated_problem(random_seed, n_features)
    w = w if weighted else None
    twin = TWINS[algorithm](X, init, 100, 0.0, w)
    lloyd = kmeans_lloyd(X, init, 100, 0.0, w)
    assert smallest_relative_gap(X, init, w, twin[3]) > MIN_RELATIVE_GAP
    # the exact methods agree with each other ...
    np.testing.assert_array_equal(twin[1], lloyd[1])
    assert twin[3] == lloyd[3]
    # ... and with the estimator
    fitted = KMeans(len(init), init=init, algorithm=algorithm, tol=0.0, max_iter=100,
                    n_jobs=2).fit(X, sample_weight=w)
    np.testing.assert_array_equal(fitted.labels_, twin[1])
    assert fitted.n_iter_ == twin[3]
    np.testing.assert_allclose(fitted.cluster_centers_, twin[0], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(fitted.inertia_, twin[2], rtol=1e-10)
    np.testing.assert_allclose(fitted.inertia_history_, twin[4], rtol=1e-10)


def test_bounds_on_an_exact_tie_are_what_the_core_margins_are_for():
    """x = 0 is assigned to centre 1 (at distance 1, centre 0 at 2.5). The centres then move
    to −2 and 2: x is exactly halfway. Its bounds prove only that no centre is *strictly*
    closer (Elkan: u = 1 + 1 = 2 = s(c₁); Hamerly: u = 2 = max(s, l)), so both papers keep x
    at centre 1 and stop. Lloyd's rule takes the lowest index on the tie, centre 0, and runs
    on. The compiled core widens every bound test by a margin, so a bound that only just
    rules a centre out does not prune it and the tie goes to Lloyd's rule, with every
    algorithm."""
    X = np.array([[-3.0], [-2.0], [-1.0], [0.0], [2.0], [4.0]])     # mean 0: no rounding
    init = np.array([[-2.5], [1.0]])
    lloyd = kmeans_lloyd(X, init, 100, 0.0)
    np.testing.assert_array_equal(lloyd[1], [0, 0, 0, 0, 1, 1])
    np.testing.assert_array_equal(lloyd[0].ravel(), [-1.5, 3.0])
    for paper in (kmeans_elkan, kmeans_hamerly):
        centers, labels, _, n_iter, _ = paper(X, init, 100, 0.0)
        np.testing.assert_array_equal(labels, [0, 0, 0, 1, 1, 1])
        np.testing.assert_array_equal(centers.ravel(), [-2.0, 2.0])
        assert n_iter == 2
    for algorithm in TWINS:
        fitted = KMeans(2, init=init, algorithm=algorithm, tol=0.0).fit(X)
        np.testing.assert_array_equal(fitted.labels_, lloyd[1])
        np.testing.assert_array_equal(fitted.cluster_centers_, lloyd[0])
        assert fitted.n_iter_ == lloyd[3]
