"""Loss functions of large-margin classification and of regression, their derivatives, and the
calibration functions of the margin losses.

Mairal & Vert, *Kernel Methods* slides, "Losses for regression", "Loss functions for
classifications", "Loss function examples", "Large-margin classifiers", "φ-risk", "A small φ-risk
ensures a small 0/1 risk"; Sangnier, Prop 11, Ex 1.5 and Exam 2023 Ex. 3.
"""

from numbers import Real

import numpy as np
from scipy.special import expit
from sklearn.utils._param_validation import Interval, StrOptions, validate_params

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
    """Large-margin loss ``φ(u)`` of the margin ``u = y f(x)`` (``y ∈ {−1, +1}``).

    The table of Mairal & Vert ("Loss function examples", "Large-margin classifiers"): logistic
    ``log(1 + e^{−u})``, hinge ``max(1 − u, 0)`` (1-SVM), squared hinge ``max(1 − u, 0)²``
    (2-SVM), exponential ``e^{−u}`` (boosting), and the exam's ``1/(1 + e^u)²`` (Sangnier, Exam
    2023 Ex. 3, "squared_sigmoid"). A linear large-margin classifier minimises
    ``(1/n) Σ φ(y_i βᵀx_i) + λ‖β‖²``.

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
    return _MARGIN[loss][0](np.asarray(u, dtype=np.float64))


@validate_params({"u": ["array-like", Real], "loss": [StrOptions(set(MARGIN_LOSSES))]},
                 prefer_skip_nested_validation=True)
def margin_loss_derivative(u, loss="hinge"):
    """Derivative ``φ'(u)`` of a large-margin loss (a subgradient where φ has a kink: the hinge
    takes −1 below 1 and 0 from 1 on).

    The gradient of the regularised risk ``(1/n) Σ φ(y_i βᵀx_i) + λ‖β‖²`` is
    ``(1/n) Σ φ'(y_i βᵀx_i) y_i x_i + 2λβ`` (Mairal & Vert "Solving large-margin classifiers";
    Sangnier, Exam 2023 Ex. 3).

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
    return _MARGIN[loss][1](np.asarray(u, dtype=np.float64))


@validate_params(
    {"eta": ["array-like", Real], "loss": [StrOptions(set(MARGIN_LOSSES))]},
    prefer_skip_nested_validation=True,
)
def calibration_function(eta, loss="hinge"):
    """Minimiser ``f*(η)`` of the conditional φ-risk ``η φ(u) + (1 − η) φ(−u)``.

    ``η = P(Y = 1 | X = x)``; the φ-risk is minimised by ``f*(x) = f*(η(x))``, and a loss is
    calibrated (classification-consistent) when ``sign f*(η) = sign(2η − 1)``, the Bayes rule:
    then a small φ-risk ensures a small 0/1 risk (Mairal & Vert "A small φ-risk ensures a small 0/1
    risk"; Sangnier, Prop 11 and Ex 1.5). Closed forms: logistic and the exam's
    squared sigmoid ``log(η/(1 − η))``, exponential ``½ log(η/(1 − η))``, squared hinge
    ``2η − 1``, hinge ``sign(2η − 1)`` (every ``u ∈ [−1, 1]`` at ``η = ½``; 0 is returned).

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
    eta = np.asarray(eta, dtype=np.float64)
    if np.any((eta < 0) | (eta > 1)):
        raise ValueError("eta must lie in [0, 1].")
    return _MARGIN[loss][2](eta)


@validate_params(
    {"u": ["array-like", Real], "eta": ["array-like", Real],
     "loss": [StrOptions(set(MARGIN_LOSSES))]},
    prefer_skip_nested_validation=True,
)
def conditional_risk(u, eta, loss="hinge"):
    """Conditional φ-risk ``E[φ(Y u) | η] = η φ(u) + (1 − η) φ(−u)`` (Mairal & Vert "φ-risk").

    Parameters
    ----------
    u : array-like or float
        Values of the decision function.
    eta : array-like or float
        ``P(Y = 1 | X = x)``, broadcast against ``u``.
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
    u = np.asarray(u, dtype=np.float64)
    eta = np.asarray(eta, dtype=np.float64)
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
    """Regression loss ``ℓ(u, y)`` of the prediction ``u`` for the target ``y`` (Mairal & Vert
    "Losses for regression").

    Square ``(u − y)²``; ε-insensitive ``(|u − y| − ε)₊`` (the loss of ε-SVR); Huber, "mixed
    quadratic/linear": ``½ r²`` for ``|r| ≤ δ`` and ``δ(|r| − δ/2)`` beyond, with ``r = u − y``
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
    residual = np.asarray(y_pred, dtype=np.float64) - np.asarray(y_true, dtype=np.float64)
    return _REGRESSION[loss][0](residual, float(epsilon), float(delta))


@validate_params(_REGRESSION_PARAMS, prefer_skip_nested_validation=True)
def regression_loss_derivative(y_true, y_pred, loss="squared", *, epsilon=0.1, delta=1.0):
    """Derivative of :func:`regression_loss` in the prediction ``u`` (a subgradient at the
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
    residual = np.asarray(y_pred, dtype=np.float64) - np.asarray(y_true, dtype=np.float64)
    return _REGRESSION[loss][1](residual, float(epsilon), float(delta))
