"""Weisfeiler–Lehman subtree kernel (Shervashidze et al. 2011), with or without edge labels."""

from numbers import Integral

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, LabelRefinementKernel, SparseFeatureKernel
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["WeisfeilerLehmanKernel", "weisfeiler_lehman_kernel"]


@fill_doc(**GRAPH_DOCS)
class WeisfeilerLehmanKernel(LabelRefinementKernel):
    r"""Weisfeiler–Lehman subtree kernel: label histograms along WL relabelling iterations.

    Iteration 0 counts the node labels; each further iteration relabels every node by its
    signature ``(label, sorted multiset of neighbour labels)`` compressed to a new integer, and
    counts the new labels. :math:`\Phi(G)` concatenates the ``n_iter + 1`` histograms and
    :math:`K(G, G') = \sum_{h=0}^{n_\mathrm{iter}} \langle \phi_h(G), \phi_h(G') \rangle`.
    Signatures never seen at ``fit`` get labels of their own, so at ``transform`` they match
    nothing in the fitted graphs.

    With ``edge_label``, the Weisfeiler–Lehman edge variant: a node's signature is its label
    with the sorted multiset of ``(edge label, neighbour label)`` pairs over its edges, so two
    neighbourhoods that differ only in bond types get different labels. On graphs whose edges
    all carry the same label it equals the plain kernel. GraKeL has no such variant (its
    ``WeisfeilerLehman`` reads node labels only).

    Relabelling is compiled (sort-based compression, no hashing, so no collisions); the feature
    matrix is an explicit ``scipy.sparse`` array (:meth:`transform_features`) and the Gram
    matrix a sparse product. :meth:`partial_fit` grows the vocabulary batch by batch (for
    features of millions of graphs in one column space).

    Parameters
    ----------
    n_iter : int, default=5
        Number of relabelling iterations ``h``; ``n_iter=0`` is the vertex-label histogram
        kernel. Same convention as GraKeL's ``WeisfeilerLehman(n_iter=h)`` with a
        ``VertexHistogram`` base kernel, whose Gram matrix (``normalize=False``) this equals.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read
        (every node labelled by ``unlabeled_nodes``).
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the edge label (networkx input; tuples then need their third
        element); None: the plain kernel, edge labels not read.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads of the relabelling.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : SparseFeatures
        Feature counts of the graphs given to ``fit`` (none after ``partial_fit`` alone).
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit`` (grown by ``partial_fit``).
    edge_label_codes_ : dict
        Edge label → integer code (empty without ``edge_label``).
    signature_tables_ : list of (ndarray, ndarray, ndarray)
        For each iteration, the known distinct signatures in increasing order, CSR-like
        ``(data, ptr)``, and the label of each, ``codes``: row ``t`` is the signature of label
        ``codes[t]``. After ``fit`` alone, ``codes`` is ``0, 1, ...`` (labels are ranks).
    label_columns_ : list of ndarray of int
        For each iteration ``h``, the column of every known label.
    feature_keys_ : ndarray of int64
        Keys ``iteration << 32 | label`` of the columns, in column order (sorted after ``fit``;
        ``partial_fit`` appends).
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    VertexHistogramKernel : the node-label histograms alone (``n_iter=0``).
    ShortestPathKernel : counts labelled shortest-path triples instead of subtree patterns.
    SubtreeKernel : tree patterns with repeated nodes, by dynamic programming.

    References
    ----------
    N. Shervashidze, P. Schweitzer, E. J. van Leeuwen, K. Mehlhorn, K. M. Borgwardt.
    Weisfeiler–Lehman graph kernels. JMLR 12:2539–2561, 2011 (Algorithm 1; the edge kernel,
    §3.2). N. M. Kriege, F. D. Johansson, C. Morris. A survey on graph kernels. Applied Network
    Science 5(6), 2020.
    Mairal & Vert, *Kernel Methods* slides, "Graph kernels" / "Indexing by specific subgraphs".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import WeisfeilerLehmanKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> WeisfeilerLehmanKernel(n_iter=1).fit_transform([path, triangle])
    array([[ 8.,  7.],
           [ 7., 10.]])

    Single and double bonds tell the two molecules apart at iteration 1:

    >>> single = (path[0], path[1], {(0, 1): 1, (1, 2): 1})
    >>> double = (path[0], path[1], {(0, 1): 1, (1, 2): 2})
    >>> WeisfeilerLehmanKernel(n_iter=1, edge_label="bond").fit_transform([single, double])
    array([[8., 6.],
           [6., 8.]])
    """

    _parameter_constraints = {
        **SparseFeatureKernel._parameter_constraints,
        "n_iter": [Interval(Integral, 0, MAX_INT, closed="left")],
    }

    def __init__(self, n_iter=5, *, node_label="label", unlabeled_nodes="constant", edge_label=None,
                 normalize=False, n_jobs=None, verbose=0):
        self.n_iter = n_iter
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose


def weisfeiler_lehman_kernel(X, Y=None, *, n_iter=5, **params):
    """Gram matrix of :class:`WeisfeilerLehmanKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(WeisfeilerLehmanKernel(n_iter=n_iter, **params), X, Y)
