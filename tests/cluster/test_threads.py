"""Thread counts of the clustering estimators: an n_jobs beyond the usable CPUs is clamped."""

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from kernelkit.cluster import DBSCAN, GaussianMixture, KMeans, SpectralClustering


@pytest.mark.parametrize("make", [
    lambda n_jobs: KMeans(3, n_init=2, random_state=0, n_jobs=n_jobs),
    lambda n_jobs: GaussianMixture(3, random_state=0, n_jobs=n_jobs),
    lambda n_jobs: DBSCAN(eps=0.8, n_jobs=n_jobs),
    lambda n_jobs: SpectralClustering(3, random_state=0, n_jobs=n_jobs),
], ids=["KMeans", "GaussianMixture", "DBSCAN", "SpectralClustering"])
def test_absurd_n_jobs_uses_the_usable_cpus(make):
    # n_jobs beyond the CPUs is clamped: 1000 OpenMP threads under a process limit once made
    # the OpenMP runtime end the interpreter
    X, _ = make_blobs(150, 4, centers=3, random_state=0)
    np.testing.assert_array_equal(make(1000).fit_predict(X), make(1).fit_predict(X))
