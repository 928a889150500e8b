"""CART decision trees grown by a compiled builder (``kernelkit._core._tree_builder``)."""

from kernelkit.tree._classes import DecisionTreeClassifier, DecisionTreeRegressor

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor"]
