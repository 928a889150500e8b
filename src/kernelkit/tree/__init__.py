"""CART decision trees grown by a compiled builder (``kernelkit._core._tree_builder``).

Private modules by role: ``_classes`` (the estimators), ``_growth`` (the training set prepared
once and the growth of trees on it; the histogram splitter's bins come from
``kernelkit.utils._binning``), ``_flat_tree`` (the grown tree's arrays and their compiled
prediction) and ``_validation`` (parameter checks and input validation). ``kernelkit.ensemble`` is built on this family, as
scikit-learn's ensembles on its trees: it imports these private modules, the one import of
another family's private modules the package allows.
"""

from kernelkit.tree._classes import DecisionTreeClassifier, DecisionTreeRegressor

__all__ = ["DecisionTreeClassifier", "DecisionTreeRegressor"]
