"""``monotonic_cst`` and ``interaction_cst`` of histogram gradient boosting: their accepted
forms, checks and messages (scikit-learn's), and the arrays the compiled grower reads.

- ``monotonic_cst``: an array-like of −1 (decreasing), 0 (free), 1 (increasing) per feature, or a
  dict feature name → constraint when ``X`` has feature names (features left out are free). Not
  for multiclass classification (each class's trees would need one common order).
- ``interaction_cst``: a sequence of groups (lists, tuples or sets of feature indices),
  ``"pairwise"`` (every pair) or ``"no_interactions"`` (every feature alone); the features in no
  group form one more group. A branch of a tree splits only on the features of the groups that
  contain every feature split on above it.
"""

import itertools
from numbers import Integral

import numpy as np

__all__ = ["grower_constraints"]


def grower_constraints(estimator, n_features, n_trees_per_iteration):
    """The constraints of ``estimator`` for the grower's options: ``monotonic_cst`` (int8 array
    of shape (n_features,), or None when every feature is free) and ``interaction_cst`` (dict
    of CSR arrays, or None). Raises ValueError for a bad value (call after ``validate_data``,
    which sets ``feature_names_in_``)."""
    if estimator.monotonic_cst is not None and n_trees_per_iteration != 1:
        raise ValueError(
            "monotonic constraints are not supported for multiclass classification: set "
            "monotonic_cst=None, or fit one binary classifier per class.")
    monotonic = _monotonic_cst(estimator, n_features)
    _check_no_categorical_monotonic_cst(estimator, monotonic)
    groups = _interaction_groups(estimator.interaction_cst, n_features)
    return {
        "monotonic_cst": None if monotonic is None or not monotonic.any() else monotonic,
        "interaction_cst": None if groups is None else _interaction_arrays(groups, n_features),
    }


def _check_no_categorical_monotonic_cst(estimator, monotonic):
    """scikit-learn's refusal of a monotonic constraint on a categorical feature (categories
    have no order), naming the features."""
    is_categorical = getattr(estimator, "is_categorical_", None)
    if monotonic is None or is_categorical is None:
        return
    constrained = np.flatnonzero(is_categorical & (monotonic != 0))
    if constrained.size:
        names = getattr(estimator, "feature_names_in_", None)
        shown = [repr(names[f]) if names is not None else f"at index {f}" for f in constrained]
        raise ValueError("Categorical features cannot have monotonic constraints: set the "
                         f"constraint of the categorical feature(s) {', '.join(shown)} to 0.")


def _monotonic_cst(estimator, n_features):
    """``monotonic_cst`` as an int8 array of shape (n_features,), or None."""
    monotonic_cst = estimator.monotonic_cst
    if monotonic_cst is None:
        return None
    if isinstance(monotonic_cst, dict):
        return _monotonic_cst_by_name(estimator, monotonic_cst, n_features)
    values = np.asarray(monotonic_cst)
    if values.dtype.kind not in "biuf":
        raise ValueError(
            f"monotonic_cst must be an array-like of -1, 0 or 1; got {monotonic_cst!r}.")
    unexpected = np.setdiff1d(values, [-1, 0, 1])
    if unexpected.size:
        raise ValueError("monotonic_cst must be an array-like of -1, 0 or 1. Observed values: "
                         f"{unexpected.tolist()}.")
    if values.shape != (n_features,):
        raise ValueError(f"monotonic_cst has shape {values.shape} but the input data X has "
                         f"{n_features} features: give one constraint per feature.")
    return values.astype(np.int8)


def _monotonic_cst_by_name(estimator, by_name, n_features):
    names = getattr(estimator, "feature_names_in_", None)
    if names is None:
        raise ValueError(
            f"{type(estimator).__name__} was not fitted on data with feature names. Pass "
            "monotonic_cst as an integer array instead.")
    unexpected = sorted(set(by_name) - set(names), key=str)
    if unexpected:
        shown = unexpected[:5] + (["..."] if len(unexpected) > 5 else [])
        raise ValueError(f"monotonic_cst contains {len(unexpected)} unexpected feature names: "
                         f"{shown}.")
    values = np.zeros(n_features, dtype=np.int8)
    for index, name in enumerate(names):
        if name in by_name:
            cst = by_name[name]
            if cst not in (-1, 0, 1):
                raise ValueError(f"monotonic_cst['{name}'] must be either -1, 0 or 1. "
                                 f"Got {cst!r}.")
            values[index] = cst
    return values


def _interaction_groups(interaction_cst, n_features):
    """The groups of ``interaction_cst`` as a list of sets, completed by the features in no
    group; None without constraints."""
    if interaction_cst is None:
        return None
    if isinstance(interaction_cst, str):
        groups = ([[i] for i in range(n_features)] if interaction_cst == "no_interactions"
                  else itertools.combinations(range(n_features), 2))
    else:
        groups = interaction_cst
    try:
        groups = [set(group) for group in groups]
    except TypeError:
        raise ValueError("Interaction constraints (interaction_cst) must be a sequence of tuples, "
                         f"lists or sets of feature indices, got: {interaction_cst!r}.") from None
    for group in groups:
        for x in group:
            if not (isinstance(x, Integral) and 0 <= x < n_features):
                raise ValueError(
                    "Interaction constraints (interaction_cst) must consist of integer indices "
                    f"in [0, n_features - 1] = [0, {n_features - 1}], specifying the position "
                    f"of features, got invalid indices: {group!r}")
    rest = set(range(n_features)).difference(*groups)
    if rest:
        groups.append(rest)
    return groups


def _interaction_arrays(groups, n_features):
    """The grower's CSR arrays of ``groups``: each group's features and each feature's groups,
    sorted."""
    members = [np.array(sorted(int(x) for x in group), dtype=np.intp) for group in groups]
    sizes = np.array([len(m) for m in members], dtype=np.intp)
    group_features = np.concatenate(members) if members else np.empty(0, dtype=np.intp)
    group_of = np.repeat(np.arange(len(members), dtype=np.intp), sizes)
    order = np.lexsort((group_of, group_features))   # by feature, then group
    return {
        "group_ptr": np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp),
        "group_features": group_features,
        "feature_group_ptr": np.searchsorted(group_features[order],
                                             np.arange(n_features + 1)).astype(np.intp),
        "feature_groups": np.ascontiguousarray(group_of[order]),
    }
