"""Linear models: least squares, ridge (primal and dual), logistic regression (binary and
multinomial), median regression and nearest centroids (Mairal & Vert, *Kernel Methods*
slides; Sangnier, *Introduction to machine learning*, §1.2 and §1.5; Peyré, ch. 16, §16.3–16.4).
"""

from kernelkit.linear_model._lad import LeastAbsoluteDeviation
from kernelkit.linear_model._least_squares import LinearRegression, Ridge
from kernelkit.linear_model._logistic import LogisticRegression
from kernelkit.linear_model._nearest_centroid import NearestCentroid

__all__ = [
    "LeastAbsoluteDeviation",
    "LinearRegression",
    "LogisticRegression",
    "NearestCentroid",
    "Ridge",
]
