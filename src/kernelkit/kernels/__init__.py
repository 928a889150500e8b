"""Kernels: on vectors, Gram-matrix operations, and the kernels on strings and graphs
(scikit-learn transformers), all with compiled cores."""

from kernelkit.kernels._base import StructuredKernel
from kernelkit.kernels._graphs import (
    GeometricWalkKernel,
    GraphletKernel,
    RandomWalkKernel,
    ShortestPathKernel,
    SubtreeKernel,
    WalkKernel,
    WeisfeilerLehmanKernel,
    geometric_walk_kernel,
    graphlet_kernel,
    random_walk_kernel,
    shortest_path_kernel,
    subtree_kernel,
    walk_kernel,
    weisfeiler_lehman_kernel,
)
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
from kernelkit.kernels._vector import (
    VectorKernel,
    cosine_kernel,
    laplacian_kernel,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)
from kernelkit.utils._gram import center_gram, is_positive_definite, normalize_gram, shift_to_psd
from kernelkit.utils._kernels import pairwise_kernels

__all__ = [
    "GeometricWalkKernel",
    "GraphletKernel",
    "LocalAlignmentKernel",
    "MismatchKernel",
    "RandomWalkKernel",
    "ShortestPathKernel",
    "SpectrumKernel",
    "StructuredKernel",
    "SubstringKernel",
    "SubtreeKernel",
    "VectorKernel",
    "WalkKernel",
    "WeisfeilerLehmanKernel",
    "center_gram",
    "cosine_kernel",
    "geometric_walk_kernel",
    "graphlet_kernel",
    "is_positive_definite",
    "laplacian_kernel",
    "linear_kernel",
    "local_alignment_kernel",
    "mismatch_kernel",
    "normalize_gram",
    "pairwise_kernels",
    "polynomial_kernel",
    "random_walk_kernel",
    "rbf_kernel",
    "shift_to_psd",
    "shortest_path_kernel",
    "sigmoid_kernel",
    "spectrum_kernel",
    "substring_kernel",
    "subtree_kernel",
    "walk_kernel",
    "weisfeiler_lehman_kernel",
]
