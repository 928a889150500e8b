"""Quantile binning of histogram gradient boosting: thresholds from (a subsample of) the
training data, then every value coded as a ``uint8`` bin in feature-major order."""

import numpy as np

from kernelkit._core._hist_binning import map_to_bins
from kernelkit.ensemble._quantiles import weighted_percentile

__all__ = ["SUBSAMPLE", "BinMapper"]

# Rows the thresholds are computed from (a uniform subsample without replacement above it).
SUBSAMPLE = 200_000


class BinMapper:
    """Thresholds of at most ``max_bins`` bins per feature; NaN gets the bin ``max_bins``.

    A feature with at most ``max_bins`` distinct values gets the midpoints between them;
    otherwise the ``max_bins``-quantiles (scikit-learn's "averaged_inverted_cdf" percentiles),
    duplicates removed.

    Attributes
    ----------
    thresholds_ : ndarray of shape (n_features, max_bins), dtype float64
        Each row's first ``n_thresholds_[f]`` entries, increasing, then ``+inf``.
    n_thresholds_ : ndarray of shape (n_features,), dtype intp
    n_bins_non_missing_ : ndarray of shape (n_features,), dtype intp
        ``n_thresholds_ + 1``.
    missing_bin_ : int
        ``max_bins``.
    """

    def __init__(self, max_bins, random_state):
        self.max_bins = max_bins
        self.random_state = random_state

    def fit(self, X, sample_weight=None):
        """Thresholds of ``X``; with positive weights ``sample_weight`` (None: 1) the quantiles
        are weighted, and a subsample is drawn with replacement, with probabilities proportional
        to the weights, then unweighted (scikit-learn's rules)."""
        rows = X
        if X.shape[0] > SUBSAMPLE and sample_weight is None:
            rows = X[np.sort(self.random_state.choice(X.shape[0], SUBSAMPLE, replace=False))]
        elif X.shape[0] > SUBSAMPLE:
            rows = X[np.sort(self.random_state.choice(X.shape[0], SUBSAMPLE,
                                                      p=sample_weight / sample_weight.sum()))]
            sample_weight = None
        n_features = X.shape[1]
        self.thresholds_ = np.full((n_features, self.max_bins), np.inf)
        self.n_thresholds_ = np.zeros(n_features, dtype=np.intp)
        percentiles = np.linspace(0, 100, num=self.max_bins + 1)[1:-1]
        for f in range(n_features):
            column = np.sort(rows[:, f])
            column = column[:np.searchsorted(column, np.nan)]   # NaN sort last
            distinct = np.unique(column)
            if distinct.size <= self.max_bins:
                thresholds = distinct[:-1] + 0.5 * (distinct[1:] - distinct[:-1])
            elif sample_weight is not None:
                known = ~np.isnan(rows[:, f])
                thresholds = np.unique(weighted_percentile(
                    rows[known, f], sample_weight[known], percentiles, average=True))
            else:
                thresholds = np.unique(np.percentile(column, percentiles,
                                                     method="averaged_inverted_cdf"))
            self.thresholds_[f, :thresholds.size] = thresholds
            self.n_thresholds_[f] = thresholds.size
        self.n_bins_non_missing_ = self.n_thresholds_ + 1
        self.missing_bin_ = self.max_bins
        return self

    def transform(self, X, n_threads):
        """``uint8`` bins of ``X`` (float64, C order), shape (n_samples, n_features), Fortran
        order."""
        X_binned = np.empty(X.shape, dtype=np.uint8, order="F")
        map_to_bins(X, self.thresholds_, self.n_thresholds_, self.missing_bin_, X_binned,
                    n_threads)
        return X_binned
