"""The base classes of the graph kernels, one module each. A new graph kernel subclasses one:

.. code-block:: text

    StructuredKernel (kernels/_base.py: fit, transform, normalize, n_jobs; strings share it)
    └── GraphKernel (_graph_kernel): graphs coded into a GraphBatch, label maps learned at fit
        ├── ExplicitFeatureKernel (_explicit_feature_kernel): K = Φ_Y Φ_Xᵀ, transform_features
        │   └── SparseFeatureKernel (_sparse_feature_kernel): integer feature keys counted in
        │       │   a vocabulary that partial_fit grows (shortest path, NSPDK, ODD-ST, ...)
        │       └── LabelRefinementKernel (_label_refinement_kernel): label histograms along
        │               Weisfeiler–Lehman relabelling (WL, vertex histogram)
        └── ProductGraphKernel (_product_graph_kernel): a compiled pair kernel on the product
                graph of every pair (walks, subtree patterns)

Kernels with another Gram (a histogram intersection, an assignment, a sum over k-cores)
subclass :class:`GraphKernel` itself, with
:class:`~kernelkit.kernels._base.ExplicitFeatureMixin` when they have explicit features.
"""

from kernelkit.kernels._graphs._bases._explicit_feature_kernel import ExplicitFeatureKernel
from kernelkit.kernels._graphs._bases._graph_kernel import GRAPH_DOCS, GraphKernel
from kernelkit.kernels._graphs._bases._label_refinement_kernel import LabelRefinementKernel
from kernelkit.kernels._graphs._bases._product_graph_kernel import (
    ProductGraphKernel,
    batch_arrays,
    max_degree,
)
from kernelkit.kernels._graphs._bases._sparse_feature_kernel import SparseFeatureKernel

__all__ = ["GRAPH_DOCS", "ExplicitFeatureKernel", "GraphKernel", "LabelRefinementKernel",
           "ProductGraphKernel", "SparseFeatureKernel", "batch_arrays", "max_degree"]
