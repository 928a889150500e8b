"""Parameters and input validation of the trees and of the tree ensembles."""

from math import ceil
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.tree._growth import GrowthParams
from kernelkit.utils._binning import MAX_BINS
from kernelkit.utils._sklearn_compat import Interval, RealNotInt, StrOptions, _check_sample_weight
from kernelkit.utils._threads import N_JOBS_CONSTRAINT
from kernelkit.utils._validation import MAX_INT, check_class_labels, check_memory_request

__all__ = [
    "STOPPING_RULE_CONSTRAINTS",
    "check_ensemble_size",
    "check_max_features",
    "growth_params",
    "store_init_params",
    "validate_fit_input",
    "validate_predict_input",
]


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


def store_init_params(estimator, arguments):
    """Store the arguments of an estimator's ``__init__`` as attributes of the same names (what
    scikit-learn's ``get_params`` reads back), and nothing else.

    ``arguments`` is ``locals()`` taken first thing in ``__init__``; its ``self`` (and the
    ``__class__`` cell of a method using ``super()``) are not arguments.
    """
    for name, value in arguments.items():
        if name not in ("self", "__class__"):
            setattr(estimator, name, value)
