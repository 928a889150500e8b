"""
A tree, a forest and their decision regions
===========================================

A CART tree (Sangnier, *Introduction to machine learning*, §1.6.2) cuts the plane into boxes;
a random forest (§1.6.3) averages many trees grown on bootstrap samples, which smooths the
boxes into a boundary that generalises better. Below, both on two interleaved half-moons with
label noise (leaves of at least 3 samples in the forest), with their held-out accuracies, and
the forest's impurity-based feature importances on the breast-cancer data.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer, make_moons
from sklearn.model_selection import train_test_split

from kernelkit.ensemble import RandomForestClassifier
from kernelkit.tree import DecisionTreeClassifier

X, y = make_moons(n_samples=1000, noise=0.35, random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
models = {
    "decision tree (full depth)": DecisionTreeClassifier(random_state=0),
    "random forest (200 trees)": RandomForestClassifier(n_estimators=200, min_samples_leaf=3,
                                                        random_state=0),
}

xx, yy = np.meshgrid(np.linspace(-2, 3, 300), np.linspace(-1.5, 2, 300))
grid = np.c_[xx.ravel(), yy.ravel()]
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, (name, model) in zip(axes, models.items()):
    model.fit(X_train, y_train)
    proba = model.predict_proba(grid)[:, 1].reshape(xx.shape)
    ax.contourf(xx, yy, proba, levels=20, cmap="RdBu_r", alpha=0.8)
    ax.scatter(X_test[:, 0], X_test[:, 1], c=y_test, cmap="RdBu_r", edgecolor="white",
               linewidth=0.6, s=22)
    accuracy = model.score(X_test, y_test)
    ax.set_title(f"{name}\nheld-out accuracy {accuracy:.3f}")
    print(f"{name}: held-out accuracy {accuracy:.3f}")
fig.tight_layout()

# %%
# Feature importances
# -------------------
# The decrease of impurity brought by each feature, summed over the splits that use it and
# averaged over the trees.
cancer = load_breast_cancer()
forest = RandomForestClassifier(n_estimators=200, random_state=0, n_jobs=2)
forest.fit(cancer.data, cancer.target)
order = np.argsort(forest.feature_importances_)[-10:]
fig, ax = plt.subplots(figsize=(7, 4))
ax.barh(np.asarray(cancer.feature_names)[order], forest.feature_importances_[order])
ax.set_xlabel("mean decrease of Gini impurity")
ax.set_title("Breast cancer: the ten most important features")
fig.tight_layout()
plt.show()
