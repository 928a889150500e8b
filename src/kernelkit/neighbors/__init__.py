"""k-nearest neighbours: classification and regression, Euclidean, precomputed or in a kernel's
feature space (strings and graphs included), with a compiled brute-force search."""

from kernelkit.neighbors._classes import KNeighborsClassifier, KNeighborsRegressor

__all__ = ["KNeighborsClassifier", "KNeighborsRegressor"]
