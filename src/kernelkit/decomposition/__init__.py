"""Linear and kernel dimensionality reduction: PCA, kernel PCA, random projections, and sparse
recovery from random projections (basis pursuit)."""

from kernelkit.decomposition._kernel_pca import KernelPCA
from kernelkit.decomposition._pca import PCA
from kernelkit.decomposition._random_projection import (
    GaussianRandomProjection,
    SparseRandomProjection,
    johnson_lindenstrauss_min_dim,
)
from kernelkit.decomposition._sparse_recovery import basis_pursuit, rip_min_dim

__all__ = [
    "GaussianRandomProjection",
    "KernelPCA",
    "PCA",
    "SparseRandomProjection",
    "basis_pursuit",
    "johnson_lindenstrauss_min_dim",
    "rip_min_dim",
]
