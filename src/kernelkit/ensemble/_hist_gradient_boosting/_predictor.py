"""The grown trees as flat node arrays (one per field, children renumbered), and the raw
scores they add (``kernelkit._core._hist_predict``).

A categorical split sends left the raw categories whose bits are set in its row of
``left_categories`` (``bitset`` gives the row, -1 at a numeric split or a leaf); a value that is
no known category of the feature (``known_categories``, one row per feature) goes where the
node's missing values go. A bitset is 8 × uint32: bit ``c % 32`` of word ``c // 32`` for the
category ``c`` (``_core/_bitset.pxd``).
"""

import numpy as np

from kernelkit._core._hist_predict import add_leaf_values, add_tree_values

__all__ = ["BITSET_WORDS", "add_leaf_values", "add_tree_values", "categorical_splits",
           "category_bitsets", "concatenate_trees", "known_category_bitsets"]

# Words of a bitset of the categories 0 … 255.
BITSET_WORDS = 8
# Fields of a grown tree, in the order of the flat arrays of the predictor.
_TREE_FIELDS = ("feature", "bin", "threshold", "missing_go_left", "left", "value", "n_samples")
_NO_BITSETS = np.zeros((0, BITSET_WORDS), dtype=np.uint32)


def category_bitsets(category_sets):
    """One bitset per set of categories (integers in [0, 255]): shape (n_sets, 8), uint32."""
    bitsets = np.zeros((len(category_sets), BITSET_WORDS), dtype=np.uint32)
    for row, categories in zip(bitsets, category_sets):
        categories = np.asarray(categories, dtype=np.intp)
        np.bitwise_or.at(row, categories >> 5, np.uint32(1) << (categories & 31).astype(np.uint32))
    return bitsets


def known_category_bitsets(bin_mapper):
    """The known categories of every feature as bitsets, shape (n_features, 8), uint32 (an
    empty set for a numeric feature); no rows without a categorical feature."""
    if not bin_mapper.is_categorical_.any():
        return _NO_BITSETS
    return category_bitsets([() if categories is None else categories.astype(np.intp)
                             for categories in bin_mapper.known_categories_])


def _bitset_members(bitset):
    """The integers whose bits are set in a bitset of 8 × uint32."""
    codes = np.arange(32 * BITSET_WORDS)
    return np.flatnonzero((bitset[codes >> 5] >> (codes & 31).astype(np.uint32)) & 1)


def categorical_splits(tree, left_bins, bin_mapper, known_categories):
    """The predictor's fields of a grown tree's categorical splits, from the bitsets of the bins
    that go left (``left_bins``, (n_nodes, 8)): ``bitset`` (each categorical split's row of
    ``left_categories``, -1 elsewhere), ``left_categories`` (the raw categories of those bins)
    and the model's ``known_categories``; none for a model without categorical features."""
    if not bin_mapper.is_categorical_.any():
        return {}
    is_split = tree["left"] >= 0
    categorical = is_split & bin_mapper.is_categorical_[
        np.where(is_split, tree["feature"], 0)].astype(bool)
    rows = np.flatnonzero(categorical)
    bitset = np.full(tree["left"].size, -1, dtype=np.intp)
    bitset[rows] = np.arange(rows.size)
    left_sets = []
    for node in rows:
        categories = bin_mapper.known_categories_[tree["feature"][node]]
        bins = _bitset_members(left_bins[node])
        # the missing bin is no category: its side is the node's missing_go_left
        left_sets.append(categories[bins[bins < categories.size]].astype(np.intp))
    return {"bitset": bitset, "left_categories": category_bitsets(left_sets),
            "known_categories": known_categories}


def concatenate_trees(trees):
    """One flat node array per field over ``trees``, children renumbered, and each tree's
    root.

    A tree with categorical splits has ``bitset`` (n_nodes,) and ``left_categories``
    (n_bitsets, 8) and holds the model's ``known_categories`` (n_features, 8); a tree without
    them has only numeric splits.
    """
    sizes = np.array([tree["left"].size for tree in trees], dtype=np.intp)
    roots = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.intp)
    flat = {name: np.concatenate([tree[name] for tree in trees]) for name in _TREE_FIELDS}
    left = np.concatenate([np.where(tree["left"] >= 0, tree["left"] + root, -1)
                           for tree, root in zip(trees, roots)])
    flat["left"] = left.astype(np.intp)
    bitset_tables = [tree.get("left_categories", _NO_BITSETS) for tree in trees]
    offsets = np.cumsum([0] + [table.shape[0] for table in bitset_tables[:-1]])
    flat["bitset"] = np.concatenate([
        np.where(tree["bitset"] >= 0, tree["bitset"] + offset, -1) if "bitset" in tree
        else np.full(tree["left"].size, -1) for tree, offset in zip(trees, offsets)]).astype(
            np.intp)
    flat["left_categories"] = np.concatenate(bitset_tables)
    flat["known_categories"] = trees[0].get("known_categories", _NO_BITSETS)
    return flat, roots
