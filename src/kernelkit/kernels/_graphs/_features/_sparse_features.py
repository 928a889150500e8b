"""Graphs as sparse feature counts: the representation of the explicit-feature graph kernels.

:func:`count_features` turns feature occurrences (graph, key, count) into
:class:`SparseFeatures`, counts in the fitted columns plus the squared norm of the features
outside them, and :meth:`SparseFeatures.gram` takes ``Φ_Y Φ_Xᵀ`` with the compiled sparse
product (``_core/_gram.pyx``).
"""

import numpy as np
import scipy.sparse as sp

from kernelkit._core import _gram
from kernelkit._core._feature_counts import count_matrix

__all__ = ["SparseFeatures", "count_features"]

# Below this many graph pairs the whole Gram matrix goes through the sparse product.
_MIN_PAIRS_FOR_DENSE = 1 << 20
_MIN_PAIRS_PER_THREAD = 1 << 14
# Up to this many products (pairs × columns) the Gram is one dense product, when exact: a
# fraction of the sparse product's fixed cost, and on one thread (OpenBLAS threads a product
# from 2**18 multiply-adds on).
_MAX_PRODUCTS_ALL_DENSE = 1 << 17
# Up to this many columns the compiled count's scratch row (16 bytes a column) stays in cache.
_MAX_COMPILED_COUNT_FEATURES = 1 << 16


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
        Counts are integers, so both paths are exact. Small feature matrices go through one
        dense product when it is exact: the same matrix, without the sparse product's overhead.
        """
        left = self.known
        right = left if other is None else other.known
        n_pairs = left.shape[0] * right.shape[0]
        if n_pairs * left.shape[1] <= _MAX_PRODUCTS_ALL_DENSE:
            K = _exact_dense_gram(left, None if other is None else right)
            if K is not None:
                return K
        dense = None
        if n_pairs >= _MIN_PAIRS_FOR_DENSE:  # below, splitting the columns costs more than it saves
            nnz_left = np.bincount(left.indices, minlength=left.shape[1])
            nnz_right = nnz_left if other is None else np.bincount(right.indices,
                                                                   minlength=right.shape[1])
            dense = nnz_left * nnz_right * 16 > n_pairs
        if dense is None or not dense.any():
            K = np.zeros((left.shape[0], right.shape[0]))
            left_sparse, right_sparse = left, right
        else:
            dense_cols, sparse_cols = np.flatnonzero(dense), np.flatnonzero(~dense)
            left_dense = left[:, dense_cols].toarray()
            right_dense = left_dense if other is None else right[:, dense_cols].toarray()
            if other is None and _exact_products(left_dense):
                # numpy's product of a matrix with its own transpose (BLAS syrk, then a copy of
                # the triangle) is several times slower than the general one for few columns;
                # both are exact on integer counts, so the same matrix
                right_dense = left_dense.copy()
            K = np.ascontiguousarray(left_dense @ right_dense.T)
            if not len(sparse_cols):
                return K
            left_sparse = left[:, sparse_cols]
            right_sparse = left_sparse if other is None else right[:, sparse_cols]
        right_csc = right_sparse.tocsc()
        left_sparse.sort_indices()  # a no-op on canonical features (see count_features)
        if n_pairs < _MIN_PAIRS_PER_THREAD * n_threads:
            n_threads = 1  # waking threads costs more than a few thousand pairs
        _gram.sparse_gram(*_core_arrays(left_sparse), *_core_arrays(right_csc), K, 0,
                          left.shape[0], n_threads)
        return K


def _exact_dense_gram(left, right=None):
    """``left rightᵀ`` (``right`` None: ``left leftᵀ``) as one dense product of the sparse
    arrays, or None unless every product is exact (then it is the sparse product's matrix)."""
    left_dense = left.toarray()
    # a copy, not left_dense itself: see the symmetric product in SparseFeatures.gram
    right_dense = left_dense.copy() if right is None else right.toarray()
    # each exact with itself: |l| |r| n_columns < 2**53 too (the geometric mean of the bounds)
    if not (_exact_products(left_dense) and (right is None or _exact_products(right_dense))):
        return None
    return np.ascontiguousarray(left_dense @ right_dense.T)


def _exact_products(values):
    """Whether every dot product of rows of ``values`` is an exact float64 sum: integers whose
    products and sums stay below 2**53."""
    largest = float(np.abs(values).max(initial=0.0))
    return largest * largest * values.shape[1] < 2.0**53 and np.array_equal(values,
                                                                           np.rint(values))


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
    features = _count_matrix(graph_ids[known], columns[known], counts[known], n_samples,
                             n_features)
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


def _count_matrix(rows, columns, counts, n_samples, n_features):
    """The canonical CSR array of ``counts`` summed by ``(row, column)``, float64.

    Integer counts in at most ``_MAX_COMPILED_COUNT_FEATURES`` columns are summed by the
    compiled ``count_matrix`` (``_core/_feature_counts.pyx``), exact in any order; others by
    scipy's COO to CSR conversion, faster when a scratch row of every column leaves the cache
    (0.90-0.93 of its time on WL features of 2 000-20 000 molecules, 130 000-1.1 million
    columns; 1.26 on 100 molecules, 8 000 columns; in one process, quiet).
    """
    if counts.dtype.kind not in "biu" or n_features > _MAX_COMPILED_COUNT_FEATURES:
        features = sp.csr_array((counts.astype(np.float64), (rows, columns)),
                                shape=(n_samples, n_features))
        features.sum_duplicates()
        return features
    n = len(counts)
    indptr, indices, data = (np.empty(n_samples + 1, dtype=np.int64),
                             np.empty(n, dtype=np.int64), np.empty(n))
    nnz = count_matrix(rows.astype(np.int64, copy=False), columns.astype(np.int64, copy=False),
                       counts.astype(np.int64, copy=False), indptr, indices, data, n_features)
    if nnz < n:  # not views of the longer buffers, which the fitted features would keep
        data, indices = data[:nnz].copy(), indices[:nnz].copy()
    features = sp.csr_array((data, indices, indptr), shape=(n_samples, n_features))
    features.has_canonical_format = True
    return features
