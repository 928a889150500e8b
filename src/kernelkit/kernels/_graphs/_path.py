"""Path kernel up to length h (Ralaivola et al. 2005, Suard et al. 2007): label sequences of the
simple paths compared by the MinMax or Tanimoto similarity."""

import dataclasses
from numbers import Integral

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel
from kernelkit.kernels._graphs._features import intersection_gram
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["PathKernel", "path_kernel"]


@dataclasses.dataclass(frozen=True)
class _PathCounts:
    """Path label sequences of a batch of graphs.

    Attributes
    ----------
    counts : scipy.sparse.csr_array of shape (n_samples, n_features_fit)
        Occurrences of the sequences seen at ``fit`` (MinMax), or 1 where a sequence occurs
        (Tanimoto).
    totals : ndarray of shape (n_samples,)
        The row sums with the unseen sequences included: the number of paths (MinMax) or of
        distinct sequences (Tanimoto).
    """

    counts: sp.csr_array
    totals: np.ndarray

    @property
    def n_samples(self):
        return self.counts.shape[0]


@fill_doc(**GRAPH_DOCS)
class PathKernel(GraphKernel):
    r"""Path kernel up to length h: MinMax or Tanimoto similarity of path label sequences.

    Every simple path :math:`(v_0, \dots, v_\ell)` of :math:`0 \le \ell \le h` edges (no node
    twice), each orientation counted, is read as its label sequence
    :math:`(l(v_0), l(v_0 v_1), l(v_1), \dots, l(v_\ell))` (edge labels only with
    ``edge_label`` set); :math:`\phi_s(G)` counts the paths of ``G`` with sequence ``s``.
    Then (Ralaivola et al. 2005, §2.3)

    .. math::

        K_\mathrm{MinMax}(G, G') = \frac{\sum_s \min(\phi_s(G), \phi_s(G'))}
                                        {\sum_s \max(\phi_s(G), \phi_s(G'))}, \qquad
        K_\mathrm{Tanimoto}(G, G') = \frac{|S(G) \cap S(G')|}{|S(G) \cup S(G')|},

    with :math:`S(G)` the set of sequences of ``G``. Both are positive semi-definite, with
    :math:`K(G, G) = 1`. Computed as the histogram intersection
    :math:`m = \sum_s \min(\phi_s, \phi'_s)` (of the indicators for Tanimoto) and
    :math:`\sum_s \max = \|\phi\|_1 + \|\phi'\|_1 - m`. The paths are grown one edge at a time
    for the whole batch at once, and each sequence is numbered by its prefix's number, the new
    edge label and node label, so sequences are compared exactly, without hashing.

    This is graphkit-learn's ``PathUpToH`` (``compute_method='trie'``): ``max_length`` is its
    ``depth``, ``sub_kernel`` its ``k_func`` (``'MinMax'``, ``'tanimoto'``), ``node_label`` and
    ``edge_label`` its ``node_labels`` and ``edge_labels`` (one attribute each); its Gram
    matrices equal this kernel's.

    Parameters
    ----------
    max_length : int, default=10
        Longest path, in edges (graphkit-learn's ``depth``); 0 compares the node labels alone.
    sub_kernel : {"minmax", "tanimoto"}, default="minmax"
        How the sequence counts are compared (graphkit-learn's ``k_func``).
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: every node takes the label
        of ``unlabeled_nodes``.
    %(unlabeled_nodes)s
    edge_label : str or None, default=None
        Edge attribute holding the edge label (networkx input; for tuple input any non-None
        value uses the tuple's third element); None ignores edge labels.
    normalize : bool, default=False
        Cosine-normalise the Gram matrix (no change: ``K(G, G) = 1``).
    n_jobs : int or None, default=None
        Threads of the histogram intersection.
    verbose : int, default=0
        0: silent; 1: one line per Gram matrix on stderr, and progress lines while one takes
        more than a couple of seconds; 2: also the time of every stage.

    Attributes
    ----------
    X_fit_ : _PathCounts
        Sequence counts of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_, edge_label_codes_ : dict
        Label → integer code maps learned at ``fit``.
    sequence_keys_ : list of ndarray of int64
        For each length ``0 .. max_length``, the sorted keys ``(prefix number · n_edge_codes +
        edge label) · n_node_codes + node label`` of the sequences seen at ``fit``; a
        sequence's number is its key's position.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    ShortestPathKernel : pairs of node labels and their distance, compared by a dot product.
    WalkKernel : walks (nodes may repeat) of one length, counted by the product graph.

    References
    ----------
    L. Ralaivola, S. J. Swamidass, H. Saigo, P. Baldi. Graph kernels for chemical informatics.
    Neural Networks 18(8):1093–1110, 2005. F. Suard, A. Rakotomamonjy, A. Bensrhair. Kernel on
    bag of paths for measuring similarity of shapes. ESANN 2007. Mairal & Vert, *Kernel
    Methods* slides, "Path kernel".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import PathKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> PathKernel(max_length=2).fit_transform([path, triangle])
    array([[1. , 0.6],
           [0.6, 1. ]])
    """

    _parameter_constraints = {
        **GraphKernel._parameter_constraints,
        "max_length": [Interval(Integral, 0, MAX_INT, closed="left")],
        "sub_kernel": [StrOptions({"minmax", "tanimoto"})],
    }

    def __init__(self, max_length=10, *, sub_kernel="minmax", node_label="label",
                 unlabeled_nodes="constant", edge_label=None, normalize=False, n_jobs=None,
                 verbose=0):
        self.max_length = max_length
        self.sub_kernel = sub_kernel
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        if fitting:
            self.sequence_keys_ = []
        # number of codes of the fitted maps (one code, 0, when labels are not used)
        n_node_codes = max(len(self.node_label_codes_), 1)
        n_edge_codes = max(len(self.edge_label_codes_), 1)
        rows, columns, totals = [], [], np.zeros(batch.n_samples)
        n_columns = 0
        for length, (graphs, local, fitted_key) in enumerate(
                _paths_by_length(batch, self.max_length, n_node_codes, n_edge_codes)):
            if fitting:
                self.sequence_keys_.append(np.unique(fitted_key[fitted_key >= 0]))
            known = self.sequence_keys_[length] if length < len(self.sequence_keys_) else \
                np.zeros(0, dtype=np.int64)
            number = _lookup(known, fitted_key)
            seen = number >= 0
            rows.append(graphs[seen])
            columns.append(n_columns + number[seen])
            n_columns += len(known)
            # the prefix numbers of the next length: a sequence unseen at fit has unseen
            # extensions (-1 propagates through _paths_by_length)
            fitted_key[:] = number
            if self.sub_kernel == "minmax":
                totals += np.bincount(graphs, minlength=batch.n_samples)
            else:
                distinct = np.unique(graphs.astype(np.int64) * (local.max() + 1) + local)
                totals += np.bincount(distinct // (local.max() + 1), minlength=batch.n_samples)
        n_columns = sum(len(keys) for keys in self.sequence_keys_)
        rows, columns = np.concatenate(rows), np.concatenate(columns)
        counts = sp.csr_array((np.ones(len(rows)), (rows, columns)),
                              shape=(batch.n_samples, n_columns))
        counts.sum_duplicates()
        if self.sub_kernel == "tanimoto":
            counts.data[:] = 1.0
        return _PathCounts(counts, totals)

    def _gram(self, A, B=None):
        other = A if B is None else B
        common = intersection_gram(A.counts, None if B is None else B.counts, self._n_threads(),
                                   self.verbose, type(self).__name__)
        # every graph has a node, so a path: the union is never empty
        return common / (A.totals[:, None] + other.totals[None, :] - common)

    def _self_similarity(self, A):
        return np.ones(A.n_samples)


def _paths_by_length(batch, max_length, n_node_codes, n_edge_codes):
    """The simple paths of every graph of ``batch``, one length (in edges) at a time.

    Yields, for each length ``0 .. max_length`` with at least one path, ``(graphs, local,
    fitted_key)``: per path its graph, the number of its label sequence among this batch's
    sequences of that length, and the key of its sequence in the fitted numbering
    (``(prefix number · n_edge_codes + edge label) · n_node_codes + node label``; -1 when the
    prefix or a label is unknown to it). The caller overwrites ``fitted_key`` with the fitted
    numbers, which the next length reads as prefix numbers.
    """
    labels = batch.node_labels.astype(np.int64)
    node_graph = np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr))
    ends = np.arange(batch.n_nodes)          # last node of each path
    nodes = ends[:, None]                    # the path's nodes, one row per path
    local = np.unique(labels, return_inverse=True)[1].ravel()
    fitted = np.where(labels < n_node_codes, labels, -1)
    yield node_graph, local, fitted
    degree = np.diff(batch.indptr)
    for length in range(1, max_length + 1):
        n_next = int(degree[ends].sum())
        check_memory_request(8.0 * n_next * (length + 6),
                             f"PathKernel paths of {length} edges",
                             "lower max_length.")
        parent = np.repeat(np.arange(len(ends)), degree[ends])
        slot = batch.indptr[ends][parent] + np.arange(n_next) - \
            np.repeat(np.cumsum(degree[ends]) - degree[ends], degree[ends])
        step = batch.indices[slot].astype(np.intp)
        simple = (nodes[parent] != step[:, None]).all(axis=1)
        parent, slot, step = parent[simple], slot[simple], step[simple]
        if not len(step):
            return
        edge = batch.edge_labels[slot].astype(np.int64)
        n_local = int(local.max()) + 1
        edge_codes = int(edge.max()) + 1
        node_codes = int(labels.max()) + 1
        if float(n_local) * edge_codes * node_codes >= 2.0**62:
            raise ValueError(
                "PathKernel: too many distinct label sequences to number; lower max_length.")
        key = (local[parent] * edge_codes + edge) * node_codes + labels[step]
        local = np.unique(key, return_inverse=True)[1].ravel()
        prefix = fitted[parent]
        usable = (prefix >= 0) & (edge < n_edge_codes) & (labels[step] < n_node_codes)
        fitted = np.where(usable, (prefix * n_edge_codes + edge) * n_node_codes + labels[step],
                          -1)
        nodes = np.column_stack([nodes[parent], step])
        ends = step
        yield node_graph[step], local, fitted


def _lookup(keys, query):
    """Position of each ``query`` in the sorted ``keys``, -1 when absent or negative."""
    if not len(keys):
        return np.full(len(query), -1, dtype=np.int64)
    position = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
    return np.where((keys[position] == query) & (query >= 0), position, -1)


def path_kernel(X, Y=None, **params):
    """Gram matrix of :class:`PathKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(PathKernel(**params), X, Y)
