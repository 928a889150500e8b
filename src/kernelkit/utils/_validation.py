"""Input checks shared by the estimators, beyond scikit-learn's ``validate_data``."""

import numpy as np
from sklearn.utils.multiclass import check_classification_targets

__all__ = ["check_class_labels", "check_distance_scale"]


def check_class_labels(y):
    """scikit-learn's ``check_classification_targets`` for a validated 1-d ``y``, with a fast
    path for the usual integer, boolean and integral float labels.

    The general check costs ~0.25 ms a call (it infers the target type through several array
    conversions), as much as a whole SVM fit on a 100 × 100 Gram matrix; integer, boolean and
    finite integral float labels are exactly the ones it accepts as "binary"/"multiclass".
    """
    y = np.asarray(y)
    if y.ndim == 1 and y.dtype.kind in "biu":
        return
    # integral floats within int64's range (scikit-learn compares y with y.astype(int))
    if (y.ndim == 1 and y.dtype.kind == "f" and np.all(np.abs(y) < 2.0**62)
            and np.all(y == np.round(y))):
        return
    check_classification_targets(y)


def check_distance_scale(X, name="X"):
    """Raise a ValueError when squared distances between rows of ``X`` could overflow float64.

    ``‖x − y‖² ≤ 4 · n_features · max|x|²``; finite inputs near the float64 maximum (1e154 and
    beyond) make distances, inner products and variances infinite, and the algorithms would
    return NaN or garbage silently.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite, validated.
    name : str
    """
    if X.size == 0:
        return
    # the extremes, not max(|X|): no temporary copy of X
    largest = max(abs(float(X.max())), abs(float(X.min())))
    if largest > np.sqrt(np.finfo(np.float64).max / (4.0 * X.shape[1])):
        raise ValueError(
            f"{name} has entries as large as {largest:.3g}: squared norms and distances overflow "
            "float64. Rescale the features (e.g. sklearn.preprocessing.StandardScaler)."
        )
