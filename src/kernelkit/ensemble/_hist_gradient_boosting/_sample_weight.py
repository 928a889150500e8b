"""The sample weights of a fit: checked, multiplied by the class weights (the classifier's
``class_weight``), and the rows of weight zero dropped (they change no gradient, Hessian, loss
or bin, so the model is the one fitted without them)."""

import numpy as np

from kernelkit.utils._sklearn_compat import _check_sample_weight

__all__ = ["fit_sample_weight"]


def fit_sample_weight(estimator, X, y, target, sample_weight):
    """``(X, target, sample_weight)`` of the rows of positive weight; ``sample_weight`` stays
    None without weights (every weight 1)."""
    if sample_weight is not None:
        # non-negative, of length n_samples, not all zero
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                             ensure_non_negative=True)
    sample_weight = estimator._class_weighted(y, sample_weight)
    if sample_weight is None:
        return X, target, None
    kept = sample_weight > 0
    if not kept.any():
        raise ValueError("Every sample has weight zero once sample_weight is multiplied by "
                         "class_weight: give some class a positive weight.")
    total = sample_weight.sum()
    if total > np.finfo(np.float32).max:
        raise ValueError(f"sample_weight sums to {total:.3g}, beyond the float32 range (3.4e38) "
                         "of the weighted gradients and Hessians the trees are grown on: "
                         "divide the weights by a common factor.")
    if not kept.all():
        X, target, sample_weight = X[kept], target[kept], sample_weight[kept]
    if estimator._is_classifier and np.unique(target).size < 2:
        raise ValueError(f"{type(estimator).__name__} needs samples of at least 2 classes with "
                         "a positive weight; got 1 class: give another class a positive "
                         "sample_weight (or class_weight).")
    return X, target, sample_weight
