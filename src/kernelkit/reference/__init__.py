"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

This package imports neither ``kernelkit._core`` nor the estimator API: the tests do the
comparing. A twin is of one of two kinds.

**Twins of a compiled entry point** take the core's arguments (outputs passed in and filled)
and return what it returns; arguments that only tune speed (thread counts, caches, float32
copies) are accepted and ignored. The tests call the twin and the core, directly or through the
estimator built on it, on the same arrays:

- :mod:`~kernelkit.reference.gram` (``vector_gram``, ``check_gram``, ``sparse_gram``):
  ``_core._gram``; ``tests/utils/test_kernels.py``, ``tests/kernels/test_reference_sparse_gram.py``;
- :mod:`~kernelkit.reference.dbscan`: ``_core._dbscan_expansion``, and ``_core._dbscan_gemm``
  as ``dbscan_dense(..., algorithm="brute")`` (without the cores' optional ``X32``,
  ``max_graph_bytes`` and ``progress``); ``tests/cluster/test_dbscan.py``,
  ``tests/cluster/test_dbscan_gemm.py``;
- :mod:`~kernelkit.reference.dual_cd`: ``_core._dual_cd``;
  ``tests/svm/test_dual_coordinate_descent.py``;
- :mod:`~kernelkit.reference.linear_dual_cd`: ``_core._linear_dual_cd``;
  ``tests/svm/test_linear_svc.py``;
- :mod:`~kernelkit.reference.smo`: ``_core._smo_solver`` (then the seed of the course's random
  choice of the second variable; the options ``progress``, ``report_every`` and ``cancel`` are
  not read); ``tests/svm/test_smo.py``;
- :mod:`~kernelkit.reference.kmedoids`: ``_core._kmedoids``, ``_core._fasterpam``,
  ``_core._dissimilarity_check``; ``tests/cluster/test_medoids.py``;
- :mod:`~kernelkit.reference.knn`: ``_core._knn_brute``, ``_core._knn_kd_tree``;
  ``tests/neighbors/test_knn.py``, ``tests/neighbors/test_kd_tree.py``;
- :mod:`~kernelkit.reference.linkage`: ``_core._linkage``; ``tests/cluster/test_agglomerative.py``;
- :mod:`~kernelkit.reference.scatter`: ``_core._weighted_scatter``;
  ``tests/utils/test_threads.py``;
- :mod:`~kernelkit.reference.csr_blocks` (``block_diagonal_csr``,
  ``check_symmetric_pattern``): ``_core._csr_blocks``; ``tests/utils/test_csr_blocks.py``;
- :mod:`~kernelkit.reference.feature_counts` (``count_matrix``): ``_core._feature_counts``;
  ``tests/kernels/test_feature_counts.py``;
- :mod:`~kernelkit.reference.smacof` (``guttman_transform``, ``stress``):
  ``_core._smacof_guttman``; ``tests/manifold/test_smacof.py``;
- :mod:`~kernelkit.reference.graphs`: ``_core._wl_relabel``, ``_core._shortest_path_bfs``,
  ``_core._graphlet_counts``, ``_core._product_graph``; ``tests/kernels/test_graph_kernels.py``,
  ``tests/kernels/test_graph_properties.py``, ``tests/kernels/test_subtree.py``,
  ``tests/kernels/test_walk.py``.

**Twins of a method** take the method's arguments (data and hyper-parameters, as the course
states them) and are compared with the public estimator or function that runs the cores:

- :mod:`~kernelkit.reference.hist_gradient_boosting` (``grow_tree``, ``predict_binned``): one
  tree of ``_core._hist_grower`` from the method's arguments (without the core's work space),
  compared with every tree of :class:`kernelkit.ensemble.HistGradientBoostingRegressor` and
  ``HistGradientBoostingClassifier``; ``tests/ensemble/test_hist_gradient_boosting.py``;
- :mod:`~kernelkit.reference.tree` (``cart_tree``: exact and histogram splitters, depth-first
  and best-first growth; ``tree_apply``, ``tree_predict``): the ``tree_`` arrays and predictions
  of :mod:`kernelkit.tree` and :mod:`kernelkit.ensemble` estimators;
  ``tests/tree/test_reference_tree.py``, ``tests/tree/test_tree.py``;
- :mod:`~kernelkit.reference.kmeans` (Lloyd; Elkan's and Hamerly's bounds as their papers
  state them): ``KMeans(algorithm=...)``; ``tests/cluster/test_reference_kmeans.py``,
  ``tests/cluster/test_kmeans.py``, ``tests/cluster/test_kmeans_elkan.py``;
- :mod:`~kernelkit.reference.strings` (spectrum, mismatch, substring and local alignment Gram
  matrices, with brute-force versions): ``SpectrumKernel``, ``MismatchKernel``,
  ``SubstringKernel``, ``LocalAlignmentKernel``; ``tests/kernels/test_spectrum.py``,
  ``tests/kernels/test_mismatch.py``, ``tests/kernels/test_substring.py``,
  ``tests/kernels/test_local_alignment.py``;
- :mod:`~kernelkit.reference.string_canon` (weighted degree kernel with shifts, term by term;
  gappy pair feature dictionaries): ``WeightedDegreeKernel``, ``GappyPairKernel``;
  ``tests/kernels/test_weighted_degree.py``, ``tests/kernels/test_gappy_pair.py``;
- :mod:`~kernelkit.reference.graph_features` (vertex and edge histograms, Weisfeiler–Lehman
  with and without edge labels, as feature dictionaries): ``VertexHistogramKernel``,
  ``EdgeHistogramKernel``, ``WeisfeilerLehmanKernel``; ``tests/kernels/test_histograms.py``,
  ``tests/kernels/test_graph_features.py``;
- :mod:`~kernelkit.reference.graph_paths` (``path_gram``, ``path_sequences``, by depth-first
  search): ``PathKernel``; ``tests/kernels/test_path.py``;
- :mod:`~kernelkit.reference.graph_marginalized` (``marginalized_gram``, ``walk_graph``, pair
  by pair): ``MarginalizedKernel``; ``tests/kernels/test_marginalized.py``;
- :mod:`~kernelkit.reference.graph_treelets` (``treelet_counts``, ``treelet_gram``: every
  edge set of at most five edges that is a tree, by its canonical code): ``TreeletKernel``;
  ``tests/kernels/test_treelet.py``;
- :mod:`~kernelkit.reference.graph_assignment` (``wl_optimal_assignment_gram`` by the Hungarian
  method on every pair, which checks the histogram-intersection theorem itself;
  ``neighborhood_hash_gram`` node by node): ``WeisfeilerLehmanOptimalAssignmentKernel`` and
  ``_core._histogram_intersection``, ``NeighborhoodHashKernel``;
  ``tests/kernels/test_wl_optimal_assignment.py``, ``tests/kernels/test_neighborhood_hash.py``;
- :mod:`~kernelkit.reference.graph_decompositions` (``nspdk_gram``, ``oddst_gram`` and their
  per-graph features, with exact invariants where the core hashes):
  ``NeighborhoodSubgraphPairwiseDistanceKernel``, ``ODDSTKernel``; ``tests/kernels/test_nspdk.py``,
  ``tests/kernels/test_oddst.py``;
- :mod:`~kernelkit.reference.graph_attributes` (``graphhopper_weights``, ``graphhopper_gram``,
  ``propagation_features``, ``propagation_gram``, from the papers): ``GraphHopperKernel``
  (and through it ``_core._graphhopper``), ``PropagationKernel``;
  ``tests/kernels/test_graphhopper.py``, ``tests/kernels/test_propagation.py``;
- :mod:`~kernelkit.reference.graph_pyramid` (``pyramid_match_gram``, ``core_numbers``,
  ``core_framework_gram``): ``PyramidMatchKernel``,
  ``CoreFrameworkKernel`` and ``_core._k_core_decomposition``;
  ``tests/kernels/test_pyramid_match.py``, ``tests/kernels/test_core_framework.py``;
- :mod:`~kernelkit.reference.graph_wasserstein` (``wwl_distances``, ``wwl_gram``: every earth
  mover's distance by ``scipy.optimize.linprog``): ``WassersteinWeisfeilerLehmanKernel``;
  ``tests/kernels/test_wasserstein_weisfeiler_lehman.py``;
- ``smacof.smacof`` (the course's whole SMACOF run): :class:`kernelkit.manifold.MDS` and
  :func:`kernelkit.manifold.smacof`; ``tests/manifold/test_smacof.py``,
  ``tests/manifold/test_sammon.py``;
- :mod:`~kernelkit.reference.gapped_kmer` (``gapped_kmer_kernel`` over all l-mer pairs,
  ``lmer_pair_weights`` from generating polynomials): ``GappedKmerKernel`` and through it
  ``_core._gapped_kmer_gram`` and ``_core._gapped_kmer_masked``;
  ``tests/kernels/test_gapped_kmer.py``, ``tests/kernels/test_gapped_kmer_masked.py``.

The cores of the string kernels' features (``_spectrum_gram``, ``_mismatch_neighborhood``,
``_substring_dp``, ``_local_alignment_dp``, ``_weighted_degree``), the tree builder (``_tree_builder``) and the
prediction (``_tree_predict``) are checked through these method twins, not entry by entry.
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
    cluster_medians,
    fasterpam,
    in_cluster_costs,
    manhattan_assign,
)
from kernelkit.reference.knn import build_kd_tree, knn_brute, knn_kd_tree, knn_select
from kernelkit.reference.linear_dual_cd import linear_dual_cd_solve
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
    "build_kd_tree",
    "build_medoids",
    "cart_tree",
    "check_gram",
    "cluster_medians",
    "compress_signatures",
    "cut_linkage",
    "dbscan_dense",
    "dbscan_precomputed_dense",
    "dbscan_precomputed_sparse",
    "dual_cd_solve",
    "fasterpam",
    "graphlet_counts",
    "guttman_transform",
    "histogram_bins",
    "in_cluster_costs",
    "kmeans_elkan",
    "kmeans_hamerly",
    "kmeans_lloyd",
    "knn_brute",
    "knn_kd_tree",
    "knn_select",
    "linear_dual_cd_solve",
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
