"""Explicit-feature graph kernels: each graph mapped to feature counts, ``K = Φ_Y Φ_Xᵀ``.

``transform_features`` gives ``Φ`` itself (:class:`~kernelkit.kernels._base.ExplicitFeatureMixin`).
"""

from kernelkit.kernels._base import ExplicitFeatureMixin
from kernelkit.kernels._graphs._bases._graph_kernel import GraphKernel

__all__ = ["ExplicitFeatureKernel"]


class ExplicitFeatureKernel(ExplicitFeatureMixin, GraphKernel):
    """Base of the graph kernels that are a product of explicit features, ``K = Φ_Y Φ_Xᵀ``.

    Subclasses give the features of a representation in ``_features(rep)`` (default: the
    representation is a :class:`SparseFeatures`).
    """

    _feature_columns = """Columns: the features seen when fitting, in the fitted feature space,
    whose size ``partial_fit`` may grow (new columns come last, none moves). Features never seen
    when fitting have no column: they match nothing in the fitted graphs, so the rule holds
    against the fitted graphs, and ``Φ(G) · Φ(G')`` of two other graphs leaves out the features
    they share beyond the fitted ones."""

    def _features(self, rep):
        return rep

    def _gram(self, A, B=None):
        return A.gram(B, self._n_threads())

    def _self_similarity(self, A):
        return A.squared_norms()

    def _feature_matrix(self, rep):
        return self._features(rep).known
