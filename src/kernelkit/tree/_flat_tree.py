"""The flat array tree the builder returns, with its compiled prediction
(``kernelkit._core._tree_predict``)."""

import numpy as np

from kernelkit._core._tree_predict import apply_tree, sum_forest

__all__ = ["Tree", "sum_tree_values"]


class Tree:
    """A binary decision tree as parallel arrays indexed by node id (node 0 is the root).

    A sample goes to the left child of a split node when ``x[feature] <= threshold``, x read as
    float32 (as at training).

    Attributes
    ----------
    children_left, children_right : ndarray of shape (node_count,), int32
        Child ids; -1 for a leaf.
    feature : ndarray of shape (node_count,), int32
        Split feature; -2 for a leaf.
    threshold : ndarray of shape (node_count,), float64
        Split threshold (the midpoint of the two training values it separates); -2 for a leaf.
    value : ndarray of shape (node_count, n_values), float64
        Output of every node (leaves and split nodes): the weighted class fractions, the mean,
        the weighted median (absolute error) or the Newton step ``−G/(H + λ)``. Writable:
        overwrite leaf rows to change what :meth:`predict` returns.
    impurity : ndarray of shape (node_count,), float64
        Impurity of the node (Gini, entropy in bits, MSE, mean absolute deviation, or the Newton
        objective ``−G²/(H (H + λ))``).
    n_node_samples : ndarray of shape (node_count,), int32
        Training samples (of positive weight) in the node.
    weighted_n_node_samples : ndarray of shape (node_count,), float64
        Their summed weight.
    max_depth : int
        Depth of the deepest node.
    n_features : int
    """

    def __init__(self, children_left, children_right, feature, threshold, value, impurity,
                 n_node_samples, weighted_n_node_samples, max_depth, n_features):
        self.children_left = children_left
        self.children_right = children_right
        self.feature = feature
        self.threshold = threshold
        self.value = value
        self.impurity = impurity
        self.n_node_samples = n_node_samples
        self.weighted_n_node_samples = weighted_n_node_samples
        self.max_depth = int(max_depth)
        self.n_features = int(n_features)

    @property
    def node_count(self):
        return self.children_left.shape[0]

    @property
    def n_leaves(self):
        return int(np.count_nonzero(self.children_left == -1))

    def apply(self, X, n_threads=1):
        """Leaf id of every row of ``X`` (validated, n_features columns; read as float32).

        Returns
        -------
        leaves : ndarray of shape (n_samples,), intp
        """
        X = np.ascontiguousarray(X, dtype=np.float32)
        out = np.empty(X.shape[0], dtype=np.intp)
        apply_tree(self.children_left, self.children_right, self.feature, self.threshold, X,
                   out, n_threads)
        return out

    def predict(self, X, n_threads=1):
        """``value`` of the leaf of every row of ``X``, shape (n_samples, n_values)."""
        return self.value[self.apply(X, n_threads)]

    def compute_feature_importances(self, normalize=True):
        """Mean decrease of impurity per feature (Breiman et al. 1984), as scikit-learn.

        ``Σ_{nodes split on f} W_node D(node) − W_L D(L) − W_R D(R)``, divided by the root's
        weight and, if ``normalize``, by the total (unless it is 0).
        """
        importances = np.zeros(self.n_features)
        split = np.flatnonzero(self.children_left != -1)
        if split.size:
            weighted = self.weighted_n_node_samples * self.impurity
            decrease = (weighted[split] - weighted[self.children_left[split]]
                        - weighted[self.children_right[split]])
            np.add.at(importances, self.feature[split], decrease)
            importances /= self.weighted_n_node_samples[0]
        if normalize:
            total = importances.sum()
            if total > 0.0:
                importances /= total
        return importances

    def __repr__(self):
        return (f"Tree(node_count={self.node_count}, n_leaves={self.n_leaves}, "
                f"max_depth={self.max_depth})")


def sum_tree_values(trees, X, n_threads=1):
    """``Σ_t trees[t].predict(X)`` in one compiled pass, shape (n_samples, n_values).

    Trees are summed in order for every sample, so the result does not depend on ``n_threads``.
    """
    X = np.ascontiguousarray(X, dtype=np.float32)
    offsets = np.zeros(len(trees) + 1, dtype=np.intp)
    np.cumsum([t.node_count for t in trees], out=offsets[1:])
    out = np.empty((X.shape[0], trees[0].value.shape[1]))
    sum_forest(np.concatenate([t.children_left for t in trees]),
               np.concatenate([t.children_right for t in trees]),
               np.concatenate([t.feature for t in trees]),
               np.concatenate([t.threshold for t in trees]),
               np.concatenate([t.value for t in trees]), offsets, X, out, n_threads)
    return out
