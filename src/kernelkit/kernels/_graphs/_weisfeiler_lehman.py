"""Weisfeiler–Lehman subtree kernel (Shervashidze et al. 2011)."""

from numbers import Integral

import numpy as np

from kernelkit._core import _wl_relabel
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._base import GraphKernel, count_features
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = ["WeisfeilerLehmanKernel", "weisfeiler_lehman_kernel"]

# Feature key of label ``code`` at iteration ``h``: ``h << 32 | code`` (codes are int32).
_ITERATION_SHIFT = 32
_LABEL_MASK = (1 << _ITERATION_SHIFT) - 1
_MIN_NODES_PER_THREAD = 50_000


class WeisfeilerLehmanKernel(GraphKernel):
    r"""Weisfeiler–Lehman subtree kernel: label histograms along WL relabelling iterations.

    Iteration 0 counts the node labels; each further iteration relabels every node by its
    signature ``(label, sorted multiset of neighbour labels)`` compressed to a new integer, and
    counts the new labels. :math:`\Phi(G)` concatenates the ``n_iter + 1`` histograms and
    :math:`K(G, G') = \sum_{h=0}^{n_\mathrm{iter}} \langle \phi_h(G), \phi_h(G') \rangle`.
    Signatures never seen at ``fit`` get
    labels of their own, so at ``transform`` they match nothing in the fitted graphs.

    Relabelling is compiled (sort-based compression, no hashing, so no collisions); the feature
    matrix is an explicit ``scipy.sparse`` array and the Gram matrix a sparse product.

    Parameters
    ----------
    n_iter : int, default=5
        Number of relabelling iterations ``h``; ``n_iter=0`` is the vertex-label histogram
        kernel. Same convention as GraKeL's ``WeisfeilerLehman(n_iter=h)`` with a
        ``VertexHistogram`` base kernel, whose Gram matrix (``normalize=False``) this equals.
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: unlabelled graphs.
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
        Feature counts of the fitted graphs.
    n_samples_fit_ : int
    node_label_codes_ : dict
        Node label → integer code, learned at ``fit``.
    edge_label_codes_ : dict
        Empty (edge labels are not used).
    signature_tables_ : list of (ndarray, ndarray)
        For each iteration, the fitted distinct signatures in increasing order, CSR-like
        ``(data, ptr)``: row ``t`` is the signature of new label ``t``.
    feature_keys_ : ndarray of int64
        Sorted keys ``iteration << 32 | label`` of the fitted feature space.
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    ShortestPathKernel : counts labelled shortest-path triples instead of subtree patterns.
    SubtreeKernel : tree patterns with repeated nodes, by dynamic programming.

    References
    ----------
    N. Shervashidze, P. Schweitzer, E. J. van Leeuwen, K. Mehlhorn, K. M. Borgwardt.
    Weisfeiler–Lehman graph kernels. JMLR 12:2539–2561, 2011 (Algorithm 1).
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
    """

    _parameter_constraints = {
        **{k: v for k, v in GraphKernel._parameter_constraints.items() if k != "edge_label"},
        "n_iter": [Interval(Integral, 0, MAX_INT, closed="left")],
    }

    def __init__(self, n_iter=5, *, node_label="label", normalize=False, n_jobs=None, verbose=0):
        self.n_iter = n_iter
        self.node_label = node_label
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        # a relabelling pass costs ~10 ns a node: threads pay off on large batches only
        n_threads = self._n_threads() if batch.n_nodes >= _MIN_NODES_PER_THREAD else 1
        labels = batch.node_labels
        n_known = len(self.node_label_codes_)
        # per node and iteration: its key, graph id, column and the sparse counts built from
        # them (about 128 bytes); per adjacency entry and iteration: the signature tables
        n_entries = batch.n_nodes + batch.indices.shape[0]
        check_memory_request((self.n_iter + 1.0) * (128.0 * batch.n_nodes + 12.0 * n_entries),
                             f"WeisfeilerLehmanKernel(n_iter={self.n_iter}) on graphs of "
                             f"{batch.n_nodes} nodes in all",
                             "lower n_iter (the labels stop refining after at most as many "
                             "iterations as the largest graph has nodes).")
        # node i's signature starts at indptr[i] + i: its label, then its neighbours'.
        sig_ptr = batch.indptr + np.arange(batch.n_nodes + 1)
        signatures = np.empty(sig_ptr[-1], dtype=np.int32)
        node_keys = []
        tables = []
        n_labels_fit = []  # at fit, iteration h uses exactly the labels 0..n_known_h - 1
        for h in range(self.n_iter + 1):
            node_keys.append((np.int64(h) << _ITERATION_SHIFT) | labels)
            n_labels_fit.append(n_known)
            if h == self.n_iter:
                break
            _wl_relabel.node_signatures(batch.indptr, batch.indices, labels, signatures, n_threads)
            new_labels = np.empty(batch.n_nodes, dtype=np.int32)
            if fitting:
                rows = np.arange(batch.n_nodes, dtype=np.intp)
                n_known = _wl_relabel.compress_signatures(signatures, sig_ptr, rows, new_labels)
                tables.append(_signature_table(signatures, sig_ptr, rows, new_labels))
            else:
                table, table_ptr = self.signature_tables_[h]
                _wl_relabel.lookup_signatures(signatures, sig_ptr, table, table_ptr, new_labels,
                                              n_threads)
                n_known = len(table_ptr) - 1
                unseen = np.flatnonzero(new_labels < 0).astype(np.intp)
                # fresh labels, consistent within this call, above every fitted one
                _wl_relabel.compress_signatures(signatures, sig_ptr, unseen, new_labels, n_known)
            labels = new_labels
        keys = np.concatenate(node_keys)
        graph_ids = np.tile(np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr)),
                            self.n_iter + 1)
        if fitting:
            self.signature_tables_ = tables
            self.feature_keys_ = np.concatenate(
                [(np.int64(h) << _ITERATION_SHIFT) | np.arange(n, dtype=np.int64)
                 for h, n in enumerate(n_labels_fit)])
        # the fitted features are sorted by (iteration, label): the column of label l at
        # iteration h is the number of fitted labels before h plus l, no search needed
        n_fit = np.bincount(self.feature_keys_ >> _ITERATION_SHIFT, minlength=self.n_iter + 1)
        first_column = np.r_[0, np.cumsum(n_fit)[:-1]]
        columns = np.concatenate(
            [np.where(h_keys & _LABEL_MASK < n, first + (h_keys & _LABEL_MASK), -1)
             for h_keys, n, first in zip(node_keys, n_fit, first_column)])
        return count_features(graph_ids, keys, np.ones(len(keys), dtype=np.int64),
                              batch.n_samples, self.feature_keys_, columns)

    def _gram(self, A, B=None):
        return A.gram(B, self._n_threads())

    def _self_similarity(self, A):
        return A.squared_norms()


def _signature_table(signatures, sig_ptr, sorted_rows, codes):
    """Distinct signatures in code order, CSR-like ``(data, ptr)``, from a compression."""
    sorted_codes = codes[sorted_rows]
    first = sorted_rows[np.r_[True, sorted_codes[1:] != sorted_codes[:-1]]]
    lengths = sig_ptr[first + 1] - sig_ptr[first]
    table_ptr = np.zeros(len(first) + 1, dtype=np.intp)
    np.cumsum(lengths, out=table_ptr[1:])
    gather = np.repeat(sig_ptr[first] - table_ptr[:-1], lengths) + np.arange(table_ptr[-1])
    return signatures[gather], table_ptr


def weisfeiler_lehman_kernel(X, Y=None, *, n_iter=5, **params):
    """Gram matrix of :class:`WeisfeilerLehmanKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(WeisfeilerLehmanKernel(n_iter=n_iter, **params), X, Y)
