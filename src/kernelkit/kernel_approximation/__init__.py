"""Explicit feature maps whose inner products approximate a kernel: random Fourier features and
Nyström features of any kernel."""

from kernelkit.kernel_approximation._nystroem import KernelNystroem
from kernelkit.kernel_approximation._random_fourier import RandomFourierFeatures

__all__ = ["KernelNystroem", "RandomFourierFeatures"]
