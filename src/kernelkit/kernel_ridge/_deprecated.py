"""Deprecated names of the dual coordinate descent SVMs, which live in :mod:`kernelkit.svm`.

Each is a subclass of the new class with the same parameters and results whose ``fit`` warns
with a ``FutureWarning`` naming the new class; they are removed in the next release.
"""

import warnings

from kernelkit.svm import SquaredEpsilonSVR, SquaredHingeSVC

__all__ = ["KernelSVC2", "KernelSquaredSVR"]


def _warn_renamed(old, new):
    warnings.warn(f"kernelkit.kernel_ridge.{old} is deprecated and will be removed in the next "
                  f"release: use kernelkit.svm.{new}, the same estimator.", FutureWarning,
                  stacklevel=3)


class KernelSVC2(SquaredHingeSVC):
    """Deprecated alias of :class:`kernelkit.svm.SquaredHingeSVC` (``fit`` warns)."""

    def fit(self, X, y):
        """Fit the classifier, as :meth:`kernelkit.svm.SquaredHingeSVC.fit`, after a
        ``FutureWarning``."""
        _warn_renamed("KernelSVC2", "SquaredHingeSVC")
        return super().fit(X, y)


class KernelSquaredSVR(SquaredEpsilonSVR):
    """Deprecated alias of :class:`kernelkit.svm.SquaredEpsilonSVR` (``fit`` warns)."""

    def fit(self, X, y):
        """Fit the regressor, as :meth:`kernelkit.svm.SquaredEpsilonSVR.fit`, after a
        ``FutureWarning``."""
        _warn_renamed("KernelSquaredSVR", "SquaredEpsilonSVR")
        return super().fit(X, y)
