"""Clustering: k-means, and the methods of Sangnier, chapter 2.

The mixture models live in :mod:`kernelkit.mixture`; their names stay importable from here for
one release, with a ``FutureWarning``.
"""

from kernelkit.cluster._agglomerative import AgglomerativeClustering
from kernelkit.cluster._dbscan import DBSCAN
from kernelkit.cluster._elbow import elbow_curve
from kernelkit.cluster._evaluation import (
    calinski_harabasz_score,
    silhouette_samples,
    silhouette_score,
)
from kernelkit.cluster._kmeans import KMeans, kmeans_plusplus
from kernelkit.cluster._kmedians import KMedians
from kernelkit.cluster._medoids import KMedoids
from kernelkit.cluster._quantization import quantize_density
from kernelkit.cluster._spectral import SpectralClustering
from kernelkit.utils._deprecation import moved_names

__all__ = [
    "DBSCAN",
    "AgglomerativeClustering",
    "KMeans",
    "KMedians",
    "KMedoids",
    "SpectralClustering",
    "calinski_harabasz_score",
    "elbow_curve",
    "kmeans_plusplus",
    "quantize_density",
    "silhouette_samples",
    "silhouette_score",
]

# the mixture models' old import paths, removed in the next release
__getattr__ = moved_names(__name__, {
    "GaussianMixture": "kernelkit.mixture.GaussianMixture",
    "MixtureOfLinearRegressions": "kernelkit.mixture.MixtureOfLinearRegressions",
    "PoissonMixture": "kernelkit.mixture.PoissonMixture",
})
