"""The label sequences of the simple paths of a batch of graphs, enumerated in chunks of graphs
whose path arrays fit a fixed memory budget."""

import dataclasses

import numpy as np

from kernelkit.utils._validation import check_memory_request

__all__ = ["LengthSequences", "path_sequences"]

# Bytes the paths of one length of a chunk of graphs may take: per path, its nodes (a row, or a
# bitset of the positions in the chunk's largest graph) and ten 8-byte entries (end, parent,
# slot, step, word and bit of the step, key, and the sort of the keys). A graph whose own paths
# need more is a chunk of its own, refused only beyond the memory the process can get.
_CHUNK_BYTES = float(1 << 27)
_PATH_BYTES = 80.0


@dataclasses.dataclass(frozen=True)
class LengthSequences:
    """The label sequences of the paths of one length (in edges) of a batch of graphs.

    Sequence ``i`` is sequence ``prefix[i]`` of the previous length followed by the edge label
    ``edge[i]`` and the node label ``node[i]`` (at length 0: ``prefix`` -1, ``edge`` 0, and
    ``node`` the label of the path's single node); labels are the batch's codes.

    Attributes
    ----------
    prefix, edge, node : ndarray of shape (n_sequences,), int64
        The sequences, as above.
    graphs : ndarray of shape (n_pairs,), int64
        Graph (index in the batch) of each distinct ``(graph, sequence)`` pair.
    sequence : ndarray of shape (n_pairs,), int64
        Its sequence, an index into ``prefix``, ``edge`` and ``node``.
    count : ndarray of shape (n_pairs,), int64
        The number of paths of the graph with that sequence.
    """

    prefix: np.ndarray
    edge: np.ndarray
    node: np.ndarray
    graphs: np.ndarray
    sequence: np.ndarray
    count: np.ndarray


class _Numbering:
    """The sequences of one length met so far in a batch, numbered in order of first meeting
    and keyed ``(prefix · n_edge_codes + edge label) · n_node_codes + node label``."""

    def __init__(self, n_edge_codes, n_node_codes):
        self.n_edge_codes, self.n_node_codes = n_edge_codes, n_node_codes
        self.sorted_keys = np.zeros(0, dtype=np.int64)
        self.sorted_numbers = np.zeros(0, dtype=np.int64)
        self.new_keys = []              # the keys, in order of their numbers
        self.n_sequences = 0

    def numbers(self, keys):
        """The number of each of the sorted distinct ``keys``, the new ones numbered next."""
        position = np.searchsorted(self.sorted_keys, keys)
        found = position < self.n_sequences
        found[found] = self.sorted_keys[position[found]] == keys[found]
        numbers = np.empty(len(keys), dtype=np.int64)
        numbers[found] = self.sorted_numbers[position[found]]
        new = np.flatnonzero(~found)
        numbers[new] = self.n_sequences + np.arange(len(new))
        self.n_sequences += len(new)
        # keys[new] is sorted: inserted before the same position, they keep their order
        self.sorted_keys = np.insert(self.sorted_keys, position[new], keys[new])
        self.sorted_numbers = np.insert(self.sorted_numbers, position[new], numbers[new])
        self.new_keys.append(keys[new])
        return numbers

    def sequences(self, pairs):
        """The :class:`LengthSequences` of the numbered sequences and ``pairs``, a list of
        ``(graphs, sequence, count)``."""
        keys = np.concatenate(self.new_keys)
        codes = self.n_edge_codes * self.n_node_codes
        return LengthSequences(keys // codes, keys // self.n_node_codes % self.n_edge_codes,
                               keys % self.n_node_codes,
                               *(np.concatenate(parts) for parts in zip(*pairs)))


def path_sequences(batch, max_length):
    """The label sequences of the simple paths of every graph of ``batch``.

    The paths grow one edge at a time in chunks, runs of consecutive graphs whose paths of each
    length fit ``_CHUNK_BYTES``: a chunk first tries twice as many graphs as the previous one
    kept (the first, all of them), and when the paths of the next length would exceed the
    budget it keeps the graphs whose paths fit (at least one), leaving the others to a later
    chunk. Each chunk numbers its new sequences after those of the chunks before, so the
    memory is bounded by the budget and the sequences and counts returned, whatever the number
    of graphs.

    Parameters
    ----------
    batch : GraphBatch
    max_length : int
        Longest path, in edges.

    Returns
    -------
    list of LengthSequences
        One per length ``0 ..`` while some graph has paths that long (at most ``max_length``).
    """
    labels = batch.node_labels.astype(np.int64)
    node_graph = np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr))
    position = np.arange(batch.n_nodes) - batch.node_ptr[node_graph]
    codes = (labels, node_graph, np.diff(batch.indptr), position >> 6,
             np.left_shift(np.uint64(1), (position & 63).astype(np.uint64)))
    n_edge_codes = int(batch.edge_labels.max(initial=0)) + 1
    numberings = [_Numbering(n_edge_codes, int(labels.max()) + 1)]
    pairs = []                          # per length, the (graphs, sequence, count) of each chunk
    start, size = 0, batch.n_samples
    while start < batch.n_samples:
        stop, found = _chunk_sequences(batch, codes, numberings, start,
                                       min(start + size, batch.n_samples), max_length)
        for length, chunk_pairs in enumerate(found):
            if length == len(pairs):
                pairs.append([])
            pairs[length].append(chunk_pairs)
        start, size = stop, 2 * (stop - start)
    levels = [numbering.sequences(chunks) for numbering, chunks in zip(numberings, pairs)]
    return [dataclasses.replace(levels[0], prefix=np.full(len(levels[0].node), -1)), *levels[1:]]


def _chunk_sequences(batch, codes, numberings, start, stop, max_length):
    """The sequences of the graphs ``start .. stop - 1``, or of the first of them whose paths
    fit the budget: ``(stop kept, pairs)``, ``pairs`` a ``(graphs, sequence, count)`` per
    length. ``codes`` holds the batch's node labels (int64), and of each node its graph,
    degree, and the word and bit of its position in its graph; ``numberings`` (one per length,
    appended to) number the sequences.

    A path is its last node, the number of its sequence and its nodes, as a bitset of their
    positions when one takes at most half the bytes of a row of the nodes of a longest path.
    """
    labels, node_graph, degree = codes[:3]
    n_words = (int(np.diff(batch.node_ptr[start:stop + 1]).max()) + 63) // 64
    ends = np.arange(batch.node_ptr[start], batch.node_ptr[stop])    # last node of each path
    nodes = _NodeBits.of(ends, n_words, codes) if 2 * n_words <= max_length + 1 else \
        _NodeRows.of(ends)
    sequence, found = _count(numberings[0], labels[ends], node_graph[ends])
    found = [found]
    for length in range(1, max_length + 1):
        n_next = np.bincount(node_graph[ends] - start, weights=degree[ends],
                             minlength=stop - start)
        n_bytes = (nodes.path_bytes + _PATH_BYTES) * np.cumsum(n_next)
        if stop - start > 1 and n_bytes[-1] > _CHUNK_BYTES:
            stop = start + max(1, int(np.searchsorted(n_bytes, _CHUNK_BYTES, side="right")))
            kept = node_graph[ends] < stop
            nodes, ends, sequence = nodes.restricted(kept), ends[kept], sequence[kept]
            found = [tuple(part[graphs < stop] for part in (graphs, *rest))
                     for graphs, *rest in found]
        graphs = f"graph {start}" if stop - start == 1 else f"graphs {start} to {stop - 1}"
        check_memory_request(n_bytes[stop - start - 1],
                             f"PathKernel paths of {length} edges in {graphs}",
                             "lower max_length.")
        n_paths = degree[ends]
        parent = np.repeat(np.arange(len(ends)), n_paths)
        # the k-th step out of a path: slot indptr[end] + k of the adjacency
        slot = np.arange(len(parent)) + np.repeat(
            batch.indptr[ends] - (np.cumsum(n_paths) - n_paths), n_paths)
        step = batch.indices[slot].astype(np.intp)
        simple = np.flatnonzero(nodes.simple(parent, step))
        parent, slot, step = parent[simple], slot[simple], step[simple]
        if not len(step):
            break
        if length == len(numberings):
            numberings.append(_Numbering(numberings[0].n_edge_codes,
                                         numberings[0].n_node_codes))
        numbering = numberings[length]
        if float(numberings[length - 1].n_sequences) * numbering.n_edge_codes * \
                numbering.n_node_codes >= 2.0**62:
            raise ValueError(
                "PathKernel: too many distinct label sequences to number; lower max_length.")
        # a sequence is keyed by its prefix's number, the new edge label and node label
        edge = batch.edge_labels[slot].astype(np.int64)
        sequence, pairs = _count(
            numbering, (sequence[parent] * numbering.n_edge_codes + edge) *
            numbering.n_node_codes + labels[step], node_graph[step])
        found.append(pairs)
        nodes, ends = nodes.extended(parent, step), step
    return stop, found


@dataclasses.dataclass(frozen=True)
class _NodeRows:
    """The nodes of each path, a row each (``nodes``, of shape (n_paths, n_nodes))."""

    nodes: np.ndarray

    @classmethod
    def of(cls, ends):
        return cls(ends[:, None])

    @property
    def path_bytes(self):
        """Bytes of a path one node longer."""
        return 8.0 * (self.nodes.shape[1] + 1)

    def simple(self, parent, step):
        """Whether each ``step`` out of path ``parent`` leaves it simple."""
        return (self.nodes[parent] != step[:, None]).all(axis=1)

    def restricted(self, kept):
        return _NodeRows(self.nodes[kept])

    def extended(self, parent, step):
        return _NodeRows(np.column_stack([self.nodes[parent], step]))


@dataclasses.dataclass(frozen=True)
class _NodeBits:
    """The nodes of each path as a bitset of their positions in their graph, ``n_words``
    64-bit words a path, one after the other in ``visited``; ``codes`` as in
    :func:`_chunk_sequences`."""

    visited: np.ndarray
    n_words: int
    codes: tuple

    @classmethod
    def of(cls, ends, n_words, codes):
        node_word, node_bit = codes[3:]
        visited = np.zeros(len(ends) * n_words, dtype=np.uint64)
        visited[np.arange(len(ends)) * n_words + node_word[ends]] = node_bit[ends]
        return cls(visited, n_words, codes)

    @property
    def path_bytes(self):
        """Bytes of a path one node longer."""
        return 8.0 * self.n_words

    def _cells(self, paths, step):
        """Index in ``visited`` of the word of each ``step`` in the bitset of its path."""
        return paths if self.n_words == 1 else paths * self.n_words + self.codes[3][step]

    def simple(self, parent, step):
        """Whether each ``step`` out of path ``parent`` leaves it simple."""
        return (self.visited[self._cells(parent, step)] & self.codes[4][step]) == 0

    def restricted(self, kept):
        return dataclasses.replace(
            self, visited=self.visited.reshape(-1, self.n_words)[kept].ravel())

    def extended(self, parent, step):
        visited = self.visited.reshape(-1, self.n_words)[parent].ravel()
        visited[self._cells(np.arange(len(step)), step)] |= self.codes[4][step]
        return dataclasses.replace(self, visited=visited)


def _count(numbering, keys, graphs):
    """The number of each path's sequence (its key numbered by ``numbering``), and the
    distinct ``(graph, sequence)`` pairs of the paths with their number of paths."""
    distinct, local = np.unique(keys, return_inverse=True)
    local = local.ravel()
    first = int(graphs.min())
    n_cells = (int(graphs.max()) - first + 1) * len(distinct)
    cell = (graphs - first) * len(distinct) + local
    if n_cells <= 4 * len(keys):          # a table of every (graph, sequence): no sort
        count = np.bincount(cell, minlength=n_cells)
        cell = np.flatnonzero(count)
        count = count[cell]
    else:
        cell, count = np.unique(cell, return_counts=True)
    numbers = numbering.numbers(distinct)
    return numbers[local], (first + cell // len(distinct), numbers[cell % len(distinct)], count)
