"""Second-order histogram gradient boosting (Ke et al., "LightGBM: A Highly Efficient Gradient
Boosting Decision Tree", NeurIPS 2017; Chen & Guestrin, "XGBoost: A Scalable Tree Boosting
System", KDD 2016), by role:

- the quantile bins of the features (``uint8`` codes, one bin for NaN) come from
  ``kernelkit.utils._binning`` (its ``"percentiles"`` rule), shared with the trees;
- ``_categories``: ``categorical_features``, and the pandas and polars data frames the data
  come in (categorical columns coded as integers, column names kept and checked);
- ``_grower``: the work space of the compiled leaf-wise grower (``kernelkit._core._hist_grower``),
  one tree per score column and round;
- ``_predictor``: the grown trees as flat node arrays, and the raw scores they add;
- ``_boosting``: the boosting loop (gradients, trees, early stopping) shared by the estimators;
- ``_classes``: :class:`HistGradientBoostingRegressor` and :class:`HistGradientBoostingClassifier`.

The data are binned once; every round computes the loss's gradients and Hessians in float32,
grows one tree per score column on the bins, and adds the leaves' Newton values to the training
scores from the grower's partition of the samples (the training set is never routed through the
tree again).
"""

from kernelkit.ensemble._hist_gradient_boosting._classes import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)

__all__ = ["HistGradientBoostingClassifier", "HistGradientBoostingRegressor"]
