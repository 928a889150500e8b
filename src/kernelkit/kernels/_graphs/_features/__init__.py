"""What several graph kernels compute alike on top of the coded batch.

- ``_sparse_features``: :class:`SparseFeatures`, graphs as sparse feature counts, and
  :func:`count_features`, which counts feature occurrences into them (the explicit-feature
  kernels);
- ``_decompositions``: :func:`decomposition_features`, the rooted pieces of NSPDK and ODD-ST
  (compiled core ``_core/_graph_decompositions.pyx``);
- ``_histogram_intersection``: :func:`intersection_gram`, ``Σ min`` of sparse count histograms
  (Weisfeiler–Lehman optimal assignment, neighbourhood hash, pyramid match);
- ``_hashing``: :func:`mix64`, the 64-bit mixer of the hashed feature keys (graphlet
  fingerprints, treelets).
"""

from kernelkit.kernels._graphs._features._decompositions import decomposition_features
from kernelkit.kernels._graphs._features._hashing import mix64
from kernelkit.kernels._graphs._features._histogram_intersection import intersection_gram
from kernelkit.kernels._graphs._features._sparse_features import SparseFeatures, count_features

__all__ = ["SparseFeatures", "count_features", "decomposition_features", "intersection_gram",
           "mix64"]
