"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

Each function has the signature of the compiled entry it mirrors. This package imports neither
``kernelkit._core`` nor the estimator API.
"""

from kernelkit.reference.dbscan import (
    dbscan_dense,
    dbscan_precomputed_dense,
    dbscan_precomputed_sparse,
)
from kernelkit.reference.dual_cd import dual_cd_solve
from kernelkit.reference.gram import check_gram, sparse_gram, vector_gram
from kernelkit.reference.graphs import (
    PRODUCT_GRAPH_KERNELS,
    compress_signatures,
    graphlet_counts,
    lookup_signatures,
    node_signatures,
    product_graph_diagonal,
    product_graph_gram,
    shortest_path_counts,
)
from kernelkit.reference.kmeans import kmeans_elkan, kmeans_hamerly, kmeans_lloyd
from kernelkit.reference.kmedoids import (
    assign_medoids,
    build_medoids,
    fasterpam,
    in_cluster_costs,
    manhattan_assign,
)
from kernelkit.reference.knn import knn_brute, knn_select
from kernelkit.reference.linkage import cut_linkage, mst_single_linkage, nn_chain_linkage
from kernelkit.reference.smacof import guttman_transform
from kernelkit.reference.smo import smo_solve
from kernelkit.reference.strings import (
    local_alignment_kernel,
    local_alignment_kernel_bruteforce,
    mismatch_kernel,
    smith_waterman_score,
    spectrum_kernel,
    substring_kernel,
    substring_kernel_bruteforce,
)
from kernelkit.reference.tree import cart_tree, histogram_bins, tree_apply, tree_predict

__all__ = [
    "PRODUCT_GRAPH_KERNELS",
    "assign_medoids",
    "build_medoids",
    "cart_tree",
    "check_gram",
    "compress_signatures",
    "cut_linkage",
    "dbscan_dense",
    "dbscan_precomputed_dense",
    "dbscan_precomputed_sparse",
    "dual_cd_solve",
    "fasterpam",
    "graphlet_counts",
    "histogram_bins",
    "guttman_transform",
    "in_cluster_costs",
    "knn_brute",
    "knn_select",
    "kmeans_elkan",
    "kmeans_hamerly",
    "kmeans_lloyd",
    "local_alignment_kernel",
    "local_alignment_kernel_bruteforce",
    "lookup_signatures",
    "manhattan_assign",
    "mismatch_kernel",
    "mst_single_linkage",
    "nn_chain_linkage",
    "node_signatures",
    "product_graph_diagonal",
    "product_graph_gram",
    "shortest_path_counts",
    "smith_waterman_score",
    "smo_solve",
    "sparse_gram",
    "spectrum_kernel",
    "substring_kernel",
    "substring_kernel_bruteforce",
    "tree_apply",
    "tree_predict",
    "vector_gram",
]
