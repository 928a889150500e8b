"""The label sequences of the simple paths of a batch of graphs, enumerated in chunks of graphs
whose path arrays fit a fixed memory budget."""

import dataclasses

import numpy as np

from kernelkit.utils._validation import check_memory_request

__all__ = ["LengthSequences", "path_sequences"]

# Bytes the paths of one length of a chunk of graphs may take: per path, its visited set (a bit
# per node of the chunk's largest graph, in 64-bit words) and ten 8-byte entries (end, parent,
# slot, step, word and bit of the step, key, and the sort of the keys). A graph whose own paths
# need more is a chunk of its own, refused only beyond the memory the process can get.
_CHUNK_BYTES = float(1 << 27)
_PATH_BYTES = 80.0


@dataclasses.dataclass(frozen=True)
class LengthSequences:
    """The label sequences of the paths of one length (in edges) of a chunk of graphs.

    Sequence ``i`` is sequence ``prefix[i]`` of the previous length of the same chunk followed
    by the edge label ``edge[i]`` and the node label ``node[i]`` (at length 0: ``prefix`` -1,
    ``edge`` 0, and ``node`` the label of the path's single node).

    Attributes
    ----------
    prefix, edge, node : ndarray of shape (n_sequences,), int64
        The sequences, as above; labels are the batch's codes.
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

    @classmethod
    def of_paths(cls, prefix, edge, node, graphs, sequence):
        """The sequences, and the pairs counted from each path's ``graphs`` and ``sequence``."""
        pair, count = np.unique(graphs.astype(np.int64) * len(node) + sequence,
                                return_counts=True)
        return cls(prefix, edge, node, pair // len(node), pair % len(node), count)

    def restricted(self, stop):
        """The same sequences, the pairs of the graphs before ``stop`` only."""
        kept = self.graphs < stop
        return dataclasses.replace(self, graphs=self.graphs[kept],
                                   sequence=self.sequence[kept], count=self.count[kept])


def path_sequences(batch, max_length):
    """The label sequences of the simple paths of every graph of ``batch``, chunk by chunk.

    Chunks are runs of consecutive graphs whose paths of each length fit ``_CHUNK_BYTES``: a
    chunk first tries twice as many graphs as the previous one kept (the first, all of them),
    and when the paths of the next length would exceed the budget it keeps the graphs whose
    paths fit (at least one), dropping the others' paths to a later chunk. The memory is so
    bounded by the budget (and the counts returned), whatever the number of graphs.

    Parameters
    ----------
    batch : GraphBatch
    max_length : int
        Longest path, in edges.

    Yields
    ------
    list of LengthSequences
        For each chunk, one per length ``0 ..`` while its graphs have paths that long (at most
        ``max_length``).
    """
    sizes = np.diff(batch.node_ptr)
    node_graph = np.repeat(np.arange(batch.n_samples), sizes)
    codes = (batch.node_labels.astype(np.int64), node_graph, np.diff(batch.indptr),
             np.arange(batch.n_nodes) - batch.node_ptr[node_graph])
    start, size = 0, batch.n_samples
    while start < batch.n_samples:
        stop, levels = _chunk_sequences(batch, codes, start,
                                        min(start + size, batch.n_samples), max_length)
        yield levels
        start, size = stop, 2 * (stop - start)


def _chunk_sequences(batch, codes, start, stop, max_length):
    """The sequences of the graphs ``start .. stop - 1``, or of the first of them whose paths
    fit the budget: ``(stop kept, list of LengthSequences)``. ``codes`` holds the batch's node
    labels (int64), and of each node its graph, degree and position in its graph.

    A path is its last node and the set of its nodes, a bit per node (its position in its
    graph) in ``n_words`` 64-bit words: a step to a node whose bit is set is not simple.
    """
    labels, node_graph, degree, position = codes
    n_words = (int(np.diff(batch.node_ptr[start:stop + 1]).max()) + 63) // 64
    ends = np.arange(batch.node_ptr[start], batch.node_ptr[stop])    # last node of each path
    visited = np.zeros((len(ends), n_words), dtype=np.uint64)
    word, bit = _word_and_bit(position[ends])
    visited[np.arange(len(ends)), word] = bit
    first, local = np.unique(labels[ends], return_inverse=True)
    local = local.ravel()
    levels = [LengthSequences.of_paths(np.full(len(first), -1), np.zeros(len(first), np.int64),
                                       first, node_graph[ends], local)]
    for length in range(1, max_length + 1):
        n_next = np.bincount(node_graph[ends] - start, weights=degree[ends],
                             minlength=stop - start)
        n_bytes = (8.0 * n_words + _PATH_BYTES) * np.cumsum(n_next)
        if stop - start > 1 and n_bytes[-1] > _CHUNK_BYTES:
            stop = start + max(1, int(np.searchsorted(n_bytes, _CHUNK_BYTES, side="right")))
            kept = node_graph[ends] < stop
            ends, visited, local = ends[kept], visited[kept], local[kept]
            levels = [level.restricted(stop) for level in levels]
        graphs = f"graph {start}" if stop - start == 1 else f"graphs {start} to {stop - 1}"
        check_memory_request(n_bytes[stop - start - 1],
                             f"PathKernel paths of {length} edges in {graphs}",
                             "lower max_length.")
        n_paths = degree[ends]
        parent = np.repeat(np.arange(len(ends)), n_paths)
        slot = batch.indptr[ends][parent] + np.arange(len(parent)) - \
            np.repeat(np.cumsum(n_paths) - n_paths, n_paths)
        step = batch.indices[slot].astype(np.intp)
        word, bit = _word_and_bit(position[step])
        simple = (visited[parent, word] & bit) == 0
        parent, slot, step, word, bit = (parent[simple], slot[simple], step[simple],
                                         word[simple], bit[simple])
        if not len(step):
            break
        edge = batch.edge_labels[slot].astype(np.int64)
        n_local, edge_codes = int(local.max()) + 1, int(edge.max()) + 1
        node_codes = int(labels.max()) + 1
        if float(n_local) * edge_codes * node_codes >= 2.0**62:
            raise ValueError(
                "PathKernel: too many distinct label sequences to number; lower max_length.")
        # a sequence is numbered by its prefix's number, the new edge label and node label
        key, local = np.unique((local[parent] * edge_codes + edge) * node_codes + labels[step],
                               return_inverse=True)
        local = local.ravel()
        levels.append(LengthSequences.of_paths(
            key // (edge_codes * node_codes), key // node_codes % edge_codes, key % node_codes,
            node_graph[step], local))
        visited = visited[parent]
        visited[np.arange(len(step)), word] |= bit
        ends = step
    return stop, levels


def _word_and_bit(position):
    """The word of a visited set holding the bit of each node ``position``, and that bit."""
    return position >> 6, np.left_shift(np.uint64(1), (position & 63).astype(np.uint64))
