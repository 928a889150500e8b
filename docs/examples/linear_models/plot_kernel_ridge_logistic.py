"""
Kernel ridge regression and kernel logistic regression
======================================================

Kernel ridge regression fits ``f = Σ_i c_i k(x_i, ·)`` with ``c = (K + αI)⁻¹y`` (Peyré,
*Mathematical Foundations of Data Sciences*, ch. 16, §16.3.2). With the Gaussian kernel, the
width ``1/√γ`` decides how smooth the fit is: too wide and it underfits, too narrow and it
follows the noise — the course's figure 16.10, redrawn. Kernel logistic regression puts the
same kind of function into a sigmoid, giving class probabilities; below, on two interleaved
half-moons, next to the linear logistic regression, which can only draw a straight boundary.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import make_moons

from kernelkit.kernel_ridge import KernelLogisticRegression, KernelRidge
from kernelkit.linear_model import LogisticRegression

rng = np.random.default_rng(0)
x = np.sort(rng.uniform(0, 1, 60))[:, None]
y = np.sin(2 * np.pi * x.ravel()) + 0.3 * rng.normal(size=60)
grid = np.linspace(0, 1, 400)[:, None]

fig, axes = plt.subplots(2, 2, figsize=(10, 6.5), sharex=True, sharey=True)
for ax, gamma in zip(axes.ravel(), (1.0, 30.0, 300.0, 30000.0)):
    model = KernelRidge(alpha=1e-2, kernel="rbf", gamma=gamma).fit(x, y)
    ax.scatter(x, y, s=12, color="0.4")
    ax.plot(grid, model.predict(grid), color="C3", lw=2)
    ax.set_title(f"γ = {gamma:g}")
fig.suptitle("Kernel ridge regression with a Gaussian kernel (α = 0.01)")
fig.tight_layout()

# %%
# Class probabilities
# -------------------
X, labels = make_moons(300, noise=0.2, random_state=0)
xx, yy = np.meshgrid(np.linspace(-1.5, 2.5, 250), np.linspace(-1.2, 1.7, 250))
points = np.c_[xx.ravel(), yy.ravel()]
models = {"logistic regression (linear)": LogisticRegression(C=1.0),
          "kernel logistic regression (RBF, γ = 2)": KernelLogisticRegression(alpha=0.05,
                                                                                 gamma=2.0)}
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
for ax, (name, model) in zip(axes, models.items()):
    model.fit(X, labels)
    proba = model.predict_proba(points)[:, 1].reshape(xx.shape)
    ax.contourf(xx, yy, proba, levels=np.linspace(0, 1, 11), cmap="RdBu_r", alpha=0.8)
    ax.contour(xx, yy, proba, levels=[0.5], colors="k", linewidths=1)
    ax.scatter(X[:, 0], X[:, 1], c=labels, cmap="RdBu_r", edgecolor="white", linewidth=0.6,
               s=22)
    accuracy = model.score(X, labels)
    ax.set_title(f"{name}\ntraining accuracy {accuracy:.2f}")
    print(f"{name}: training accuracy {accuracy:.3f}")
fig.tight_layout()
plt.show()
