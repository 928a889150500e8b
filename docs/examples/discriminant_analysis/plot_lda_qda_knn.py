"""
LDA, QDA and nearest neighbours on Gaussian classes
===================================================

Three classes drawn from Gaussians with different covariances. Linear discriminant analysis
assumes one shared covariance: its boundaries are straight lines. Quadratic discriminant
analysis estimates one covariance per class: its boundaries are conics, and here it recovers
the Bayes rule (Sangnier, *Introduction to machine learning*, §1.1.2). The k-nearest-neighbour
rule assumes nothing and follows the data (§1.6.1). The last panel is the LDA projection of the
wine data onto its two discriminant directions (§3.3.2): the classes separate in a plane.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from kernelkit.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from kernelkit.neighbors import KNeighborsClassifier

rng = np.random.default_rng(0)
means = np.array([[0.0, 0.0], [3.0, 1.0], [0.5, 3.5]])
covariances = [np.array([[1.0, 0.6], [0.6, 1.0]]), np.array([[0.3, 0.0], [0.0, 2.0]]),
               np.array([[2.0, -0.8], [-0.8, 0.6]])]
X = np.vstack([rng.multivariate_normal(m, c, 150) for m, c in zip(means, covariances)])
y = np.repeat([0, 1, 2], 150)

xx, yy = np.meshgrid(np.linspace(-4, 7, 300), np.linspace(-4, 7.5, 300))
points = np.c_[xx.ravel(), yy.ravel()]
models = {"LDA": LinearDiscriminantAnalysis(), "QDA": QuadraticDiscriminantAnalysis(),
          "15 nearest neighbours": KNeighborsClassifier(15)}
fig, axes = plt.subplots(2, 2, figsize=(11, 9))
axes = axes.ravel()
for ax, (name, model) in zip(axes, models.items()):
    model.fit(X, y)
    regions = model.predict(points).reshape(xx.shape)
    ax.contourf(xx, yy, regions, levels=[-0.5, 0.5, 1.5, 2.5], colors=["C0", "C1", "C2"],
                alpha=0.25)
    ax.scatter(X[:, 0], X[:, 1], c=[f"C{k}" for k in y], s=8)
    ax.set_title(f"{name} (training accuracy {model.score(X, y):.2f})")
    print(f"{name}: training accuracy {model.score(X, y):.3f}")

wine_X, wine_y = load_wine(return_X_y=True)
projected = LinearDiscriminantAnalysis(n_components=2).fit(
    StandardScaler().fit_transform(wine_X), wine_y).transform(
    StandardScaler().fit_transform(wine_X))
axes[3].scatter(projected[:, 0], projected[:, 1], c=[f"C{k}" for k in wine_y], s=12)
axes[3].set_title("Wine: LDA projection on 2 directions")
axes[3].set_xlabel("first discriminant")
axes[3].set_ylabel("second discriminant")
fig.tight_layout()
plt.show()
