"""Percentiles: the weighted medians of the absolute error, and the bin thresholds of histogram
gradient boosting (weighted, or of values already sorted)."""

import numpy as np

__all__ = ["sorted_percentiles", "weighted_percentile"]


def weighted_percentile(values, weights, percentile, average=False):
    r"""Percentile(s) of ``values`` (1-D, no NaN) weighted by non-negative ``weights``.

    With the values sorted, :math:`W_i` the cumulative weights and :math:`t = p W_n / 100`, the
    result is :math:`x_i` for the first :math:`i` with :math:`W_i \ge t` (NumPy's
    ``"inverted_cdf"``). With ``average``, where :math:`W_i = t` exactly, it is the midpoint of
    :math:`x_i` and the next value of positive weight, written as NumPy's interpolation
    :math:`x_j - (x_j - x_i)/2` (``"averaged_inverted_cdf"``): integer weights then give the
    same bits as :func:`numpy.percentile` of the repeated values.

    Parameters
    ----------
    values : ndarray of shape (n,), dtype float64
    weights : ndarray of shape (n,), dtype float64
        A positive sum.
    percentile : float or ndarray of shape (m,)
        In [0, 100].
    average : bool, default=False

    Returns
    -------
    float or ndarray of shape (m,)
    """
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    cumulative = np.cumsum(weights[order])
    targets = np.asarray(percentile) / 100 * cumulative[-1]
    last = len(ordered) - 1
    lower = np.minimum(np.searchsorted(cumulative, targets), last)
    result = ordered[lower]
    if average:
        upper = ordered[np.minimum(np.searchsorted(cumulative, targets, side="right"), last)]
        result = np.where(cumulative[lower] == targets, upper - (upper - result) * 0.5, result)
    return float(result) if np.ndim(percentile) == 0 else result


def sorted_percentiles(values, percentiles):
    r"""NumPy's ``"averaged_inverted_cdf"`` percentiles of sorted ``values``, bit for bit, without
    the partial sort :func:`numpy.percentile` makes (most of its time: 0.75 ms for 254
    percentiles of 1 000 values).

    With :math:`n` values, :math:`v = n p / 100 - 1`, :math:`i = \lfloor v \rfloor` (clipped
    to the values) and :math:`\gamma = 1/2` where :math:`v` is an integer, 1 elsewhere, the
    result is NumPy's interpolation :math:`x_{i+1} - (x_{i+1} - x_i)(1 - \gamma)`: the midpoint
    where the empirical CDF is flat at :math:`p`, else the next value (Hyndman & Fan's
    definition 2).

    Parameters
    ----------
    values : ndarray of shape (n,), dtype float64
        Sorted, finite, ``n ≥ 1``.
    percentiles : ndarray of shape (m,)
        In [0, 100].

    Returns
    -------
    ndarray of shape (m,)
    """
    n = values.shape[0]
    virtual = n * np.true_divide(percentiles, 100) - 1
    previous = np.floor(virtual)
    following = previous + 1
    above, below = virtual >= n - 1, virtual < 0
    previous[above] = following[above] = n - 1
    previous[below] = following[below] = 0
    gamma = np.where(virtual - previous == 0, 0.5, 1.0)
    lower, upper = values[previous.astype(np.intp)], values[following.astype(np.intp)]
    return upper - (upper - lower) * (1 - gamma)
