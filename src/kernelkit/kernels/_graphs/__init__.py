"""Graph kernels (Mairal & Vert, "Graph kernels"): walks, subtrees, Weisfeiler–Lehman, shortest
paths and graphlets, as scikit-learn transformers with compiled, parallel cores."""

from kernelkit.kernels._graphs._core_framework import CoreFrameworkKernel, core_framework_kernel
from kernelkit.kernels._graphs._graphlet import GraphletKernel, graphlet_kernel
from kernelkit.kernels._graphs._pyramid_match import PyramidMatchKernel, pyramid_match_kernel
from kernelkit.kernels._graphs._shortest_path import ShortestPathKernel, shortest_path_kernel
from kernelkit.kernels._graphs._subtree import SubtreeKernel, subtree_kernel
from kernelkit.kernels._graphs._walk import (
    GeometricWalkKernel,
    RandomWalkKernel,
    WalkKernel,
    geometric_walk_kernel,
    random_walk_kernel,
    walk_kernel,
)
from kernelkit.kernels._graphs._weisfeiler_lehman import (
    WeisfeilerLehmanKernel,
    weisfeiler_lehman_kernel,
)

__all__ = [
    "CoreFrameworkKernel",
    "GeometricWalkKernel",
    "GraphletKernel",
    "PyramidMatchKernel",
    "RandomWalkKernel",
    "ShortestPathKernel",
    "SubtreeKernel",
    "WalkKernel",
    "WeisfeilerLehmanKernel",
    "core_framework_kernel",
    "geometric_walk_kernel",
    "graphlet_kernel",
    "pyramid_match_kernel",
    "random_walk_kernel",
    "shortest_path_kernel",
    "subtree_kernel",
    "walk_kernel",
    "weisfeiler_lehman_kernel",
]
