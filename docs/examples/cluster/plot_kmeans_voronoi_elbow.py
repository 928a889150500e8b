"""
k-means: Voronoi cells and the elbow
====================================

Lloyd's algorithm alternates two steps: assign each point to its nearest centre (the centres'
Voronoi cells), then move each centre to the mean of its cell. The objective, the inertia
``Σ_i ‖x_i − c_{label(i)}‖²``, decreases at every step (``inertia_history_``). The number of
clusters is a choice: the elbow of the inertia against ``k`` suggests one
(:func:`kernelkit.cluster.elbow_curve`).
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_blobs

from kernelkit.cluster import KMeans, elbow_curve

X, _ = make_blobs(n_samples=1500, centers=5, cluster_std=1.1, random_state=7)
model = KMeans(n_clusters=5, n_init="auto", random_state=0).fit(X)

xx, yy = np.meshgrid(np.linspace(X[:, 0].min() - 1, X[:, 0].max() + 1, 300),
                     np.linspace(X[:, 1].min() - 1, X[:, 1].max() + 1, 300))
cells = model.predict(np.c_[xx.ravel(), yy.ravel()]).reshape(xx.shape)

fig, (left, middle, right) = plt.subplots(1, 3, figsize=(14, 4.2))
left.imshow(cells, extent=(xx.min(), xx.max(), yy.min(), yy.max()), origin="lower",
            cmap="Pastel1", aspect="auto")
left.scatter(X[:, 0], X[:, 1], s=3, c="k")
left.scatter(*model.cluster_centers_.T, marker="X", s=150, c="w", edgecolors="k")
left.set_title("Voronoi cells of the 5 centres")

middle.plot(np.arange(1, len(model.inertia_history_) + 1), model.inertia_history_, "o-")
middle.set_xlabel("Lloyd step")
middle.set_ylabel("inertia")
middle.set_title(f"inertia_history_ ({model.n_iter_} steps)")

k_values = range(1, 11)
right.plot(k_values, elbow_curve(X, k_values), "o-")
right.axvline(5, color="k", linestyle=":")
right.set_xlabel("number of clusters k")
right.set_ylabel("inertia")
right.set_title("elbow_curve: the bend is at k = 5")
fig.tight_layout()
plt.show()
