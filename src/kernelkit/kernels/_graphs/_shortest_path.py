"""Shortest-path kernel (Borgwardt & Kriegel 2005)."""

import numpy as np

from kernelkit._core import _shortest_path_bfs
from kernelkit.kernels._base import pairwise_structured_kernel
from kernelkit.kernels._graphs._bases import GRAPH_DOCS, SparseFeatureKernel
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._validation import check_memory_request

__all__ = ["ShortestPathKernel", "shortest_path_kernel"]

# Keys pack (label_u, label_v, d) in 21 bits each (see _core/_shortest_path_bfs.pyx).
_FIELD_LIMIT = 1 << 21
_MIN_PAIRS_FOR_THREADS = 1 << 15


@fill_doc(**GRAPH_DOCS)
class ShortestPathKernel(SparseFeatureKernel):
    r"""Shortest-path kernel: counts of ``(label(u), label(v), d(u, v))`` over node pairs.

    :math:`\Phi(G)` counts, over the ordered pairs :math:`(u, v)`, :math:`u \ne v`, with
    :math:`v` reachable from :math:`u`, the triples
    :math:`(\mathrm{label}(u), \mathrm{label}(v), d_{sp}(u, v))`;
    :math:`K = \langle \Phi(G), \Phi(G') \rangle` (the
    delta-kernel instance of Borgwardt & Kriegel's kernel on the shortest-path graph).
    Distances are computed by one BFS per node (the graphs are unweighted: a non-zero adjacency
    entry is an edge; weights are not used) in the compiled core, in parallel over graphs.
    :meth:`transform_features` gives :math:`\Phi` as a sparse matrix; :meth:`partial_fit`
    grows its vocabulary batch by batch. Memory is quadratic in a graph's size: the core keeps
    a key and a count for every ordered node pair (16 n (n − 1) bytes, 400 MB for 5 000 nodes)
    before they are merged; for large graphs, use a kernel linear in their size
    (:class:`WeisfeilerLehmanKernel`).

    Conventions (the same as GraKeL's ``ShortestPath(with_labels=True)``, whose Gram matrix with
    ``normalize=False`` this equals): ordered pairs, so every unordered pair counts twice, once
    as ``(a, b, d)`` and once as ``(b, a, d)``; unreachable pairs are not counted; edge labels
    are not used.

    Parameters
    ----------
    node_label : str or None, default="label"
        Node attribute holding the label (networkx input); None: labels not read, every node
        labelled by ``unlabeled_nodes`` (with ``"constant"``, the features are the distance
        histograms).
    %(unlabeled_nodes)s
    normalize : bool, default=False
        Cosine-normalise the Gram matrix.
    n_jobs : int or None, default=None
        Threads (graphs are processed in parallel).
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
        Empty (edge labels are not used).
    feature_keys_ : ndarray of int64
        Keys ``label_u << 42 | label_v << 21 | d`` of the columns, in column order (sorted
        after ``fit``; ``partial_fit`` appends).
    diag_fit_ : ndarray of shape (n_samples_fit,)
        ``k(G, G)`` of the fitted graphs, when ``normalize`` is true.

    See Also
    --------
    WeisfeilerLehmanKernel : subtree-pattern histograms, usually the faster and stronger kernel.

    References
    ----------
    K. M. Borgwardt, H.-P. Kriegel. Shortest-path kernels on graphs. ICDM 2005.
    Mairal & Vert, *Kernel Methods* slides, "Example: Indexing by all shortest paths".

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.kernels import ShortestPathKernel
    >>> path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
    >>> triangle = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
    >>> ShortestPathKernel().fit_transform([path, triangle])
    array([[ 8.,  8.],
           [ 8., 12.]])
    """

    _parameter_constraints = {
        k: v for k, v in SparseFeatureKernel._parameter_constraints.items() if k != "edge_label"
    }

    def __init__(self, *, node_label="label", unlabeled_nodes="constant", normalize=False,
                 n_jobs=None, verbose=0):
        self.node_label = node_label
        self.unlabeled_nodes = unlabeled_nodes
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _represent(self, batch, fitting):
        n_nodes = np.diff(batch.node_ptr)
        if batch.node_labels.max() >= _FIELD_LIMIT or n_nodes.max() >= _FIELD_LIMIT:
            raise ValueError(
                f"ShortestPathKernel supports fewer than {_FIELD_LIMIT} distinct node labels and "
                "nodes per graph."
            )
        slots = n_nodes.astype(np.int64) * (n_nodes - 1)
        # a key and a count (int64) for every ordered node pair
        check_memory_request(16.0 * float(slots.sum()),
                             f"ShortestPathKernel on graphs of up to {n_nodes.max()} nodes",
                             "use a kernel linear in the graph size (WeisfeilerLehmanKernel).")
        key_ptr = np.zeros(batch.n_samples + 1, dtype=np.int64)
        np.cumsum(slots, out=key_ptr[1:])
        keys = np.empty(max(key_ptr[-1], 1), dtype=np.int64)
        counts = np.empty_like(keys)
        n_distinct = np.empty(batch.n_samples, dtype=np.int64)
        # one BFS step costs a few ns: threads pay off from tens of thousands of node pairs
        n_threads = self._n_threads() if key_ptr[-1] >= _MIN_PAIRS_FOR_THREADS else 1
        _shortest_path_bfs.shortest_path_counts(
            batch.node_ptr, batch.indptr, batch.indices, batch.node_labels, key_ptr, keys,
            counts, n_distinct, n_threads,
        )
        # each graph's distinct keys sit at the start of its slot range
        graph_ids = np.repeat(np.arange(batch.n_samples), n_distinct)
        slot = np.repeat(key_ptr[:-1] - np.r_[0, np.cumsum(n_distinct)[:-1]], n_distinct) \
            + np.arange(n_distinct.sum())
        return self._key_features(graph_ids, keys[slot], counts[slot], batch.n_samples,
                                  fitting)


def shortest_path_kernel(X, Y=None, **params):
    """Gram matrix of :class:`ShortestPathKernel`; ``params`` as its keyword parameters."""
    return pairwise_structured_kernel(ShortestPathKernel(**params), X, Y)
