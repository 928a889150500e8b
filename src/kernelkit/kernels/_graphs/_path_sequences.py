"""The label sequences of the simple paths of a batch of graphs, enumerated from runs of first
nodes whose path arrays fit a fixed memory budget."""

import dataclasses

import numpy as np

from kernelkit.utils._validation import check_memory_request

__all__ = ["LengthSequences", "path_sequences"]

# Bytes the paths of one length of a run of first nodes may take: per path, its nodes (a row, or
# a bitset of the positions in the batch's largest graph) and eleven 8-byte entries (first
# node, end, parent, slot, step, word and bit of the step, key, and the sort of the keys). The
# paths of one first node that need more are grown alone, refused only beyond the memory the
# process can get.
_CHUNK_BYTES = float(1 << 27)
_PATH_BYTES = 88.0


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
        ``(graphs, sequence, count)`` (the runs of first nodes of a graph add up)."""
        keys = np.concatenate(self.new_keys)
        codes = self.n_edge_codes * self.n_node_codes
        graphs, sequence, count = (np.concatenate(parts) for parts in zip(*pairs))
        pair, inverse = np.unique(graphs * self.n_sequences + sequence, return_inverse=True)
        count = np.bincount(inverse.ravel(), weights=count, minlength=len(pair))
        return LengthSequences(keys // codes, keys // self.n_node_codes % self.n_edge_codes,
                               keys % self.n_node_codes, pair // self.n_sequences,
                               pair % self.n_sequences, count.astype(np.int64))


def path_sequences(batch, max_length):
    """The label sequences of the simple paths of every graph of ``batch``.

    The paths grow one edge at a time, all first nodes at once until the paths of the next
    length would exceed ``_CHUNK_BYTES``; then the first nodes are split in two runs (by half
    the next paths), each grown on its own and split again when it exceeds the budget. The
    sequences of each length are numbered in the order the runs meet them, so the memory is
    bounded by a few budgets and the sequences and counts returned, whatever the number and
    size of the graphs (unless the paths of one first node exceed it: then they are refused
    only beyond the memory the process can get).

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
    numberings = [_Numbering(int(batch.edge_labels.max(initial=0)) + 1, int(labels.max()) + 1)]
    found = [[]]                        # per length, the (graphs, sequence, count) of each run
    ends = np.arange(batch.n_nodes)
    n_words = (int(np.diff(batch.node_ptr).max()) + 63) // 64
    nodes = _NodeBits.of(ends, n_words, codes) if 2 * n_words <= max_length + 1 else \
        _NodeRows.of(ends)
    sequence = _count(numberings[0], labels, node_graph, found[0])
    runs = [(_Paths(ends, ends, nodes, sequence), 0)]     # to grow, and their length
    while runs:
        runs += _grow(batch, codes, numberings, found, *runs.pop(), max_length)
    levels = [numbering.sequences(parts) for numbering, parts in zip(numberings, found)]
    return [dataclasses.replace(levels[0], prefix=np.full(len(levels[0].node), -1)), *levels[1:]]


@dataclasses.dataclass(frozen=True)
class _Paths:
    """Paths of one length: their last node, first node (nondecreasing), nodes (a _NodeRows
    or _NodeBits) and the number of their sequence."""

    ends: np.ndarray
    origin: np.ndarray
    nodes: object
    sequence: np.ndarray

    def part(self, rows):
        """The paths of the slice ``rows``, copied: a run waiting on the stack holds its own
        paths, not the whole run it was split from."""
        return _Paths(self.ends[rows].copy(), self.origin[rows].copy(), self.nodes.part(rows),
                      self.sequence[rows].copy())


def _grow(batch, codes, numberings, found, paths, paths_length, max_length):
    """Grow ``paths`` (of ``paths_length`` edges) edge by edge up to ``max_length``, counting
    their sequences into ``found``; when the next length would exceed the budget, return the
    two runs of first nodes they split into (the first last), to grow on their own.

    ``codes`` holds the batch's node labels (int64), and of each node its graph, degree, and
    the word and bit of its position in its graph; ``numberings`` (one per length, appended
    to) number the sequences.
    """
    labels, node_graph, degree = codes[:3]
    for length in range(paths_length + 1, max_length + 1):
        n_next = np.cumsum(degree[paths.ends])
        n_bytes = (paths.nodes.path_bytes + _PATH_BYTES) * float(n_next[-1])
        first, last = int(paths.origin[0]), int(paths.origin[-1])
        if n_bytes > _CHUNK_BYTES and first != last:
            # the first nodes up to the one where half the next paths are reached, the rest
            middle = paths.origin[np.searchsorted(n_next, n_next[-1] / 2)]
            cut = np.searchsorted(paths.origin, middle + (middle == first), side="left")
            return [(paths.part(slice(cut, None)), length - 1),
                    (paths.part(slice(0, cut)), length - 1)]
        graph = node_graph[first]
        check_memory_request(
            n_bytes, f"PathKernel paths of {length} edges from node "
            f"{first - batch.node_ptr[graph]} of graph {graph}" if first == last else
            f"PathKernel paths of {length} edges from nodes {first} to {last}",
            "lower max_length.")
        n_paths = degree[paths.ends]
        parent = np.repeat(np.arange(len(paths.ends)), n_paths)
        # the k-th step out of a path: slot indptr[end] + k of the adjacency
        slot = np.arange(len(parent)) + np.repeat(
            batch.indptr[paths.ends] - (n_next - n_paths), n_paths)
        step = batch.indices[slot].astype(np.intp)
        simple = np.flatnonzero(paths.nodes.simple(parent, step))
        parent, slot, step = parent[simple], slot[simple], step[simple]
        if not len(step):
            return []
        if length == len(numberings):
            numberings.append(_Numbering(numberings[0].n_edge_codes,
                                         numberings[0].n_node_codes))
            found.append([])
        numbering = numberings[length]
        if float(numberings[length - 1].n_sequences) * numbering.n_edge_codes * \
                numbering.n_node_codes >= 2.0**62:
            raise ValueError(
                "PathKernel: too many distinct label sequences to number; lower max_length.")
        # a sequence is keyed by its prefix's number, the new edge label and node label
        edge = batch.edge_labels[slot].astype(np.int64)
        sequence = _count(numbering, (paths.sequence[parent] * numbering.n_edge_codes + edge) *
                          numbering.n_node_codes + labels[step], node_graph[step],
                          found[length])
        paths = _Paths(step, paths.origin[parent], paths.nodes.extended(parent, step),
                       sequence)
    return []


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

    def part(self, rows):
        return _NodeRows(self.nodes[rows].copy())

    def extended(self, parent, step):
        return _NodeRows(np.column_stack([self.nodes[parent], step]))


@dataclasses.dataclass(frozen=True)
class _NodeBits:
    """The nodes of each path as a bitset of their positions in their graph, ``n_words``
    64-bit words a path, one after the other in ``visited``; ``codes`` as in
    :func:`_grow`."""

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

    def part(self, rows):
        return dataclasses.replace(
            self, visited=self.visited.reshape(-1, self.n_words)[rows].ravel().copy())

    def extended(self, parent, step):
        visited = self.visited.reshape(-1, self.n_words)[parent].ravel()
        visited[self._cells(np.arange(len(step)), step)] |= self.codes[4][step]
        return dataclasses.replace(self, visited=visited)


def _count(numbering, keys, graphs, found):
    """The number of each path's sequence (its key numbered by ``numbering``); appends to
    ``found`` the distinct ``(graph, sequence)`` pairs of the paths and their number of paths."""
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
    found.append((first + cell // len(distinct), numbers[cell % len(distinct)], count))
    return numbers[local]
