"""
SVM decision boundaries, margins and support vectors
====================================================

:class:`kernelkit.svm.SVC` solves the soft-margin dual by SMO. The decision function
``f(x) = Σ_i α_i y_i k(x_i, x) + b`` is drawn for a linear and a Gaussian (RBF) kernel at two
values of ``C``: the solid line is ``f = 0``, the dashed lines the margins ``f = ±1``, and the
circled points the support vectors (``α_i > 0``). A small ``C`` buys a wide margin with many
support vectors; a large ``C`` fits the training points more closely.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons

from kernelkit.svm import SVC

X, y = make_moons(n_samples=120, noise=0.2, random_state=0)
xx, yy = np.meshgrid(np.linspace(-1.6, 2.6, 150), np.linspace(-1.2, 1.7, 120))
grid = np.c_[xx.ravel(), yy.ravel()]

fig, axes = plt.subplots(2, 2, figsize=(9, 7), sharex=True, sharey=True)
for row, kernel in enumerate(["linear", "rbf"]):
    for col, C in enumerate([0.1, 10.0]):
        ax = axes[row, col]
        model = SVC(kernel=kernel, C=C, gamma=1.0).fit(X, y)
        f = model.decision_function(grid).reshape(xx.shape)
        ax.contourf(xx, yy, f, levels=20, cmap="RdBu", alpha=0.6)
        ax.contour(xx, yy, f, levels=[-1, 0, 1], colors="k", linestyles=["--", "-", "--"])
        ax.scatter(X[:, 0], X[:, 1], c=y, cmap="RdBu", edgecolors="k", s=25)
        sv = model.support_vectors_
        ax.scatter(sv[:, 0], sv[:, 1], s=90, facecolors="none", edgecolors="k", linewidths=1)
        accuracy = model.score(X, y)
        ax.set_title(f"kernel={kernel!r}, C={C}: {len(sv)} support vectors, "
                     f"train accuracy {accuracy:.2f}", fontsize=9)
fig.suptitle("SVC decision function: f = 0 (solid), margins f = ±1 (dashed)")
fig.tight_layout()
plt.show()
