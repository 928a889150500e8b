"""Leak check: resident memory over 200 repeated fits of a few estimators and kernels after a
warm-up (run ``python tests/fuzz/leak_check.py``); a leak shows as growth proportional to the
number of fits."""

import gc
import os

import networkx as nx
import numpy as np
from sklearn.datasets import load_digits

from kernelkit.cluster import DBSCAN, AgglomerativeClustering, KMeans
from kernelkit.kernels import (
    LocalAlignmentKernel,
    ShortestPathKernel,
    SpectrumKernel,
    WeisfeilerLehmanKernel,
)
from kernelkit.neighbors import KNeighborsClassifier
from kernelkit.svm import SVC
from kernelkit.tree import DecisionTreeClassifier

REPEATS = 200


def resident_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def cases():
    X, y = load_digits(return_X_y=True)
    X, y = X[:600], y[:600]
    rng = np.random.default_rng(0)
    graphs = []
    for i in range(60):
        g = nx.gnp_random_graph(12, 0.3, seed=i)
        nx.set_node_attributes(g, {v: str(v % 3) for v in g}, "label")
        graphs.append(g)
    sequences = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 60)) for _ in range(40)]
    return {
        "SVC": lambda: SVC().fit(X, y).predict(X),
        "KMeans": lambda: KMeans(10, n_init=1, random_state=0).fit(X),
        "DBSCAN": lambda: DBSCAN(eps=20, min_samples=5).fit(X),
        "AgglomerativeClustering": lambda: AgglomerativeClustering(10).fit(X),
        "DecisionTreeClassifier": lambda: DecisionTreeClassifier().fit(X, y).predict(X),
        "KNeighborsClassifier": lambda: KNeighborsClassifier().fit(X, y).predict(X),
        "WeisfeilerLehmanKernel": lambda: WeisfeilerLehmanKernel().fit_transform(graphs),
        "ShortestPathKernel": lambda: ShortestPathKernel().fit_transform(graphs),
        "SpectrumKernel": lambda: SpectrumKernel(k=3).fit_transform(sequences),
        "LocalAlignmentKernel": lambda: LocalAlignmentKernel().fit_transform(sequences[:15]),
    }


if __name__ == "__main__":
    for name, fit in cases().items():
        for _ in range(20):
            fit()
        gc.collect()
        before = resident_mib()
        for _ in range(REPEATS):
            fit()
        gc.collect()
        print(f"{name}: {resident_mib() - before:+.2f} MiB over {REPEATS} fits")
