"""Kernels: on vectors (thin aliases of scikit-learn's pairwise kernels), Gram-matrix operations,
and the compiled kernels on strings and graphs (scikit-learn transformers)."""

from sklearn.metrics.pairwise import (
    laplacian_kernel,
    linear_kernel,
    pairwise_kernels,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)

from kernelkit.kernels._base import StructuredKernel
from kernelkit.kernels._gram import center_gram, is_positive_definite, normalize_gram
from kernelkit.kernels._psd import shift_to_psd
from kernelkit.kernels._strings import (
    LocalAlignmentKernel,
    MismatchKernel,
    SpectrumKernel,
    SubstringKernel,
    local_alignment_kernel,
    mismatch_kernel,
    spectrum_kernel,
    substring_kernel,
)

__all__ = [
    "LocalAlignmentKernel",
    "MismatchKernel",
    "SpectrumKernel",
    "StructuredKernel",
    "SubstringKernel",
    "local_alignment_kernel",
    "mismatch_kernel",
    "shift_to_psd",
    "spectrum_kernel",
    "substring_kernel",
    "center_gram",
    "is_positive_definite",
    "laplacian_kernel",
    "linear_kernel",
    "normalize_gram",
    "pairwise_kernels",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
]
