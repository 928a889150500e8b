"""Pure-Python/NumPy twins of kernelkit's compiled cores: readable, slow, used as test oracles.

Each function has the signature of the compiled entry it mirrors. This package imports neither
``kernelkit._core`` nor the estimator API.
"""

from kernelkit.reference.graphs import (
    compress_signatures,
    geometric_gram,
    graphlet_counts,
    lookup_signatures,
    node_signatures,
    random_walk_gram,
    shortest_path_counts,
    subtree_gram,
    walk_gram,
)
