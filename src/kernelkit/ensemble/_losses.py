r"""The losses of gradient boosting, one class per loss, shared by the first-order estimators
(:class:`GradientBoostingRegressor`, :class:`GradientBoostingClassifier`) and the second-order ones
(:class:`HistGradientBoostingRegressor`, :class:`HistGradientBoostingClassifier`).

A loss is a function :math:`\ell(y, f)` of a target and a raw score (``K`` raw scores for the
multinomial loss). The convention is scikit-learn's "half" losses, named by the ``loss``
parameter of the estimators:

======================  ==================================  ====================================
``loss``                class                               :math:`\ell(y, f)`
======================  ==================================  ====================================
``"squared_error"``     :class:`HalfSquaredError`           :math:`\frac12 (y - f)^2`
``"absolute_error"``    :class:`AbsoluteError`              :math:`|y - f|`
``"poisson"``           :class:`HalfPoissonLoss`            :math:`e^f - y f` (log link)
``"log_loss"``, 2       :class:`HalfBinomialLoss`           :math:`\log(1 + e^f) - y f`
``"log_loss"``, K > 2   :class:`HalfMultinomialLoss`        :math:`\log \sum_k e^{f_k} - f_y`
``"exponential"``       :class:`ExponentialLoss`            :math:`e^{-(2y - 1) f}`
======================  ==================================  ====================================

(half the squared error, half the Poisson and binomial deviances, up to terms in :math:`y`
alone; the classes' labels are coded ``0 .. K − 1``). :class:`GradientBoostingRegressor` reports
twice the half squared error (the mean squared error) in ``train_score_``, as it always has.

Every method takes optional sample weights :math:`w` (None: all 1):

- ``loss(y, raw, sample_weight, n_threads=1)``: the weighted mean
  :math:`\sum_i w_i \ell_i / \sum_i w_i` (the logistic loss's values on ``n_threads``);
- ``baseline(y, sample_weight)``: the constant raw score(s) minimising it;
- ``negative_gradient(y, raw)``: :math:`-\partial\ell/\partial f` in float64, shape
  (n_samples, K): the targets of the first-order trees (their weights go to the trees);
- ``gradient_hessian(y, raw, sample_weight, gradients, hessians, n_threads)``:
  :math:`w\,\partial\ell/\partial f` and :math:`w\,\partial^2\ell/\partial f^2` in float32,
  shape (K, n_samples), written by ``kernelkit._core._hist_gradients`` (the second-order trees;
  for ``unit_hessians`` losses without weights the Hessians are 1 and not written);
- ``line_search(y, raw, residual, sample_weight, leaves, n_leaves, k)``: the step of every leaf
  of a tree of score column ``k`` (one Newton step, the exact minimiser for the squared and
  absolute errors); the second-order estimators use it for the ``not differentiable`` losses;
- ``inverse_link(raw)``: the predictions (targets, or class probabilities).

``raw`` is float64 of shape (n_samples, K).
"""

import numpy as np
from scipy.special import expit, logsumexp, softmax

from kernelkit._core._hist_gradients import (
    binary_log_loss_gradients,
    binary_log_loss_values,
    multinomial_gradients,
    poisson_gradients,
    residual_gradients,
)
from kernelkit.utils._quantiles import weighted_percentile

__all__ = [
    "AbsoluteError",
    "ExponentialLoss",
    "HalfBinomialLoss",
    "HalfMultinomialLoss",
    "HalfPoissonLoss",
    "HalfSquaredError",
    "REGRESSION_LOSSES",
    "make_log_loss",
]


class _Loss:
    """The interface (module docstring); the line search defaults to one Newton step per leaf,
    :math:`\\sum w r / \\sum w h` over its samples (``_weighted_curvature`` gives ``w h``)."""

    n_columns = 1
    differentiable = True
    unit_hessians = False

    def inverse_link(self, raw):
        """Predictions of the raw scores: the identity."""
        return raw[:, 0]

    def line_search(self, y, raw, residual, sample_weight, leaves, n_leaves, k):
        """Step of every leaf id below ``n_leaves`` (0 where no sample or no curvature)."""
        weight = np.ones(len(y)) if sample_weight is None else sample_weight
        numerator = np.bincount(leaves, weights=weight * residual, minlength=n_leaves)
        denominator = np.bincount(
            leaves, weights=self._weighted_curvature(y, raw, residual, weight, k),
            minlength=n_leaves)
        return _newton_step(numerator, denominator)


def _newton_step(numerator, denominator):
    """``numerator / denominator``, 0 where the denominator vanishes."""
    safe = np.abs(denominator) > 1e-150
    return np.where(safe, numerator / np.where(safe, denominator, 1.0), 0.0)


class HalfSquaredError(_Loss):
    """:math:`\\frac12 (y - f)^2`: gradient :math:`f - y`, Hessian 1; the line search is the
    weighted mean residual."""

    unit_hessians = True

    def __call__(self, y, raw, sample_weight=None, n_threads=1):
        return 0.5 * float(np.average((y - raw[:, 0]) ** 2, weights=sample_weight))

    def baseline(self, y, sample_weight=None):
        return np.array([np.average(y, weights=sample_weight)])

    def negative_gradient(self, y, raw):
        return (y - raw[:, 0])[:, None]

    def gradient_hessian(self, y, raw, sample_weight, gradients, hessians, n_threads):
        residual_gradients(y, raw, sample_weight, gradients, hessians, False, n_threads)

    def line_search(self, y, raw, residual, sample_weight, leaves, n_leaves, k):
        weight = np.ones(len(y)) if sample_weight is None else sample_weight
        totals = np.bincount(leaves, weights=weight * residual, minlength=n_leaves)
        return totals / np.maximum(np.bincount(leaves, weights=weight, minlength=n_leaves),
                                   np.finfo(np.float64).tiny)


class AbsoluteError(_Loss):
    """:math:`|y - f|`: gradient :math:`\\mathrm{sign}(f - y)` (0 where equal), Hessian 1 to grow
    a tree (the loss is not differentiable); the baseline and every leaf's step are the weighted
    median of the residuals :math:`y - f`, the loss's exact minimiser.

    Parameters
    ----------
    median : {"averaged", "lower"}, default="averaged"
        Where the cumulative weight reaches half the total exactly: the midpoint of the two
        values there (:func:`numpy.median` without weights; the second-order estimators), or the
        lower one (the weighted median of the first-order estimators).
    """

    differentiable = False
    unit_hessians = True

    def __init__(self, median="averaged"):
        self.median = median

    def _median(self, values, weights):
        if weights is None and self.median == "averaged":
            return float(np.median(values))
        weights = np.ones(len(values)) if weights is None else weights
        return weighted_percentile(values, weights, 50.0, average=self.median == "averaged")

    def __call__(self, y, raw, sample_weight=None, n_threads=1):
        return float(np.average(np.abs(y - raw[:, 0]), weights=sample_weight))

    def baseline(self, y, sample_weight=None):
        return np.array([self._median(y, sample_weight)])

    def negative_gradient(self, y, raw):
        return np.sign(y - raw[:, 0])[:, None]

    def gradient_hessian(self, y, raw, sample_weight, gradients, hessians, n_threads):
        residual_gradients(y, raw, sample_weight, gradients, hessians, True, n_threads)

    def line_search(self, y, raw, residual, sample_weight, leaves, n_leaves, k):
        difference = y - raw[:, k]
        order = np.argsort(leaves, kind="stable")
        bounds = np.searchsorted(leaves[order], np.arange(n_leaves + 1))
        gamma = np.zeros(n_leaves)
        for leaf in np.flatnonzero(np.diff(bounds)):
            rows = order[bounds[leaf]:bounds[leaf + 1]]
            gamma[leaf] = self._median(
                difference[rows], None if sample_weight is None else sample_weight[rows])
        return gamma


class HalfPoissonLoss(_Loss):
    """:math:`e^f - y f` (log link): gradient :math:`e^f - y`, Hessian :math:`e^f`."""

    def __call__(self, y, raw, sample_weight=None, n_threads=1):
        return float(np.average(np.exp(raw[:, 0]) - y * raw[:, 0], weights=sample_weight))

    def baseline(self, y, sample_weight=None):
        return np.array([np.log(np.average(y, weights=sample_weight))])

    def negative_gradient(self, y, raw):
        return (y - np.exp(raw[:, 0]))[:, None]

    def gradient_hessian(self, y, raw, sample_weight, gradients, hessians, n_threads):
        poisson_gradients(y, raw, sample_weight, gradients, hessians, n_threads)

    def _weighted_curvature(self, y, raw, residual, weight, k):
        return weight * np.exp(raw[:, 0])

    def inverse_link(self, raw):
        return np.exp(raw[:, 0])


def _log_odds(y, sample_weight, scale):
    """``scale`` × the log-odds of the weighted share of label 1 (clipped away from 0 and 1)."""
    p = np.clip(np.average(y, weights=sample_weight), 1e-12, 1 - 1e-12)
    return np.array([scale * np.log(p / (1 - p))])


class HalfBinomialLoss(_Loss):
    """:math:`\\log(1 + e^f) - y f` with labels 0/1: gradient :math:`p - y`, Hessian
    :math:`p (1 - p)`, :math:`p = \\sigma(f)`."""

    def __call__(self, y, raw, sample_weight=None, n_threads=1):
        # NumPy's np.logaddexp(0, f) - y f, bit for bit, compiled (and on n_threads)
        values = np.empty(len(y))
        binary_log_loss_values(np.ascontiguousarray(y, dtype=np.float64),
                               np.ascontiguousarray(raw, dtype=np.float64), values, n_threads)
        return float(np.average(values, weights=sample_weight))

    def baseline(self, y, sample_weight=None):
        return _log_odds(y, sample_weight, 1.0)

    def negative_gradient(self, y, raw):
        return (y - expit(raw[:, 0]))[:, None]

    def gradient_hessian(self, y, raw, sample_weight, gradients, hessians, n_threads):
        binary_log_loss_gradients(y, raw, sample_weight, gradients, hessians, n_threads)

    def _weighted_curvature(self, y, raw, residual, weight, k):
        p = expit(raw[:, 0])
        return weight * p * (1 - p)

    def inverse_link(self, raw):
        """Probabilities of the two classes, shape (n_samples, 2)."""
        p = expit(raw[:, 0])
        return np.column_stack([1.0 - p, p])


class ExponentialLoss(_Loss):
    """AdaBoost's :math:`e^{-s f}`, :math:`s = 2y - 1 = \\pm 1`: gradient :math:`-s e^{-s f}`,
    Hessian :math:`e^{-s f}`; :math:`P(y = 1) = \\sigma(2f)`, so the baseline is half the
    log-odds."""

    def __call__(self, y, raw, sample_weight=None, n_threads=1):
        return float(np.average(np.exp(-(2 * y - 1) * raw[:, 0]), weights=sample_weight))

    def baseline(self, y, sample_weight=None):
        return _log_odds(y, sample_weight, 0.5)

    def negative_gradient(self, y, raw):
        signs = 2 * y - 1
        return (signs * np.exp(-signs * raw[:, 0]))[:, None]

    def gradient_hessian(self, y, raw, sample_weight, gradients, hessians, n_threads):
        signs = 2 * y - 1
        weight = 1.0 if sample_weight is None else sample_weight
        curvature = np.exp(-signs * raw[:, 0])
        gradients[0] = weight * -signs * curvature
        hessians[0] = weight * curvature

    def _weighted_curvature(self, y, raw, residual, weight, k):
        signs = 2 * y - 1
        return weight * np.exp(-signs * raw[:, 0])

    def inverse_link(self, raw):
        p = expit(2.0 * raw[:, 0])
        return np.column_stack([1.0 - p, p])


class HalfMultinomialLoss(_Loss):
    """Softmax cross-entropy :math:`\\log \\sum_k e^{f_k} - f_y` over ``K`` raw scores, one tree
    per class and round: gradient :math:`p_k - [y = k]`, Hessian :math:`p_k (1 - p_k)` (the
    diagonal of the softmax Hessian). The line search is Friedman's step
    :math:`\\frac{K - 1}{K} \\sum w r / \\sum w |r| (1 - |r|)` per class column.

    Parameters
    ----------
    n_classes : int
    centered : bool, default=True
        The baseline's raw scores are the log priors minus their mean (scikit-learn's; the
        second-order estimators), probabilities by :func:`scipy.special.softmax`. False: the
        log priors and :math:`\\exp(f - \\log \\sum_k e^{f_k})` (the first-order estimators'
        parametrisation; the same probabilities up to rounding).
    """

    def __init__(self, n_classes, centered=True):
        self.n_columns = n_classes
        self.centered = centered

    def __call__(self, y, raw, sample_weight=None, n_threads=1):
        codes = y.astype(np.intp)
        return float(np.average(logsumexp(raw, axis=1) - raw[np.arange(len(codes)), codes],
                                weights=sample_weight))

    def baseline(self, y, sample_weight=None):
        priors = np.bincount(y.astype(np.intp), weights=sample_weight,
                             minlength=self.n_columns)
        total = len(y) if sample_weight is None else priors.sum()
        log_priors = np.log(np.clip(priors / total, 1e-12, None))
        return log_priors - log_priors.mean() if self.centered else log_priors

    def negative_gradient(self, y, raw):
        one_hot = np.eye(self.n_columns)[y.astype(int)]
        return one_hot - np.exp(raw - logsumexp(raw, axis=1, keepdims=True))

    def gradient_hessian(self, y, raw, sample_weight, gradients, hessians, n_threads):
        multinomial_gradients(y, raw, sample_weight, gradients, hessians, n_threads)

    def line_search(self, y, raw, residual, sample_weight, leaves, n_leaves, k):
        K = self.n_columns
        return (K - 1) / K * super().line_search(y, raw, residual, sample_weight, leaves,
                                                 n_leaves, k)

    def _weighted_curvature(self, y, raw, residual, weight, k):
        return weight * np.abs(residual) * (1 - np.abs(residual))

    def inverse_link(self, raw):
        """Class probabilities, shape (n_samples, K)."""
        if self.centered:
            return softmax(raw, axis=1)
        return np.exp(raw - logsumexp(raw, axis=1, keepdims=True))


REGRESSION_LOSSES = {
    "squared_error": HalfSquaredError,
    "absolute_error": AbsoluteError,
    "poisson": HalfPoissonLoss,
}


def make_log_loss(n_classes, centered=True):
    """``"log_loss"``: the binomial loss for two classes, the multinomial one for more."""
    return (HalfBinomialLoss() if n_classes == 2
            else HalfMultinomialLoss(n_classes, centered=centered))
