"""Multiple kernel learning (Mairal & Vert, "Learning the kernel", "MKL", "simpleMKL"): sums of
kernels, the kernel-learning objective, SimpleMKL and the group-lasso view."""

from kernelkit.mkl._group_lasso import GroupLassoMKL
from kernelkit.mkl._kernels import KernelStack
from kernelkit.mkl._objective import KernelObjective, kernel_objective
from kernelkit.mkl._simple_mkl import SimpleMKL, SimpleMKLRegressor
from kernelkit.mkl._sum import SumKernel, sum_kernel

__all__ = [
    "GroupLassoMKL",
    "KernelObjective",
    "KernelStack",
    "SimpleMKL",
    "SimpleMKLRegressor",
    "SumKernel",
    "kernel_objective",
    "sum_kernel",
]
