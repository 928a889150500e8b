"""The batch reader of tuple graphs: every graph's arrays gathered in one pass, then checked and
converted by a few numpy calls over their concatenation.

Read one by one, an ``(adjacency, node_labels[, edge_labels[, node_attributes]])`` tuple costs
a dozen numpy calls (~80 µs), more than most kernels spend on a small molecule. This reader
gives what the per-graph reader of ``_readers`` gives: the same entries in the same order, the
same labels. It takes the usual forms (sparse or dense adjacencies, label arrays, lists or
dicts); on anything else, and on any input the per-graph reader rejects, it gives up and the
per-graph reader reads the batch, raising its error that names the graph.
"""

from functools import partial
from itertools import chain
from operator import attrgetter, is_

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._graphs._encoding._tuple_labels import edge_label_list, node_label_list
from kernelkit.utils._validation import block_diagonal_csr_arrays

__all__ = ["read_tuple_batch"]

# Entries of dense adjacencies concatenated for one pass (32 MB of float64): a bound on the
# copy, which large dense graphs would otherwise double.
_DENSE_CHUNK = 1 << 22

_dtype_of = attrgetter("dtype")
_is_none = partial(is_, None)


class _Irregular(Exception):
    """An input the batch reader leaves to the per-graph reader."""


def read_tuple_batch(X, node_label, edge_label, node_attributes, n_attributes):
    """The tuple graphs ``X`` read as the per-graph reader reads them, or None when one of them
    is not a tuple or fails a check (the per-graph reader then says which and why).

    Parameters are those of :func:`encode_graphs`.

    Returns
    -------
    n_nodes : ndarray of shape (n_samples,), int64
    rows, cols : ndarray of shape (n_entries,), int64
        The adjacency entries, both orientations of each edge, as global node ids, sorted by
        graph, row and column.
    node_labels : ndarray, list or None
        The node labels of every graph, one array when they are arrays of one dtype (None when
        ``node_label`` is None or no graph has node labels).
    edge_labels : ndarray or list
        The label of every entry, likewise (empty when ``edge_label`` is None).
    attributes : ndarray of shape (n_nodes, n_attributes), float64, or None
    """
    try:
        return _read(X, node_label, edge_label, node_attributes, n_attributes)
    except _Irregular:
        return None


def _read(X, node_label, edge_label, node_attributes, n_attributes):
    # the fields every graph must have (node labels are optional: unlabelled graphs)
    fields = (None, edge_label, node_attributes)
    n_fields = 1 + max((k + 1 for k, name in enumerate(fields) if name is not None), default=0)
    lengths = set(map(len, X)) if set(map(type, X)) == {tuple} else {0}
    if min(lengths) < n_fields or max(lengths) > 4:
        raise _Irregular
    n_nodes, rows, cols = _adjacency_entries([graph[0] for graph in X])
    node_ptr = np.zeros(len(n_nodes) + 1, dtype=np.int64)
    np.cumsum(n_nodes, out=node_ptr[1:])
    labels, edge_labels = None, []
    if node_label is not None:
        given = [graph[1] for graph in X if len(graph) > 1 and graph[1] is not None]
        if len(given) == len(X):
            labels = _node_labels(given, n_nodes)
        elif given:  # graphs with and without labels: the per-graph reader names one
            raise _Irregular
    if edge_label is not None:
        edge_labels = _edge_labels([graph[2] for graph in X], rows, cols, node_ptr)
    attributes = None
    if node_attributes is not None:
        attributes = _attributes([graph[3] for graph in X], n_nodes, n_attributes)
    return n_nodes, rows, cols, labels, edge_labels, attributes


def _adjacency_entries(adjacencies):
    """``(n_nodes, rows, cols)``: each graph's number of nodes and the non-zero entries of the
    square adjacencies (global node ids), sorted by graph, row and column."""
    examples = {type(adjacency): adjacency for adjacency in adjacencies}
    sparse_types = {kind for kind, example in examples.items() if sp.issparse(example)}
    if not sparse_types:
        return _dense_entries(list(map(_as_dense, adjacencies)))
    if len(sparse_types) < len(examples):  # dense ones among sparse ones: as CSR, read with them
        adjacencies = [adjacency if type(adjacency) in sparse_types else _as_csr(adjacency)
                       for adjacency in adjacencies]
    arrays = block_diagonal_csr_arrays(adjacencies)
    if arrays is None:
        raise _Irregular
    shapes, _, cols, data, rows = arrays
    n_nodes = _square_sizes(shapes)
    if data.dtype.kind in "fc" and not np.isfinite(data).all():
        raise _Irregular
    if not data.all():  # explicit zeros are not edges
        keep = data != 0
        rows, cols = rows[keep], cols[keep]
    return n_nodes, rows, cols


def _as_dense(adjacency):
    """The per-graph reader's array of a dense adjacency: numeric, base ndarray."""
    try:
        dense = np.asarray(adjacency)
    except (TypeError, ValueError):
        raise _Irregular from None
    if type(dense) is not np.ndarray or dense.dtype.kind not in "biufc":
        raise _Irregular
    return dense


def _as_csr(adjacency):
    """A dense adjacency as a CSR array: its non-zero entries, in order."""
    try:
        return sp.csr_array(_as_dense(adjacency))
    except (TypeError, ValueError):  # not 2-d, or a dtype scipy.sparse does not take
        raise _Irregular from None


def _square_sizes(shapes):
    """The sizes of the square ``(n_graphs, 2)`` shapes, all at least 1."""
    if (shapes[:, 0] != shapes[:, 1]).any() or not shapes[:, 0].all():
        raise _Irregular
    return shapes[:, 0]


def _shapes(arrays):
    """The ``(n_graphs, 2)`` shapes of 2-d arrays."""
    shapes = [array.shape for array in arrays]
    if set(map(len, shapes)) != {2}:
        raise _Irregular
    return np.array(shapes, dtype=np.int64)


def _dense_entries(dense):
    """:func:`_adjacency_entries` of dense adjacencies: the flat positions of the non-zero
    entries of their concatenation, chunk by chunk, as (graph, row, column)."""
    n_nodes = _square_sizes(_shapes(dense))
    sizes = n_nodes * n_nodes
    node_ptr = np.cumsum(n_nodes) - n_nodes
    rows, cols = [], []
    for chunk in _chunks(sizes.tolist()):
        flat = np.concatenate([dense[g].reshape(-1) for g in chunk])
        if flat.dtype.kind in "fc" and not np.isfinite(flat).all():
            raise _Irregular
        position = np.flatnonzero(flat)
        starts = np.cumsum(sizes[chunk]) - sizes[chunk]
        graph = np.repeat(chunk, np.diff(np.searchsorted(position, np.r_[starts, len(flat)])))
        local = position - starts[graph - chunk.start]
        row = local // n_nodes[graph]
        rows.append(row + node_ptr[graph])
        cols.append(local - row * n_nodes[graph] + node_ptr[graph])
    return n_nodes, np.concatenate(rows), np.concatenate(cols)


def _chunks(sizes):
    """Ranges of consecutive graphs whose sizes add up to at most ``_DENSE_CHUNK`` (or one)."""
    start, total = 0, 0
    for g, size in enumerate(sizes):
        if total and total + size > _DENSE_CHUNK:
            yield range(start, g)
            start, total = g, 0
        total += size
    yield range(start, len(sizes))


def _node_labels(labels, n_nodes):
    """Every graph's node labels, in node order: one array when they are arrays whose values
    it holds as they are (:func:`_same_values`)."""
    if set(map(type, labels)) == {np.ndarray}:
        try:
            values = np.concatenate(labels)
        except ValueError:  # arrays of different or no dimensions
            raise _Irregular from None
        if values.ndim != 1 or (np.fromiter(map(len, labels), dtype=np.int64,
                                            count=len(labels)) != n_nodes).any():
            raise _Irregular
        if _same_values(labels):
            return values
        return list(chain.from_iterable(map(np.ndarray.tolist, labels)))
    try:
        return list(chain.from_iterable(map(node_label_list, labels, n_nodes.tolist(),
                                            range(len(labels)))))
    except (TypeError, ValueError):
        raise _Irregular from None


def _edge_labels(edge_labels, rows, cols, node_ptr):
    """The label of every entry ``(rows[k], cols[k])``, in entry order: one array when every
    graph's are dense arrays whose values it holds as they are (:func:`_same_values`)."""
    entry_ptr = np.searchsorted(rows, node_ptr)  # the entries come graph by graph
    first_node = np.repeat(node_ptr[:-1], np.diff(entry_ptr))
    local_rows, local_cols = rows - first_node, cols - first_node
    row_list, col_list = local_rows.tolist(), local_cols.tolist()
    bounds, n_nodes = entry_ptr.tolist(), np.diff(node_ptr).tolist()
    out = []
    for g, labels in enumerate(edge_labels):
        start, end = bounds[g], bounds[g + 1]
        if isinstance(labels, dict):
            # either orientation may hold the label: look the other up only when one is missing
            found = list(map(labels.get, zip(row_list[start:end], col_list[start:end])))
            if any(map(_is_none, found)):
                try:
                    found = edge_label_list(labels, local_rows[start:end], local_cols[start:end],
                                            n_nodes[g], g)
                except ValueError:
                    raise _Irregular from None
        else:
            try:
                found = np.asarray(labels)
            except (TypeError, ValueError):
                raise _Irregular from None
            if found.shape != (n_nodes[g], n_nodes[g]):
                raise _Irregular
            found = found[local_rows[start:end], local_cols[start:end]]
        out.append(found)
    if set(map(type, out)) == {np.ndarray} and _same_values(out):
        return np.concatenate(out)
    return list(chain.from_iterable(
        part.tolist() if isinstance(part, np.ndarray) else part for part in out))


def _same_values(arrays):
    """Whether the concatenation of ``arrays`` holds the values of each as its ``tolist()``
    gives them: arrays of one dtype, or integers of one signedness, floats, or strings of
    several widths (``int64`` with ``uint64`` or with ``bool`` arrays would give floats or
    ints, ``1`` with ``1.0`` labels of another type)."""
    dtypes = set(map(_dtype_of, arrays))
    kinds = {dtype.kind for dtype in dtypes}
    return len(dtypes) == 1 or (len(kinds) == 1 and kinds <= set("iufUS"))


def _attributes(values, n_nodes, n_attributes):
    """Every graph's node attributes as one ``(n_nodes, n_attributes)`` float64 array."""
    try:
        arrays = [np.asarray(value, dtype=np.float64) for value in values]
    except (TypeError, ValueError):
        raise _Irregular from None
    shapes = _shapes(arrays)
    if (shapes[:, 0] != n_nodes).any():
        raise _Irregular
    width = shapes[0, 1]
    if width == 0 or (shapes[:, 1] != width).any() or n_attributes not in (None, width):
        raise _Irregular
    attributes = np.concatenate(arrays)
    if not np.isfinite(attributes).all():
        raise _Irregular
    return attributes
