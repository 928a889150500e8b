"""ℓ2-regularised methods in a kernel's feature space: kernel ridge regression and kernel logistic
regression, on any kernel (strings and graphs included).

``KernelSVC2`` and ``KernelSquaredSVR`` stay importable from here for one release as deprecated
aliases of :class:`kernelkit.svm.SquaredHingeSVC` and :class:`kernelkit.svm.SquaredEpsilonSVR`.
"""

from kernelkit.kernel_ridge._deprecated import KernelSquaredSVR, KernelSVC2
from kernelkit.kernel_ridge._kernel_logistic import KernelLogisticRegression
from kernelkit.kernel_ridge._kernel_ridge import KernelRidge

__all__ = ["KernelLogisticRegression", "KernelRidge"]
