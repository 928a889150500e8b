"""Growth of CART trees on a training set prepared once (compiled builder:
``kernelkit._core._tree_builder``).

- :class:`TreeTrainingSet` prepares X once (float32, presorted for ``splitter="best"``, binned
  into ≤ 255 quantile bins for ``splitter="hist"``, :mod:`kernelkit.utils._binning`'s
  ``"count_quantiles"`` rule) and grows
  any number of trees on it with different targets, weights and seeds — one at a time
  (:meth:`~TreeTrainingSet.grow_tree`, optionally returning the leaf of every training sample)
  or many in parallel native threads (:meth:`~TreeTrainingSet.grow_trees`); they return
  :class:`~kernelkit.tree._flat_tree.Tree` objects;
- :class:`GrowthParams`, the resolved stopping rules.

Gradient boosting fits trees on gradients and hessians with ``criterion="newton"``: the leaf
value is the Newton step ``−G/(H + λ)`` and splits maximise ``G_L²/(H_L + λ) + G_R²/(H_R + λ)``
(G, H: sums over the node of weighted gradients and hessians).
"""

import dataclasses

import numpy as np

from kernelkit._core._tree_builder import grow_trees as _grow_trees
from kernelkit._core._tree_presort import presort as _presort
from kernelkit.tree._flat_tree import Tree
from kernelkit.utils._binning import MAX_BINS, BinMapper

__all__ = [
    "CRITERIA",
    "CLASSIFICATION_CRITERIA",
    "REGRESSION_CRITERIA",
    "GrowthParams",
    "TreeTrainingSet",
    "draw_tree_seed",
]

# Criterion codes of the compiled builder.
CRITERIA = {"gini": 0, "entropy": 1, "log_loss": 1, "squared_error": 2, "friedman_mse": 3,
            "absolute_error": 4, "newton": 5}
CLASSIFICATION_CRITERIA = ("gini", "entropy", "log_loss")
REGRESSION_CRITERIA = ("squared_error", "friedman_mse", "absolute_error")
# Seeds of the feature draws live in [0, 2³¹ − 1), as scikit-learn's rand_r seeds.
RAND_R_MAX = 2**31 - 1
INT32_MAX = np.iinfo(np.int32).max
# Up to this many samples the presorted rows hold 16-bit sample ids (half the memory).
COMPACT_INDEX_MAX_SAMPLES = np.iinfo(np.uint16).max


def draw_tree_seed(random_state):
    """The seed of a tree's feature draws from a ``numpy.random.RandomState``.

    ``random_state.randint(0, 2³¹ − 1)``, the draw scikit-learn's splitter makes: a tree grown
    with this seed is the tree scikit-learn grows with the same random state.
    """
    return int(random_state.randint(0, RAND_R_MAX))


@dataclasses.dataclass(frozen=True)
class GrowthParams:
    """Stopping rules of the growth (Sangnier, §1.6.2), resolved to numbers.

    Parameters
    ----------
    max_depth : int or None
        Depth limit (the root has depth 0); None: none.
    min_samples_split : int
        A node with fewer samples is a leaf.
    min_samples_leaf : int
        Every child keeps at least this many samples.
    min_weight_fraction_leaf : float
        Every child keeps at least this fraction of the tree's total weight (``newton``: of the
        total hessian).
    max_features : int or None
        Features drawn at each node (None: all).
    max_leaf_nodes : int or None
        With a value, best-first growth up to that many leaves.
    min_impurity_decrease : float
        A split must decrease ``W_node/W_root (D(A) − W_L/W_node D(L) − W_R/W_node D(R))`` by
        at least this much.
    l2_regularization : float
        λ of the ``newton`` criterion.
    """

    max_depth: int = None
    min_samples_split: int = 2
    min_samples_leaf: int = 1
    min_weight_fraction_leaf: float = 0.0
    max_features: int = None
    max_leaf_nodes: int = None
    min_impurity_decrease: float = 0.0
    l2_regularization: float = 0.0

    def core_params(self, n_features):
        """The stopping rules as the compiled builder takes them (scikit-learn's resolution: no
        depth limit is 2³¹ − 1, ``min_samples_split`` at least ``2 min_samples_leaf``, no leaf
        limit is -1)."""
        max_features = n_features if self.max_features is None else self.max_features
        return {
            "max_depth": INT32_MAX if self.max_depth is None else int(self.max_depth),
            "min_samples_split": int(max(self.min_samples_split, 2 * self.min_samples_leaf)),
            "min_samples_leaf": int(self.min_samples_leaf),
            "min_weight_fraction_leaf": float(self.min_weight_fraction_leaf),
            "max_features": int(min(max_features, n_features)),
            "max_leaf_nodes": -1 if self.max_leaf_nodes is None else int(self.max_leaf_nodes),
            "min_impurity_decrease": float(self.min_impurity_decrease),
            "l2_regularization": float(self.l2_regularization),
        }


class TreeTrainingSet:
    """X prepared once for growing CART trees on it.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite training vectors (converted to float32, as scikit-learn's trees; validate before).
    splitter : {"best", "hist"}, default="best"
        ``"best"``: every feature is sorted once (stable radix sort) and the exact best split is
        searched over midpoints of consecutive distinct values. ``"hist"``: every feature is cut
        into at most ``max_bins`` bins holding about equal numbers of samples (one bin per
        distinct value when there are at most ``max_bins``), and splits are searched between
        bins from per-node histograms. Both count sorted values less than 1e-7 apart as one.
    max_bins : int, default=255
        At most 255.
    n_threads : int, default=1
        Threads of the presort and of the binning.

    Attributes
    ----------
    X_T : ndarray of shape (n_features, n_samples), float32
        X feature by feature (C-contiguous), what the splitter reads; ``X`` is its transpose.
    sorted_samples : ndarray of shape (n_features, n_samples), uint16 or int32
        ``"best"``: per feature, the sample ids in increasing order of the feature (stable);
        uint16 up to 65 535 samples.
    binned : ndarray of shape (n_features, n_samples), uint8
        ``"hist"``: bin of every value.
    bin_lower, bin_upper : ndarray of shape (n_features, 255), float32
        ``"hist"``: smallest and largest training value of every bin.
    n_bins : ndarray of shape (n_features,), int32
    """

    def __init__(self, X, splitter="best", max_bins=MAX_BINS, n_threads=1):
        if splitter not in ("best", "hist"):
            raise ValueError(f"splitter must be 'best' or 'hist', got {splitter!r}")
        if not 2 <= max_bins <= MAX_BINS:
            raise ValueError(f"max_bins must be in [2, {MAX_BINS}], got {max_bins}")
        # feature by feature: no copy when X is a Fortran-ordered float32 array
        self.X_T = np.ascontiguousarray(np.asarray(X).T, dtype=np.float32)
        self.n_features, self.n_samples = self.X_T.shape
        if self.n_samples >= INT32_MAX:
            raise ValueError("decision trees support fewer than 2**31 - 1 samples")
        self.splitter = splitter
        self.max_bins = int(max_bins)
        self.index_dtype = (np.uint16 if self.n_samples <= COMPACT_INDEX_MAX_SAMPLES
                            else np.int32)
        self.sorted_samples = np.empty(self.X_T.shape, dtype=self.index_dtype)
        _presort(self.X_T, self.sorted_samples, int(n_threads))
        if splitter == "hist":
            mapper = BinMapper(self.max_bins, "count_quantiles").fit(
                self.X, sorted_samples=self.sorted_samples)
            self.binned = mapper.transform(self.X, int(n_threads)).T
            self.bin_lower = mapper.bin_lower_.astype(np.float32)
            self.bin_upper = mapper.bin_upper_.astype(np.float32)
            self.n_bins = mapper.n_bins_non_missing_.astype(np.int32)
            # the histogram splitter reads neither X nor the presort
            del self.X_T, self.sorted_samples

    @property
    def X(self):
        """The training vectors as float32, shape (n_samples, n_features) (a transposed view)."""
        return self.X_T.T

    def _core_training_set(self):
        """The arrays the compiled builder reads: the presort or the bins."""
        if self.splitter == "hist":
            return {"binned": self.binned, "bin_lower": self.bin_lower,
                    "bin_upper": self.bin_upper, "n_bins": self.n_bins}
        return {"X_T": self.X_T, "sorted_samples": self.sorted_samples}

    def grow_trees(self, y, tree_weights, seeds, *, criterion, params, tree_counts=None,
                   n_classes=1, hessian=None, n_threads=1, train_leaves=None):
        """Grow one tree per row of ``tree_weights``, in parallel native threads.

        Parameters
        ----------
        y : ndarray of shape (n_samples,)
            Class codes ``0..n_classes−1`` (gini, entropy), targets (squared_error,
            friedman_mse, absolute_error) or loss gradients (newton).
        tree_weights : ndarray of shape (n_trees, n_samples) or (1, n_samples)
            Non-negative sample weights of each tree, or one row shared by all trees; samples
            of weight 0 are left out of that tree. Every tree needs a positive total weight.
        seeds : array-like of shape (n_trees,)
            Seeds of the feature draws (:func:`draw_tree_seed`).
        criterion : str
            A key of :data:`CRITERIA`.
        params : GrowthParams
        tree_counts : ndarray of shape (n_trees, n_samples), uint8, default=None
            Multiplicities (bootstrap counts) multiplying ``tree_weights``: one byte per
            sample and tree instead of eight.
        n_classes : int, default=1
        hessian : ndarray of shape (n_samples,), default=None
            Loss hessians (newton only).
        n_threads : int, default=1
            One tree per thread when growing several trees, else threads inside large nodes.
            The trees do not depend on it.
        train_leaves : ndarray of shape (n_samples,), int32, default=None
            With one tree: receives the leaf id of every sample of positive weight.

        Returns
        -------
        trees : list of Tree
        """
        code = CRITERIA[criterion]
        if code == CRITERIA["absolute_error"] and self.splitter == "hist":
            raise ValueError("criterion='absolute_error' needs splitter='best'")
        target = {"y": np.ascontiguousarray(y, dtype=np.float64)}
        tree_weights = np.ascontiguousarray(tree_weights, dtype=np.float64)
        seeds = np.ascontiguousarray(seeds, dtype=np.uint32)
        if tree_counts is not None:
            tree_counts = np.ascontiguousarray(tree_counts, dtype=np.uint8)
        if criterion == "newton":
            if hessian is None:
                raise ValueError("criterion='newton' needs the hessians")
            target["hessian"] = np.ascontiguousarray(hessian, dtype=np.float64)
        if criterion == "absolute_error":
            target["y_order"] = np.argsort(target["y"], kind="stable").astype(self.index_dtype)
        growth = {"criterion": code,
                  "n_classes": int(n_classes) if criterion in CLASSIFICATION_CRITERIA else 1,
                  **params.core_params(self.n_features)}
        raw = _grow_trees(self._core_training_set(), target, tree_weights, tree_counts, seeds,
                          growth, int(n_threads), train_leaves)
        return [Tree(*arrays, self.n_features) for arrays in raw]

    def grow_tree(self, y, sample_weight=None, seed=0, *, criterion, params, n_classes=1,
                  hessian=None, n_threads=1, return_train_leaves=False):
        """Grow one tree (see :meth:`grow_trees`); threads work inside large nodes.

        Returns
        -------
        tree : Tree
        train_leaves : ndarray of shape (n_samples,), int32
            With ``return_train_leaves``: the leaf of every training sample (-1 for samples of
            weight 0, which the tree did not see: use :meth:`Tree.apply` for them).
        """
        if sample_weight is None:
            sample_weight = np.ones(self.n_samples)
        leaves = np.full(self.n_samples, -1, dtype=np.int32) if return_train_leaves else None
        tree, = self.grow_trees(y, np.asarray(sample_weight, dtype=np.float64)[None, :],
                                [seed], criterion=criterion, params=params,
                                n_classes=n_classes, hessian=hessian, n_threads=n_threads,
                                train_leaves=leaves)
        return (tree, leaves) if return_train_leaves else tree
