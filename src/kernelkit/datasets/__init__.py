"""Data sets: loaders of standard formats and small real sets shipped with kernelkit."""

from kernelkit.datasets._tudataset import load_mutag, load_tudataset

__all__ = ["load_mutag", "load_tudataset"]
