"""The validation split of early stopping, shared by the boosting estimators."""

from numbers import Integral

import numpy as np

__all__ = ["split_validation"]


def split_validation(target, validation_fraction, is_classifier, random_state):
    """Indices ``(train, valid)`` of a random split holding out ``validation_fraction`` of the
    samples (a float in (0, 1)) or that many samples (an int); for a classifier every class
    keeps its share in both parts, at least one sample of it in the validation part. Both index
    arrays are sorted."""
    n_samples = len(target)
    fraction = (validation_fraction / n_samples if isinstance(validation_fraction, Integral)
                else validation_fraction)
    order = random_state.permutation(n_samples)
    if is_classifier:
        parts = [order[target[order] == c] for c in np.unique(target)]
        valid = np.concatenate([p[:max(1, round(fraction * len(p)))] for p in parts])
    else:
        valid = order[:max(1, round(fraction * n_samples))]
    if len(valid) >= n_samples:
        raise ValueError(f"validation_fraction={validation_fraction} leaves no training sample "
                         f"out of {n_samples}.")
    is_train = np.ones(n_samples, dtype=bool)
    is_train[valid] = False
    # np.setdiff1d's result, without its hashing of n_samples values (12 ms of 100 000)
    return np.flatnonzero(is_train), np.sort(valid)
