"""
SMACOF and Sammon embeddings, with their stress curves
======================================================

Multidimensional scaling places points in the plane so that their distances match given
dissimilarities ``δ_ij``. Classical MDS does it in one eigendecomposition (exact for Euclidean
distances of points that live in the plane). Metric MDS minimises the raw stress
``Σ_{i<j} (‖z_i − z_j‖ − δ_ij)²`` by SMACOF, majorisation steps (Guttman transforms) that never
increase it; Sammon's mapping weighs each pair by ``1/δ_ij`` so that small distances, the local
structure, count more. Here: 400 handwritten digits (64 pixels each), coloured by digit; the
curves show the stress after each iteration (``stress_history_``).
"""

import matplotlib.pyplot as plt
from sklearn.datasets import load_digits

from kernelkit.manifold import MDS, ClassicalMDS, SammonMapping

X, digit = load_digits(return_X_y=True)
X, digit = X[:400], digit[:400]

models = {
    "ClassicalMDS": ClassicalMDS(n_components=2),
    "MDS (SMACOF)": MDS(n_components=2, max_iter=300, random_state=0),
    "SammonMapping": SammonMapping(n_components=2, max_iter=200, random_state=0),
}
fig, axes = plt.subplots(1, 4, figsize=(16, 4))
for ax, (name, model) in zip(axes, models.items()):
    Z = model.fit_transform(X)
    points = ax.scatter(Z[:, 0], Z[:, 1], c=digit, cmap="tab10", s=8)
    ax.set_title(name)
    ax.set_xticks([])
    ax.set_yticks([])
    if hasattr(model, "stress_history_"):
        history = model.stress_history_
        axes[3].plot(range(1, len(history) + 1), history / history[0], label=name)
fig.colorbar(points, ax=axes[2], label="digit")
axes[3].set_xscale("log")
axes[3].set_xlabel("iteration (log scale)")
axes[3].set_ylabel("stress / stress after the first iteration")
axes[3].set_title("stress_history_ (starts from classical MDS)")
axes[3].legend()
fig.tight_layout()
plt.show()
