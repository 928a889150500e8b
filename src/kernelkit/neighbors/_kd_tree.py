"""The KD-tree of the k-NN estimators: its arrays, built by the compiled core, and the search."""

import numpy as np

from kernelkit._core._knn_kd_tree import build_kd_tree, kd_tree_n_nodes, knn_kd_tree
from kernelkit.utils._threads import min_work_per_thread

__all__ = ["KDTreeIndex"]

# Rows per leaf. Measured (2026-11-27, 2 threads, 1e5 rows in 20 Gaussian clusters, d = 10,
# 1e4 queries, k = 10): see bench/results/neighbors.md.
LEAF_SIZE = 64


class KDTreeIndex:
    """A KD-tree over the rows of ``X`` (float32 or float64, kept in that type).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
        Validated training rows (finite, at least one).
    leaf_size : int, default=LEAF_SIZE
        Largest number of rows in a leaf.
    n_threads : int, default=1
        Threads of the build, as many as its work pays for (the tree does not depend on them).

    Attributes
    ----------
    points : ndarray of shape (n_samples * n_features,), X's dtype
        The rows leaf by leaf, each leaf's block by columns (a copy: a leaf's rows are
        contiguous and its distances vectorise).
    sample_at : ndarray of shape (n_samples,), intp
        Training index of each row of ``points``.
    node_start, node_end : ndarray of shape (n_nodes,), intp
        Range of ``points`` under each node (node i has children 2i+1, 2i+2).
    node_lo, node_hi : ndarray of shape (n_nodes, n_features), float64
        Bounding box of each node.
    """

    def __init__(self, X, leaf_size=LEAF_SIZE, n_threads=1):
        n_samples, n_features = X.shape
        n_nodes = kd_tree_n_nodes(n_samples, leaf_size)
        self.points = np.empty(X.size, dtype=X.dtype)
        self.sample_at = np.empty(n_samples, dtype=np.intp)
        self.node_start = np.empty(n_nodes, dtype=np.intp)
        self.node_end = np.empty(n_nodes, dtype=np.intp)
        self.node_lo = np.empty((n_nodes, n_features))
        self.node_hi = np.empty((n_nodes, n_features))
        build_kd_tree(X, self.sample_at, self.node_start, self.node_end, self.node_lo,
                      self.node_hi, self.points, n_threads, min_work_per_thread(n_threads))

    def query(self, Q, k, n_threads):
        """``(squared distances, indices)`` of the ``k`` nearest rows of each query (rows of
        ``Q``, in the training rows' dtype), nearest first, ties by the smaller index."""
        return self._search(Q, k, n_threads)[:2]

    def scanned_fraction(self, Q, k, n_threads):
        """Share of the training rows whose distance the search of ``Q`` computes, on average
        over the queries: the tree's work relative to a brute force's."""
        return self._search(Q, k, n_threads)[2] / (Q.shape[0] * len(self.sample_at))

    def _search(self, Q, k, n_threads):
        # queries that fall in the same leaf visit the same nodes and rows: searched one after
        # the other, they find them in the cache
        order = np.argsort(self._leaf_of(Q), kind="stable")
        indices = np.empty((Q.shape[0], k), dtype=np.intp)
        squared = np.empty((Q.shape[0], k))
        n_scanned = knn_kd_tree(np.ascontiguousarray(Q[order]), self.points, self.sample_at,
                                self.node_start, self.node_end, self.node_lo, self.node_hi,
                                indices, squared, n_threads)
        indices[order] = indices.copy()
        squared[order] = squared.copy()
        return squared, indices, n_scanned

    def _leaf_of(self, Q):
        """The leaf each query reaches by descending into the nearer child's box."""
        node = np.zeros(Q.shape[0], dtype=np.intp)
        first_leaf = (len(self.node_start) + 1) // 2 - 1
        while first_leaf > 0 and node[0] < first_leaf:
            left = 2 * node + 1
            gap_left = np.maximum(np.maximum(self.node_lo[left] - Q, Q - self.node_hi[left]), 0)
            right = left + 1
            gap_right = np.maximum(np.maximum(self.node_lo[right] - Q, Q - self.node_hi[right]),
                                   0)
            node = np.where(np.einsum("ij,ij->i", gap_right, gap_right)
                            < np.einsum("ij,ij->i", gap_left, gap_left), right, left)
        return node
