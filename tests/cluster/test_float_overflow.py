"""Samples whose distances overflow float64: a clear ValueError from every clustering estimator,
never inf distances turned into NaN centres, labels or a crash."""

import pytest

from kernelkit.cluster import (
    DBSCAN,
    AgglomerativeClustering,
    KMeans,
    SpectralClustering,
)
from kernelkit.mixture import GaussianMixture


@pytest.mark.parametrize("estimator", [
    AgglomerativeClustering(linkage="single"),
    AgglomerativeClustering(linkage="ward"),
    AgglomerativeClustering(linkage="single", metric="manhattan"),
    SpectralClustering(2, affinity="epsilon", random_state=0),
    DBSCAN(),
    KMeans(2, random_state=0),
    GaussianMixture(2, random_state=0),
], ids=["Agglomerative-single", "Agglomerative-ward", "Agglomerative-manhattan",
        "SpectralClustering", "DBSCAN", "KMeans", "GaussianMixture"])
def test_values_near_the_float_maximum_are_refused(estimator, near_float_max):
    with pytest.raises(ValueError, match="overflow float64"):
        estimator.fit(near_float_max())


def test_manhattan_distances_near_the_float_maximum_are_refused(near_float_max):
    # Manhattan distances need no squares: they overflow only near the float maximum itself
    with pytest.raises(ValueError, match="overflow float64"):
        AgglomerativeClustering(linkage="single", metric="manhattan").fit(near_float_max(1e307))
