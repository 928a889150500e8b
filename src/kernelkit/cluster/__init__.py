"""Clustering: k-means, and the methods of seed 003 chapter 2."""

from kernelkit.cluster._elbow import elbow_curve
from kernelkit.cluster._kmeans import KMeans, kmeans_plusplus

__all__ = ["KMeans", "elbow_curve", "kmeans_plusplus"]
