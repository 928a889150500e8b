"""Clustering parameters whose buffers outgrow memory are refused up front, by name."""

import numpy as np
import pytest

from kernelkit.cluster import KMedoids

X = np.random.default_rng(0).normal(size=(20, 2))


def test_a_pam_loss_history_larger_than_memory_is_refused():
    with pytest.raises(ValueError, match=r"KMedoids\(max_iter=10{15}\) loss history would need "
                                         r"about .*TiB.*lower max_iter"):
        KMedoids(3, method="pam", max_iter=10**15, random_state=0).fit(X)


def test_full_covariances_larger_than_memory_are_refused_before_em(under_address_limit):
    # 400 components of 1 000 × 1 000 covariances: 3 × 2 × 3.2 GB, refused under 1 GiB; the
    # message points to diagonal covariances
    result = under_address_limit(
        "import numpy as np\nfrom kernelkit.mixture import GaussianMixture\n"
        "X = np.random.default_rng(0).normal(size=(400, 1000))",
        "GaussianMixture(n_components=400).fit(X)")
    assert result.returncode == 0, result.stderr
    assert ("ValueError: GaussianMixture(n_components=400, covariance_type='full') on 400 "
            "samples of 1000 features would need about 17.9 GiB") in result.stdout
    assert "covariance_type='diag'" in result.stdout and "RLIMIT_AS" in result.stdout


def test_diagonal_covariances_of_the_same_mixture_are_accepted():
    from kernelkit.mixture import GaussianMixture

    Z = np.random.default_rng(0).normal(size=(40, 200))
    model = GaussianMixture(n_components=40, covariance_type="diag", max_iter=2,
                            random_state=0).fit(Z)
    assert model.covariances_.shape == (40, 200)


def test_kmeans_plusplus_local_trials_larger_than_memory_are_refused():
    from kernelkit.cluster import kmeans_plusplus

    with pytest.raises(ValueError, match=r"kmeans_plusplus\(n_local_trials=10{15}\) on 20 "
                                         r"samples would need about .*TiB.*lower n_local_trials"):
        kmeans_plusplus(X, 3, n_local_trials=10**15, random_state=0)


def test_silhouette_chunks_are_bounded_by_the_samples_and_checked():
    from kernelkit.cluster import silhouette_samples

    labels = np.arange(20) % 2
    # a chunk larger than the data is the whole data: the same values
    np.testing.assert_allclose(silhouette_samples(X, labels, chunk_size=10**15),
                               silhouette_samples(X, labels))
