"""Input checks shared by the estimators, beyond scikit-learn's ``validate_data``."""

import numpy as np

__all__ = ["check_distance_scale"]


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
    largest = float(np.max(np.abs(X)))
    if largest > np.sqrt(np.finfo(np.float64).max / (4.0 * X.shape[1])):
        raise ValueError(
            f"{name} has entries as large as {largest:.3g}: squared norms and distances overflow "
            "float64. Rescale the features (e.g. sklearn.preprocessing.StandardScaler)."
        )
