"""k nearest neighbours the plain way: every distance, then a sort (twins of
``kernelkit._core._knn_brute`` and ``kernelkit._core._knn_kd_tree``), and the KD-tree built by
sorting."""

import numpy as np

__all__ = ["build_kd_tree", "knn_brute", "knn_brute_screened", "knn_kd_tree", "knn_select"]


def knn_select(D, out_idx, out_dist, n_threads=1):
    """The ``k`` smallest entries of each row of ``D``, ordered by value then column index."""
    k = out_idx.shape[1]
    for q, row in enumerate(np.asarray(D, dtype=np.float64)):
        order = sorted(range(len(row)), key=lambda t: (row[t], t))[:k]
        out_idx[q] = order
        out_dist[q] = row[order]


def knn_brute(Q, X, out_idx, out_dist, n_threads=1, exact=True):
    """Squared Euclidean distances by direct differences, then :func:`knn_select` (always the
    exact distances: the core's ``exact=False`` ranks by GEMM values, equal to these on data
    whose products are exact, such as small integers)."""
    Q, X = np.asarray(Q, dtype=np.float64), np.asarray(X, dtype=np.float64)
    D = np.array([[float(np.sum((q - x) ** 2)) for x in X] for q in Q]).reshape(len(Q), len(X))
    knn_select(D, out_idx, out_dist)


def knn_brute_screened(Q, X, Q32, X32, out_idx, out_dist, n_threads=1):
    """The screened search finds the exact neighbours: :func:`knn_brute` (the float32 copies
    only speed up the compiled core)."""
    knn_brute(Q, X, out_idx, out_dist)


def build_kd_tree(X, sample_at, node_start, node_end, node_lo, node_hi, points, n_threads=1,
                  min_work_per_thread=0.0):
    """The KD-tree of ``len(node_start)`` nodes (node i's children are 2i+1 and 2i+2, leaves on
    the last level): each node's samples sorted by the coordinate of largest spread (the first
    such coordinate), the lower half (rounded down) to the left child; each node's box is that
    of its samples. ``points`` gets the rows leaf by leaf, each leaf's block by columns. The
    threads of the core do not change the tree."""
    X = np.asarray(X)
    n_nodes = len(node_start)
    first_leaf = (n_nodes + 1) // 2 - 1
    members = {0: np.arange(len(X))}
    for node in range(n_nodes):
        rows = members.pop(node)
        box = X[rows] if len(rows) else np.zeros((1, X.shape[1]))
        node_lo[node], node_hi[node] = box.min(axis=0), box.max(axis=0)
        if node >= first_leaf:
            members[node] = rows
            continue
        dim = int(np.argmax(node_hi[node] - node_lo[node]))
        rows = rows[np.argsort(X[rows, dim], kind="stable")]
        members[2 * node + 1], members[2 * node + 2] = rows[:len(rows) // 2], rows[len(rows) // 2:]
    start = 0
    for node in range(first_leaf, n_nodes):
        rows = members[node]
        node_start[node], node_end[node] = start, start + len(rows)
        sample_at[start:start + len(rows)] = rows
        points[start * X.shape[1]:(start + len(rows)) * X.shape[1]] = X[rows].T.ravel()
        start += len(rows)
    for node in range(first_leaf - 1, -1, -1):
        node_start[node], node_end[node] = node_start[2 * node + 1], node_end[2 * node + 2]


def knn_kd_tree(Q, points, sample_at, node_start, node_end, node_lo, node_hi, out_idx,
                out_dist, n_threads=1):
    """The KD-tree search finds the exact neighbours: :func:`knn_brute` over the training rows
    recovered from the tree's leaves (the tree only speeds up the compiled core)."""
    n_features = np.asarray(node_lo).shape[1]
    X = np.empty((len(sample_at), n_features))
    first_leaf = (len(node_start) + 1) // 2 - 1
    for node in range(first_leaf, len(node_start)):
        s, e = node_start[node], node_end[node]
        block = np.asarray(points[s * n_features:e * n_features], dtype=np.float64)
        X[sample_at[s:e]] = block.reshape(n_features, e - s).T
    knn_brute(Q, X, out_idx, out_dist)
