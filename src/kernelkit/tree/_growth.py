"""Decision-tree machinery shared by ``kernelkit.tree`` and ``kernelkit.ensemble``.

Three pieces sit on the compiled cores ``kernelkit._core._tree_builder`` and
``kernelkit._core._tree_predict``:

- :class:`TreeTrainingSet` prepares X once (float32, presorted for ``splitter="best"``, binned
  into ≤ 255 quantile bins for ``splitter="hist"``) and grows any number of trees on it with
  different targets, weights and seeds — one at a time (:meth:`~TreeTrainingSet.grow_tree`,
  optionally returning the leaf of every training sample) or many in parallel native threads
  (:meth:`~TreeTrainingSet.grow_trees`);
- :class:`Tree`, the flat array tree they return (``children_left``, ``children_right``,
  ``feature``, ``threshold``, ``value``, ...), with a compiled :meth:`~Tree.apply` and
  :meth:`~Tree.predict`; its ``value`` array may be overwritten (a line search per leaf);
- :class:`GrowthParams`, the resolved stopping rules.

Gradient boosting fits trees on gradients and hessians with ``criterion="newton"``: the leaf
value is the Newton step ``−G/(H + λ)`` and splits maximise ``G_L²/(H_L + λ) + G_R²/(H_R + λ)``
(G, H: sums over the node of weighted gradients and hessians).
"""

import dataclasses
from math import ceil
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit._core._tree_builder import grow_trees as _grow_trees
from kernelkit._core._tree_builder import presort as _presort
from kernelkit._core._tree_predict import apply_tree, sum_forest
from kernelkit.utils._sklearn_compat import Interval, RealNotInt, StrOptions, _check_sample_weight
from kernelkit.utils._threads import N_JOBS_CONSTRAINT
from kernelkit.utils._validation import MAX_INT, check_class_labels, check_memory_request

__all__ = [
    "CRITERIA",
    "CLASSIFICATION_CRITERIA",
    "REGRESSION_CRITERIA",
    "GrowthParams",
    "MAX_BINS",
    "ProbabilityVoteMixin",
    "STOPPING_RULE_CONSTRAINTS",
    "Tree",
    "TreeTrainingSet",
    "check_ensemble_size",
    "check_max_features",
    "draw_tree_seed",
    "growth_params",
    "sum_tree_values",
    "validate_fit_input",
    "validate_predict_input",
]

# Criterion codes of the compiled builder.
CRITERIA = {"gini": 0, "entropy": 1, "log_loss": 1, "squared_error": 2, "friedman_mse": 3,
            "absolute_error": 4, "newton": 5}
CLASSIFICATION_CRITERIA = ("gini", "entropy", "log_loss")
REGRESSION_CRITERIA = ("squared_error", "friedman_mse", "absolute_error")
# Largest number of bins per feature of the histogram splitter (uint8 codes).
MAX_BINS = 255
# Consecutive sorted values at most this far apart (in float32 arithmetic) are one value: the
# exact splitter never cuts between them (the builder's FEATURE_THRESHOLD, as scikit-learn's).
FEATURE_THRESHOLD = np.float32(1e-7)
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
        Threads of the presort.

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
            self._bin()

    @property
    def X(self):
        """The training vectors as float32, shape (n_samples, n_features) (a transposed view)."""
        return self.X_T.T

    def _bin(self):
        """Quantile bins from the sorted rows: a bin ends after the distinct value at which the
        cumulative count first reaches k·n/max_bins. A distinct value is a run of sorted values
        whose consecutive gaps are at most FEATURE_THRESHOLD, as the exact splitter sees them."""
        n, d = self.n_samples, self.n_features
        self.binned = np.empty((d, n), dtype=np.uint8)
        self.bin_lower = np.zeros((d, MAX_BINS), dtype=np.float32)
        self.bin_upper = np.zeros((d, MAX_BINS), dtype=np.float32)
        self.n_bins = np.empty(d, dtype=np.int32)
        for f in range(d):
            values = self.X_T[f, self.sorted_samples[f]]
            new_value = np.empty(n, dtype=bool)
            new_value[0] = True
            np.greater(values[1:], values[:-1] + FEATURE_THRESHOLD, out=new_value[1:])
            distinct_id = np.cumsum(new_value) - 1            # per sorted position
            starts = np.flatnonzero(new_value)                 # first position of each value
            ends = np.append(starts[1:] - 1, n - 1)            # last position of each value
            n_distinct = starts.size
            if n_distinct <= self.max_bins:
                last_of_bin = np.arange(n_distinct)
            else:
                cumulative = np.append(starts[1:], n)          # samples up to each value
                targets = np.arange(1, self.max_bins) * (n / self.max_bins)
                last_of_bin = np.unique(np.searchsorted(cumulative, targets, side="left"))
                last_of_bin = np.append(last_of_bin[last_of_bin < n_distinct - 1],
                                        n_distinct - 1)
            first_of_bin = np.concatenate([[0], last_of_bin[:-1] + 1])
            n_bins = last_of_bin.size
            self.n_bins[f] = n_bins
            self.bin_lower[f, :n_bins] = values[starts[first_of_bin]]
            self.bin_upper[f, :n_bins] = values[ends[last_of_bin]]
            bin_of_distinct = np.searchsorted(last_of_bin, np.arange(n_distinct), side="left")
            self.binned[f, self.sorted_samples[f]] = bin_of_distinct[distinct_id]
        # the histogram splitter reads neither X nor the presort
        del self.X_T, self.sorted_samples

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


def check_max_features(max_features, n_features):
    """scikit-learn's resolution of ``max_features`` ("sqrt", "log2", int, fraction, None)."""
    if max_features is None:
        return n_features
    if max_features == "sqrt":
        return max(1, int(np.sqrt(n_features)))
    if max_features == "log2":
        return max(1, int(np.log2(n_features)))
    if isinstance(max_features, Integral):
        return int(max_features)
    return max(1, int(max_features * n_features))


# Parameter constraints of the stopping rules, shared with the forests.
STOPPING_RULE_CONSTRAINTS = {
    "splitter": [StrOptions({"best", "hist"})],
    "max_depth": [Interval(Integral, 1, MAX_INT, closed="left"), None],
    "min_samples_split": [
        Interval(Integral, 2, MAX_INT, closed="left"),
        Interval(RealNotInt, 0.0, 1.0, closed="right"),
    ],
    "min_samples_leaf": [
        Interval(Integral, 1, MAX_INT, closed="left"),
        Interval(RealNotInt, 0.0, 1.0, closed="neither"),
    ],
    "min_weight_fraction_leaf": [Interval(Real, 0.0, 0.5, closed="both")],
    "max_features": [
        Interval(Integral, 1, MAX_INT, closed="left"),
        Interval(RealNotInt, 0.0, 1.0, closed="right"),
        StrOptions({"sqrt", "log2"}),
        None,
    ],
    "max_leaf_nodes": [Interval(Integral, 2, MAX_INT, closed="left"), None],
    "min_impurity_decrease": [Interval(Real, 0.0, None, closed="left")],
    "max_bins": [Interval(Integral, 2, MAX_BINS, closed="both")],
    "n_jobs": N_JOBS_CONSTRAINT,
}


def validate_fit_input(estimator, X, y, sample_weight, *, classifier):
    """Validated ``(X, target, sample_weight)`` for a tree or forest ``fit``.

    X becomes float32 (as scikit-learn's trees; values beyond the float32 range are reported as
    infinite) in Fortran order. For a classifier, sets ``classes_`` and ``n_classes_`` and
    returns the class codes as float64; a regressor's target is float64. ``sample_weight`` stays
    None or becomes a float64 array, non-negative with a positive sum.
    """
    # Fortran order: the splitter reads X feature by feature (TreeTrainingSet.X_T, no copy)
    X, y = validate_data(estimator, X, y, dtype=np.float32, order="F",
                         y_numeric=not classifier)
    if sample_weight is not None:
        # non-negative, and (scikit-learn's check) not all zero
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                             ensure_non_negative=True)
    if classifier:
        check_class_labels(y)
        estimator.classes_, codes = np.unique(y, return_inverse=True)
        estimator.n_classes_ = estimator.classes_.size
        target = codes.astype(np.float64)
    else:
        target = np.ascontiguousarray(y, dtype=np.float64)
    estimator.n_outputs_ = 1
    return X, target, sample_weight


def validate_predict_input(estimator, X):
    """X for the prediction of a fitted tree or forest: float32, C-contiguous, finite, with
    the training's number of features."""
    check_is_fitted(estimator)
    return validate_data(estimator, X, dtype=np.float32, order="C", reset=False)


# Least memory of one fitted tree: its Tree object with the headers of its eight node arrays
# (about 1.2 KiB by sys.getsizeof) and a root node.
_TREE_BYTES = 1024.0


def check_ensemble_size(estimator, n_trees, per_tree_bytes=0.0):
    """Refuse, before any tree grows, an ensemble whose ``n_trees`` trees cannot fit in memory.

    The estimate is a lower bound, ``n_trees (1 KiB + per_tree_bytes)``: the nodes grow with
    the data and are not known in advance, but an absurd ``n_estimators`` is refused at once
    instead of drawing seeds and growing trees until memory runs out.

    Parameters
    ----------
    estimator : ensemble estimator with ``n_estimators``
    n_trees : int
        Trees (or base estimators) it will hold.
    per_tree_bytes : float, default=0.0
        What each tree needs beyond the tree itself (its bootstrap counts, sample indices).
    """
    check_memory_request(n_trees * (_TREE_BYTES + per_tree_bytes),
                         f"{type(estimator).__name__}(n_estimators={estimator.n_estimators}) "
                         f"({n_trees} trees)", "lower n_estimators.")


def growth_params(estimator, n_samples, n_features):
    """:class:`~kernelkit.tree._growth.GrowthParams` of an estimator's stopping rules, resolved
    as scikit-learn (fractions of ``n_samples``, ``max_features`` names); sets
    ``max_features_``. Also checks that the criterion suits the splitter."""
    min_samples_leaf = estimator.min_samples_leaf
    if not isinstance(min_samples_leaf, Integral):
        min_samples_leaf = ceil(min_samples_leaf * n_samples)
    min_samples_split = estimator.min_samples_split
    if not isinstance(min_samples_split, Integral):
        min_samples_split = max(2, ceil(min_samples_split * n_samples))
    if estimator.criterion == "absolute_error" and estimator.splitter == "hist":
        raise ValueError("criterion='absolute_error' is only available with splitter='best'.")
    max_features = check_max_features(estimator.max_features, n_features)
    if max_features > n_features:
        raise ValueError(f"max_features={estimator.max_features} is larger than the number of "
                         f"features ({n_features}).")
    estimator.max_features_ = max_features
    return GrowthParams(
        max_depth=estimator.max_depth,
        min_samples_split=min_samples_split,
        min_samples_leaf=min_samples_leaf,
        min_weight_fraction_leaf=estimator.min_weight_fraction_leaf,
        max_features=max_features,
        max_leaf_nodes=estimator.max_leaf_nodes,
        min_impurity_decrease=estimator.min_impurity_decrease,
    )


class ProbabilityVoteMixin:
    """``predict`` and ``predict_log_proba`` of a classifier from its ``predict_proba``."""

    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba` (−inf for a probability of 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X):
        """Class of largest probability (ties: the first in ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
