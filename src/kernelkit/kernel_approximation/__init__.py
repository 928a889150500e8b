"""Explicit feature maps whose inner products approximate a kernel: random Fourier features."""

from kernelkit.kernel_approximation._random_fourier import RandomFourierFeatures

__all__ = ["RandomFourierFeatures"]
