"""Kernel methods with ℓ2-regularised losses (seed-methods A16–A20)."""

from kernelkit.kernel_ridge._squared_hinge import KernelSquaredSVR, KernelSVC2

__all__ = ["KernelSVC2", "KernelSquaredSVR"]
