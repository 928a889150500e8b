"""Graphlet kernel (Shervashidze et al. 2009)."""

import itertools
import warnings
from functools import lru_cache
from math import comb
from numbers import Integral

import numpy as np
import scipy.sparse
from sklearn.utils import check_random_state

from kernelkit._core import _graphlet_counts
from kernelkit.kernels._base import StructuredKernel, pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import ExplicitFeatureKernel
from kernelkit.kernels._graphs._features import SparseFeatures, mix64
from kernelkit.utils._sklearn_compat import Interval, Options, StrOptions
from kernelkit.utils._validation import MAX_INT

__all__ = ["GraphletKernel", "graph_fingerprints", "graphlet_classes", "graphlet_kernel"]


@lru_cache(maxsize=None)
def graphlet_classes(k):
    """Isomorphism class of every k-node graph, indexed by its edge bitmask.

    Bit ``b`` of a mask is the ``b``-th pair of ``itertools.combinations(range(k), 2)``. Two
    graphs on at most 4 nodes are isomorphic iff they have the same sorted degree sequence (the
    11 graphs on 4 nodes have 11 distinct sequences), so the class is that sequence, numbered in
    increasing ``(n_edges, sequence)`` order: for k=3 the empty graph, one edge, the path, the
    triangle (4 classes); for k=4, 11 classes from the empty graph to K4.

    Parameters
    ----------
    k : {3, 4}

    Returns
    -------
    class_of_mask : ndarray of shape (2 ** (k (k - 1) / 2),), int32
    n_classes : int
    """
    pairs = list(itertools.combinations(range(k), 2))
    sequences = []
    for mask in range(1 << len(pairs)):
        degrees = [0] * k
        for bit, (p, q) in enumerate(pairs):
            if mask >> bit & 1:
                degrees[p] += 1
                degrees[q] += 1
        sequences.append(tuple(sorted(degrees)))
    classes = sorted(set(sequences), key=lambda s: (sum(s), s))
    index = {s: c for c, s in enumerate(classes)}
    return np.array([index[s] for s in sequences], dtype=np.int32), len(classes)


def graph_fingerprints(batch):
    """A 64-bit fingerprint of each graph of a batch from its structure alone: its number of
    nodes and its adjacency entries in local node numbers, so the same wherever the graph sits
    in a batch (a sum of mixed entries: the order of the entries does not matter either).

    Parameters
    ----------
    batch : GraphBatch

    Returns
    -------
    fingerprints : ndarray of shape (n_samples,), dtype uint64
    """
    n_nodes = np.diff(batch.node_ptr)
    graph_of_node = np.repeat(np.arange(batch.n_samples), n_nodes)
    degrees = np.diff(batch.indptr)
    graph_of_entry = np.repeat(graph_of_node, degrees)
    first_node = batch.node_ptr[graph_of_entry]
    rows = np.repeat(np.arange(batch.n_nodes), degrees) - first_node
    columns = batch.indices - first_node
    entries = mix64((rows.astype(np.uint64) << np.uint64(32)) | columns.astype(np.uint64))
    sums = np.zeros(batch.n_samples, dtype=np.uint64)
    np.add.at(sums, graph_of_entry, entries)        # wraps modulo 2^64, exact
    return mix64(sums ^ mix64(n_nodes))


class GraphletKernel(ExplicitFeatureKernel):
    r"""Graphlet kernel: compares the distributions of k-node induced subgraphs.

    :math:`\Phi(G)` is the frequency of each isomorphism class among the k-node induced subgraphs
    of :math:`G` (connected or not: 4 classes for k=3, 11 for k=4), and
    :math:`K = \langle \Phi(G), \Phi(G') \rangle`. Exact
    enumeration visits all ``C(n, k)`` node subsets (compiled, parallel over graphs), which
    suits molecules (:meth:`transform_features` gives the frequencies as a sparse matrix);
    ``n_graphlet_samples`` draws that many uniform k-subsets per graph instead
    (the sampling estimator of Shervashidze et al.). Node labels are not used. A graph with fewer
    than k nodes has :math:`\Phi = 0`.

    Parameters
    ----------
    k : {3, 4}, default=3
        Graphlet size.
    n_graphlet_samples : int or None, default=None
        None enumerates every k-subset; an integer samples that many per graph.
    n_samples : int or None
        Deprecated alias of ``n_graphlet_samples`` (the name clashed with the number of graphs).
    random_state : int, RandomState instance or None, default=None
        Seeds the sampler: a seed drawn from it at ``fit`` (``random_seed_``) and the graph
        itself (:func:`graph_fingerprints`) seed each graph's stream, so a graph gets the same
        sample at ``fit`` and ``transform``, whatever other graphs come with it and in whatever
        order, and results do not depend on ``n_jobs``.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads (graphs are processed in parallel).
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples_fit, n_classes)
        Graphlet frequencies of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
        Empty (labels are not used).
    random_seed_ : int
        The seed drawn from ``random_state`` at ``fit``, when ``n_graphlet_samples`` is set.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    ShortestPathKernel, WeisfeilerLehmanKernel : kernels that use node labels.

    References
    ----------
    N. Shervashidze, S. V. N. Vishwanathan, T. Petri, K. Mehlhorn, K. M. Borgwardt. Efficient
    graphlet kernels for large graph comparison. AISTATS 2009. Mairal & Vert, "Example: Indexing by
    all subgraphs up to k vertices".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import GraphletKernel
    >>> triangle = (np.ones((3, 3)) - np.eye(3), None)
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), None)
    >>> GraphletKernel(k=3).fit_transform([triangle, path])
    array([[1., 0.],
           [0., 1.]])
    """

    _feature_columns = """Column ``c`` is the frequency of the isomorphism class ``c`` of
    k-node graphs (numbered as :func:`graphlet_classes` does: 4 classes for k=3, 11 for k=4),
    whatever was fitted, so ``Φ(G) · Φ(G') = k(G, G')`` for any two graphs."""

    # the graph structure only: labels are neither required nor read
    _parameter_constraints = {
        **StructuredKernel._parameter_constraints,
        "k": [Options(Integral, {3, 4})],
        "n_graphlet_samples": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "n_samples": [Interval(Integral, 1, MAX_INT, closed="left"), None,
                      StrOptions({"deprecated"})],
        "random_state": ["random_state"],
    }

    def __init__(self, k=3, n_graphlet_samples=None, *, random_state=None, normalize=False,
                 n_jobs=None, verbose=0, n_samples="deprecated"):
        self.k = k
        self.n_graphlet_samples = n_graphlet_samples
        self.random_state = random_state
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.n_samples = n_samples

    def _n_graphlet_samples(self):
        if self.n_samples == "deprecated":
            return self.n_graphlet_samples
        warnings.warn("GraphletKernel(n_samples=...) is deprecated: use n_graphlet_samples "
                      "(n_samples means the number of graphs elsewhere).", FutureWarning,
                      stacklevel=4)
        return self.n_samples

    def _represent(self, batch, fitting):
        n_graphlet_samples = self._n_graphlet_samples()
        class_of_mask, n_classes = graphlet_classes(self.k)
        counts = np.zeros((batch.n_samples, n_classes), dtype=np.int64)
        if n_graphlet_samples is None:
            seeds = np.zeros(batch.n_samples, dtype=np.uint64)
        else:
            if fitting:
                self.random_seed_ = int(check_random_state(self.random_state).randint(
                    0, np.iinfo(np.int64).max))
            seeds = mix64(graph_fingerprints(batch) ^ np.uint64(self.random_seed_))
        _graphlet_counts.graphlet_counts(batch.node_ptr, batch.indptr, batch.indices, self.k,
                                         class_of_mask, n_graphlet_samples or 0, seeds, counts,
                                         self._n_threads())
        if n_graphlet_samples is None:
            n_nodes = np.diff(batch.node_ptr)
            totals = np.array([comb(int(n), self.k) for n in n_nodes], dtype=np.float64)
        else:
            totals = np.full(batch.n_samples, float(n_graphlet_samples))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(totals[:, None] > 0, counts / totals[:, None], 0.0)

    def _features(self, rep):
        return SparseFeatures(scipy.sparse.csr_array(rep), np.zeros(len(rep)))

    def _gram(self, A, B=None):
        # einsum's loop sums each entry's few classes in one fixed order, whatever the shapes;
        # a BLAS product may block differently for a sub-block and change the last bit, and
        # blocks of a Gram (kernelkit.distributed) must equal the whole Gram's entries
        return np.einsum("ik,jk->ij", A, A if B is None else B)

    def _self_similarity(self, A):
        return np.einsum("ij,ij->i", A, A)


def graphlet_kernel(X, Y=None, *, k=3, n_graphlet_samples=None, **params):
    """Gram matrix of :class:`GraphletKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(
        GraphletKernel(k=k, n_graphlet_samples=n_graphlet_samples, **params), X, Y)
