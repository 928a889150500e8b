"""What every graph kernel shares: parameters, input coding, progress messages, sparse features.

Two families build on it. Explicit-feature kernels (:class:`ExplicitFeatureKernel`: graphlets;
:class:`SparseFeatureKernel`: Weisfeiler–Lehman, shortest path, vertex and edge histograms) map
each graph to feature counts and take ``K = Φ_Y Φ_Xᵀ``; ``transform_features`` gives ``Φ``
itself. The sparse ones count integer feature keys in a vocabulary that ``fit`` learns and
``partial_fit`` grows batch by batch (a new key takes the next column, so columns never move).
Keys outside the vocabulary have no column (they match nothing in it) but still count in a
graph's self-similarity ``‖Φ(G)‖²``, which is what ``normalize=True`` divides by.
Product-graph kernels (walks, subtrees; :class:`ProductGraphKernel`) keep the coded batch itself
and compute each pair on the product graph.
"""

import dataclasses
import time

import numpy as np
import scipy.sparse as sp

from kernelkit._core import _gram, _product_graph
from kernelkit.kernels._base import ExplicitFeatureMixin, StructuredKernel, fill_gram
from kernelkit.kernels._graphs._encoding import encode_graphs
from kernelkit.kernels._graphs._encoding import label_keys
from kernelkit.utils._sklearn_compat import _fit_context
from kernelkit.utils._validation import record_fit_params

__all__ = ["ExplicitFeatureKernel", "GraphKernel", "ProductGraphKernel", "SparseFeatureKernel",
           "SparseFeatures", "batch_arrays", "count_features", "max_degree"]

# Below this many graph pairs the whole Gram matrix goes through the sparse product.
_MIN_PAIRS_FOR_DENSE = 1 << 20
_MIN_PAIRS_PER_THREAD = 1 << 14


class GraphKernel(StructuredKernel):
    """Base of the graph kernels: codes the input graphs once, learns label maps at ``fit``.

    Subclasses implement ``_represent(batch, fitting)`` (the graph batch → what ``_gram`` and
    ``_self_similarity`` consume) and list ``node_label``, ``edge_label`` and
    ``node_attributes`` among their parameters when they use node labels, edge labels and
    continuous node attributes (whose length is then learned at ``fit`` as
    ``n_node_attributes_``).

    Label codes number the labels in order of first appearance: a kernel may compare them for
    equality, never compute with them, or its values would depend on the other fitted graphs.
    A kernel that hashes labels sets ``_hashes_labels``, and hashes ``batch.node_label_keys``
    (a fixed function of each label) instead.
    """

    _hashes_labels = False

    _parameter_constraints = {
        **StructuredKernel._parameter_constraints,
        "node_label": [str, None],
        "edge_label": [str, None],
        "node_attributes": [str, None],
    }

    def _prepare(self, X, fitting, growing=False):
        """The representation of the graphs ``X``. ``fitting``: learn the label maps (and what
        ``_represent`` learns) from ``X`` alone; ``growing``: extend the fitted ones with the
        labels of ``X`` (new labels take the next codes); neither: use the fitted ones."""
        start = time.perf_counter()
        learning = fitting or growing
        batch, node_codes, edge_codes = encode_graphs(
            X,
            node_label=self._node_label_attribute(),
            edge_label=self._edge_label_attribute(),
            node_codes=None if learning else self.node_label_codes_,
            edge_codes=None if learning else self.edge_label_codes_,
            node_attributes=getattr(self, "node_attributes", None),
            n_attributes=None if fitting else getattr(self, "n_node_attributes_", None),
        )
        if growing:
            # the batch's own codes, first occurrence first, mapped into the fitted maps: the
            # codes learning from the fitted graphs followed by X would give
            batch = dataclasses.replace(
                batch,
                node_labels=_merge_codes(self.node_label_codes_, node_codes, batch.node_labels),
                edge_labels=_merge_codes(self.edge_label_codes_, edge_codes, batch.edge_labels))
        elif fitting:
            self.node_label_codes_ = node_codes
            self.edge_label_codes_ = edge_codes
            if batch.node_attributes is not None:
                self.n_node_attributes_ = batch.node_attributes.shape[1]
        if self._hashes_labels:
            batch = dataclasses.replace(batch, node_label_keys=label_keys(
                self.node_label_codes_ if growing else node_codes))
        self._report(f"coded {batch.n_samples} graphs ({batch.n_nodes} nodes)", start)
        start = time.perf_counter()
        rep = self._represent(batch, learning)
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


def _merge_codes(codes, batch_codes, labels):
    """Add the labels of ``batch_codes`` (label → batch code) missing from ``codes`` (in place,
    in batch-code order) and return ``labels`` (batch codes) as codes of ``codes``."""
    if not batch_codes:
        return labels  # labels not used: all zero
    for label in batch_codes:
        codes.setdefault(label, len(codes))
    return np.fromiter(map(codes.__getitem__, batch_codes), dtype=np.int32,
                       count=len(batch_codes))[labels]


class ExplicitFeatureKernel(ExplicitFeatureMixin, GraphKernel):
    """Base of the graph kernels that are a product of explicit features, ``K = Φ_Y Φ_Xᵀ``.

    Subclasses give the features of a representation in ``_features(rep)`` (default: the
    representation is a :class:`SparseFeatures`).
    """

    _feature_columns = """Columns: the features seen when fitting, in the fitted feature space,
    whose size ``partial_fit`` may grow (new columns come last, none moves). Features never seen
    when fitting have no column: they match nothing in the fitted graphs, so the rule holds
    against the fitted graphs, and ``Φ(G) · Φ(G')`` of two other graphs leaves out the features
    they share beyond the fitted ones."""

    def _features(self, rep):
        return rep

    def _gram(self, A, B=None):
        return A.gram(B, self._n_threads())

    def _self_similarity(self, A):
        return A.squared_norms()

    def _feature_matrix(self, rep):
        return self._features(rep).known


class SparseFeatureKernel(ExplicitFeatureKernel):
    """Base of the kernels counting integer feature keys in a growing vocabulary.

    ``fit`` learns the vocabulary of its graphs; ``partial_fit`` extends it batch by batch
    without moving any column. Subclasses reset their vocabulary in ``_reset_vocabulary()``
    (``feature_keys_`` at least, the keys in column order) and grow it in
    ``_represent(batch, fitting=True)``, e.g. through :meth:`_key_features`.
    """

    def _reset_vocabulary(self):
        self.feature_keys_ = np.zeros(0, dtype=np.int64)

    def _n_features(self):
        return len(self.feature_keys_)

    def _prepare(self, X, fitting, growing=False):
        if fitting:
            self._reset_vocabulary()
        return super()._prepare(X, fitting, growing)

    @_fit_context(prefer_skip_nested_validation=True)
    def partial_fit(self, X, y=None):
        """Grow the vocabulary (labels, feature keys) with the graphs ``X``; ``y`` is ignored.

        Turns any number of graphs into features batch by batch in one column space: after
        ``partial_fit`` of every batch, ``transform_features`` of each batch gives rows in the
        same columns, and a later ``partial_fit`` changes none of them (new features take new
        columns at the end). Only the vocabulary is kept, not the graphs: ``X_fit_``, the
        graphs ``transform`` compares with, stays those of ``fit`` (none when the kernel was
        never fitted, so ``transform`` then returns ``n_samples`` × 0 Gram matrices), so
        memory grows with the number of distinct features, not of graphs. ``fit`` starts over.

        Returns
        -------
        self : object
        """
        if not hasattr(self, "X_fit_"):
            self._reset_vocabulary()
            self.node_label_codes_, self.edge_label_codes_ = {}, {}
            self._fit_params = record_fit_params(self, self._refit_free_params)
            self.X_fit_ = SparseFeatures(sp.csr_array((0, 0)), np.zeros(0))
            self.n_samples_fit_ = 0
            if self.normalize:
                self.diag_fit_ = np.zeros(0)
        self._check_fitted()
        self._prepare(X, fitting=False, growing=True)
        # the fitted graphs' features are all in the vocabulary already: only zero columns
        self.X_fit_.known.resize((self.n_samples_fit_, self._n_features()))
        return self

    def _normalize(self, K, diag_rows, diag_cols):
        # no fitted graphs (partial_fit alone): an n × 0 Gram matrix has nothing to scale
        return K if K.size == 0 else super()._normalize(K, diag_rows, diag_cols)

    def _key_features(self, graph_ids, keys, counts, n_samples, fitting):
        """:class:`SparseFeatures` of key occurrences (see :func:`count_features`) in the
        vocabulary ``feature_keys_``, first extended by the new keys when ``fitting``."""
        columns = _key_columns(self.feature_keys_, keys)
        if fitting:
            new = _distinct_keys(keys[columns < 0])
            if len(new):
                self.feature_keys_ = np.concatenate([self.feature_keys_, new])
                columns = _key_columns(self.feature_keys_, keys)
        return count_features(graph_ids, keys, counts, n_samples, len(self.feature_keys_),
                              columns)


def _distinct_keys(keys):
    """The distinct values of ``keys``, increasing (a sort and a comparison: ``np.unique``'s
    hash table is several times slower on a million 64-bit hashes)."""
    keys = np.sort(keys)
    return keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys


def _key_columns(feature_keys, keys):
    """Column of each key in ``feature_keys`` (keys in column order), -1 when absent."""
    if not len(feature_keys):
        return np.full(len(keys), -1, dtype=np.intp)
    order = np.argsort(feature_keys, kind="stable")
    position = np.minimum(np.searchsorted(feature_keys[order], keys), len(order) - 1)
    return np.where(feature_keys[order[position]] == keys, order[position], -1)


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


def count_features(graph_ids, keys, counts, n_samples, n_features, columns):
    """:class:`SparseFeatures` from feature occurrences.

    Parameters
    ----------
    graph_ids : ndarray of shape (n_occurrences,), int
    keys : ndarray of shape (n_occurrences,), int64
        Feature key of each occurrence.
    counts : ndarray of shape (n_occurrences,), int
        Multiplicity of each occurrence (duplicates ``(graph, key)`` are summed).
    n_samples : int
    n_features : int
        Number of columns of the fitted feature space.
    columns : ndarray of shape (n_occurrences,), int
        Column of each key (-1 for a key outside the fitted feature space).

    Returns
    -------
    SparseFeatures
    """
    known = columns >= 0
    features = sp.csr_array(
        (counts[known].astype(np.float64), (graph_ids[known], columns[known])),
        shape=(n_samples, n_features),
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

