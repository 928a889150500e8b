"""The grown trees as flat node arrays (one per field, children renumbered), and the raw
scores they add (``kernelkit._core._hist_predict``)."""

import numpy as np

from kernelkit._core._hist_predict import add_leaf_values, add_tree_values

__all__ = ["add_leaf_values", "add_tree_values", "concatenate_trees"]

# Fields of a grown tree, in the order of the flat arrays of the predictor.
_TREE_FIELDS = ("feature", "bin", "threshold", "missing_go_left", "left", "value", "n_samples")


def concatenate_trees(trees):
    """One flat node array per field over ``trees``, children renumbered, and each tree's
    root."""
    sizes = np.array([tree["left"].size for tree in trees], dtype=np.intp)
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    flat = {name: np.concatenate([tree[name] for tree in trees]) for name in _TREE_FIELDS}
    left = np.concatenate([np.where(tree["left"] >= 0, tree["left"] + root, -1)
                           for tree, root in zip(trees, roots)])
    flat["left"] = left.astype(np.intp)
    return flat, roots

