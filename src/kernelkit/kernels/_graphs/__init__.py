"""Graph kernels (seed 004, "Graph kernels"): walks, subtrees, Weisfeiler–Lehman, shortest paths
and graphlets, as scikit-learn transformers with compiled, parallel cores."""
