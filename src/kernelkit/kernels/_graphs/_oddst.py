"""ODD-ST_h kernel: subtrees of the ordered DAG visits of a graph (Da San Martino et al. 2012)."""

from numbers import Integral, Real

import numpy as np

from kernelkit._core import _graph_decompositions
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, SparseFeatureKernel
from kernelkit.kernels._graphs._features import decomposition_features
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["ODDSTKernel", "oddst_kernel"]


@fill_doc(**GRAPH_DOCS)
class ODDSTKernel(SparseFeatureKernel):
    r"""ODD-ST_h kernel: shared subtrees of the DAG visits of two graphs, weighted by size.

    From every node :math:`v`, the breadth-first visit up to depth :math:`h` is a DAG (an arc
    :math:`u \to w` for every edge with :math:`\mathrm{depth}(w) = \mathrm{depth}(u) + 1`);
    every node :math:`u` of it is the root of a tree visit :math:`T(u)` (the DAG unfolded from
    :math:`u`), put in canonical form by ordering the children of each node by their own
    canonical forms (the ordered DAG, "ODD"). With :math:`\phi_t(G)` the number of
    :math:`(v, u)` whose tree visit is :math:`t` and :math:`|t|` its number of nodes,

    .. math::

        K(G, G') = \sum_t \lambda^{|t|} \, \phi_t(G) \, \phi_t(G'),

    the subtree kernel (ST) summed over all pairs of DAG nodes, as the paper's ODD-ST_h. Trees
    are coded bottom-up in a compiled core (one BFS per node, in parallel over graphs) with a
    fixed 64-bit hash of ``(label, sorted codes of the children)`` (splitmix64's mixer chained
    over the list; distinct trees collide with probability about :math:`n^2 / 2^{65}` for
    :math:`n` of them). Edge labels are not used.

    Differences from GraKeL's ``OddSth`` (same DAG visits; ``h=None`` is GraKeL's default):
    GraKeL has no :math:`\lambda` and weighs a tree by how often it occurs in the first graph of
    the input where it occurs, so its Gram matrix changes when the graphs are reordered (and
    ``transform`` weighs by the fitted graphs); it also orders the children of a node by a
    topological order in which nodes of the same label come in the order of their ids, not by
    their subtrees, so two isomorphic visits can get different strings. Both kernels count the
    same DAG nodes: ``lambda_=1`` here equals GraKeL's Gram matrix with its weights set to 1
    wherever its order of the children is canonical.

    Parameters
    ----------
    h : int or None, default=None
        Depth of the DAG visits; None: not cut (each visit covers the node's connected
        component, so time and memory grow with the square of its size: about 0.8 GB for a
        sparse graph of 5 000 nodes).
    lambda_ : float, default=1.0
        Weight :math:`\lambda \in (0, 1]` of a match per node of the tree.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads: graphs are decomposed in parallel, and the Gram product is threaded.
    verbose : int, default=0
        0: silent; 1: a line per Gram matrix, and progress lines while a long one runs; 2: the
        time of every stage as well.

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Weighted features :math:`\lambda^{|t|/2} \phi_t(G)` of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_ : dict
        The integer code of each node label seen at ``fit``.
    edge_label_codes_ : dict
        Always empty: the trees do not read edge labels.
    feature_keys_ : ndarray of int64
        Sorted 64-bit codes of the fitted trees.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    WeisfeilerLehmanKernel : subtree patterns of the unfolded neighbourhoods, without the DAG.
    NeighborhoodSubgraphPairwiseDistanceKernel : pairs of rooted neighbourhood subgraphs.

    References
    ----------
    G. Da San Martino, N. Navarin, A. Sperduti. A tree-based kernel for graphs. SIAM SDM 2012.
    Mairal & Vert, *Kernel Methods* slides, "Graph kernels" / "Tree kernels".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import ODDSTKernel
    >>> chain = (np.array([[0, 1], [1, 0]]), ["C", "O"])
    >>> pair = (np.zeros((2, 2)), ["C", "O"])
    >>> ODDSTKernel(h=1).fit_transform([chain, pair])
    array([[4., 2.],
           [2., 2.]])

    The chain has four tree visits (``C``, ``O``, ``C(O)``, ``O(C)``), the two isolated nodes
    two (``C``, ``O``), which the chain shares.
    """

    _parameter_constraints = {
        **{k: v for k, v in SparseFeatureKernel._parameter_constraints.items()
           if k != "edge_label"},
        "h": [Interval(Integral, 0, MAX_INT, closed="left"), None],
        "lambda_": [Interval(Real, 0, 1, closed="right")],
    }

    def __init__(self, h=None, lambda_=1.0, *, node_label="label", unlabeled_nodes="constant",
                 normalize=False, n_jobs=None, verbose=0):
        self.h = h
        self.lambda_ = lambda_
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    _core_decomposition = _graph_decompositions.ODDST

    def _represent(self, batch, fitting):
        # an uncut visit is one cut at the largest number of nodes
        largest = int(np.diff(batch.node_ptr).max())
        h = largest if self.h is None else min(int(self.h), largest)
        graph_ids, keys, sizes, counts = decomposition_features(
            self._core_decomposition, batch, 0, h, self._n_threads(),
            f"ODDSTKernel(h={self.h})", "split very large graphs, or use WeisfeilerLehmanKernel.")
        # λ^|t| split between the two graphs' features: λ^(|t|/2) on each, through the log so
        # that the trees of astronomically many nodes get weight 0 instead of a pow overflow
        weights = counts * np.exp(0.5 * np.log(float(self.lambda_)) * sizes)
        return self._key_features(graph_ids, keys, weights, batch.n_samples, fitting)


def oddst_kernel(X, Y=None, *, h=None, lambda_=1.0, **params):
    """Gram matrix of :class:`ODDSTKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(ODDSTKernel(h=h, lambda_=lambda_, **params), X, Y)
