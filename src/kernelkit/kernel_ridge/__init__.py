"""ℓ2-regularised methods in a kernel's feature space: kernel ridge regression and kernel
logistic regression, on any kernel (strings and graphs included)."""

from kernelkit.kernel_ridge._kernel_logistic import KernelLogisticRegression
from kernelkit.kernel_ridge._kernel_ridge import KernelRidge

__all__ = ["KernelLogisticRegression", "KernelRidge"]
