"""Leak check: resident memory over 200 repeated fits of one representative estimator, kernel or
function per family (every subpackage with public estimators, the string, graph and vector
kernels apart, and the metrics), after a warm-up; a leak shows as growth proportional to the
number of fits. Run ``python tests/fuzz/leak_check.py [NAME ...]``: it prints the growth of each
and exits with status 1 if one grows by more than ``BOUND_MIB`` (or a family has no
representative)."""

import gc
import os
import pathlib
import sys
import time
import warnings

import networkx as nx
import numpy as np
from sklearn.datasets import load_digits

from kernelkit.cluster import DBSCAN, AgglomerativeClustering, KMeans
from kernelkit.decomposition import PCA
from kernelkit.discriminant_analysis import LinearDiscriminantAnalysis
from kernelkit.ensemble import RandomForestClassifier
from kernelkit.kernel_approximation import RandomFourierFeatures
from kernelkit.kernel_ridge import KernelRidge
from kernelkit.kernels import (
    LocalAlignmentKernel,
    ShortestPathKernel,
    SpectrumKernel,
    VectorKernel,
    WeisfeilerLehmanKernel,
)
from kernelkit.linear_model import LogisticRegression
from kernelkit.manifold import MDS
from kernelkit.metrics import empirical_rademacher_complexity
from kernelkit.mkl import SimpleMKL
from kernelkit.neighbors import KNeighborsClassifier
from kernelkit.svm import SVC
from kernelkit.tree import DecisionTreeClassifier

REPEATS = 200
WARM_UP = 20
# 200 fits leaking 5 KiB each; the allocator's own noise stays well below (0.1 MiB measured)
BOUND_MIB = 1.0


def resident_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def cases():
    """``{name: (family, fit)}``: ``fit()`` runs one fit (and predict or transform)."""
    X, y = load_digits(return_X_y=True)
    X, y = X[:600], y[:600]
    small, small_y = X[:120], y[:120]
    binary = small_y % 2
    rng = np.random.default_rng(0)
    graphs = []
    for i in range(60):
        g = nx.gnp_random_graph(12, 0.3, seed=i)
        nx.set_node_attributes(g, {v: str(v % 3) for v in g}, "label")
        graphs.append(g)
    sequences = ["".join(rng.choice(list("ACDEFGHIKLMNPQRSTVWY"), 60)) for _ in range(40)]
    return {
        "SVC": ("svm", lambda: SVC().fit(X, y).predict(X)),
        "KMeans": ("cluster", lambda: KMeans(10, n_init=1, random_state=0).fit(X)),
        "DBSCAN": ("cluster", lambda: DBSCAN(eps=20, min_samples=5).fit(X)),
        "AgglomerativeClustering": ("cluster", lambda: AgglomerativeClustering(10).fit(X)),
        "DecisionTreeClassifier": ("tree", lambda: DecisionTreeClassifier().fit(X, y).predict(X)),
        "RandomForestClassifier": ("ensemble", lambda: RandomForestClassifier(
            n_estimators=5, random_state=0).fit(small, small_y).predict(small)),
        "KNeighborsClassifier": ("neighbors", lambda: KNeighborsClassifier().fit(X, y).predict(X)),
        "PCA": ("decomposition", lambda: PCA(10).fit(small).transform(small)),
        "LinearDiscriminantAnalysis": ("discriminant_analysis", lambda: (
            LinearDiscriminantAnalysis().fit(small, small_y).predict(small))),
        "RandomFourierFeatures": ("kernel_approximation", lambda: RandomFourierFeatures(
            n_components=100, random_state=0).fit(X).transform(X)),
        "KernelRidge": ("kernel_ridge", lambda: KernelRidge(kernel="rbf").fit(
            small, small_y).predict(small)),
        "LogisticRegression": ("linear_model", lambda: LogisticRegression().fit(
            small, binary).predict(small)),
        "MDS": ("manifold", lambda: MDS(max_iter=50, random_state=0).fit(small[:60])),
        "SimpleMKL": ("mkl", lambda: SimpleMKL([VectorKernel("rbf"), VectorKernel("linear")],
                                               max_iter=5).fit(small, binary).predict(small)),
        "empirical_rademacher_complexity": ("metrics", lambda: empirical_rademacher_complexity(
            small, n_draws=50, random_state=0)),
        "VectorKernel": ("kernels (vectors)", lambda: VectorKernel("rbf").fit_transform(X)),
        "WeisfeilerLehmanKernel": ("kernels (graphs)",
                                   lambda: WeisfeilerLehmanKernel().fit_transform(graphs)),
        "ShortestPathKernel": ("kernels (graphs)",
                               lambda: ShortestPathKernel().fit_transform(graphs)),
        "SpectrumKernel": ("kernels (strings)",
                           lambda: SpectrumKernel(k=3).fit_transform(sequences)),
        "LocalAlignmentKernel": ("kernels (strings)",
                                 lambda: LocalAlignmentKernel().fit_transform(sequences[:15])),
    }


def families():
    """Every subpackage with a public estimator, and the metrics."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
    from test_common import public_estimators

    return {cls.__module__.split(".")[1] for cls in public_estimators()} | {"metrics"}


def main(names):
    found = cases()
    missing = families() - {family.split()[0] for family, _ in found.values()}
    if missing:
        print(f"no representative of {sorted(missing)}")
        return 1
    grown = []
    for name in names or found:
        family, fit = found[name]
        start = time.perf_counter()
        for _ in range(WARM_UP):
            fit()
        gc.collect()
        before = resident_mib()
        for _ in range(REPEATS):
            fit()
        gc.collect()
        growth = resident_mib() - before
        print(f"{name} ({family}): {growth:+.2f} MiB over {REPEATS} fits "
              f"({time.perf_counter() - start:.1f} s)", flush=True)
        if growth > BOUND_MIB:
            grown.append(name)
    if grown:
        print(f"resident memory grew by more than {BOUND_MIB} MiB: {', '.join(grown)}")
    return 1 if grown else 0


if __name__ == "__main__":
    with warnings.catch_warnings():     # convergence and singularity warnings, 220 times over
        warnings.simplefilter("ignore")
        sys.exit(main(sys.argv[1:]))
