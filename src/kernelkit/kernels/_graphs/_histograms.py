"""Vertex and edge histogram kernels: label counts compared by a dot product."""

import numpy as np

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import (
    GRAPH_DOCS,
    GraphKernel,
    LabelRefinementKernel,
    SparseFeatureKernel,
)
from kernelkit.utils._docstrings import fill_doc

__all__ = ["EdgeHistogramKernel", "VertexHistogramKernel", "edge_histogram_kernel",
           "vertex_histogram_kernel"]


@fill_doc(**GRAPH_DOCS)
class VertexHistogramKernel(LabelRefinementKernel):
    r"""Vertex histogram kernel: the dot product of node-label counts.

    :math:`\Phi(G)_\ell = |\{v \in V(G) : \mathrm{label}(v) = \ell\}|` and
    :math:`K(G, G') = \langle \Phi(G), \Phi(G') \rangle
    = \sum_{v \in G, v' \in G'} \delta(\mathrm{label}(v), \mathrm{label}(v'))`. It is
    :class:`WeisfeilerLehmanKernel` with ``n_iter=0`` (the same features, the same columns)
    and equals GraKeL's ``VertexHistogram`` (``normalize=False``). :meth:`transform_features`
    gives :math:`\Phi` as a sparse matrix; :meth:`partial_fit` grows the label vocabulary.

    Parameters
    ----------
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read, every node
        labelled by ``unlabeled_nodes`` (with ``"constant"``, :math:`K(G, G') = |V(G)| |V(G')|`).
    %(unlabeled_nodes)s
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads of the Gram product (and of the label look-ups on batches of 50 000 nodes
        or more).
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Label counts of the graphs given to ``fit`` (none after ``partial_fit`` alone).
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit`` (grown by ``partial_fit``).
    edge_label_codes_ : dict
        Empty (edge labels are not used).
    label_columns_ : list of one ndarray of int
        The column of every label code.
    feature_keys_ : ndarray of int64
        The label code of every column.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    EdgeHistogramKernel : the same on edge labels.
    WeisfeilerLehmanKernel : histograms of refined labels.

    References
    ----------
    S. V. N. Vishwanathan, N. N. Schraudolph, R. Kondor, K. M. Borgwardt. Graph kernels.
    JMLR 11:1201–1242, 2010 (label histograms as the simplest graph kernel);
    N. M. Kriege, F. D. Johansson, C. Morris. A survey on graph kernels. Applied Network
    Science 5(6), 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import VertexHistogramKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> edge = (np.array([[0, 1], [1, 0]]), ["C", "N"])
    >>> VertexHistogramKernel().fit_transform([path, edge])
    array([[5., 2.],
           [2., 2.]])
    """

    # the relabelling with no iteration: the node labels themselves, edges not read
    n_iter = 0
    edge_label = None

    _parameter_constraints = {
        k: v for k, v in GraphKernel._parameter_constraints.items() if k != "edge_label"
    }

    def __init__(self, *, node_label="label", unlabeled_nodes="constant", normalize=False,
                 n_jobs=None, verbose=0):
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose


class EdgeHistogramKernel(SparseFeatureKernel):
    r"""Edge histogram kernel: the dot product of edge-label counts.

    :math:`\Phi(G)_\ell` counts the edges of label :math:`\ell` and
    :math:`K(G, G') = \langle \Phi(G), \Phi(G') \rangle`. Each undirected edge counts twice,
    once per orientation, as GraKeL's ``EdgeHistogram`` counts the edge-label dictionaries of
    the TU datasets (which list both orientations of every edge); its Gram matrix
    (``normalize=False``) is then this one. Given a dictionary with one orientation per edge,
    GraKeL counts each edge once and its Gram is a quarter of this one; under ``normalize``
    the two agree either way. Node labels are not used.

    Parameters
    ----------
    edge_label : str, default="label"
        Edge attribute holding the label (networkx input); tuple input needs its third
        element, the edge labels.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads of the Gram product; counting the edge labels is one pass over the edges.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Edge-label counts of the graphs given to ``fit`` (none after ``partial_fit`` alone).
    n_samples_fit_ : int
    node_label_codes_ : dict
        Empty (node labels are not used).
    edge_label_codes_ : dict
        Edge label → integer code, learned at ``fit`` (grown by ``partial_fit``).
    feature_keys_ : ndarray of int64
        The edge label code of every column.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    VertexHistogramKernel : the same on node labels.

    References
    ----------
    N. Kriege, P. Mutzel. Subgraph matching kernels for attributed graphs. ICML 2012;
    G. Siglidis, G. Nikolentzos, S. Limnios, C. Giatsidis, K. Skianis, M. Vazirgiannis.
    GraKeL: a graph kernel library in Python. JMLR 21(54):1–5, 2020.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import EdgeHistogramKernel
    >>> path = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    >>> single = (path, None, {(0, 1): "-", (1, 2): "-"})
    >>> mixed = (path, None, {(0, 1): "-", (1, 2): "="})
    >>> EdgeHistogramKernel().fit_transform([single, mixed])
    array([[16.,  8.],
           [ 8.,  8.]])
    """

    _parameter_constraints = {
        **{k: v for k, v in GraphKernel._parameter_constraints.items() if k != "node_label"},
        "edge_label": [str],
    }

    def __init__(self, *, edge_label="label", normalize=False, n_jobs=None, verbose=0):
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        # one occurrence per adjacency entry: both orientations of every edge
        graph_of_node = np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr))
        graph_ids = np.repeat(graph_of_node, np.diff(batch.indptr))
        keys = batch.edge_labels.astype(np.int64)
        return self._key_features(graph_ids, keys, np.ones(len(keys), dtype=np.int64),
                                  batch.n_samples, fitting)


def vertex_histogram_kernel(X, Y=None, **params):
    """Gram matrix of :class:`VertexHistogramKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(VertexHistogramKernel(**params), X, Y)


def edge_histogram_kernel(X, Y=None, **params):
    """Gram matrix of :class:`EdgeHistogramKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(EdgeHistogramKernel(**params), X, Y)
