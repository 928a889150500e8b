"""Mixture models fitted by expectation–maximisation: Gaussian and Poisson mixture densities and
mixtures of linear regressions, on one EM driver (Sangnier, §2.1)."""

from kernelkit.mixture._gaussian_mixture import GaussianMixture
from kernelkit.mixture._mixture_regression import MixtureOfLinearRegressions
from kernelkit.mixture._poisson_mixture import PoissonMixture

__all__ = ["GaussianMixture", "MixtureOfLinearRegressions", "PoissonMixture"]
