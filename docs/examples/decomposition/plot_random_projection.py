"""
Random projections and the Johnson–Lindenstrauss lemma
======================================================

A Gaussian random matrix scaled by ``1/√k`` maps ``n`` points of ``R^d`` to ``R^k`` and keeps
every pairwise distance within a factor ``1 ± ε`` with high probability as soon as
``k ≥ 4 log n / (ε²/2 − ε³/3)`` (Johnson–Lindenstrauss; :func:`johnson_lindenstrauss_min_dim`).
The histograms show the ratio of projected to original distances of 300 points in
``R^5000`` for three target dimensions: the spread shrinks like ``1/√k``.
"""

import matplotlib.pyplot as plt
import numpy as np
from scipy.spatial.distance import pdist

from kernelkit.decomposition import GaussianRandomProjection, johnson_lindenstrauss_min_dim

rng = np.random.default_rng(0)
X = rng.normal(size=(300, 5000))
original = pdist(X)

fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), sharey=True)
for ax, k in zip(axes, [50, 300, 1500]):
    Z = GaussianRandomProjection(n_components=k, random_state=0).fit_transform(X)
    ratio = pdist(Z) / original
    ax.hist(ratio, bins=60, color="#4c72b0")
    ax.axvline(1, color="k", linestyle=":")
    ax.set_title(f"k = {k}: ratios in [{ratio.min():.2f}, {ratio.max():.2f}]")
    ax.set_xlabel("projected / original distance")
axes[0].set_ylabel("pairs")
fig.tight_layout()
plt.show()

for eps in (0.1, 0.3, 0.5):
    print(f"eps={eps}: k >= {johnson_lindenstrauss_min_dim(300, eps=eps)} for 300 points")
