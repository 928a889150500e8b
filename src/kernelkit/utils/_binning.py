"""Histogram bins of the features, one binning for the trees' histogram splitter
(``splitter="hist"``) and for histogram gradient boosting.

A numeric feature's bins are cut by increasing thresholds ``t_0 < … < t_{m−1}``: a value ``x``
falls in the bin ``b = #{j : t_j < x}`` (``t_{b−1} < x ≤ t_b``) and NaN in the missing bin
``max_bins``. A categorical feature's "thresholds" are its known categories ``c_0 < … < c_{k−1}``
and ``x`` falls in the bin ``b`` with ``c_b = x``; NaN and any other value (negative, unseen)
fall in the missing bin. Both are one binary search (``kernelkit._core._hist_binning``).

Two rules cut the thresholds of a numeric feature from its sorted training values, one per
family:

- ``"percentiles"`` (histogram gradient boosting, scikit-learn's rule): with at most
  ``max_bins`` distinct values, the midpoints between consecutive ones; else the
  ``max_bins``-quantiles (the "averaged_inverted_cdf" percentiles, weighted by the sample
  weights when there are any), duplicates removed;
- ``"count_quantiles"`` (the trees): values at most ``FEATURE_THRESHOLD`` apart (in the values'
  own arithmetic) are one distinct value, as the exact splitter sees them; with at most
  ``max_bins`` distinct values each is a bin, else bin ``k`` ends after the distinct value at
  which the count of sorted values first reaches ``k·n/max_bins``. The thresholds are the
  largest value of each bin but the last, so they are training values.
"""

import numpy as np

from kernelkit._core._hist_binning import map_to_bins
from kernelkit.utils._quantiles import sorted_percentiles, weighted_percentile
from kernelkit.utils._threads import fold_row_blocks

__all__ = ["FEATURE_THRESHOLD", "MAX_BINS", "THRESHOLD_RULES", "BinMapper"]

# Largest number of bins of the non-missing values of a feature (uint8 codes, one left for NaN).
MAX_BINS = 255
# Consecutive sorted values at most this far apart (in float32 arithmetic) are one value: the
# exact splitter never cuts between them (the tree builder's FEATURE_THRESHOLD, as
# scikit-learn's).
FEATURE_THRESHOLD = np.float32(1e-7)
# From this many rows, the features are cut on several threads: a feature of 20 000 rows takes
# about 0.25 ms to sort and cut, the pool of threads some 0.1 ms to start (two threads: 1.06×
# faster on 20 000 × 20, 1.8× on 200 000 × 30, quiet).
PARALLEL_ROWS = 20_000


def _sorted_distinct(values):
    """``np.unique`` of sorted values, without its sort."""
    if values.size == 0:
        return values
    new_value = np.empty(values.size, dtype=bool)
    new_value[0] = True
    np.not_equal(values[1:], values[:-1], out=new_value[1:])
    return values[new_value]


def _percentile_thresholds(values, max_bins, weights=None):
    distinct = _sorted_distinct(values)
    if distinct.size <= max_bins:
        # scikit-learn's midpoints (a + b) / 2 to the bit; a / 2 + b / 2 where a + b overflows
        with np.errstate(over="ignore"):
            midpoints = (distinct[:-1] + distinct[1:]) / 2
        overflow = ~np.isfinite(midpoints)
        midpoints[overflow] = distinct[:-1][overflow] / 2 + distinct[1:][overflow] / 2
        return midpoints
    percentiles = np.linspace(0, 100, num=max_bins + 1)[1:-1]
    if weights is not None:
        return np.unique(weighted_percentile(values, weights, percentiles, average=True))
    return np.unique(sorted_percentiles(values, percentiles))


def _count_quantile_thresholds(values, max_bins, weights=None):
    if weights is not None:
        raise ValueError("the count_quantiles rule takes no sample weights")
    n = values.size
    if n == 0:
        return np.empty(0)
    new_value = np.empty(n, dtype=bool)
    new_value[0] = True
    np.greater(values[1:], values[:-1] + FEATURE_THRESHOLD, out=new_value[1:])
    starts = np.flatnonzero(new_value)                 # first position of each distinct value
    ends = np.append(starts[1:] - 1, n - 1)            # last position of each distinct value
    n_distinct = starts.size
    # the distinct values that end a bin, the largest excepted (it ends the last one)
    if n_distinct <= max_bins:
        ends_a_bin = np.arange(n_distinct - 1)
    else:
        cumulative = np.append(starts[1:], n)          # samples up to each distinct value
        targets = np.arange(1, max_bins) * (n / max_bins)
        ends_a_bin = np.unique(np.searchsorted(cumulative, targets, side="left"))
        ends_a_bin = ends_a_bin[ends_a_bin < n_distinct - 1]
    return values[ends[ends_a_bin]].astype(np.float64)


# Rule name -> thresholds(sorted non-missing values, max_bins, their weights or None),
# increasing, float64.
THRESHOLD_RULES = {"percentiles": _percentile_thresholds,
                   "count_quantiles": _count_quantile_thresholds}


class BinMapper:
    """The bins of every feature, fitted on training data, and the bin of any value.

    Parameters
    ----------
    max_bins : int
        Bins of the non-missing values of each feature, in [2, 255].
    rule : {"percentiles", "count_quantiles"}
        How a numeric feature's thresholds are cut (see the module's docstring).
    subsample : int or None, default=None
        Thresholds from a subsample of this many rows when there are more, drawn from
        ``random_state``: uniformly without replacement, or, with sample weights, with
        replacement and probabilities proportional to the weights, then unweighted
        (scikit-learn's rules); None: from every row.
    random_state : numpy.random.RandomState or None, default=None

    Attributes
    ----------
    thresholds_ : ndarray of shape (n_features, 255), dtype float64
        Each row's first ``n_thresholds_[f]`` entries, increasing, then ``+inf``: the thresholds
        of a numeric feature, the known categories of a categorical one.
    n_thresholds_ : ndarray of shape (n_features,), dtype intp
    n_bins_non_missing_ : ndarray of shape (n_features,), dtype intp
        ``n_thresholds_ + 1`` for a numeric feature, the number of categories of a categorical
        one.
    is_categorical_ : ndarray of shape (n_features,), dtype uint8
    known_categories_ : list of n_features ndarrays (float64) or None
        The sorted categories of each categorical feature, None for a numeric one.
    bin_lower_, bin_upper_ : ndarray of shape (n_features, 255), dtype float64
        Smallest and largest value of each bin among the rows the thresholds were cut from (NaN
        for an empty bin, 0 beyond ``n_bins_non_missing_``).
    missing_bin_ : int
        ``max_bins``: the bin of NaN (and of unknown categories).
    """

    def __init__(self, max_bins, rule, *, subsample=None, random_state=None):
        self.max_bins = max_bins
        self.rule = rule
        self.subsample = subsample
        self.random_state = random_state

    def fit(self, X, sample_weight=None, *, sorted_samples=None, known_categories=None,
            n_threads=1):
        """Cut the thresholds of every feature.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features), float32 or float64
            NaN marks a missing value.
        sample_weight : ndarray of shape (n_samples,), default=None
            Positive weights of the rows (None: 1).
        sorted_samples : ndarray of shape (n_features, n_samples), default=None
            Per feature, the row ids in increasing order of its values (a presort already at
            hand, used instead of sorting; only without subsampling and missing values).
        known_categories : list of n_features ndarrays or None, default=None
            The sorted categories of each categorical feature (None for a numeric one); None:
            every feature is numeric.
        n_threads : int, default=1
            Threads cutting features at once (from ``PARALLEL_ROWS`` rows; the result does not
            depend on it).

        Returns
        -------
        self : BinMapper
        """
        n_samples, n_features = X.shape
        rows = X
        if self.subsample is not None and n_samples > self.subsample:
            if sample_weight is None:
                drawn = self.random_state.choice(n_samples, self.subsample, replace=False)
            else:
                drawn = self.random_state.choice(n_samples, self.subsample,
                                                 p=sample_weight / sample_weight.sum())
                sample_weight = None
            rows = X[np.sort(drawn)]
        if known_categories is None:
            known_categories = [None] * n_features
        self.known_categories_ = known_categories
        self.is_categorical_ = np.array([c is not None for c in known_categories], dtype=np.uint8)
        self.thresholds_ = np.full((n_features, MAX_BINS), np.inf)
        self.n_thresholds_ = np.zeros(n_features, dtype=np.intp)
        self.n_bins_non_missing_ = np.zeros(n_features, dtype=np.intp)
        self.bin_lower_ = np.zeros((n_features, MAX_BINS))
        self.bin_upper_ = np.zeros((n_features, MAX_BINS))

        def cut(state, start, stop):
            for f in range(start, stop):
                self._cut_feature(f, rows, sample_weight, sorted_samples)

        fold_row_blocks(cut, n_features, 1,
                        n_threads if rows.shape[0] >= PARALLEL_ROWS else 1)
        self.missing_bin_ = self.max_bins
        return self

    def _cut_feature(self, f, rows, sample_weight, sorted_samples):
        """The thresholds, bins and bounds of feature ``f`` (see :meth:`fit`)."""
        if self.known_categories_[f] is not None:
            thresholds = lower = upper = np.asarray(self.known_categories_[f], dtype=np.float64)
            n_bins = thresholds.size
        else:
            weights = None
            if sorted_samples is not None:
                values = rows[sorted_samples[f], f]
            elif sample_weight is not None:
                order = np.argsort(rows[:, f], kind="stable")
                n_present = np.count_nonzero(~np.isnan(rows[:, f]))   # NaN sort last
                values = rows[order[:n_present], f]
                weights = sample_weight[order[:n_present]]
            else:
                values = np.sort(rows[:, f])
                values = values[:np.searchsorted(values, np.nan)]   # NaN sort last
            thresholds = THRESHOLD_RULES[self.rule](values, self.max_bins, weights)
            n_bins = thresholds.size + 1
            lower, upper = _bin_bounds(values, thresholds)
        self.thresholds_[f, :thresholds.size] = thresholds
        self.n_thresholds_[f] = thresholds.size
        self.n_bins_non_missing_[f] = n_bins
        self.bin_lower_[f, :n_bins] = lower
        self.bin_upper_[f, :n_bins] = upper

    def transform(self, X, n_threads):
        """``uint8`` bins of ``X`` (float32 or float64, shape (n_samples, n_features), any
        order), shape (n_samples, n_features), Fortran order."""
        X_binned = np.empty(X.shape, dtype=np.uint8, order="F")
        map_to_bins(X, self.thresholds_, self.n_thresholds_, self.is_categorical_,
                    self.missing_bin_, X_binned, n_threads)
        return X_binned


def _bin_bounds(values, thresholds):
    """Smallest and largest of the sorted ``values`` in each of the ``thresholds.size + 1``
    bins (NaN for an empty bin)."""
    if values.size == 0:
        return np.full(thresholds.size + 1, np.nan), np.full(thresholds.size + 1, np.nan)
    edges = np.searchsorted(values, thresholds, side="right")
    first = np.concatenate([[0], edges])
    stop = np.concatenate([edges, [values.size]])
    empty = first == stop
    lower = np.where(empty, np.nan, values[np.minimum(first, values.size - 1)])
    upper = np.where(empty, np.nan, values[stop - 1])
    return lower, upper
