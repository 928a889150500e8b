"""Packed batches of sequences and graphs: a few flat arrays instead of many Python objects.

A list of 10⁵ strings or networkx graphs pickles slowly (graphs ≈600× slower than their CSR
arrays) and ``dask.sizeof`` underestimates it; a packed batch pickles as its arrays, reports its
exact size, hashes deterministically, and slices into blocks without copying Python objects. Both
classes are read-only sequences: iterating gives back plain objects that every string or graph
kernel accepts (strings; ``(adjacency, node_labels[, edge_labels])`` tuples).
"""

import hashlib
import sys
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from kernelkit.kernels._graphs._encoding import encode_graphs
from kernelkit.kernels._strings._base import check_sequences, encode, resolve_alphabet

__all__ = ["PackedGraphs", "PackedSequences"]


def _digest(*parts):
    h = hashlib.sha1()
    for part in parts:
        if isinstance(part, np.ndarray):
            h.update(str(part.dtype).encode())
            h.update(np.ascontiguousarray(part).view(np.uint8).data)
        else:
            h.update(repr(part).encode())
        h.update(b"|")
    return h.hexdigest()


def _ragged_take(values, ptr, indices):
    """``values`` of the items ``indices`` of a ragged array (``ptr`` offsets), and the new
    offsets."""
    starts, stops = ptr[indices], ptr[np.asarray(indices) + 1]
    lengths = stops - starts
    new_ptr = np.zeros(len(lengths) + 1, dtype=np.intp)
    np.cumsum(lengths, out=new_ptr[1:])
    gather = np.repeat(starts - new_ptr[:-1], lengths) + np.arange(new_ptr[-1])
    return values[gather], new_ptr


def _positions(key, n):
    """Integer positions selected by a slice, an integer array or a boolean mask."""
    if isinstance(key, slice):
        return np.arange(n)[key]
    key = np.asarray(key)
    if key.dtype == bool:
        return np.flatnonzero(key)
    return np.where(key < 0, key + n, key).astype(np.intp)


class PackedSequences(Sequence):
    """Sequences as letter codes and offsets over an alphabet.

    Parameters
    ----------
    codes : ndarray of shape (total_length,), int32
        ``codes[offsets[i]:offsets[i + 1]]`` are the letters of sequence ``i`` (positions in
        ``alphabet``).
    offsets : ndarray of shape (n_sequences + 1,), intp
    alphabet : str
        Distinct letters.

    Examples
    --------
    >>> from kernelkit.kernels import PackedSequences, SpectrumKernel
    >>> packed = PackedSequences.from_sequences(["ACGT", "GATTACA", "CAT"])
    >>> len(packed), packed[1], packed.alphabet
    (3, 'GATTACA', 'ACGT')
    >>> SpectrumKernel(k=2).fit_transform(packed)[1]
    array([1., 6., 2.])
    """

    def __init__(self, codes, offsets, alphabet):
        self.codes = np.ascontiguousarray(codes, dtype=np.int32)
        self.offsets = np.ascontiguousarray(offsets, dtype=np.intp)
        self.alphabet = str(alphabet)
        if (self.offsets.ndim != 1 or self.offsets.size < 1 or self.offsets[0] != 0
                or self.offsets[-1] != self.codes.size or np.any(np.diff(self.offsets) < 0)):
            raise ValueError("offsets must start at 0, never decrease and end at len(codes).")
        if self.codes.size and (self.codes.min() < 0 or self.codes.max() >= len(self.alphabet)):
            raise ValueError("codes must be positions in the alphabet.")

    @classmethod
    def from_sequences(cls, sequences, alphabet=None):
        """Pack ``sequences`` (str or bytes) over ``alphabet`` (None: their letters, sorted;
        or a name of the string kernels' alphabets such as "protein")."""
        sequences = check_sequences(sequences)
        alphabet = resolve_alphabet(alphabet, sequences)
        batch = encode(sequences, alphabet)
        return cls(batch.codes, batch.offsets, alphabet)

    def __len__(self):
        return self.offsets.size - 1

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            i = int(key) + (len(self) if key < 0 else 0)
            if not 0 <= i < len(self):
                raise IndexError(f"sequence index {key} out of range for {len(self)} sequences")
            return self._decode(self.codes[self.offsets[i]:self.offsets[i + 1]])
        positions = _positions(key, len(self))
        if isinstance(key, slice) and key.step in (None, 1):
            start, stop = (int(positions[0]), int(positions[-1]) + 1) if positions.size else (0, 0)
            return PackedSequences(self.codes[self.offsets[start]:self.offsets[stop]],
                                   self.offsets[start:stop + 1] - self.offsets[start],
                                   self.alphabet)
        codes, offsets = _ragged_take(self.codes, self.offsets, positions)
        return PackedSequences(codes, offsets, self.alphabet)

    def _decode(self, codes):
        points = np.fromiter(map(ord, self.alphabet), dtype="<u4", count=len(self.alphabet))
        return points[codes].tobytes().decode("utf-32-le")

    def __iter__(self):
        text = self._decode(self.codes)
        bounds = self.offsets.tolist()
        return (text[a:b] for a, b in zip(bounds[:-1], bounds[1:]))

    @property
    def lengths(self):
        """Length of each sequence."""
        return np.diff(self.offsets)

    def __reduce__(self):
        return (PackedSequences, (self.codes, self.offsets, self.alphabet))

    def __sizeof__(self):
        return self.codes.nbytes + self.offsets.nbytes + sys.getsizeof(self.alphabet)

    def __dask_tokenize__(self):
        return ("kernelkit.PackedSequences", _digest(self.codes, self.offsets, self.alphabet))

    def __repr__(self):
        return f"PackedSequences({len(self)} sequences, {self.codes.size} letters)"


class PackedGraphs(Sequence):
    """Graphs as one block-diagonal CSR adjacency with label codes and label tables.

    Parameters
    ----------
    node_ptr : ndarray of shape (n_graphs + 1,), intp
        Graph ``g`` owns the nodes ``node_ptr[g]:node_ptr[g + 1]``.
    indptr, indices : ndarray
        CSR structure of the adjacency over all nodes (neighbours as global node ids).
    node_labels : ndarray of shape (n_nodes,), int32
        Codes into ``node_label_values``.
    node_label_values : list
        The node labels.
    edge_labels : ndarray of shape (len(indices),), int32, optional
        Codes into ``edge_label_values``, aligned with ``indices``.
    edge_label_values : list, optional

    Examples
    --------
    >>> import networkx as nx
    >>> from kernelkit.kernels import PackedGraphs, WeisfeilerLehmanKernel
    >>> g = nx.path_graph(3)
    >>> nx.set_node_attributes(g, {0: "C", 1: "O", 2: "C"}, "label")
    >>> packed = PackedGraphs.from_graphs([g, g])
    >>> WeisfeilerLehmanKernel(n_iter=1).fit_transform(packed)
    array([[10., 10.],
           [10., 10.]])
    """

    def __init__(self, node_ptr, indptr, indices, node_labels, node_label_values,
                 edge_labels=None, edge_label_values=None):
        self.node_ptr = np.ascontiguousarray(node_ptr, dtype=np.intp)
        self.indptr = np.ascontiguousarray(indptr, dtype=np.intp)
        self.indices = np.ascontiguousarray(indices, dtype=np.int32)
        self.node_labels = np.ascontiguousarray(node_labels, dtype=np.int32)
        self.node_label_values = list(node_label_values)
        self.edge_labels = (None if edge_labels is None
                            else np.ascontiguousarray(edge_labels, dtype=np.int32))
        self.edge_label_values = None if edge_labels is None else list(edge_label_values)
        if (self.node_ptr[-1] != self.node_labels.size
                or self.indptr.size != self.node_labels.size + 1
                or self.indptr[-1] != self.indices.size):
            raise ValueError("node_ptr, indptr, indices and node_labels are inconsistent.")

    @classmethod
    def from_graphs(cls, graphs, node_label="label", edge_label=None):
        """Pack graphs in any input form of the graph kernels (networkx graphs or tuples)."""
        batch, node_codes, edge_codes = encode_graphs(graphs, node_label=node_label,
                                                      edge_label=edge_label)
        node_values = [None] * len(node_codes)
        for label, code in node_codes.items():
            node_values[code] = label
        edge_values = None
        if edge_label is not None:
            edge_values = [None] * len(edge_codes)
            for label, code in edge_codes.items():
                edge_values[code] = label
        return cls(batch.node_ptr, batch.indptr, batch.indices, batch.node_labels, node_values,
                   batch.edge_labels if edge_label is not None else None, edge_values)

    def __len__(self):
        return self.node_ptr.size - 1

    def _graph(self, g):
        lo, hi = int(self.node_ptr[g]), int(self.node_ptr[g + 1])
        start, stop = self.indptr[lo], self.indptr[hi]
        adjacency = sp.csr_array((np.ones(stop - start), self.indices[start:stop] - lo,
                                  self.indptr[lo:hi + 1] - start), shape=(hi - lo, hi - lo))
        labels = [self.node_label_values[c] for c in self.node_labels[lo:hi]]
        if self.edge_labels is None:
            return adjacency, labels
        rows = np.repeat(np.arange(hi - lo), np.diff(self.indptr[lo:hi + 1]))
        edges = {(int(i), int(j)): self.edge_label_values[c]
                 for i, j, c in zip(rows, self.indices[start:stop] - lo,
                                    self.edge_labels[start:stop])}
        return adjacency, labels, edges

    def __getitem__(self, key):
        if isinstance(key, (int, np.integer)):
            g = int(key) + (len(self) if key < 0 else 0)
            if not 0 <= g < len(self):
                raise IndexError(f"graph index {key} out of range for {len(self)} graphs")
            return self._graph(g)
        positions = _positions(key, len(self))
        node_labels, node_ptr = _ragged_take(self.node_labels, self.node_ptr, positions)
        nodes = np.concatenate([np.arange(self.node_ptr[g], self.node_ptr[g + 1])
                                for g in positions]) if positions.size else np.zeros(0, np.intp)
        indices, indptr = _ragged_take(self.indices, self.indptr, nodes)
        # global node ids of the kept graphs, renumbered from 0
        new_id = np.full(self.node_labels.size, -1, dtype=np.intp)
        new_id[nodes] = np.arange(nodes.size)
        edge_labels = None
        if self.edge_labels is not None:
            edge_labels, _ = _ragged_take(self.edge_labels, self.indptr, nodes)
        return PackedGraphs(node_ptr, indptr, new_id[indices], node_labels,
                            self.node_label_values, edge_labels, self.edge_label_values)

    def __iter__(self):
        return (self._graph(g) for g in range(len(self)))

    def _arrays(self):
        return (self.node_ptr, self.indptr, self.indices, self.node_labels, self.edge_labels)

    def __reduce__(self):
        return (PackedGraphs, (*self._arrays()[:4], self.node_label_values, self.edge_labels,
                               self.edge_label_values))

    def __sizeof__(self):
        arrays = sum(a.nbytes for a in self._arrays() if a is not None)
        tables = sum(sys.getsizeof(v) for v in self.node_label_values)
        tables += sum(sys.getsizeof(v) for v in self.edge_label_values or ())
        return arrays + tables

    def __dask_tokenize__(self):
        return ("kernelkit.PackedGraphs",
                _digest(*(a for a in self._arrays() if a is not None), self.node_label_values,
                        self.edge_label_values))

    def __repr__(self):
        return f"PackedGraphs({len(self)} graphs, {self.node_labels.size} nodes)"
