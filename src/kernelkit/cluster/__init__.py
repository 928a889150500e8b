"""Clustering: k-means, and the methods of Sangnier, chapter 2."""

from kernelkit.cluster._agglomerative import AgglomerativeClustering
from kernelkit.cluster._dbscan import DBSCAN
from kernelkit.cluster._elbow import elbow_curve
from kernelkit.cluster._evaluation import (
    calinski_harabasz_score,
    silhouette_samples,
    silhouette_score,
)
from kernelkit.cluster._gaussian_mixture import GaussianMixture
from kernelkit.cluster._kmeans import KMeans, kmeans_plusplus
from kernelkit.cluster._medoids import KMedians, KMedoids
from kernelkit.cluster._mixture_regression import MixtureOfLinearRegressions
from kernelkit.cluster._poisson_mixture import PoissonMixture
from kernelkit.cluster._quantization import quantize_density
from kernelkit.cluster._spectral import SpectralClustering

__all__ = [
    "DBSCAN",
    "AgglomerativeClustering",
    "GaussianMixture",
    "KMeans",
    "KMedians",
    "KMedoids",
    "MixtureOfLinearRegressions",
    "PoissonMixture",
    "SpectralClustering",
    "calinski_harabasz_score",
    "elbow_curve",
    "kmeans_plusplus",
    "quantize_density",
    "silhouette_samples",
    "silhouette_score",
]
