"""Agglomerative clustering: kernelkit (MST / NN-chain cores) vs SciPy and scikit-learn."""

import numpy as np
from scipy.cluster.hierarchy import linkage
from scipy.spatial.distance import pdist
from sklearn.cluster import AgglomerativeClustering as SklearnAgglomerativeClustering

from kernelkit import reference
from kernelkit.bench._harness import Contender, Suite, reference_up_to, sklearn_peer
from kernelkit.cluster import AgglomerativeClustering


def cases(quick):
    if quick:
        return [dict(linkage="single", n=4_000), dict(linkage="ward", n=1_500),
                dict(linkage="average", n=300)]
    return [dict(linkage="single", n=20_000), dict(linkage="single", n=300),
            dict(linkage="ward", n=5_000), dict(linkage="average", n=5_000),
            dict(linkage="complete", n=5_000)]


def setup(params):
    return np.random.default_rng(0).normal(size=(params["n"], 3)), params["linkage"]


def _top(heights):
    return dict(top_height=float(heights[-1]), heights_sum=float(heights.sum()))


def _kernelkit(data):
    X, method = data
    return _top(AgglomerativeClustering(linkage=method).fit(X).distances_)


def _reference(data):
    X, method = data
    Z = np.empty((len(X) - 1, 4))
    if method == "single":
        reference.mst_single_linkage(X, Z)
    else:
        reference.nn_chain_linkage(pdist(X), len(X), Z, method)
    return _top(Z[:, 2])


def _scipy(data):
    X, method = data
    return _top(linkage(X, method)[:, 2])


def _sklearn(data):
    X, method = data
    model = SklearnAgglomerativeClustering(linkage=method, compute_distances=True)
    return _top(model.fit(X).distances_)


SUITE = Suite(
    name="agglomerative",
    description=(
        "Full dendrogram of n Gaussian points in 3-D. kernelkit: single linkage by Prim's MST "
        "with on-the-fly distances (O(n) memory), the others by NN-chain on the "
        "condensed matrix. SciPy: `linkage` (condensed distance matrix, O(n²) memory, "
        "single-threaded); scikit-learn: `AgglomerativeClustering` (single linkage by its own "
        "MST on the features; Ward/average/complete via SciPy-like code on the condensed "
        "matrix). Values: the last merge height and the sum of heights (equal across "
        "libraries). Peak MiB = peak resident-memory increase in a fresh process."
    ),
    cases=cases,
    setup=setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        reference_up_to(300, _reference),
        Contender("scipy", _scipy),
        sklearn_peer(_sklearn),
    ],
    repeats=lambda params, quick: 1 if quick or params["n"] >= 20_000 else 3,
    measure_memory=True,
)
