"""
DBSCAN, spectral and agglomerative clustering on moons and circles
==================================================================

k-means looks for convex clusters around centres, so it cuts the two moons and the two rings
in half. Density-based DBSCAN, spectral clustering on a nearest-neighbour graph and
single-linkage agglomerative clustering follow the shape of the data instead. DBSCAN marks
points in low-density regions as noise (grey, label ``-1``).
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_circles, make_moons
from sklearn.preprocessing import StandardScaler

from kernelkit.cluster import DBSCAN, AgglomerativeClustering, KMeans, SpectralClustering

datasets = {
    "moons": make_moons(n_samples=500, noise=0.06, random_state=0)[0],
    "circles": make_circles(n_samples=500, factor=0.45, noise=0.05, random_state=0)[0],
}
models = {
    "KMeans": KMeans(n_clusters=2, n_init=4, random_state=0),
    "DBSCAN": DBSCAN(eps=0.3, min_samples=8),
    "SpectralClustering": SpectralClustering(n_clusters=2, affinity="nearest_neighbors",
                                             n_neighbors=10, random_state=0),
    "Agglomerative (single)": AgglomerativeClustering(n_clusters=2, linkage="single"),
}
colors = np.array(["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"])

fig, axes = plt.subplots(2, len(models), figsize=(13, 6.2))
for row, (data_name, X) in enumerate(datasets.items()):
    X = StandardScaler().fit_transform(X)
    for col, (name, model) in enumerate(models.items()):
        start = time.perf_counter()
        labels = model.fit_predict(X)
        elapsed = time.perf_counter() - start
        ax = axes[row, col]
        ax.scatter(X[:, 0], X[:, 1], s=8,
                   c=np.where(labels >= 0, colors[labels % 4], "#999999"))
        ax.set_title(f"{name}\n{data_name}, {elapsed * 1e3:.0f} ms", fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
fig.tight_layout()
plt.show()
