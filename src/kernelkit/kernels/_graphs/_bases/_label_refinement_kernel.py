"""Label-refinement kernels: histograms of node labels along Weisfeiler–Lehman relabelling.

Shervashidze et al., JMLR 12 (2011), Algorithm 1, with the signatures sorted and compressed by
the compiled core ``_core/_wl_relabel.pyx`` (no hashing, so no collisions). The base of
:class:`WeisfeilerLehmanKernel` and of :class:`VertexHistogramKernel` (no iteration).
"""

import numpy as np

from kernelkit._core import _wl_relabel
from kernelkit.kernels._graphs._bases._sparse_feature_kernel import SparseFeatureKernel
from kernelkit.kernels._graphs._features import count_features
from kernelkit.utils._threads import min_work_per_thread
from kernelkit.utils._validation import check_memory_request

__all__ = ["LabelRefinementKernel"]

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
        # a relabelling pass costs ~30 ns a node: threads pay off on large batches only (sizing
        # the team by the work from a few thousand nodes gained nothing measurable, quiet, in one
        # process: 0.92-1.03 of one thread's time at 100 and 2 000 molecules)
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
        if self.n_iter:  # (the vertex histogram relabels nothing)
            # node i's signature starts at indptr[i] + i (2 indptr[i] + i with edge labels):
            # its label, then its neighbours' (edge label, label) pairs
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
        self.label_columns_[h] = np.concatenate(
            [old, np.arange(first_column, first_column + n_labels - len(old))])
        self.feature_keys_ = np.concatenate([self.feature_keys_, (np.int64(h) << _ITERATION_SHIFT)
                                             | np.arange(len(old), n_labels, dtype=np.int64)])

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
                                                len(table_codes), n_threads,
                                                min_work_per_thread(n_threads))
        if fitting and n_new:
            added = _signature_table(signatures, sig_ptr, unseen, new_labels)
            self.signature_tables_[h] = _merge_tables(self.signature_tables_[h], added) \
                if len(table_codes) else added
        return new_labels


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
