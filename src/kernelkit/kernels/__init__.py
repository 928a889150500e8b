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
from kernelkit.kernels._graphs._functions import (
    geometric_walk_kernel,
    graphlet_kernel,
    random_walk_kernel,
    shortest_path_kernel,
    subtree_kernel,
    walk_kernel,
    weisfeiler_lehman_kernel,
)
from kernelkit.kernels._graphs._graphlet import GraphletKernel
from kernelkit.kernels._graphs._shortest_path import ShortestPathKernel
from kernelkit.kernels._graphs._subtree import SubtreeKernel
from kernelkit.kernels._graphs._walk import GeometricWalkKernel, RandomWalkKernel, WalkKernel
from kernelkit.kernels._graphs._weisfeiler_lehman import WeisfeilerLehmanKernel
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
from kernelkit.utils._gram import center_gram, is_positive_definite, normalize_gram, shift_to_psd

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
    "WalkKernel",
    "WeisfeilerLehmanKernel",
    "center_gram",
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
