"""Ensembles of decision trees grown by the compiled tree builder: random forests (in native
threads), gradient boosting (exact or histogram splits), AdaBoost and bagging; and the
second-order histogram gradient boosting of LightGBM and XGBoost."""

from kernelkit.ensemble._bagging import BaggingClassifier, BaggingRegressor
from kernelkit.ensemble._forest import RandomForestClassifier, RandomForestRegressor
from kernelkit.ensemble._gradient_boosting import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)
from kernelkit.ensemble._hist_gradient_boosting import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from kernelkit.ensemble._weight_boosting import AdaBoostClassifier

__all__ = [
    "AdaBoostClassifier",
    "BaggingClassifier",
    "BaggingRegressor",
    "GradientBoostingClassifier",
    "GradientBoostingRegressor",
    "HistGradientBoostingClassifier",
    "HistGradientBoostingRegressor",
    "RandomForestClassifier",
    "RandomForestRegressor",
]
