"""k nearest neighbours the plain way: every distance, then a sort (twin of
``kernelkit._core._knn_brute``)."""

import numpy as np

__all__ = ["knn_brute", "knn_brute_screened", "knn_select"]


def knn_select(D, out_idx, out_dist, n_threads=1):
    """The ``k`` smallest entries of each row of ``D``, ordered by value then column index."""
    k = out_idx.shape[1]
    for q, row in enumerate(np.asarray(D, dtype=np.float64)):
        order = sorted(range(len(row)), key=lambda t: (row[t], t))[:k]
        out_idx[q] = order
        out_dist[q] = row[order]


def knn_brute(Q, X, out_idx, out_dist, n_threads=1):
    """Squared Euclidean distances by direct differences, then :func:`knn_select`."""
    Q, X = np.asarray(Q, dtype=np.float64), np.asarray(X, dtype=np.float64)
    D = np.array([[float(np.sum((q - x) ** 2)) for x in X] for q in Q]).reshape(len(Q), len(X))
    knn_select(D, out_idx, out_dist)


def knn_brute_screened(Q, X, Q32, X32, out_idx, out_dist, n_threads=1):
    """The screened search finds the exact neighbours: :func:`knn_brute` (the float32 copies
    only speed up the compiled core)."""
    knn_brute(Q, X, out_idx, out_dist)
