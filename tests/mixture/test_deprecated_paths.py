"""The mixtures' old import paths in kernelkit.cluster: the same classes, with a FutureWarning
naming the new path, and not listed in kernelkit.cluster.__all__."""

import importlib

import pytest

import kernelkit.cluster
import kernelkit.mixture


@pytest.mark.parametrize("name", ["GaussianMixture", "PoissonMixture",
                                  "MixtureOfLinearRegressions"])
def test_cluster_path_warns_and_returns_the_mixture_class(name):
    with pytest.warns(FutureWarning, match=f"kernelkit.mixture.{name}"):
        cls = getattr(importlib.import_module("kernelkit.cluster"), name)
    assert cls is getattr(kernelkit.mixture, name)
    assert name not in kernelkit.cluster.__all__


def test_from_import_warns():
    with pytest.warns(FutureWarning, match="kernelkit.mixture.GaussianMixture"):
        from kernelkit.cluster import GaussianMixture
    assert GaussianMixture is kernelkit.mixture.GaussianMixture


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="NoSuchEstimator"):
        kernelkit.cluster.NoSuchEstimator  # noqa: B018
