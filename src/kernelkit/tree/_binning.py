"""Quantile binning of the features for the histogram splitter of the tree builder."""

import numpy as np

__all__ = ["FEATURE_THRESHOLD", "MAX_BINS", "quantile_bins"]

# Largest number of bins per feature of the histogram splitter (uint8 codes).
MAX_BINS = 255
# Consecutive sorted values at most this far apart (in float32 arithmetic) are one value: the
# exact splitter never cuts between them (the builder's FEATURE_THRESHOLD, as scikit-learn's).
FEATURE_THRESHOLD = np.float32(1e-7)


def quantile_bins(X_T, sorted_samples, max_bins=MAX_BINS):
    """Quantile bins of every feature from its sorted row: a bin ends after the distinct value
    at which the cumulative count first reaches k·n/max_bins. A distinct value is a run of
    sorted values whose consecutive gaps are at most FEATURE_THRESHOLD, as the exact splitter
    sees them.

    Parameters
    ----------
    X_T : ndarray of shape (n_features, n_samples), float32
    sorted_samples : ndarray of shape (n_features, n_samples)
        Per feature, the sample ids in increasing order of the feature.
    max_bins : int, default=255
        At most 255 (uint8 codes).

    Returns
    -------
    binned : ndarray of shape (n_features, n_samples), uint8
        Bin of every value.
    bin_lower, bin_upper : ndarray of shape (n_features, 255), float32
        Smallest and largest training value of every bin.
    n_bins : ndarray of shape (n_features,), int32
    """
    d, n = X_T.shape
    binned = np.empty((d, n), dtype=np.uint8)
    bin_lower = np.zeros((d, MAX_BINS), dtype=np.float32)
    bin_upper = np.zeros((d, MAX_BINS), dtype=np.float32)
    n_bins_of = np.empty(d, dtype=np.int32)
    for f in range(d):
        values = X_T[f, sorted_samples[f]]
        new_value = np.empty(n, dtype=bool)
        new_value[0] = True
        np.greater(values[1:], values[:-1] + FEATURE_THRESHOLD, out=new_value[1:])
        distinct_id = np.cumsum(new_value) - 1            # per sorted position
        starts = np.flatnonzero(new_value)                 # first position of each value
        ends = np.append(starts[1:] - 1, n - 1)            # last position of each value
        n_distinct = starts.size
        if n_distinct <= max_bins:
            last_of_bin = np.arange(n_distinct)
        else:
            cumulative = np.append(starts[1:], n)          # samples up to each value
            targets = np.arange(1, max_bins) * (n / max_bins)
            last_of_bin = np.unique(np.searchsorted(cumulative, targets, side="left"))
            last_of_bin = np.append(last_of_bin[last_of_bin < n_distinct - 1],
                                    n_distinct - 1)
        first_of_bin = np.concatenate([[0], last_of_bin[:-1] + 1])
        n_bins = last_of_bin.size
        n_bins_of[f] = n_bins
        bin_lower[f, :n_bins] = values[starts[first_of_bin]]
        bin_upper[f, :n_bins] = values[ends[last_of_bin]]
        bin_of_distinct = np.searchsorted(last_of_bin, np.arange(n_distinct), side="left")
        binned[f, sorted_samples[f]] = bin_of_distinct[distinct_id]
    return binned, bin_lower, bin_upper, n_bins_of

