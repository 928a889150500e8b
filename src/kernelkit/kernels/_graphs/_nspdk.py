"""Neighbourhood subgraph pairwise distance kernel (Costa & De Grave 2010)."""

from numbers import Integral

import numpy as np
import scipy.sparse as sp

from kernelkit._core import _nspdk_features
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._base import GraphKernel, count_features
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import check_memory_request

__all__ = ["NeighborhoodSubgraphPairwiseDistanceKernel",
           "neighborhood_subgraph_pairwise_distance_kernel"]

# radii and distances beyond this cover every graph of practical size (balls are whole graphs)
_MAX_RADIUS = 1 << 10
_MIN_NODES_PER_THREAD = 2_000


class NeighborhoodSubgraphPairwiseDistanceKernel(GraphKernel):
    r"""Neighbourhood subgraph pairwise distance kernel (NSPDK).

    For a radius :math:`\rho` and a node :math:`v`, the neighbourhood :math:`N_\rho(v)` is the
    subgraph induced by the nodes at distance at most :math:`\rho` from :math:`v`, rooted at
    :math:`v`. The feature :math:`(\rho, \delta, [N_\rho(A)], [N_\rho(B)])` counts the ordered
    node pairs :math:`(A, B)` at distance :math:`\delta` whose neighbourhoods have the
    invariants :math:`[N_\rho(A)], [N_\rho(B)]`. With :math:`\phi_{\rho\delta}(G)` the counts
    of one level,

    .. math::

        K(G, G') = \sum_{\rho=0}^{r} \sum_{\delta=0}^{d}
        \frac{\langle \phi_{\rho\delta}(G), \phi_{\rho\delta}(G') \rangle}
             {\|\phi_{\rho\delta}(G)\| \, \|\phi_{\rho\delta}(G')\|},

    a level where a graph has no pair (a distance beyond its diameter) adding 0. The invariant of
    a rooted neighbourhood is the paper's distance-labelled one: each node :math:`u` of the ball
    is coded by its distance to the root and the sorted list of pairs
    :math:`(\mathrm{dist}(u, w), \mathrm{label}(w))` over the ball (distances in the whole
    graph); the neighbourhood by the sorted node codes and the sorted list of its edges
    ``(code, code, edge label)``. The compiled core codes these lists with a fixed 64-bit hash
    (splitmix64's mixer chained over the list; distinct invariants collide with probability about
    :math:`n^2 / 2^{65}` for :math:`n` of them), one BFS per node, in parallel over graphs.

    Differences from GraKeL's ``NeighborhoodSubgraphPairwiseDistance`` (same ``r``, ``d``,
    ordered pairs, per-level cosine normalisation): GraKeL's neighbourhood code concatenates the
    node lists in the order of the node ids, so two isomorphic neighbourhoods numbered
    differently get different features, and its Gram matrix changes when the nodes of a graph
    are renumbered (a path ``C-C-O`` numbered ``(C, C, O)`` or ``(C, O, C)``); it then hashes
    that text to 32 bits. It also leaves out of a node's list the nodes farther than ``d``, and
    does not mark the root. Its neighbourhoods grow by doubling: what it calls radius 3 is the
    ball of radius 4, distance 3 stands for distances 3 and 4 and distance 4 for 5 to 8 (on a
    path of 6 nodes, GraKeL puts the end nodes at distance 4). Radius 0 (single labelled nodes)
    at distances 0 to 2 is computed alike, and there the Gram matrices agree exactly.

    Parameters
    ----------
    r : int, default=3
        Largest radius of the neighbourhoods.
    d : int, default=4
        Largest distance between the two roots.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: unlabelled graphs.
    edge_label : str or None, default=None
        Edge attribute holding the label (networkx input); None: edges are not labelled.
    normalize : bool, default=True
        Cosine-normalise the Gram matrix (divide by the number of levels both graphs have).
    n_jobs : int or None, default=None
        Threads of the feature extraction (one graph per thread at a time) and of the Gram
        product.
    verbose : int, default=0
        Messages on stderr: none (0); a line per Gram matrix and progress lines during a long
        one (1); also the time of each stage (2).

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Normalised features of the fitted graphs (each level scaled to unit norm).
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit``.
    edge_label_codes_ : dict
        Edge label → integer code, learned at ``fit`` (empty without edge labels).
    feature_keys_ : ndarray of int64
        Sorted 64-bit keys of the fitted features.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs (their number of non-empty levels), when ``normalize``
        is true.

    See Also
    --------
    WeisfeilerLehmanKernel : subtree patterns, which NSPDK's neighbourhoods generalise to pairs.
    ShortestPathKernel : pairs of single labelled nodes at a distance (NSPDK at radius 0).

    References
    ----------
    F. Costa, K. De Grave. Fast neighborhood subgraph pairwise distance kernel. ICML 2010.
    Mairal & Vert, *Kernel Methods* slides, "Graph kernels" / "Indexing by specific subgraphs".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import NeighborhoodSubgraphPairwiseDistanceKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (1 - np.eye(3), ["C", "C", "O"])
    >>> kernel = NeighborhoodSubgraphPairwiseDistanceKernel(r=1, d=1, normalize=False)
    >>> kernel.fit_transform([path, triangle]).round(3)
    array([[4.   , 1.943],
           [1.943, 4.   ]])

    Four levels; the two graphs share their labels (level (0, 0): cosine 1) and their labelled
    edges in part (level (0, 1): ``8 / (√6 √12) = 2√2 / 3``), no neighbourhood of radius 1.
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "r": [Interval(Integral, 0, _MAX_RADIUS, closed="both")],
        "d": [Interval(Integral, 0, _MAX_RADIUS, closed="both")],
    }

    def __init__(self, r=3, d=4, *, node_label="label", edge_label=None, normalize=True,
                 n_jobs=None, verbose=0):
        self.r = r
        self.d = d
        self.node_label = node_label
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        r, d = int(self.r), int(self.d)
        n_graphs = batch.n_samples
        n_nodes = np.diff(batch.node_ptr)
        n_threads = self._n_threads() if batch.n_nodes >= _MIN_NODES_PER_THREAD else 1
        n_threads = max(1, min(n_threads, n_graphs))
        largest = int(n_nodes.max())
        # per thread: the distances of all node pairs of the largest graph
        check_memory_request(8.0 * largest * largest * n_threads,
                             f"NeighborhoodSubgraphPairwiseDistanceKernel on a graph of {largest} "
                             "nodes", "split very large graphs, or use WeisfeilerLehmanKernel.")
        arrays = (r, d, batch.node_ptr, batch.indptr, batch.indices, batch.node_labels,
                  batch.edge_labels)
        n_pairs = np.empty(n_graphs, dtype=np.int64)
        no_slots = np.zeros(1, dtype=np.int64)
        _nspdk_features.nspdk_features(*arrays, no_slots, no_slots.view(np.uint64),
                                       no_slots.view(np.intp), no_slots, n_pairs, counting=True,
                                       n_threads=n_threads)
        slots = n_pairs * (r + 1)
        # a key, a level and a count per occurrence, then the sparse features built from them
        check_memory_request(48.0 * float(slots.sum()),
                             f"NeighborhoodSubgraphPairwiseDistanceKernel(r={r}, d={d}) on "
                             f"{n_graphs} graphs", "lower r or d.")
        key_ptr = np.zeros(n_graphs + 1, dtype=np.int64)
        np.cumsum(slots, out=key_ptr[1:])
        keys = np.empty(key_ptr[-1], dtype=np.uint64)
        levels = np.empty(key_ptr[-1], dtype=np.intp)
        counts = np.empty(key_ptr[-1], dtype=np.int64)
        n_distinct = np.empty(n_graphs, dtype=np.int64)
        _nspdk_features.nspdk_features(*arrays, key_ptr, keys, levels, counts, n_distinct,
                                       n_threads=n_threads)
        # each graph's distinct keys sit at the start of its slot range
        graph_ids = np.repeat(np.arange(n_graphs), n_distinct)
        slot = np.repeat(key_ptr[:-1] - np.r_[0, np.cumsum(n_distinct)[:-1]], n_distinct) \
            + np.arange(n_distinct.sum())
        keys, levels, counts = keys[slot].view(np.int64), levels[slot], counts[slot]
        # each level of each graph scaled to unit norm: the Gram is then one sparse product
        n_levels = (r + 1) * (d + 1)
        cell = graph_ids * n_levels + levels
        norms = np.sqrt(np.bincount(cell, weights=counts.astype(np.float64) ** 2,
                                    minlength=n_graphs * n_levels))
        weights = counts / norms[cell]
        if fitting:
            self.feature_keys_ = np.unique(keys)
        return count_features(graph_ids, keys, weights, n_graphs, self.feature_keys_)

    def _gram(self, A, B=None):
        return A.gram(B, self._n_threads())

    def _self_similarity(self, A):
        return A.squared_norms()

    def transform_features(self, X):
        r"""Explicit feature vectors :math:`\Phi(G)`, each level scaled to unit norm.

        :math:`\Phi(G)\,\Phi(G')^\top` is the kernel (cosine-normalised too when ``normalize``
        is true: each row is then divided by :math:`\sqrt{k(G, G)}`). Column :math:`c` is the
        feature ``feature_keys_[c]``; features never seen at ``fit`` have no column (they match
        nothing in the fitted graphs) but count in the normalisation.

        Parameters
        ----------
        X : sequence of graphs

        Returns
        -------
        features : scipy.sparse.csr_array of shape (n_samples, len(feature_keys_)), float64
        """
        self._check_fitted()
        features = self._prepare(X, fitting=False)
        known = features.known
        if self.normalize:
            scale = 1.0 / np.sqrt(np.maximum(features.squared_norms(), np.finfo(float).tiny))
            known = sp.csr_array(sp.diags_array(scale) @ known)
        return known


def neighborhood_subgraph_pairwise_distance_kernel(X, Y=None, *, r=3, d=4, **params):
    """Gram matrix of :class:`NeighborhoodSubgraphPairwiseDistanceKernel`; ``params`` as its
    keyword parameters."""
    return pairwise_structured_kernel(
        NeighborhoodSubgraphPairwiseDistanceKernel(r=r, d=d, **params), X, Y)
