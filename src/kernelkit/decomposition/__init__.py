"""Linear and kernel dimensionality reduction: PCA, kernel PCA, random projections."""

from kernelkit.decomposition._kernel_pca import KernelPCA
from kernelkit.decomposition._pca import PCA
from kernelkit.decomposition._random_projection import (
    GaussianRandomProjection,
    SparseRandomProjection,
    johnson_lindenstrauss_min_dim,
)

__all__ = [
    "GaussianRandomProjection",
    "KernelPCA",
    "PCA",
    "SparseRandomProjection",
    "johnson_lindenstrauss_min_dim",
]
