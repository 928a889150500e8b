"""
Kernel PCA on concentric circles
================================

PCA finds the directions of largest variance; on two concentric circles every direction has
the same variance, and no projection separates them. Kernel PCA runs PCA in the feature space
of a kernel: it diagonalises the centred Gram matrix ``K_c = H K H`` (``H = I − 11ᵀ/n``) and
projects on its leading eigenvectors. With a Gaussian kernel the first component alone
separates the rings. The right panel shows the points mapped back to the input space with the
learned pre-image map (``fit_inverse_transform=True``).
"""

import matplotlib.pyplot as plt
from sklearn.datasets import make_circles

from kernelkit.decomposition import PCA, KernelPCA

X, ring = make_circles(n_samples=400, factor=0.35, noise=0.05, random_state=0)
pca = PCA(n_components=2).fit(X)
kpca = KernelPCA(n_components=2, kernel="rbf", gamma=10, fit_inverse_transform=True,
                 alpha=0.1).fit(X)
Z = kpca.transform(X)

fig, axes = plt.subplots(1, 4, figsize=(16, 4))
style = dict(c=ring, cmap="coolwarm", s=10)
axes[0].scatter(X[:, 0], X[:, 1], **style)
axes[0].set_title("input")
Z_pca = pca.transform(X)
axes[1].scatter(Z_pca[:, 0], Z_pca[:, 1], **style)
axes[1].set_title("PCA: nothing to gain")
axes[2].scatter(Z[:, 0], Z[:, 1], **style)
axes[2].set_title("KernelPCA(kernel='rbf', gamma=10)")
axes[2].set_xlabel("first component")
X_back = kpca.inverse_transform(Z)
axes[3].scatter(X_back[:, 0], X_back[:, 1], **style)
axes[3].set_title("pre-images of the 2 components")
for ax in axes:
    ax.set_aspect("equal", adjustable="datalim")
fig.tight_layout()
plt.show()
