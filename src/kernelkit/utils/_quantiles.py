"""Weighted percentiles: the medians of the absolute error and the bin thresholds of histogram
gradient boosting."""

import numpy as np

__all__ = ["weighted_percentile"]


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
