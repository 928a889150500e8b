"""Neighbourhood subgraph pairwise distance kernel (Costa & De Grave 2010)."""

from numbers import Integral

import numpy as np

from kernelkit._core import _graph_decompositions
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, SparseFeatureKernel
from kernelkit.kernels._graphs._features import decomposition_features
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval

__all__ = ["NeighborhoodSubgraphPairwiseDistanceKernel",
           "neighborhood_subgraph_pairwise_distance_kernel"]

# radii and distances beyond this cover every graph of practical size (balls are whole graphs)
_MAX_RADIUS = 1 << 10


@fill_doc(**GRAPH_DOCS)
class NeighborhoodSubgraphPairwiseDistanceKernel(SparseFeatureKernel):
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
    are renumbered (a path ``C-C-O`` numbered from its end or from its middle); it then hashes
    that text to 32 bits. It also leaves out of a node's list the nodes farther than ``d``, and
    does not mark the root. Its neighbourhoods grow by doubling: what it calls radius 3 is the
    ball of radius 4, distance 3 stands for distances 3 and 4 and distance 4 for 5 to 8 (on a
    path of 6 nodes, GraKeL puts the end nodes at distance 4). Radius 0 (single labelled nodes)
    at distances 0 to 2 is computed alike, and there the Gram matrices agree exactly. A graph
    without pairs at some level (a small diameter) gets 0 there on the diagonal here, as off it;
    GraKeL's ``fit_transform`` puts 1 (and its ``transform`` 0).

    Parameters
    ----------
    r : int, default=3
        Largest radius of the neighbourhoods.
    d : int, default=4
        Largest distance between the two roots.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
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
        **SparseFeatureKernel._parameter_constraints,
        "r": [Interval(Integral, 0, _MAX_RADIUS, closed="both")],
        "d": [Interval(Integral, 0, _MAX_RADIUS, closed="both")],
    }

    def __init__(self, r=3, d=4, *, node_label="label", unlabeled_nodes="constant", edge_label=None,
                 normalize=True, n_jobs=None, verbose=0):
        self.r = r
        self.d = d
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    _core_decomposition = _graph_decompositions.NSPDK

    def _represent(self, batch, fitting):
        r, d = int(self.r), int(self.d)
        n_graphs = batch.n_samples
        graph_ids, keys, levels, counts = decomposition_features(
            self._core_decomposition, batch, r, d, self._n_threads(),
            f"NeighborhoodSubgraphPairwiseDistanceKernel(r={r}, d={d})",
            "lower r or d, or use WeisfeilerLehmanKernel on very large graphs.")
        # each level of each graph scaled to unit norm: the Gram is then one sparse product
        n_levels = (r + 1) * (d + 1)
        cell = graph_ids * n_levels + levels
        norms = np.sqrt(np.bincount(cell, weights=counts.astype(np.float64) ** 2,
                                    minlength=n_graphs * n_levels))
        weights = counts / norms[cell]
        return self._key_features(graph_ids, keys, weights, n_graphs, fitting)


def neighborhood_subgraph_pairwise_distance_kernel(X, Y=None, *, r=3, d=4, **params):
    """Gram matrix of :class:`NeighborhoodSubgraphPairwiseDistanceKernel`; ``params`` as its
    keyword parameters."""
    return pairwise_structured_kernel(
        NeighborhoodSubgraphPairwiseDistanceKernel(r=r, d=d, **params), X, Y)
