"""Sparse-feature graph kernels: integer feature keys counted in a vocabulary that grows.

``fit`` learns the vocabulary of its graphs and ``partial_fit`` grows it batch by batch (a new
key takes the next column, so columns never move). Keys outside the vocabulary have no column
(they match nothing in it) but still count in a graph's self-similarity ``‖Φ(G)‖²``, which is
what ``normalize=True`` divides by.
"""

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._graphs._bases._explicit_feature_kernel import ExplicitFeatureKernel
from kernelkit.kernels._graphs._features import SparseFeatures, count_features
from kernelkit.utils._sklearn_compat import _fit_context
from kernelkit.utils._validation import record_fit_params

__all__ = ["SparseFeatureKernel"]


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
