"""
Choosing a graph kernel: accuracy against time on MUTAG
=======================================================

Every graph kernel of kernelkit on the 188 shipped MUTAG molecules (node labels: atoms; edge
labels: bonds), each normalised, with the parameters the graph-kernel surveys use. For each,
the Gram matrix is computed once (its time is the x axis) and an SVM on it is scored by 10-fold
stratified cross-validation, C chosen inside each training part by a 5-fold grid search
(the y axis: mean ± standard deviation of the 10 test accuracies).

Points high and to the left are the ones to try first. MUTAG is small and easy: on the larger
sets (NCI1, PROTEINS, ENZYMES) the differences between kernels are larger; ``kernelkit bench
graph-accuracy`` computes the same table on them.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score

from kernelkit import kernels
from kernelkit.datasets import load_mutag
from kernelkit.svm import SVC

mutag = load_mutag()
graphs, y = mutag.graphs, mutag.target

CANON = {
    "vertex histogram": kernels.VertexHistogramKernel(normalize=True),
    "edge histogram": kernels.EdgeHistogramKernel(normalize=True),
    "Weisfeiler–Lehman": kernels.WeisfeilerLehmanKernel(n_iter=5, normalize=True),
    "WL, edge labels": kernels.WeisfeilerLehmanKernel(n_iter=5, edge_label="label",
                                                      normalize=True),
    "WL optimal assignment": kernels.WeisfeilerLehmanOptimalAssignmentKernel(n_iter=5,
                                                                              normalize=True),
    "shortest path": kernels.ShortestPathKernel(normalize=True),
    "graphlet (k = 3)": kernels.GraphletKernel(k=3, normalize=True),
    "neighbourhood hash": kernels.NeighborhoodHashKernel(R=3, normalize=True),
    "propagation": kernels.PropagationKernel(t_max=5, random_state=0, normalize=True),
    "NSPDK": kernels.NeighborhoodSubgraphPairwiseDistanceKernel(r=3, d=4, edge_label="label"),
    "ODD-ST (h = 3)": kernels.ODDSTKernel(h=3, lambda_=0.5, normalize=True),
    "GraphHopper (labels)": kernels.GraphHopperKernel(node_attributes=None, node_label="label",
                                                      normalize=True),
    "pyramid match": kernels.PyramidMatchKernel(L=4, d=6, normalize=True),
    "core framework (SP)": kernels.CoreFrameworkKernel(kernels.ShortestPathKernel(),
                                                       normalize=True),
    "walk (n = 3)": kernels.WalkKernel(n=3, normalize=True),
}

outer = StratifiedKFold(10, shuffle=True, random_state=0)
svm = GridSearchCV(SVC(kernel="precomputed"), {"C": np.logspace(-3, 3, 7)},
                   cv=StratifiedKFold(5, shuffle=True, random_state=0))
results = {}
for name, kernel in CANON.items():
    start = time.perf_counter()
    K = kernel.fit_transform(graphs)
    elapsed = time.perf_counter() - start
    scores = cross_val_score(svm, K, y, cv=outer)
    results[name] = (elapsed, scores.mean(), scores.std())
    print(f"{name:24s} accuracy {scores.mean():.3f} ± {scores.std():.3f}, "
          f"Gram {elapsed * 1e3:7.1f} ms")

fig, ax = plt.subplots(figsize=(7.5, 5))
for name, (elapsed, mean, std) in results.items():
    ax.errorbar(elapsed * 1e3, mean, yerr=std, marker="o", capsize=3, color="#4c72b0")
    ax.annotate(name, (elapsed * 1e3, mean), textcoords="offset points", xytext=(5, 4),
                fontsize="small")
ax.axhline(np.mean(y == 1), color="k", linestyle=":", label="majority class")
ax.set_xscale("log")
ax.set_xlabel("time of the 188 × 188 Gram matrix (ms, log scale)")
ax.set_ylabel("accuracy (10-fold CV, C tuned inside)")
ax.set_title("MUTAG: every graph kernel of kernelkit")
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()
