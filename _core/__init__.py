"""Compiled cores of kernelkit (Cython). Private: use the estimators in the public subpackages."""
