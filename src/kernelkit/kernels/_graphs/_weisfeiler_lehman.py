"""Weisfeiler–Lehman subtree kernel (Shervashidze et al. 2011), with or without edge labels."""

from numbers import Integral

import numpy as np

from kernelkit._core import _wl_relabel
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._base import SparseFeatureKernel, count_features
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["LabelRefinementKernel", "WeisfeilerLehmanKernel", "weisfeiler_lehman_kernel"]

# Feature key of label ``code`` at iteration ``h``: ``h << 32 | code`` (codes are int32).
_ITERATION_SHIFT = 32
_MIN_NODES_PER_THREAD = 50_000


class LabelRefinementKernel(SparseFeatureKernel):
    """Histograms of node labels along Weisfeiler–Lehman relabelling iterations.

    What :class:`WeisfeilerLehmanKernel` and the vertex histogram kernel (no iteration) share.
    Subclasses have the parameters ``n_iter`` and ``edge_label`` (as attributes at least).

    The vocabulary, per iteration ``h``: the distinct signatures seen (a table sorted by
    signature, for binary search, with the label of each row), and the column of every label
    (``label_columns_[h][label]``). Growing it gives new signatures the next labels and new
    labels the next columns, so neither labels nor columns ever move.
    """

    def _reset_vocabulary(self):
        # the per-iteration tables are made by the first batch, once its memory is checked
        super()._reset_vocabulary()
        self.signature_tables_, self.label_columns_ = [], []

    def _represent(self, batch, fitting):
        # a relabelling pass costs ~10 ns a node: threads pay off on large batches only
        n_threads = self._n_threads() if batch.n_nodes >= _MIN_NODES_PER_THREAD else 1
        with_edges = self.edge_label is not None
        # per node and iteration: its key, graph id, column and the sparse counts built from
        # them (about 128 bytes); per adjacency entry and iteration: the signature tables
        n_entries = batch.n_nodes + batch.indices.shape[0] * (3 if with_edges else 1)
        check_memory_request((self.n_iter + 1.0) * (128.0 * batch.n_nodes + 12.0 * n_entries),
                             f"{type(self).__name__}(n_iter={self.n_iter}) on graphs of "
                             f"{batch.n_nodes} nodes in all",
                             "lower n_iter (the labels stop refining after at most as many "
                             "iterations as the largest graph has nodes).")
        if fitting and not self.label_columns_:
            empty = (np.zeros(0, dtype=np.int32), np.zeros(1, dtype=np.intp),
                     np.zeros(0, dtype=np.int32))
            self.signature_tables_ = [empty] * self.n_iter
            self.label_columns_ = [np.zeros(0, dtype=np.intp)] * (self.n_iter + 1)
        # node i's signature starts at indptr[i] + i (2 indptr[i] + i with edge labels): its
        # label, then its neighbours' (edge label, label) pairs
        sig_ptr = batch.indptr * (2 if with_edges else 1) + np.arange(batch.n_nodes + 1)
        signatures = np.empty(sig_ptr[-1], dtype=np.int32)
        edge_args = (batch.edge_labels, np.empty(len(batch.indices), dtype=np.int64)) \
            if with_edges else ()
        labels = batch.node_labels
        node_keys, columns = [], []
        for h in range(self.n_iter + 1):
            node_keys.append((np.int64(h) << _ITERATION_SHIFT) | labels)
            if fitting and len(labels):
                self._grow_columns(h, int(labels.max()) + 1)
            label_columns = self.label_columns_[h]
            columns.append(label_columns[np.minimum(labels, len(label_columns) - 1)]
                           if len(label_columns) else np.full(len(labels), -1))
            columns[-1][labels >= len(label_columns)] = -1
            if h == self.n_iter:
                break
            _wl_relabel.node_signatures(batch.indptr, batch.indices, labels, signatures,
                                        n_threads, *edge_args)
            labels = self._relabel(h, signatures, sig_ptr, fitting, n_threads)
        graph_ids = np.tile(np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr)),
                            self.n_iter + 1)
        keys = np.concatenate(node_keys)
        return count_features(graph_ids, keys, np.ones(len(keys), dtype=np.int64),
                              batch.n_samples, len(self.feature_keys_), np.concatenate(columns))

    def _grow_columns(self, h, n_labels):
        """Give the labels of iteration ``h`` below ``n_labels`` that have none the next columns
        (the labels a batch adds are the codes right above the known ones)."""
        old = self.label_columns_[h]
        if n_labels <= len(old):
            return
        first_column = len(self.feature_keys_)
        self.label_columns_[h] = np.r_[old, np.arange(first_column,
                                                      first_column + n_labels - len(old))]
        self.feature_keys_ = np.r_[self.feature_keys_, (np.int64(h) << _ITERATION_SHIFT)
                                   | np.arange(len(old), n_labels, dtype=np.int64)]

    def _relabel(self, h, signatures, sig_ptr, fitting, n_threads):
        """New labels of the nodes from their signatures at iteration ``h``: the label of a
        signature in the table, else fresh labels above every known one (consistent within the
        batch), which join the table when ``fitting``."""
        table, table_ptr, table_codes = self.signature_tables_[h]
        n_nodes = len(sig_ptr) - 1
        rows = np.empty(n_nodes, dtype=np.int32)
        _wl_relabel.lookup_signatures(signatures, sig_ptr, table, table_ptr, rows, n_threads)
        new_labels = np.where(rows >= 0, table_codes[np.maximum(rows, 0)], -1) \
            if len(table_codes) else rows
        new_labels = new_labels.astype(np.int32, copy=False)
        unseen = np.flatnonzero(new_labels < 0).astype(np.intp)
        n_new = _wl_relabel.compress_signatures(signatures, sig_ptr, unseen, new_labels,
                                                len(table_codes))
        if fitting and n_new:
            added = _signature_table(signatures, sig_ptr, unseen, new_labels)
            self.signature_tables_[h] = _merge_tables(self.signature_tables_[h], added) \
                if len(table_codes) else added
        return new_labels


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
        Node attribute holding the label (networkx input); None: unlabelled graphs.
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

    def __init__(self, n_iter=5, *, node_label="label", edge_label=None, normalize=False,
                 n_jobs=None, verbose=0):
        self.n_iter = n_iter
        self.node_label = node_label
        self.edge_label = edge_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose


def _gather_rows(data, ptr, rows):
    """Rows ``rows`` of the CSR-like table ``(data, ptr)``, as a new ``(data, ptr)``."""
    lengths = ptr[rows + 1] - ptr[rows]
    out_ptr = np.zeros(len(rows) + 1, dtype=np.intp)
    np.cumsum(lengths, out=out_ptr[1:])
    gather = np.repeat(ptr[rows] - out_ptr[:-1], lengths) + np.arange(out_ptr[-1])
    return data[gather], out_ptr


def _signature_table(signatures, sig_ptr, sorted_rows, codes):
    """Distinct signatures in order, CSR-like ``(data, ptr, codes)``, from a compression of the
    rows ``sorted_rows`` (sorted by signature on return of ``compress_signatures``)."""
    sorted_codes = codes[sorted_rows]
    first = sorted_rows[np.r_[True, sorted_codes[1:] != sorted_codes[:-1]]]
    return (*_gather_rows(signatures, sig_ptr, first), codes[first])


def _merge_tables(table, added):
    """One sorted table of the distinct signatures of two disjoint sorted tables."""
    data = np.concatenate([table[0], added[0]])
    ptr = np.concatenate([table[1], added[1][1:] + table[1][-1]])
    codes = np.concatenate([table[2], added[2]])
    rows = np.empty(len(codes), dtype=np.intp)
    _wl_relabel.merge_sorted_rows(data, ptr, len(table[2]), rows)
    return (*_gather_rows(data, ptr, rows), codes[rows])


def weisfeiler_lehman_kernel(X, Y=None, *, n_iter=5, **params):
    """Gram matrix of :class:`WeisfeilerLehmanKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(WeisfeilerLehmanKernel(n_iter=n_iter, **params), X, Y)
