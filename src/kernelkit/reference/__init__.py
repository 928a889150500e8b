"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

Each function has the signature of the compiled entry it mirrors. This package imports neither
``kernelkit._core`` nor the estimator API.
"""

from kernelkit.reference.dbscan import (
    dbscan_dense,
    dbscan_precomputed_dense,
    dbscan_precomputed_sparse,
)
from kernelkit.reference.kmeans import kmeans_lloyd
from kernelkit.reference.linkage import cut_linkage, mst_single_linkage, nn_chain_linkage

__all__ = [
    "cut_linkage",
    "dbscan_dense",
    "dbscan_precomputed_dense",
    "dbscan_precomputed_sparse",
    "kmeans_lloyd",
    "mst_single_linkage",
    "nn_chain_linkage",
]
from kernelkit.reference.strings import (
    local_alignment_kernel,
    local_alignment_kernel_bruteforce,
    mismatch_kernel,
    smith_waterman_score,
    spectrum_kernel,
    substring_kernel,
    substring_kernel_bruteforce,
)
# Twin of kernelkit._core._smacof; the seed's Algorithm 17: kernelkit.reference.smacof.smacof.
from kernelkit.reference.smacof import guttman_transform  # noqa: F401
