"""Samples whose distances overflow float64: a clear ValueError from every clustering estimator,
never inf distances turned into NaN centres, labels or a crash."""

import pytest

from kernelkit.cluster import (
    DBSCAN,
    AgglomerativeClustering,
    GaussianMixture,
    KMeans,
    SpectralClustering,
)


@pytest.mark.parametrize("estimator", [
    AgglomerativeClustering(linkage="single"),
    AgglomerativeClustering(linkage="ward"),
    AgglomerativeClustering(linkage="single", metric="manhattan"),
    SpectralClustering(2, affinity="epsilon", random_state=0),
    DBSCAN(),
    KMeans(2, random_state=0),
    GaussianMixture(2, random_state=0),
], ids=lambda est: f"{type(est).__name__}-{getattr(est, 'linkage', '')}-"
                   f"{getattr(est, 'metric', '')}")
def test_values_near_the_float_maximum_are_refused(estimator, near_float_max):
    with pytest.raises(ValueError, match="overflow float64"):
        estimator.fit(near_float_max())


def test_manhattan_distances_near_the_float_maximum_are_refused(near_float_max):
    # |x - y| summed over three features overflows at 1e307 although (x - y)² already would at 1e200
    with pytest.raises(ValueError, match="overflow float64"):
        AgglomerativeClustering(linkage="single", metric="manhattan").fit(near_float_max(1e307))
