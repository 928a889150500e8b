"""Input checks shared by the MDS family: dissimilarity matrices and weights."""

import numpy as np
from scipy.sparse.csgraph import connected_components
from scipy.spatial.distance import cdist, pdist, squareform
from sklearn.utils.validation import check_array, validate_data

from kernelkit.utils._validation import validate_distance_data

__all__ = ["check_dissimilarities", "check_weights", "fit_dissimilarities", "cross_dissimilarities"]


# Rows per block of the symmetry check: bounds its temporaries to a few blocks, not n×n.
_CHECK_ROWS = 256


def check_dissimilarities(D, name="dissimilarities"):
    """Validate a square, symmetric, non-negative, finite matrix with zero diagonal (float64, C).

    The checks run block by block, so they allocate no n×n temporary: the input is the only
    O(n²) memory of a SMACOF fit. A matrix symmetric up to rounding is symmetrised (a copy),
    so that the (i, j) and (j, i) halves of every sum agree.
    """
    D = check_array(D, dtype=np.float64, order="C", input_name=name, ensure_min_samples=2)
    n = D.shape[0]
    if D.shape != (n, n):
        raise ValueError(f"{name} must be a square matrix, got shape {D.shape}.")
    if D.min() < 0:
        raise ValueError(f"{name} must be non-negative.")
    tolerance = 1e-10 * D.max()
    exact = True
    for start in range(0, n, _CHECK_ROWS):
        gap = np.abs(D[start:start + _CHECK_ROWS] - D[:, start:start + _CHECK_ROWS].T).max()
        if gap > tolerance:
            raise ValueError(f"{name} must be symmetric.")
        exact = exact and gap == 0
    if np.any(np.diag(D) != 0):
        raise ValueError(f"{name} must have a zero diagonal.")
    if not exact:
        D = (D + D.T) / 2
    return D


def check_weights(weights, n_samples):
    """Validate SMACOF weights; None stays None (all ones). The diagonal is ignored (set to 0).

    The weight graph must be connected: otherwise ``V`` has a null space larger than the
    constants, the configuration of each component floats freely, and ``V⁺`` is not
    ``(V + 11ᵀ/n)⁻¹ − 11ᵀ/n``.
    """
    if weights is None:
        return None
    W = check_array(weights, dtype=np.float64, order="C", input_name="weights", copy=True)
    if W.shape != (n_samples, n_samples):
        raise ValueError(f"weights must have shape ({n_samples}, {n_samples}), got {W.shape}.")
    if np.any(W < 0):
        raise ValueError("weights must be non-negative.")
    if not np.allclose(W, W.T, rtol=1e-10, atol=0.0):
        raise ValueError("weights must be symmetric.")
    W = (W + W.T) / 2
    np.fill_diagonal(W, 0.0)
    n_parts, _ = connected_components(W > 0, directed=False)
    if n_parts > 1:
        raise ValueError(
            f"the pairs with positive weight split the samples into {n_parts} unconnected groups; "
            "their relative positions would be undetermined."
        )
    return W


def fit_dissimilarities(estimator, X, reset=True):
    """``(X_validated, D)`` for ``dissimilarity`` "euclidean" (pairwise distances of X) or
    "precomputed" (X is D)."""
    if estimator.dissimilarity == "precomputed":
        X = validate_data(estimator, X, dtype=np.float64, order="C", reset=reset,
                          ensure_min_samples=2)
        return X, check_dissimilarities(X, "precomputed dissimilarities")
    X = validate_distance_data(estimator, X, dtype=np.float64, reset=reset,
                               ensure_min_samples=2)
    return X, squareform(pdist(X))


def cross_dissimilarities(estimator, X, X_fit):
    """Dissimilarities of new samples to the training samples, shape (n_new, n_fit)."""
    if estimator.dissimilarity == "precomputed":
        X = validate_data(estimator, X, dtype=np.float64, reset=False)
        if np.any(X < 0):
            raise ValueError("precomputed dissimilarities must be non-negative.")
        return X
    X = validate_data(estimator, X, dtype=np.float64, reset=False)
    return cdist(X, X_fit)
