"""Data of the speed matrix: deterministic, from a seed, at any size.

Everything here uses only numpy, scikit-learn's data generators and kernelkit's shipped data, so
that the matrix's rows build the same data in the current installation and in an older wheel
(``kernelkit bench matrix --baseline``).
"""

import functools

import numpy as np

from kernelkit.bench._shared_data import shared_data  # noqa: F401 (_rows: the large data sets)

N_FEATURES = 20
N_TEST = 2_000
SEED = 0


@functools.lru_cache(maxsize=4)
def classification(n, d=N_FEATURES, n_classes=2):
    """``(X, y, X_test, y_test)``: ``make_classification``, 10 informative features (at most
    half of them), 5 redundant (at most a quarter)."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n + N_TEST, d, n_informative=min(10, d // 2),
                               n_redundant=min(5, d // 4),
                               n_classes=n_classes, n_clusters_per_class=1, flip_y=0.05,
                               random_state=SEED)
    return X[:n], y[:n], X[n:], y[n:]


@functools.lru_cache(maxsize=4)
def regression(n, d=N_FEATURES):
    """``(X, y, X_test, y_test)``: ``make_regression`` with noise 10."""
    from sklearn.datasets import make_regression

    X, y = make_regression(n + N_TEST, d, n_informative=min(10, d), noise=10.0, random_state=SEED)
    return X[:n], y[:n], X[n:], y[n:]


@functools.lru_cache(maxsize=4)
def blobs(n, d=12, centers=8, dtype="float64"):
    """``X``: ``n`` points around ``centers`` Gaussian centres in ``d`` dimensions."""
    from sklearn.datasets import make_blobs

    X, _ = make_blobs(n, d, centers=centers, cluster_std=2.0, random_state=SEED)
    return X.astype(dtype)


@functools.lru_cache(maxsize=2)
def sequences(n):
    """``n`` protein fragments of 100–400 letters cut from the shipped secreted proteins."""
    from kernelkit.bench.suites.strings import _protein_windows

    return _protein_windows(n, np.random.default_rng(SEED))


@functools.lru_cache(maxsize=2)
def windows(n, length=100):
    """``n`` protein windows of ``length`` letters (the weighted degree kernel compares
    sequences of one length)."""
    return [s[:length] for s in sequences(n)]


@functools.lru_cache(maxsize=2)
def graphs(n):
    """``n`` molecule-like graphs (10–40 atoms) as ``(adjacency, node_labels, edge_labels)``."""
    from kernelkit.bench.suites.graphs import molecule_like_graphs

    return molecule_like_graphs(n, seed=SEED)


@functools.lru_cache(maxsize=2)
def attributed_graphs(n, n_attributes=4):
    """The graphs of :func:`graphs` with ``n_attributes`` continuous node attributes each:
    ``(adjacency, node_labels, edge_labels, attributes)``."""
    rng = np.random.default_rng(SEED)
    return [(a, labels, edges, rng.normal(size=(a.shape[0], n_attributes)))
            for a, labels, edges in graphs(n)]


def graph_labels(n):
    """A binary target for :func:`graphs`: whether a graph has more atoms than the median."""
    sizes = np.array([a.shape[0] for a, *_ in graphs(n)])
    return (sizes > np.median(sizes)).astype(int)
