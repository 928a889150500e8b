"""ℓ2-regularised methods in a kernel's feature space: kernel ridge regression, kernel logistic
regression, and the squared-hinge SVM and squared ε-insensitive SVR by dual coordinate descent,
on any kernel (strings and graphs included)."""

from kernelkit.kernel_ridge._kernel_logistic import KernelLogisticRegression
from kernelkit.kernel_ridge._kernel_ridge import KernelRidge
from kernelkit.kernel_ridge._squared_hinge import KernelSquaredSVR, KernelSVC2

__all__ = ["KernelLogisticRegression", "KernelRidge", "KernelSVC2", "KernelSquaredSVR"]
