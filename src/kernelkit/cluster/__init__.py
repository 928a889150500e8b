"""Clustering: k-means, and the methods of Sangnier, chapter 2.

The mixture models live in :mod:`kernelkit.mixture`; their names stay importable from here for
one release, with a ``FutureWarning``.
"""

import importlib
import warnings

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

# Deprecated paths: name -> the module that holds it now (removed in the next release).
_MOVED = {
    "GaussianMixture": "kernelkit.mixture",
    "MixtureOfLinearRegressions": "kernelkit.mixture",
    "PoissonMixture": "kernelkit.mixture",
}


def __getattr__(name):
    if name not in _MOVED:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _MOVED[name]
    warnings.warn(f"kernelkit.cluster.{name} is deprecated and will be removed in the next "
                  f"release: import it from {module} ({module}.{name}).", FutureWarning,
                  stacklevel=2)
    return getattr(importlib.import_module(module), name)
