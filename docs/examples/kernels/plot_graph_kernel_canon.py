"""
Choosing a graph kernel: accuracy against time on MUTAG
=======================================================

Every graph kernel of kernelkit on the 188 shipped MUTAG molecules (node labels: atoms; edge
labels: bonds), each normalised, with the parameters the graph-kernel surveys use. For each,
the Gram matrix is computed once (its time: right panel) and an SVM on it is scored by 10-fold
stratified cross-validation, C chosen inside each training part by a 5-fold grid search
(left panel: mean ± standard deviation of the 10 test accuracies).

The kernels near the top are the ones to try first; the right panel gives what each costs.
MUTAG is small and easy: on the larger sets (NCI1, PROTEINS, ENZYMES) the differences between
kernels are larger; ``kernelkit bench graph-accuracy`` computes the same table on them.
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

names = sorted(results, key=lambda name: results[name][1])
seconds, means, stds = np.array([results[name] for name in names]).T
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.5), sharey=True,
                                  gridspec_kw={"width_ratios": [1.4, 1]})
rows = np.arange(len(names))
left.barh(rows, means, xerr=stds, color="#4c72b0", capsize=2)
left.axvline(np.mean(y == 1), color="k", linestyle=":", label="majority class")
left.set_yticks(rows, names)
left.set_xlim(0.5, 1.0)
left.set_xlabel("accuracy (10-fold CV, C tuned inside)")
left.legend(loc="lower right")
right.barh(rows, seconds * 1e3, color="#dd8452")
right.set_xscale("log")
right.xaxis.set_minor_formatter(plt.NullFormatter())
right.set_xlabel("time of the 188 × 188 Gram matrix (ms, log scale)")
fig.suptitle("MUTAG: every graph kernel of kernelkit, sorted by accuracy")
fig.tight_layout()
plt.show()
