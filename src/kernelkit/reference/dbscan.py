"""Reference DBSCAN: breadth-first search over a full boolean neighbour matrix (small n only).

Twin of ``kernelkit._core._dbscan_expansion`` (same entry points, same outputs, O(n²) memory)
and, as ``dbscan_dense(..., algorithm="brute")``, of ``kernelkit._core._dbscan_gemm``'s
``dbscan_gemm``. Sangnier Algorithm 14 with two fixes (``|N| ≥ m`` for the seed point; a visited
set). ``dbscan_dense`` does not take the GEMM entry's optional ``X32`` (a float32 copy for its
screening) and ``max_graph_bytes`` (its memory budget): they change how the compiled search
runs, not what it finds.
"""

from collections import deque

import numpy as np
from scipy.sparse.csgraph import connected_components
from scipy.spatial.distance import cdist

__all__ = ["dbscan_dense", "dbscan_precomputed_dense", "dbscan_precomputed_sparse"]

_SCIPY_METRICS = {"euclidean": "euclidean", "manhattan": "cityblock", "chebyshev": "chebyshev"}


def _expand(adjacency, min_samples, labels, is_core):
    """Sangnier, Algorithm 14 on ``adjacency[i, j] = (j is in the ε-neighbourhood of i)``."""
    n = adjacency.shape[0]
    np.fill_diagonal(adjacency, True)  # a point is its own neighbour
    core = adjacency.sum(axis=1) >= min_samples
    labels[:] = -1
    is_core[:] = core
    n_clusters = 0
    for seed in range(n):
        if not core[seed] or labels[seed] != -1:
            continue
        labels[seed] = n_clusters
        queue = deque([seed])
        while queue:
            point = queue.popleft()
            for neighbour in np.flatnonzero(adjacency[point]):
                if labels[neighbour] == -1:
                    labels[neighbour] = n_clusters
                    if core[neighbour]:
                        queue.append(neighbour)
        n_clusters += 1
    return n_clusters


def _components(adjacency, min_samples, labels, is_core):
    """The same clustering without a search order (twin of the GEMM path's three passes):
    connected components of the core points, numbered by their first sample, and each border
    point in the lowest-numbered cluster among its core neighbours."""
    np.fill_diagonal(adjacency, True)
    core = adjacency.sum(axis=1) >= min_samples
    core_index = np.flatnonzero(core)
    _, component = connected_components(adjacency[np.ix_(core, core)], directed=False)
    first_sample = np.full(component.max() + 1 if component.size else 0, np.iinfo(np.intp).max)
    np.minimum.at(first_sample, component, core_index)
    number = np.empty_like(first_sample)
    number[np.argsort(first_sample)] = np.arange(first_sample.size)
    cluster = np.full(adjacency.shape[0], -1)
    cluster[core_index] = number[component]
    labels[:] = -1
    labels[core] = cluster[core]
    for i in np.flatnonzero(~core):
        reached = cluster[adjacency[i] & core]
        labels[i] = reached.min() if reached.size else -1
    is_core[:] = core
    return first_sample.size


def dbscan_dense(X, eps, min_samples, labels, is_core, metric="euclidean", algorithm="auto",
                 n_threads=1):
    """DBSCAN on feature vectors; ``algorithm="brute"`` clusters by components (as the GEMM
    path does), any other by breadth-first search; ``n_threads`` is accepted and ignored."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[0] == 0:
        return 0
    cluster = _components if algorithm == "brute" else _expand
    return cluster(cdist(X, X, _SCIPY_METRICS[metric]) <= eps, min_samples, labels, is_core)


def dbscan_precomputed_dense(distances, eps, min_samples, labels, is_core, n_threads=1):
    """DBSCAN on a dense distance matrix."""
    distances = np.asarray(distances, dtype=np.float64)
    if distances.shape[0] == 0:
        return 0
    return _expand(distances <= eps, min_samples, labels, is_core)


def dbscan_precomputed_sparse(data, indices, indptr, eps, min_samples, labels, is_core,
                              n_threads=1):
    """DBSCAN on a CSR radius-neighbours graph: only stored entries can be neighbours."""
    n = len(indptr) - 1
    if n <= 0:
        return 0
    adjacency = np.zeros((n, n), dtype=bool)
    rows = np.repeat(np.arange(n), np.diff(indptr))
    adjacency[rows, indices] = np.asarray(data) <= eps
    return _expand(adjacency, min_samples, labels, is_core)
