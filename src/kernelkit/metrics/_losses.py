"""Loss functions of large-margin classification and of regression, their derivatives, and the
calibration functions of the margin losses.

Mairal & Vert, *Kernel Methods* slides, "Losses for regression", "Loss functions for
classifications", "Loss function examples", "Large-margin classifiers", "φ-risk", "A small φ-risk
ensures a small 0/1 risk"; Sangnier, Prop 11, Ex 1.5 and Exam 2023 Ex. 3.
"""

from numbers import Real

import numpy as np
from scipy.special import expit

from kernelkit.utils._sklearn_compat import Interval, StrOptions, validate_params

__all__ = [
    "MARGIN_LOSSES",
    "REGRESSION_LOSSES",
    "calibration_function",
    "conditional_risk",
    "margin_loss",
    "margin_loss_derivative",
    "regression_loss",
    "regression_loss_derivative",
]


def _values(x, name):
    """``x`` as float64 values, so that no loss is silently NaN: a TypeError naming ``name`` for
    anything that is not a real number (None, strings, complex numbers, also inside an object
    array, which NumPy would turn into NaN or parse), a ValueError for NaN."""
    values = np.asarray(x)
    if values.dtype.kind not in "biuf":
        not_real = [v for v in values.flat if isinstance(v, (bool, np.bool_))
                    or not isinstance(v, (Real, np.integer, np.floating))]
        if values.dtype.kind != "O" or not_real:
            example = not_real[0] if not_real else values.flat[0] if values.size else None
            raise TypeError(f"{name} must hold real numbers, got {values.dtype} values such as "
                            f"{example!r:.40}.")
    values = values.astype(np.float64)
    if np.isnan(values).any():
        raise ValueError(f"{name} has NaN values.")
    return values


def _broadcastable(a, name_a, b, name_b):
    """``a, b`` unchanged, or a ValueError naming both when their shapes do not broadcast."""
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(f"{name_a} of shape {a.shape} and {name_b} of shape {b.shape} do not "
                         "match (one value per sample, or a single value).") from None
    return a, b


def _logit(eta):
    with np.errstate(divide="ignore"):
        return np.log(eta) - np.log1p(-eta)


# name → (φ(u), φ'(u), f*(η)): the loss of the margin u = y f(x), its derivative, and the
# minimiser of the conditional φ-risk η φ(u) + (1 − η) φ(−u)
_MARGIN = {
    # log(1 + e^{−u}); f* = log(η/(1 − η))
    "logistic": (lambda u: np.logaddexp(0.0, -u), lambda u: -expit(-u), _logit),
    # max(1 − u, 0), derivative −1 below 1 and 0 from 1 on (a subgradient at the kink);
    # f* = sign(2η − 1), any value in [−1, 1] at η = 1/2 (0 returned)
    "hinge": (lambda u: np.maximum(1.0 - u, 0.0), lambda u: np.where(u < 1.0, -1.0, 0.0),
              lambda eta: np.sign(2.0 * eta - 1.0)),
    # max(1 − u, 0)²; f* = 2η − 1
    "squared_hinge": (lambda u: np.maximum(1.0 - u, 0.0) ** 2,
                      lambda u: -2.0 * np.maximum(1.0 - u, 0.0), lambda eta: 2.0 * eta - 1.0),
    # e^{−u} (boosting); f* = ½ log(η/(1 − η))
    "exponential": (lambda u: np.exp(-u), lambda u: -np.exp(-u), lambda eta: 0.5 * _logit(eta)),
    # 1/(1 + e^u)² (Sangnier, Exam 2023 Ex. 3: not convex, yet calibrated); f* = log(η/(1 − η))
    "squared_sigmoid": (lambda u: expit(-u) ** 2, lambda u: -2.0 * expit(-u) ** 2 * expit(u),
                        _logit),
}
MARGIN_LOSSES = tuple(_MARGIN)

# name → (ℓ(r), ℓ'(r)) of the residual r = prediction − target, with ε and δ
_REGRESSION = {
    # (u − y)²
    "squared": (lambda r, eps, delta: r**2, lambda r, eps, delta: 2.0 * r),
    # (|u − y| − ε)₊, derivative 0 inside the tube (a subgradient at its edges)
    "epsilon_insensitive": (lambda r, eps, delta: np.maximum(np.abs(r) - eps, 0.0),
                            lambda r, eps, delta: np.where(np.abs(r) > eps, np.sign(r), 0.0)),
    # ½ r² for |r| ≤ δ, δ(|r| − δ/2) beyond: quadratic near 0, linear in the tails
    "huber": (lambda r, eps, delta: np.where(np.abs(r) <= delta, 0.5 * r**2,
                                             delta * (np.abs(r) - 0.5 * delta)),
              lambda r, eps, delta: np.clip(r, -delta, delta)),
}
REGRESSION_LOSSES = tuple(_REGRESSION)


@validate_params({"u": ["array-like", Real], "loss": [StrOptions(set(MARGIN_LOSSES))]},
                 prefer_skip_nested_validation=True)
def margin_loss(u, loss="hinge"):
    """Large-margin loss :math:`\\varphi(u)` of the margin :math:`u = y f(x)`
    (:math:`y \\in \\{-1, +1\\}`).

    The table of Mairal & Vert ("Loss function examples", "Large-margin classifiers"): logistic
    :math:`\\log(1 + e^{-u})`, hinge :math:`\\max(1 - u, 0)` (1-SVM), squared hinge
    :math:`\\max(1 - u, 0)^2` (2-SVM), exponential :math:`e^{-u}` (boosting), and the exam's
    :math:`1 / (1 + e^u)^2` (Sangnier, Exam 2023 Ex. 3, "squared_sigmoid"). A linear large-margin
    classifier minimises
    :math:`\\frac1n \\sum_i \\varphi(y_i \\beta^\\top x_i) + \\lambda \\|\\beta\\|^2`.

    Parameters
    ----------
    u : array-like or float
        Margins.
    loss : {"logistic", "hinge", "squared_hinge", "exponential", "squared_sigmoid"}, \
default="hinge"

    Returns
    -------
    values : ndarray of the shape of ``u``

    Examples
    --------
    >>> from kernelkit.metrics import margin_loss
    >>> margin_loss([-1.0, 0.0, 2.0], "hinge")
    array([2., 1., 0.])
    >>> float(margin_loss(0.0, "logistic"))   # log 2
    0.6931471805599453
    """
    return _MARGIN[loss][0](_values(u, "u"))


@validate_params({"u": ["array-like", Real], "loss": [StrOptions(set(MARGIN_LOSSES))]},
                 prefer_skip_nested_validation=True)
def margin_loss_derivative(u, loss="hinge"):
    """Derivative :math:`\\varphi'(u)` of a large-margin loss (a subgradient where
    :math:`\\varphi` has a kink: the hinge takes −1 below 1 and 0 from 1 on).

    The gradient of the regularised risk
    :math:`\\frac1n \\sum_i \\varphi(y_i \\beta^\\top x_i) + \\lambda \\|\\beta\\|^2` is
    :math:`\\frac1n \\sum_i \\varphi'(y_i \\beta^\\top x_i) y_i x_i + 2\\lambda\\beta` (Mairal &
    Vert "Solving large-margin classifiers"; Sangnier, Exam 2023 Ex. 3).

    Parameters
    ----------
    u : array-like or float
    loss : {"logistic", "hinge", "squared_hinge", "exponential", "squared_sigmoid"}, \
default="hinge"

    Returns
    -------
    derivatives : ndarray of the shape of ``u``

    Examples
    --------
    >>> from kernelkit.metrics import margin_loss_derivative
    >>> margin_loss_derivative([0.0, 2.0], "squared_hinge")
    array([-2., -0.])
    """
    return _MARGIN[loss][1](_values(u, "u"))


@validate_params(
    {"eta": ["array-like", Real], "loss": [StrOptions(set(MARGIN_LOSSES))]},
    prefer_skip_nested_validation=True,
)
def calibration_function(eta, loss="hinge"):
    """Minimiser :math:`f^*(\\eta)` of the conditional φ-risk
    :math:`\\eta \\varphi(u) + (1 - \\eta) \\varphi(-u)`.

    :math:`\\eta = P(Y = 1 \\mid X = x)`; the φ-risk is minimised by :math:`f^*(x) = f^*(\\eta(x))`,
    and a loss is calibrated (classification-consistent) when
    :math:`\\operatorname{sign} f^*(\\eta) = \\operatorname{sign}(2\\eta - 1)`, the Bayes rule: then
    a small φ-risk ensures a small 0/1 risk (Mairal & Vert "A small φ-risk ensures a small 0/1
    risk"; Sangnier, Prop 11 and Ex 1.5). Closed forms: logistic and the exam's squared sigmoid
    :math:`\\log(\\eta / (1 - \\eta))`, exponential :math:`\\frac12 \\log(\\eta / (1 - \\eta))`,
    squared hinge :math:`2\\eta - 1`, hinge :math:`\\operatorname{sign}(2\\eta - 1)` (every
    :math:`u \\in [-1, 1]` at :math:`\\eta = \\frac12`; 0 is returned).

    Parameters
    ----------
    eta : array-like or float
        Conditional probabilities in [0, 1] (±inf at 0 and 1 for the logit forms).
    loss : {"logistic", "hinge", "squared_hinge", "exponential", "squared_sigmoid"}, \
default="hinge"

    Returns
    -------
    f_star : ndarray of the shape of ``eta``

    Examples
    --------
    >>> from kernelkit.metrics import calibration_function
    >>> calibration_function([0.25, 0.5, 0.9], "squared_hinge")
    array([-0.5,  0. ,  0.8])
    """
    eta = _values(eta, "eta")
    if np.any((eta < 0) | (eta > 1)):
        raise ValueError("eta must lie in [0, 1].")
    return _MARGIN[loss][2](eta)


@validate_params(
    {"u": ["array-like", Real], "eta": ["array-like", Real],
     "loss": [StrOptions(set(MARGIN_LOSSES))]},
    prefer_skip_nested_validation=True,
)
def conditional_risk(u, eta, loss="hinge"):
    """Conditional φ-risk
    :math:`E[\\varphi(Y u) \\mid \\eta] = \\eta \\varphi(u) + (1 - \\eta) \\varphi(-u)` (Mairal &
    Vert "φ-risk").

    Parameters
    ----------
    u : array-like or float
        Values of the decision function.
    eta : array-like or float
        :math:`P(Y = 1 \\mid X = x)`, broadcast against ``u``.
    loss : {"logistic", "hinge", "squared_hinge", "exponential", "squared_sigmoid"}, \
default="hinge"

    Returns
    -------
    risk : ndarray

    Examples
    --------
    >>> from kernelkit.metrics import conditional_risk
    >>> float(conditional_risk(0.0, 0.3, "exponential"))
    1.0
    """
    u, eta = _broadcastable(_values(u, "u"), "u", _values(eta, "eta"), "eta")
    phi = _MARGIN[loss][0]
    return eta * phi(u) + (1.0 - eta) * phi(-u)


_REGRESSION_PARAMS = {
    "y_true": ["array-like", Real], "y_pred": ["array-like", Real],
    "loss": [StrOptions(set(REGRESSION_LOSSES))],
    "epsilon": [Interval(Real, 0, None, closed="left")],
    "delta": [Interval(Real, 0, None, closed="neither")],
}


@validate_params(_REGRESSION_PARAMS, prefer_skip_nested_validation=True)
def regression_loss(y_true, y_pred, loss="squared", *, epsilon=0.1, delta=1.0):
    r"""Regression loss :math:`\ell(u, y)` of the prediction :math:`u` for the target :math:`y`
    (Mairal & Vert "Losses for regression").

    Square :math:`(u - y)^2`; ε-insensitive :math:`(|u - y| - \varepsilon)_+` (the loss of
    ε-SVR); Huber, "mixed quadratic/linear": :math:`\frac12 r^2` for :math:`|r| \le \delta` and
    :math:`\delta (|r| - \delta/2)` beyond, with :math:`r = u - y`
    (the course names it without a formula; this is Huber's).

    Parameters
    ----------
    y_true, y_pred : array-like or float
        Broadcast against each other.
    loss : {"squared", "epsilon_insensitive", "huber"}, default="squared"
    epsilon : float, default=0.1
        Half width of the ε-insensitive tube.
    delta : float, default=1.0
        Huber's threshold between the quadratic and the linear part.

    Returns
    -------
    values : ndarray

    Examples
    --------
    >>> from kernelkit.metrics import regression_loss
    >>> regression_loss([0.0, 0.0], [0.5, 3.0], "huber", delta=1.0)
    array([0.125, 2.5  ])
    """
    residual = np.subtract(*_broadcastable(_values(y_pred, "y_pred"), "y_pred",
                                           _values(y_true, "y_true"), "y_true"))
    return _REGRESSION[loss][0](residual, float(epsilon), float(delta))


@validate_params(_REGRESSION_PARAMS, prefer_skip_nested_validation=True)
def regression_loss_derivative(y_true, y_pred, loss="squared", *, epsilon=0.1, delta=1.0):
    """Derivative of :func:`regression_loss` in the prediction :math:`u` (a subgradient at the
    ε-insensitive loss's kinks: 0 on the tube's edges).

    Parameters
    ----------
    y_true, y_pred : array-like or float
    loss : {"squared", "epsilon_insensitive", "huber"}, default="squared"
    epsilon : float, default=0.1
    delta : float, default=1.0

    Returns
    -------
    derivatives : ndarray

    Examples
    --------
    >>> from kernelkit.metrics import regression_loss_derivative
    >>> regression_loss_derivative([0.0, 0.0], [0.5, 3.0], "huber", delta=1.0)
    array([0.5, 1. ])
    """
    residual = np.subtract(*_broadcastable(_values(y_pred, "y_pred"), "y_pred",
                                           _values(y_true, "y_true"), "y_true"))
    return _REGRESSION[loss][1](residual, float(epsilon), float(delta))
