"""ℓ2-regularised methods in a kernel's feature space: kernel ridge regression and kernel logistic
regression, on any kernel (strings and graphs included).

``KernelSVC2`` and ``KernelSquaredSVR`` stay importable from here for one release as deprecated
aliases of :class:`kernelkit.svm.SquaredHingeSVC` and :class:`kernelkit.svm.SquaredEpsilonSVR`.
"""

from kernelkit.kernel_ridge._kernel_logistic import KernelLogisticRegression
from kernelkit.kernel_ridge._kernel_ridge import KernelRidge

from kernelkit.utils._deprecation import moved_names

__all__ = ["KernelLogisticRegression", "KernelRidge"]

# the dual coordinate descent SVMs' old names, removed in the next release
__getattr__ = moved_names(__name__, {
    "KernelSVC2": "kernelkit.svm.SquaredHingeSVC",
    "KernelSquaredSVR": "kernelkit.svm.SquaredEpsilonSVR",
})
