"""Losses of histogram gradient boosting: the raw score's start, the gradients and Hessians of
every boosting round (float32, as the histograms read them; computed by
``kernelkit._core._hist_gradients``) and the mean loss.

Losses are scikit-learn's "half" losses, so that ``train_score_`` and ``validation_score_``
(the negated loss) match its histogram gradient boosting: ``½(y − f)²``, ``|y − f|``, the Poisson
deviance ``e^f − y f`` (log link), and the logistic or multinomial cross-entropy.
"""

import numpy as np
from scipy.special import expit, logsumexp, softmax

from kernelkit._core._hist_gradients import (
    binary_log_loss_gradients,
    multinomial_gradients,
    poisson_gradients,
    residual_gradients,
)

__all__ = ["LOSSES", "make_log_loss"]


class _Loss:
    """A loss of raw scores ``raw`` (n_samples, n_columns)."""

    n_columns = 1
    hessians_are_constant = False
    refits_leaves = False

    def inverse_link(self, raw):
        """Predictions of the raw scores (the identity)."""
        return raw[:, 0]


class _SquaredError(_Loss):
    hessians_are_constant = True

    def __call__(self, y, raw):
        return 0.5 * float(np.mean((y - raw[:, 0]) ** 2))

    def baseline(self, y):
        return np.array([np.mean(y)])

    def gradients(self, y, raw, gradients, hessians, n_threads):
        residual_gradients(y, raw, gradients, False, n_threads)


class _AbsoluteError(_Loss):
    """Gradient ``sign(f − y)``, Hessian 1 to grow the tree; its leaves are then set to the
    median of the residuals ``y − f`` of their samples, the exact line search of the loss."""

    hessians_are_constant = True
    refits_leaves = True

    def __call__(self, y, raw):
        return float(np.mean(np.abs(y - raw[:, 0])))

    def baseline(self, y):
        return np.array([np.median(y)])

    def gradients(self, y, raw, gradients, hessians, n_threads):
        residual_gradients(y, raw, gradients, True, n_threads)

    def leaf_values(self, y, raw_column, sample_indices, leaf_start, leaf_stop):
        """Median residual of every leaf's samples."""
        return np.array([np.median(y[rows] - raw_column[rows])
                         for rows in (sample_indices[a:b] for a, b in zip(leaf_start, leaf_stop))])


class _Poisson(_Loss):
    def __call__(self, y, raw):
        return float(np.mean(np.exp(raw[:, 0]) - y * raw[:, 0]))

    def baseline(self, y):
        return np.array([np.log(np.mean(y))])

    def gradients(self, y, raw, gradients, hessians, n_threads):
        poisson_gradients(y, raw, gradients, hessians, n_threads)

    def inverse_link(self, raw):
        return np.exp(raw[:, 0])


class _BinaryLogLoss(_Loss):
    """``log(1 + e^f) − y f`` with labels 0/1: gradient ``p − y``, Hessian ``p (1 − p)``."""

    def __call__(self, y, raw):
        return float(np.mean(np.logaddexp(0.0, raw[:, 0]) - y * raw[:, 0]))

    def baseline(self, y):
        p = np.clip(np.mean(y), 1e-12, 1 - 1e-12)
        return np.array([np.log(p / (1 - p))])

    def gradients(self, y, raw, gradients, hessians, n_threads):
        binary_log_loss_gradients(y, raw, gradients, hessians, n_threads)

    def inverse_link(self, raw):
        p = expit(raw[:, 0])
        return np.column_stack([1.0 - p, p])


class _MultinomialLogLoss(_Loss):
    """Softmax cross-entropy over ``K`` raw scores, one tree per class and round: gradient
    ``p_k − [y = k]``, Hessian ``p_k (1 − p_k)`` (the diagonal of the softmax Hessian)."""

    def __init__(self, n_classes):
        self.n_columns = n_classes

    def __call__(self, y, raw):
        codes = y.astype(np.intp)
        return float(np.mean(logsumexp(raw, axis=1) - raw[np.arange(len(codes)), codes]))

    def baseline(self, y):
        priors = np.bincount(y.astype(np.intp), minlength=self.n_columns) / len(y)
        log_priors = np.log(np.clip(priors, 1e-12, None))
        return log_priors - log_priors.mean()

    def gradients(self, y, raw, gradients, hessians, n_threads):
        multinomial_gradients(y, raw, gradients, hessians, n_threads)

    def inverse_link(self, raw):
        return softmax(raw, axis=1)


LOSSES = {
    "squared_error": _SquaredError,
    "absolute_error": _AbsoluteError,
    "poisson": _Poisson,
    "log_loss": _BinaryLogLoss,
}


def make_log_loss(n_classes):
    """The logistic loss for two classes, the multinomial one for more."""
    return _BinaryLogLoss() if n_classes == 2 else _MultinomialLogLoss(n_classes)
