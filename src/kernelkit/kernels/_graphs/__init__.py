"""Graph kernels (Mairal & Vert, "Graph kernels"): walks, subtrees, Weisfeiler–Lehman, shortest
paths and graphlets, as scikit-learn transformers with compiled, parallel cores.

The wing by role:

- ``_encoding/``: the input graphs (networkx graphs, tuples) validated and coded into one
  ``GraphBatch``, which every kernel works on;
- ``_bases/``: the base classes, one module each (graph kernel, explicit-feature and
  sparse-feature kernels, label refinement, product graph): a new kernel subclasses one;
- ``_features/``: what several kernels compute alike (sparse feature counts, the
  histogram-intersection Gram, the rooted pieces of NSPDK and ODD-ST);
- one module per kernel family: ``_walk``, ``_subtree``, ``_weisfeiler_lehman``,
  ``_wl_optimal_assignment``, ``_histograms``, ``_shortest_path``, ``_graphlet``,
  ``_neighborhood_hash``, ``_nspdk``, ``_oddst``, ``_propagation``, ``_pyramid_match``,
  ``_graphhopper``, ``_k_core_framework``, ``_wasserstein_weisfeiler_lehman``, ``_path``,
  ``_marginalized``, ``_treelet``.

CONTRIBUTING.md ("Adding a graph kernel") walks through adding one.
"""

from kernelkit.kernels._graphs._graphhopper import GraphHopperKernel, graphhopper_kernel
from kernelkit.kernels._graphs._graphlet import GraphletKernel, graphlet_kernel
from kernelkit.kernels._graphs._histograms import (
    EdgeHistogramKernel,
    VertexHistogramKernel,
    edge_histogram_kernel,
    vertex_histogram_kernel,
)
from kernelkit.kernels._graphs._k_core_framework import CoreFrameworkKernel, core_framework_kernel
from kernelkit.kernels._graphs._marginalized import MarginalizedKernel, marginalized_kernel
from kernelkit.kernels._graphs._neighborhood_hash import (
    NeighborhoodHashKernel,
    neighborhood_hash_kernel,
)
from kernelkit.kernels._graphs._nspdk import (
    NeighborhoodSubgraphPairwiseDistanceKernel,
    neighborhood_subgraph_pairwise_distance_kernel,
)
from kernelkit.kernels._graphs._oddst import ODDSTKernel, oddst_kernel
from kernelkit.kernels._graphs._path import PathKernel, path_kernel
from kernelkit.kernels._graphs._propagation import PropagationKernel, propagation_kernel
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
from kernelkit.kernels._graphs._wasserstein_weisfeiler_lehman import (
    WassersteinWeisfeilerLehmanKernel,
    wasserstein_weisfeiler_lehman_kernel,
)
from kernelkit.kernels._graphs._weisfeiler_lehman import (
    WeisfeilerLehmanKernel,
    weisfeiler_lehman_kernel,
)
from kernelkit.kernels._graphs._wl_optimal_assignment import (
    WeisfeilerLehmanOptimalAssignmentKernel,
    weisfeiler_lehman_optimal_assignment_kernel,
)
from kernelkit.kernels._graphs._treelet import TreeletKernel, treelet_kernel

__all__ = [
    "CoreFrameworkKernel",
    "EdgeHistogramKernel",
    "GeometricWalkKernel",
    "GraphHopperKernel",
    "GraphletKernel",
    "NeighborhoodHashKernel",
    "NeighborhoodSubgraphPairwiseDistanceKernel",
    "ODDSTKernel",
    "PropagationKernel",
    "PyramidMatchKernel",
    "RandomWalkKernel",
    "ShortestPathKernel",
    "SubtreeKernel",
    "VertexHistogramKernel",
    "WalkKernel",
    "WeisfeilerLehmanKernel",
    "WeisfeilerLehmanOptimalAssignmentKernel",
    "core_framework_kernel",
    "edge_histogram_kernel",
    "geometric_walk_kernel",
    "graphhopper_kernel",
    "graphlet_kernel",
    "neighborhood_hash_kernel",
    "neighborhood_subgraph_pairwise_distance_kernel",
    "oddst_kernel",
    "propagation_kernel",
    "pyramid_match_kernel",
    "random_walk_kernel",
    "shortest_path_kernel",
    "subtree_kernel",
    "vertex_histogram_kernel",
    "walk_kernel",
    "weisfeiler_lehman_kernel",
    "weisfeiler_lehman_optimal_assignment_kernel",
    "WassersteinWeisfeilerLehmanKernel",
    "wasserstein_weisfeiler_lehman_kernel",
    "PathKernel",
    "path_kernel",
    "MarginalizedKernel",
    "marginalized_kernel",
    "TreeletKernel",
    "treelet_kernel",
]
