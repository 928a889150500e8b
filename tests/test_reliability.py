"""Regression tests of the reliability issue (17): crashes and silent garbage found by fuzzing."""

import numpy as np
import pytest
from scipy.cluster.hierarchy import is_valid_linkage

from kernelkit._core._linkage import mst_single_linkage, nn_chain_linkage
from kernelkit.cluster import DBSCAN, AgglomerativeClustering, GaussianMixture, KMeans
from kernelkit.cluster import SpectralClustering
from kernelkit.decomposition import PCA
from kernelkit.manifold import MDS, SpectralEmbedding


def _huge(n_normal=5, n_huge=5, value=1e200):
    rng = np.random.default_rng(0)
    return np.vstack([rng.normal(size=(n_normal, 3)), np.full((n_huge, 3), value)])


def test_prim_with_infinite_distances_gives_a_valid_tree():
    # item 1: `nearest[j]` was left uninitialised when no distance to the tree was finite and
    # then used as an index (SIGSEGV)
    D = np.ones((6, 6))
    D[:3, 3:] = D[3:, :3] = np.inf
    np.fill_diagonal(D, 0.0)
    Z = np.empty((5, 4))
    mst_single_linkage(D, Z, "precomputed")
    assert is_valid_linkage(Z)
    assert np.sum(np.isinf(Z[:, 2])) == 1 and Z[-1, 3] == 6


@pytest.mark.parametrize("method", ["complete", "average", "ward"])
def test_nn_chain_with_no_finite_distance_merges_distinct_clusters(method):
    # item 3: a stale index made D[-1] readable and produced self-merges
    n = 5
    Z = np.empty((n - 1, 4))
    nn_chain_linkage(np.full(n * (n - 1) // 2, np.inf), n, Z, method)
    assert is_valid_linkage(Z)
    assert np.all(Z[:, 0] != Z[:, 1]) and Z[-1, 3] == n


@pytest.mark.parametrize("estimator", [
    AgglomerativeClustering(linkage="single"),
    AgglomerativeClustering(linkage="ward"),
    SpectralClustering(2, affinity="epsilon", random_state=0),
    SpectralEmbedding(affinity="epsilon", random_state=0),
    DBSCAN(),
    KMeans(2, random_state=0),
    GaussianMixture(2, random_state=0),
    PCA(2),
    MDS(random_state=0),
], ids=lambda est: type(est).__name__)
def test_values_near_the_float_maximum_are_refused(estimator):
    # item 5: distances overflow to inf, then NaN or a crash; now a clear error
    with pytest.raises(ValueError, match="overflow float64"):
        estimator.fit(_huge())
    with pytest.raises(ValueError, match="overflow float64"):
        AgglomerativeClustering(linkage="single", metric="manhattan").fit(_huge(value=1e307))
