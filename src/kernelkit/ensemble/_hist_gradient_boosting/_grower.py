"""The work space of the compiled leaf-wise grower (``kernelkit._core._hist_grower``) for one
training set, and the trees it grows as dicts of node arrays."""

import numpy as np

from kernelkit._core._hist_grower import grow_tree
from kernelkit.ensemble._hist_gradient_boosting._predictor import (
    BITSET_WORDS,
    categorical_splits,
    known_category_bitsets,
)
from kernelkit.utils._threads import min_work_per_thread
from kernelkit.utils._validation import MAX_INT

__all__ = ["MIN_HESSIAN_TO_SPLIT", "Grower"]

# A split needs at least this much Hessian on each side (scikit-learn's and LightGBM's guard
# against leaves whose Newton step divides by almost nothing).
MIN_HESSIAN_TO_SPLIT = 1e-3


class Grower:
    """The work space of the grower for one training set, reused by every tree; ``constraints``:
    the grower's ``monotonic_cst`` and ``interaction_cst`` (see ``_constraints``), or None."""

    def __init__(self, X_binned, bin_mapper, estimator, n_threads, constraints=None):
        n_samples = X_binned.shape[0]
        self.bin_mapper = bin_mapper
        root_counts = np.stack([np.bincount(X_binned[:, f], minlength=256)
                                for f in range(X_binned.shape[1])]).astype(np.float64)
        # the core's groups (see ``grow_tree``): the binned training set, the options, the
        # work space and the node arrays
        self.binned = {
            "X_binned": X_binned, "root_counts": root_counts,
            "n_bins_non_missing": bin_mapper.n_bins_non_missing_,
            "has_missing_values": (root_counts[:, bin_mapper.missing_bin_] > 0).astype(np.uint8),
            "is_categorical": bin_mapper.is_categorical_, "missing_bin": bin_mapper.missing_bin_}
        self.known_categories = known_category_bitsets(bin_mapper)
        max_leaf_nodes = (estimator.max_leaf_nodes if estimator.max_leaf_nodes is not None
                          else MAX_INT)
        self.options = {
            "max_leaf_nodes": max_leaf_nodes,
            "max_depth": -1 if estimator.max_depth is None else estimator.max_depth,
            "min_samples_leaf": estimator.min_samples_leaf,
            "min_hessian_to_split": MIN_HESSIAN_TO_SPLIT,
            "l2_regularization": float(estimator.l2_regularization),
            "learning_rate": float(estimator.learning_rate),
            # ``monotonic_cst`` and ``interaction_cst`` (``_constraints.grower_constraints``)
            **(constraints or {})}
        self.n_threads = n_threads
        # every leaf holds min_samples_leaf samples, so no tree has more leaves than this
        max_leaves = max(1, min(max_leaf_nodes, n_samples // estimator.min_samples_leaf))
        max_nodes = 2 * max_leaves - 1
        self.identity = np.arange(n_samples, dtype=np.int32)
        self.work = {
            "sample_indices": np.empty(n_samples, dtype=np.int32),
            "partition_buffer": np.empty(n_samples, dtype=np.int32),
            "ordered_gradients": np.empty(n_samples, dtype=np.float32),
            "ordered_hessians": np.empty(n_samples, dtype=np.float32),
            # a tree's parallel loops follow each other within microseconds: its team still spins
            "min_work_per_thread": min_work_per_thread(n_threads, back_to_back=True)}
        self.nodes = {name: np.empty(max_nodes, dtype=dtype) for name, dtype in (
            ("feature", np.intp), ("bin", np.intp), ("missing_go_left", np.uint8),
            ("left", np.intp), ("right", np.intp), ("value", np.float64), ("start", np.intp),
            ("stop", np.intp), ("gain", np.float64))}
        self.nodes["left_bins"] = np.empty((max_nodes, BITSET_WORDS), dtype=np.uint32)

    @property
    def sample_indices(self):
        """(n_samples,) int32: after :meth:`grow`, every node's samples are a slice of it."""
        return self.work["sample_indices"]

    def grow(self, gradients, hessians, hessians_are_constant):
        """Grow a tree; returns it (a dict of node arrays) with the slice of
        ``self.sample_indices`` of each node."""
        np.copyto(self.sample_indices, self.identity)
        nodes = self.nodes
        n_nodes = grow_tree(self.binned, gradients, hessians, hessians_are_constant,
                            self.options, self.work, nodes, self.n_threads)
        tree = {name: nodes[name][:n_nodes].copy()
                for name in ("feature", "bin", "missing_go_left", "left", "value", "gain")}
        is_split = tree["left"] >= 0
        # thresholds beyond a feature's last one are +inf: all non-missing values go left
        tree["threshold"] = np.where(
            is_split, self.bin_mapper.thresholds_[np.where(is_split, tree["feature"], 0),
                                                  np.minimum(tree["bin"],
                                                             self.bin_mapper.max_bins - 1)],
            0.0)
        tree["n_samples"] = nodes["stop"][:n_nodes] - nodes["start"][:n_nodes]
        tree.update(categorical_splits(tree, nodes["left_bins"][:n_nodes], self.bin_mapper,
                                       self.known_categories))
        return tree, nodes["start"][:n_nodes], nodes["stop"][:n_nodes]

