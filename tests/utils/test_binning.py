"""The bins of histogram boosting's features: NumPy's percentiles of sorted values bit for bit,
scikit-learn's thresholds, and the same bins on any number of threads."""

import numpy as np
import pytest

from kernelkit.utils._binning import PARALLEL_ROWS, BinMapper
from kernelkit.utils._quantiles import sorted_percentiles

PERCENTILES = np.linspace(0, 100, num=256)[1:-1]


def _samples():
    rng = np.random.default_rng(3)
    yield rng.normal(size=1)
    yield np.array([-0.0, 0.0, 0.0, 1.0])
    for n in (2, 3, 7, 254, 255, 256, 257, 1000, 4099):
        yield rng.normal(size=n)
        yield rng.integers(-3, 4, n).astype(np.float64)          # many ties
        yield rng.standard_cauchy(n) * 1e300                       # differences near overflow


@pytest.mark.parametrize("values", list(_samples()), ids=lambda v: f"n{v.size}")
def test_sorted_percentiles_are_numpys_bit_for_bit(values):
    values = np.sort(values)
    for percentiles in (PERCENTILES, np.array([0.0, 12.5, 50.0, 100.0])):
        expected = np.percentile(values, percentiles, method="averaged_inverted_cdf")
        np.testing.assert_array_equal(sorted_percentiles(values, percentiles), expected)


def _table(n):
    rng = np.random.default_rng(8)
    X = rng.normal(size=(n, 5))
    X[:, 1] = rng.integers(0, 30, n)                 # few distinct values: midpoints
    X[:, 2] = np.round(X[:, 2], 2)                   # ties among many values
    X[rng.random(X.shape) < 0.05] = np.nan
    return X


def _scikit_learn_thresholds(column, max_bins=255):
    # scikit-learn's rule (HistGradientBoosting's binning): the means of consecutive distinct
    # values when there are at most max_bins of them, else NumPy's percentiles
    distinct = np.unique(column[~np.isnan(column)])
    if distinct.size <= max_bins:
        return np.lib.stride_tricks.sliding_window_view(distinct, 2).mean(axis=1)
    return np.unique(np.percentile(column[~np.isnan(column)], PERCENTILES,
                                   method="averaged_inverted_cdf"))


@pytest.mark.parametrize("n", [300, 5_000])
def test_thresholds_are_scikit_learns(n):
    X = _table(n)
    ours = BinMapper(255, "percentiles").fit(X)
    for f in range(X.shape[1]):
        np.testing.assert_array_equal(ours.thresholds_[f, :ours.n_thresholds_[f]],
                                      _scikit_learn_thresholds(X[:, f]))


@pytest.mark.parametrize("weighted", [False, True])
def test_features_cut_on_two_threads_give_the_same_bins(weighted):
    X = _table(PARALLEL_ROWS + 10)
    weight = np.random.default_rng(0).integers(1, 4, X.shape[0]).astype(float) if weighted else None
    categories = [None, np.arange(30.0), None, None, None]
    mappers = [BinMapper(63, "percentiles").fit(X, weight, known_categories=categories,
                                                n_threads=n_threads)
               for n_threads in (1, 2)]
    for name in ("thresholds_", "n_thresholds_", "n_bins_non_missing_", "bin_lower_",
                 "bin_upper_", "is_categorical_"):
        np.testing.assert_array_equal(getattr(mappers[0], name), getattr(mappers[1], name))


def test_midpoints_stay_finite_where_their_sum_overflows():
    values = np.array([-1.0, 1e308, 1.7e308])
    thresholds = BinMapper(255, "percentiles").fit(values[:, None]).thresholds_[0, :2]
    np.testing.assert_array_equal(thresholds, [(-1.0 + 1e308) / 2, 1e308 / 2 + 1.7e308 / 2])
    assert thresholds[1] < 1.7e308
