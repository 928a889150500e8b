"""
Agglomerative clustering and its dendrogram
===========================================

:class:`kernelkit.cluster.AgglomerativeClustering` records the whole merge tree in
``linkage_matrix_``, in SciPy's format, so SciPy draws the dendrogram. Each linkage defines
the distance between two clusters differently: the closest pair of points (single), the
farthest pair (complete), the mean over pairs (average), or the increase of within-cluster
variance (Ward). Cutting the tree at a height gives a flat clustering; the dashed line cuts
Ward's tree into three clusters.
"""

# sphinx_gallery_thumbnail_number = 2
import matplotlib.pyplot as plt
import numpy as np
from scipy.cluster.hierarchy import dendrogram
from sklearn.datasets import make_blobs

from kernelkit.cluster import AgglomerativeClustering

X, _ = make_blobs(n_samples=60, centers=[[0, 0], [4, 0], [2, 3.5]], cluster_std=0.8,
                  random_state=2)

fig, axes = plt.subplots(2, 2, figsize=(11, 7))
for ax, linkage in zip(axes.ravel(), ["single", "complete", "average", "ward"]):
    model = AgglomerativeClustering(n_clusters=3, linkage=linkage).fit(X)
    dendrogram(model.linkage_matrix_, ax=ax, no_labels=True, color_threshold=None,
               above_threshold_color="#444444")
    if linkage == "ward":
        heights = model.linkage_matrix_[:, 2]
        ax.axhline((heights[-3] + heights[-2]) / 2, color="k", linestyle="--")
    ax.set_title(f"linkage={linkage!r}")
    ax.set_ylabel("merge height")
fig.tight_layout()
plt.show()

# %%
# The three clusters of Ward's tree:
model = AgglomerativeClustering(n_clusters=3, linkage="ward").fit(X)
plt.figure(figsize=(5, 4))
plt.scatter(X[:, 0], X[:, 1], c=model.labels_, cmap="viridis", edgecolors="k")
plt.title("Ward linkage, cut into 3 clusters")
plt.show()
print("cluster sizes:", np.bincount(model.labels_))
