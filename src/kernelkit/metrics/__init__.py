"""Loss functions and risk utilities of the courses' learning theory: large-margin and regression
losses with their derivatives, calibration functions, the bias–variance decomposition, and the
Rademacher complexity of norm balls."""

from kernelkit.metrics._losses import (
    MARGIN_LOSSES,
    REGRESSION_LOSSES,
    calibration_function,
    conditional_risk,
    margin_loss,
    margin_loss_derivative,
    regression_loss,
    regression_loss_derivative,
)
from kernelkit.metrics._risk import (
    bias_variance,
    empirical_rademacher_complexity,
    excess_risk_bound,
    rademacher_bound,
)

__all__ = [
    "MARGIN_LOSSES",
    "REGRESSION_LOSSES",
    "bias_variance",
    "calibration_function",
    "conditional_risk",
    "empirical_rademacher_complexity",
    "excess_risk_bound",
    "margin_loss",
    "margin_loss_derivative",
    "rademacher_bound",
    "regression_loss",
    "regression_loss_derivative",
]
