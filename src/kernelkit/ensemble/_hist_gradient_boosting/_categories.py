"""Categorical features of histogram gradient boosting, and the pandas and polars data frames
they come in (scikit-learn's ``categorical_features``).

Which features are categorical: ``categorical_features`` as feature indices, a boolean mask or
feature names, or ``"from_dtype"`` (the default): the columns of a data frame whose dtype is
categorical (pandas ``category``, polars ``Categorical`` and ``Enum``); nothing for an array.

How a categorical feature is coded:

- a column of strings, objects or a categorical dtype: each value becomes the index of its
  category among the column's distinct values at fit, sorted (scikit-learn's ordinal encoding);
  at most ``max_bins`` categories; a value unseen at fit becomes missing (NaN);
- a numeric column: its values are the categories themselves, integers in ``[0, max_bins)``;
  negative values count as missing.

Either way a categorical feature holds integers in ``[0, 255]`` or NaN when it reaches the
binning (``kernelkit.utils._binning``: the known categories are its "thresholds") and the
predictor. A column of strings that is not categorical is refused. Fitted on a data frame, the
estimator keeps its column names (``feature_names_in_``) and checks them at predict.
"""

import sys

import numpy as np
from sklearn.utils.validation import check_array, check_X_y, validate_data

__all__ = ["check_fit_data", "check_predict_data"]

_INPUT = {"dtype": np.float64, "order": "C", "ensure_all_finite": "allow-nan"}


def check_fit_data(estimator, X, y, reset=True):
    """Validate the training data of ``estimator`` and code its categorical features.

    Sets ``estimator.is_categorical_`` (bool mask, or None without a categorical feature),
    ``n_features_in_``, ``feature_names_in_`` (for a data frame) and the categories of the
    ordinally coded columns. Without ``reset`` (a warm start), the data are checked and coded
    as at the first fit instead.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64, C order
    y : ndarray of shape (n_samples,)
    known_categories : list of n_features ndarrays (float64) or None, or None
        The sorted categories (after coding) of each categorical feature.
    """
    y_numeric = not estimator._is_classifier
    columns = _columns(X)
    if not reset:
        if columns is None and estimator._encoded_categories is None:
            X, y = validate_data(estimator, X, y, y_numeric=y_numeric, reset=False, **_INPUT)
        else:
            X, y = check_X_y(check_predict_data(estimator, X), y, y_numeric=y_numeric,
                             **_INPUT)
        return X, y, estimator._known_categories
    estimator._encoded_categories = estimator._known_categories = None
    if columns is None and _declares_no_feature(estimator.categorical_features):
        estimator.is_categorical_ = None
        X, y = validate_data(estimator, X, y, y_numeric=y_numeric, **_INPUT)
        return X, y, None
    if columns is None:
        X = check_array(X, dtype=None, ensure_all_finite=False)
        columns = _array_columns(X)
    validate_data(estimator, X, skip_check_array=True)   # n_features_in_, feature_names_in_
    names = _names(X)
    is_categorical = _categorical_mask(estimator.categorical_features, columns, names)
    values, known_categories, encoded = [], [], []
    for f, (kind, column) in enumerate(columns):
        name = repr(names[f]) if names is not None else f"at index {f}"
        if is_categorical[f] and kind == "numeric":
            values.append(_floats(kind, column, name))
            known_categories.append(_numeric_categories(values[-1], name, estimator.max_bins))
            encoded.append(None)
        elif is_categorical[f]:
            categories = _sorted_categories(_objects(column), name, estimator.max_bins)
            values.append(_codes(_objects(column), categories))
            known_categories.append(np.arange(len(categories), dtype=np.float64))
            encoded.append(categories)
        else:
            values.append(_floats(kind, column, name))
            known_categories.append(None)
            encoded.append(None)
    X, y = check_X_y(_stack(values), y, y_numeric=y_numeric, **_INPUT)
    if any(categories is not None for categories in encoded):
        estimator._encoded_categories = encoded
    if not is_categorical.any():
        estimator.is_categorical_ = None
        return X, y, None
    estimator.is_categorical_ = is_categorical
    estimator._known_categories = known_categories
    return X, y, known_categories


def check_predict_data(estimator, X):
    """``X`` validated against the fitted ``estimator`` (number of features, column names),
    its ordinally coded columns coded with the categories seen at fit (unseen: NaN); float64,
    C order."""
    columns = _columns(X)
    encoded = estimator._encoded_categories
    if columns is None and encoded is None:
        return validate_data(estimator, X, reset=False, **_INPUT)
    if columns is None:
        X = check_array(X, dtype=None, ensure_all_finite=False)
        columns = _array_columns(X)
    validate_data(estimator, X, skip_check_array=True, reset=False)
    names = _names(X)
    values = []
    for f, (kind, column) in enumerate(columns):
        if encoded is not None and encoded[f] is not None:
            values.append(_codes(_objects(column), encoded[f]))
        else:
            values.append(_floats(kind, column, repr(names[f]) if names is not None
                                  else f"at index {f}"))
    return check_array(_stack(values), **_INPUT)


def _declares_no_feature(categorical_features):
    return categorical_features is None or (isinstance(categorical_features, str)
                                            and categorical_features == "from_dtype")


def _frame_library(X):
    for library in ("pandas", "polars"):
        module = sys.modules.get(library)
        if module is not None and isinstance(X, module.DataFrame):
            return module
    return None


def _columns(X):
    """``(kind, column)`` of each column of a pandas or polars data frame (kind: "numeric",
    "category" for a categorical dtype, "string" for anything else); None for other input."""
    library = _frame_library(X)
    if library is None:
        return None
    if library.__name__ == "pandas":
        types = library.api.types
        return [("category" if isinstance(X[name].dtype, library.CategoricalDtype)
                 else "numeric" if types.is_numeric_dtype(X[name].dtype) else "string",
                 X[name]) for name in X.columns]
    columns = []
    for column in X.get_columns():
        dtype = column.dtype
        kind = ("category" if dtype == library.Categorical or isinstance(dtype, library.Enum)
                else "numeric" if dtype.is_numeric() or dtype == library.Boolean else "string")
        columns.append((kind, column))
    return columns


def _array_columns(X):
    kind = "string" if X.dtype.kind in "OUS" else "numeric"
    return [(kind, X[:, f]) for f in range(X.shape[1])]


def _names(X):
    return list(X.columns) if _frame_library(X) is not None else None


def _floats(kind, column, name):
    """A column as float64, missing values as NaN; a column of strings refused."""
    if kind == "numeric":
        if hasattr(column, "cast"):                                  # polars
            return column.cast(sys.modules["polars"].Float64).to_numpy()
        if hasattr(column, "to_numpy"):                              # pandas
            return column.to_numpy(dtype=np.float64, na_value=np.nan)
        return np.asarray(column, dtype=np.float64)
    values = _objects(column)
    try:
        return np.where(_missing(values), np.nan, values).astype(np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(
            f"Feature {name} holds values that are not numbers ({error}) and is not"
            " categorical: declare it in categorical_features (or, in a data frame, give it a"
            " categorical dtype), or encode it as numbers.") from None


def _objects(column):
    """A column's values as an object array, missing values as None or NaN."""
    if hasattr(column, "cast"):                                      # polars
        polars = sys.modules["polars"]
        if column.dtype == polars.Categorical or isinstance(column.dtype, polars.Enum):
            column = column.cast(polars.String)
        return column.to_numpy().astype(object)
    if hasattr(column, "to_numpy"):                                  # pandas
        return column.to_numpy(dtype=object, na_value=np.nan)
    return np.asarray(column, dtype=object)


def _missing(values):
    """Mask of the missing entries (None or NaN) of an array."""
    if values.dtype != object:
        return np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
    return np.array([v is None or (isinstance(v, float) and v != v) for v in values],
                    dtype=bool)


def _sorted_categories(values, name, max_bins):
    """The sorted distinct values of a column (missing values left out)."""
    present = set(values[~_missing(values)].tolist())
    try:
        categories = sorted(present)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in present})
        raise TypeError(f"Categorical feature {name} mixes values of the types {kinds}, which"
                        " have no order: give its values one type (all strings or all"
                        " numbers).") from None
    if len(categories) > max_bins:
        raise ValueError(
            f"Categorical feature {name} is expected to have a cardinality <= {max_bins} but"
            f" actually has a cardinality of {len(categories)}: raise max_bins (at most 255) or"
            " merge rare categories.")
    return np.array(categories, dtype=object)


def _codes(values, categories):
    """Index of each value among ``categories``, NaN for a missing or unseen one."""
    index = {category: code for code, category in enumerate(categories)}
    return np.fromiter((index.get(v, np.nan) for v in values), dtype=np.float64,
                       count=len(values))


def _numeric_categories(values, name, max_bins):
    """The sorted categories of a numeric categorical feature: its values ``≥ 0`` (negative
    values and NaN are missing), which must be integers below ``max_bins``."""
    present = values[values >= 0]
    bad = present[(present >= max_bins) | (present != np.floor(present))]
    if bad.size:
        raise ValueError(
            f"Categorical feature {name} holds the value {bad[0]:g}: numeric categories must be"
            f" integers in [0, max_bins={max_bins}) (negative values count as missing). Code the"
            " categories 0, 1, 2, ... or, in a data frame, give the column a categorical"
            " dtype.")
    return np.unique(present)


def _categorical_mask(categorical_features, columns, names):
    """scikit-learn's reading of ``categorical_features`` as a boolean mask over the
    columns."""
    n_features = len(columns)
    if _declares_no_feature(categorical_features):
        return np.array([kind == "category" and categorical_features is not None
                         for kind, _ in columns], dtype=bool)
    selection = np.asarray(categorical_features)
    is_categorical = np.zeros(n_features, dtype=bool)
    if selection.size == 0:
        return is_categorical
    if selection.dtype.kind not in "ibUO" or (
            selection.dtype.kind == "O" and any(not isinstance(v, str) for v in selection.flat)):
        kinds = (selection.dtype.name if selection.dtype.kind != "O" else ", ".join(
            sorted({type(v).__name__ for v in selection.flat})))
        raise ValueError("categorical_features must be an array-like of bool, int or str,"
                         f" got: {kinds}.")
    if selection.dtype.kind in "UO":
        if names is None:
            raise ValueError(
                "categorical_features should be passed as an array of integers or as a boolean"
                " mask when the model is fitted on data without feature names.")
        for name in selection.flat:
            if name not in names:
                raise ValueError(
                    f"categorical_features has an item value '{name}' which is not a valid"
                    f" feature name of the training data. Observed feature names: {names}")
            is_categorical[names.index(name)] = True
    elif selection.dtype.kind == "i":
        if selection.max() >= n_features or selection.min() < 0:
            raise ValueError("categorical_features set as integer indices must be in"
                             f" [0, n_features - 1] = [0, {n_features - 1}], got"
                             f" {selection.tolist()}.")
        is_categorical[selection] = True
    else:
        if selection.shape != (n_features,):
            raise ValueError("categorical_features set as a boolean mask must have shape"
                             f" (n_features,) = ({n_features},), got: {selection.shape}")
        is_categorical = selection.copy()
    return is_categorical


def _stack(columns):
    if not columns:
        return np.empty((0, 0))
    return np.ascontiguousarray(np.column_stack(columns), dtype=np.float64)
