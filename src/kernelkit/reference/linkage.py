"""Reference agglomerative clustering: the textbook algorithms on a full distance matrix.

Twin of ``kernelkit._core._linkage``. Single linkage by Kruskal's algorithm on the complete graph
(Sangnier, §2.3.2); complete, average and Ward by the plain greedy loop of Sangnier, §2.3.1 (merge
the closest pair, update by Lance–Williams), O(n³) time. Output in SciPy's linkage format.
"""

import numpy as np
from scipy.spatial.distance import cdist, squareform

__all__ = ["mst_single_linkage", "nn_chain_linkage", "cut_linkage"]

_SCIPY_METRICS = {"euclidean": "euclidean", "manhattan": "cityblock", "cosine": "cosine"}


def _find(parent, x):
    while parent[x] != x:
        x = parent[x]
    return x


def mst_single_linkage(X, Z, metric="euclidean"):
    """Single linkage by Kruskal: add edges by increasing weight, skipping cycles."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    if n < 2:
        return
    D = X if metric == "precomputed" else cdist(X, X, _SCIPY_METRICS[metric])
    i, j = np.triu_indices(n, k=1)
    order = np.argsort(D[i, j], kind="stable")
    parent = list(range(2 * n - 1))
    size = [1] * (2 * n - 1)
    k = 0
    for e in order:
        a, b = _find(parent, i[e]), _find(parent, j[e])
        if a == b:
            continue
        Z[k] = [min(a, b), max(a, b), D[i[e], j[e]], size[a] + size[b]]
        size[n + k] = size[a] + size[b]
        parent[a] = parent[b] = n + k
        k += 1


def _lance_williams(method, d_xk, d_yk, d_xy, n_x, n_y, n_k):
    if method == "complete":
        return max(d_xk, d_yk)
    if method == "average":
        return (n_x * d_xk + n_y * d_yk) / (n_x + n_y)
    return np.sqrt(((n_x + n_k) * d_xk**2 + (n_y + n_k) * d_yk**2 - n_k * d_xy**2)
                   / (n_x + n_y + n_k))


def nn_chain_linkage(distances, n_samples, Z, method="complete"):
    """Complete, average or Ward linkage by the greedy closest-pair loop (same output)."""
    n = n_samples
    if n < 2:
        return
    D = squareform(np.asarray(distances, dtype=np.float64)).copy()
    np.fill_diagonal(D, np.inf)
    name = list(range(n))     # current cluster id of each matrix slot
    size = np.ones(n)
    active = np.ones(n, dtype=bool)
    for k in range(n - 1):
        masked = np.where(active[:, None] & active[None, :], D, np.inf)
        x, y = np.unravel_index(np.argmin(masked), D.shape)
        height = D[x, y]
        Z[k] = [min(name[x], name[y]), max(name[x], name[y]), height, size[x] + size[y]]
        for i in np.flatnonzero(active):
            if i != x and i != y:
                D[i, y] = D[y, i] = _lance_williams(method, D[i, x], D[i, y], height,
                                                    size[x], size[y], size[i])
        size[y] += size[x]
        active[x] = False
        name[y] = n + k


def cut_linkage(Z, n_merges, labels):
    """Flat clusters after the first ``n_merges`` merges, numbered by first sample."""
    n = labels.shape[0]
    parent = list(range(2 * n - 1))
    for k in range(n_merges):
        parent[int(Z[k, 0])] = parent[int(Z[k, 1])] = n + k
    names = {}
    for i in range(n):
        labels[i] = names.setdefault(_find(parent, i), len(names))
    return len(names)
