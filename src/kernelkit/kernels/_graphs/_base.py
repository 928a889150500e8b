"""What every graph kernel shares: parameters, input coding, progress messages, sparse features.

Two families build on it. Explicit-feature kernels (Weisfeiler–Lehman, shortest path) map each
graph to sparse counts of integer feature keys and take ``K = Φ_Y Φ_Xᵀ``. Keys seen only at
``transform`` have no column in the fitted feature space (they match nothing there) but still
count in a graph's self-similarity ``‖Φ(G)‖²``, which is what ``normalize=True`` divides by.
Product-graph kernels (walks, subtrees; :class:`ProductGraphKernel`) keep the coded batch itself
and compute each pair on the product graph.
"""

import time

import numpy as np
import scipy.sparse as sp

from kernelkit._core import _gram, _product_graph
from kernelkit.kernels._base import StructuredKernel, fill_gram
from kernelkit.kernels._graphs._input import encode_graphs

__all__ = ["GraphKernel", "ProductGraphKernel", "SparseFeatures", "batch_arrays",
           "count_features", "max_degree"]

# Below this many graph pairs the whole Gram matrix goes through the sparse product.
_MIN_PAIRS_FOR_DENSE = 1 << 20
_MIN_PAIRS_PER_THREAD = 1 << 14


class GraphKernel(StructuredKernel):
    """Base of the graph kernels: codes the input graphs once, learns label maps at ``fit``.

    Subclasses implement ``_represent(batch, fitting)`` (the graph batch → what ``_gram`` and
    ``_self_similarity`` consume) and list ``node_label`` and ``edge_label`` among their
    parameters when they use node and edge labels.
    """

    _parameter_constraints = {
        **StructuredKernel._parameter_constraints,
        "node_label": [str, None],
        "edge_label": [str, None],
    }

    def _prepare(self, X, fitting):
        start = time.perf_counter()
        batch, node_codes, edge_codes = encode_graphs(
            X,
            node_label=self._node_label_attribute(),
            edge_label=self._edge_label_attribute(),
            node_codes=None if fitting else self.node_label_codes_,
            edge_codes=None if fitting else self.edge_label_codes_,
        )
        if fitting:
            self.node_label_codes_ = node_codes
            self.edge_label_codes_ = edge_codes
        self._report(f"coded {batch.n_samples} graphs ({batch.n_nodes} nodes)", start)
        start = time.perf_counter()
        rep = self._represent(batch, fitting)
        self._report("built the representation", start)
        return rep

    def _represent(self, batch, fitting):
        return batch

    def _node_label_attribute(self):
        """The node attribute read as the label (None: unlabelled)."""
        return getattr(self, "node_label", None)

    def _edge_label_attribute(self):
        """The edge attribute read as the edge label (None: edge labels unused)."""
        return getattr(self, "edge_label", None)


class ProductGraphKernel(GraphKernel):
    """Base of the kernels computed pair by pair on the product graph (compiled, threaded).

    Subclasses name their core pair kernel in ``_core_kernel`` (a key of
    ``kernelkit._core._product_graph.PRODUCT_GRAPH_KERNELS``) and give its parameters for two
    batches in ``_core_params(A, B)`` (``B`` None: ``K(A, A)``); ``_check_core(n_failed)`` sees
    the number of pairs whose iterative solver did not converge.
    """

    _core_kernel = None

    def _represent(self, batch, fitting):
        degree = max_degree(batch.indptr)
        if fitting:
            self.max_degree_fit_ = degree
        self._check_degree(degree)
        return batch

    def _check_degree(self, degree):
        """Refuse, before any pair is computed, a batch of largest degree ``degree`` that the
        core cannot handle against the fitted graphs (largest degree ``max_degree_fit_``) or,
        with ``normalize``, against itself (its self-similarities are computed too). Nothing
        to refuse by default."""

    def _core_params(self, A, B):
        raise NotImplementedError

    def _check_core(self, n_failed):
        """Called with the number of pairs the core marked (non-converged solvers)."""

    def _gram(self, A, B=None):
        code = _product_graph.PRODUCT_GRAPH_KERNELS[self._core_kernel]
        params = self._core_params(A, B)
        other = A if B is None else B
        n_threads = self._n_threads()
        n_failed = []

        def fill_rows(out, start, stop):
            n_failed.append(_product_graph.product_graph_gram(
                code, *batch_arrays(A), *batch_arrays(other), B is None, out, start, stop,
                n_threads=n_threads, **params))

        K = fill_gram(fill_rows, A.n_samples, other.n_samples, B is None, self.verbose,
                      type(self).__name__)
        self._check_core(sum(n_failed))
        return self._finite(K)

    def _self_similarity(self, A):
        out = np.zeros(A.n_samples)
        self._check_core(_product_graph.product_graph_diagonal(
            _product_graph.PRODUCT_GRAPH_KERNELS[self._core_kernel], *batch_arrays(A), out,
            n_threads=self._n_threads(), **self._core_params(A, None)))
        return self._finite(out)

    def _finite(self, values):
        """Kernel values, or a ValueError when they overflow float64 (long walks, deep trees,
        large weights: the counts grow like degree^length)."""
        if not np.all(np.isfinite(values)):
            raise ValueError(
                f"{type(self).__name__} values overflow float64 for these graphs and "
                f"parameters {self._core_params_text()}; use a smaller walk length, depth or "
                "weight.")
        return values

    def _core_params_text(self):
        return ", ".join(f"{key}={value}" for key, value in self.get_params().items()
                         if key in ("n", "depth", "lambda_", "p_stop"))


def max_degree(indptr):
    """Largest degree of a CSR adjacency given by its row pointers (0 without nodes)."""
    return int((indptr[1:] - indptr[:-1]).max()) if len(indptr) > 1 else 0


class SparseFeatures:
    """Graphs as sparse feature counts in the fitted feature space.

    Parameters
    ----------
    known : scipy.sparse.csr_array of shape (n_samples, n_features_fit)
        Counts of the features seen at ``fit``.
    unseen_squared_norm : ndarray of shape (n_samples,)
        ``Σ count²`` over the features never seen at ``fit``.
    """

    def __init__(self, known, unseen_squared_norm):
        self.known = known
        self.unseen_squared_norm = unseen_squared_norm

    @property
    def n_samples(self):
        return self.known.shape[0]

    def squared_norms(self):
        """``‖Φ(G)‖²`` of every graph, unseen features included."""
        return np.asarray(self.known.multiply(self.known).sum(axis=1)).ravel() \
            + self.unseen_squared_norm

    def gram(self, other=None, n_threads=1):
        """``Φ_self Φ_otherᵀ`` as a dense float64 array (``other`` None: with itself).

        The compiled inverted-index product (``_core/_gram.pyx`` ``sparse_gram``) writes the dense
        result directly. Columns shared by most graphs (the first WL labels, short paths) would
        cost ``nnz²`` scattered updates each there; they go through a dense BLAS product
        instead. A column is dense when
        ``nnz_left · nnz_right > n_left · n_right / 16`` (a sixteenth of the pairs or more).
        Counts are integers, so both paths are exact.
        """
        left = self.known
        right = left if other is None else other.known
        nnz_left = np.bincount(left.indices, minlength=left.shape[1])
        nnz_right = nnz_left if other is None else np.bincount(right.indices,
                                                               minlength=right.shape[1])
        n_pairs = left.shape[0] * right.shape[0]
        dense = nnz_left * nnz_right * 16 > n_pairs
        if n_pairs < _MIN_PAIRS_FOR_DENSE or not dense.any():
            # small Gram matrices: splitting the columns costs more than it saves
            K = np.zeros((left.shape[0], right.shape[0]))
            left_sparse, right_sparse = left, right
        else:
            dense_cols, sparse_cols = np.flatnonzero(dense), np.flatnonzero(~dense)
            left_dense = left[:, dense_cols].toarray()
            right_dense = left_dense if other is None else right[:, dense_cols].toarray()
            K = np.ascontiguousarray(left_dense @ right_dense.T)
            left_sparse = left[:, sparse_cols]
            right_sparse = left_sparse if other is None else right[:, sparse_cols]
        right_csc = right_sparse.tocsc()
        left_sparse.sort_indices()  # a no-op on canonical features (see count_features)
        if n_pairs < _MIN_PAIRS_PER_THREAD * n_threads:
            n_threads = 1  # waking threads costs more than a few thousand pairs
        _gram.sparse_gram(*_core_arrays(left_sparse), *_core_arrays(right_csc), K, 0,
                          left.shape[0], n_threads)
        return K


def _core_arrays(matrix):
    """``(indptr, indices, data)`` of a compressed sparse array in the core's dtypes."""
    return (matrix.indptr.astype(np.intp), matrix.indices.astype(np.intp),
            matrix.data.astype(np.float64))


def count_features(graph_ids, keys, counts, n_samples, vocabulary, columns=None):
    """:class:`SparseFeatures` from feature occurrences.

    Parameters
    ----------
    graph_ids : ndarray of shape (n_occurrences,), int
    keys : ndarray of shape (n_occurrences,), int64
        Feature key of each occurrence.
    counts : ndarray of shape (n_occurrences,), int
        Multiplicity of each occurrence (duplicates ``(graph, key)`` are summed).
    n_samples : int
    vocabulary : ndarray of shape (n_features_fit,), int64, sorted
        Keys of the fitted feature space (column ``c`` is ``vocabulary[c]``).
    columns : ndarray of shape (n_occurrences,), int, optional
        Column of each key in ``vocabulary`` (-1 for a key not in it), when the caller knows
        them: the search of the keys is then skipped.

    Returns
    -------
    SparseFeatures
    """
    if columns is not None:
        column, known = columns, columns >= 0
    else:
        column = np.minimum(np.searchsorted(vocabulary, keys), max(len(vocabulary) - 1, 0))
        known = vocabulary[column] == keys if len(vocabulary) else np.zeros(len(keys), dtype=bool)
    features = sp.csr_array(
        (counts[known].astype(np.float64), (graph_ids[known], column[known])),
        shape=(n_samples, len(vocabulary)),
    )
    features.sum_duplicates()
    unseen = ~known
    unseen_squared_norm = np.zeros(n_samples)
    if unseen.any():
        g, k, c = graph_ids[unseen], keys[unseen], counts[unseen].astype(np.float64)
        order = np.lexsort((k, g))
        g, k, c = g[order], k[order], c[order]
        starts = np.flatnonzero(np.r_[True, (g[1:] != g[:-1]) | (k[1:] != k[:-1])])
        totals = np.add.reduceat(c, starts)
        unseen_squared_norm = np.bincount(g[starts], weights=totals**2, minlength=n_samples)
    return SparseFeatures(features, unseen_squared_norm)


def batch_arrays(batch):
    """The batch as the tuple the compiled product-graph cores take."""
    return (batch.node_ptr, batch.indptr, batch.indices, batch.node_labels, batch.edge_labels)

