"""Ensembles of decision trees grown in native threads by the compiled tree builder."""

from kernelkit.ensemble._forest import RandomForestClassifier, RandomForestRegressor

__all__ = ["RandomForestClassifier", "RandomForestRegressor"]
