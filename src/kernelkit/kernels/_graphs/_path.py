"""Path kernel up to length h (Ralaivola et al. 2005, Suard et al. 2007): label sequences of the
simple paths compared by the MinMax or Tanimoto similarity."""

import dataclasses
from numbers import Integral

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, GraphKernel
from kernelkit.kernels._graphs._features import intersection_gram
from kernelkit.kernels._graphs._path_sequences import path_sequences
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import Interval, StrOptions
from kernelkit.utils._validation import MAX_INT

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
    from runs of first nodes whose paths fit a fixed memory budget (about 128 MiB), whatever
    the number and size of the graphs, and each sequence is numbered by its prefix's number,
    the new edge label and node label, so sequences are compared exactly, without hashing.

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
        rows, columns, counts, totals = [], [], [], np.zeros(batch.n_samples)
        n_columns, numbers = 0, None
        for length, level in enumerate(path_sequences(batch, self.max_length)):
            key = _fitted_keys(level, numbers, n_node_codes, n_edge_codes)
            if fitting:
                self.sequence_keys_.append(np.unique(key[key >= 0]))
            known = self.sequence_keys_[length] if length < len(self.sequence_keys_) else \
                np.zeros(0, dtype=np.int64)
            # a sequence unseen at fit (-1) has unseen extensions: _fitted_keys reads these
            # numbers as the prefix numbers of the next length
            numbers = _lookup(known, key)
            number = numbers[level.sequence]
            seen = number >= 0
            rows.append(level.graphs[seen])
            columns.append(n_columns + number[seen])
            counts.append(level.count[seen])
            # the union counts the paths (MinMax) or sequences (Tanimoto) unseen at fit
            totals += np.bincount(level.graphs, minlength=batch.n_samples,
                                  weights=level.count if self.sub_kernel == "minmax" else None)
            n_columns += len(known)
        n_columns = sum(len(keys) for keys in self.sequence_keys_)
        counts = sp.csr_array(
            (np.concatenate(counts).astype(np.float64),
             (np.concatenate(rows), np.concatenate(columns))),
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


def _fitted_keys(level, prefix_numbers, n_node_codes, n_edge_codes):
    """Key of each sequence of ``level`` in the fitted numbering: ``(prefix number ·
    n_edge_codes + edge label) · n_node_codes + node label``, the node label alone at length 0
    (``prefix_numbers`` None); -1 when the prefix or a label is unknown to it."""
    usable = level.node < n_node_codes
    if prefix_numbers is None:
        return np.where(usable, level.node, -1)
    prefix = prefix_numbers[level.prefix]
    usable &= (prefix >= 0) & (level.edge < n_edge_codes)
    return np.where(usable, (prefix * n_edge_codes + level.edge) * n_node_codes + level.node, -1)


def _lookup(keys, query):
    """Position of each ``query`` in the sorted ``keys``, -1 when absent or negative."""
    if not len(keys):
        return np.full(len(query), -1, dtype=np.int64)
    position = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
    return np.where((keys[position] == query) & (query >= 0), position, -1)


def path_kernel(X, Y=None, **params):
    """Gram matrix of :class:`PathKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(PathKernel(**params), X, Y)
