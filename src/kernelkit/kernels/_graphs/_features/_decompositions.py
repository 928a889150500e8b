"""Feature occurrences of the kernels on rooted pieces of graphs (NSPDK, ODD-ST), from the
compiled core ``_core/_graph_decompositions.pyx``."""

import numpy as np

from kernelkit._core import _graph_decompositions
from kernelkit.utils._validation import check_memory_request

__all__ = ["decomposition_features"]

# one graph per thread: threads pay off from a few thousand nodes
_MIN_NODES_PER_THREAD = 2_000


def decomposition_features(kind, batch, r, d, n_threads, what, fix):
    """Distinct features of every graph of ``batch``, with what they carry and their counts.

    Parameters
    ----------
    kind : int
        The core's code of the decomposition (``_graph_decompositions.NSPDK`` or ``ODDST``),
        held by the kernel class.
    batch : GraphBatch
    r, d : int
        As the core's ``decomposition_features``.
    n_threads : int
    what, fix : str
        For the memory check: what needs it, what to change.

    Returns
    -------
    graph_ids : ndarray of shape (n_occurrences,), intp
    keys : ndarray of shape (n_occurrences,), int64
        Distinct within each graph.
    values : ndarray of shape (n_occurrences,), intp
        NSPDK: level of each key; ODD-ST: size of its tree.
    counts : ndarray of shape (n_occurrences,), int64
    """
    n_graphs = batch.n_samples
    if batch.n_nodes < _MIN_NODES_PER_THREAD:
        n_threads = 1
    n_threads = max(1, min(n_threads, n_graphs))
    largest = int(np.diff(batch.node_ptr).max())
    # per thread: the distances of all node pairs of the largest graph
    check_memory_request(8.0 * largest * largest * n_threads,
                         f"{what} on a graph of {largest} nodes", fix)
    decomposition = {"kind": kind, "r": r, "d": d}
    n_pairs = np.empty(n_graphs, dtype=np.int64)
    _graph_decompositions.decomposition_features(batch, decomposition, None, n_pairs,
                                                 n_threads=n_threads)
    slots = n_pairs * (r + 1)
    # a key, a value and a count per occurrence, then the sparse features built from them
    check_memory_request(48.0 * float(slots.sum()), f"{what} on {n_graphs} graphs", fix)
    key_ptr = np.zeros(n_graphs + 1, dtype=np.int64)
    np.cumsum(slots, out=key_ptr[1:])
    keys = np.empty(key_ptr[-1], dtype=np.uint64)
    values = np.empty(key_ptr[-1], dtype=np.intp)
    counts = np.empty(key_ptr[-1], dtype=np.int64)
    n_distinct = np.empty(n_graphs, dtype=np.int64)
    features = {"key_ptr": key_ptr, "keys": keys, "values": values, "counts": counts}
    _graph_decompositions.decomposition_features(batch, decomposition, features, n_distinct,
                                                 n_threads=n_threads)
    # each graph's distinct keys sit at the start of its slot range
    graph_ids = np.repeat(np.arange(n_graphs), n_distinct)
    slot = np.repeat(key_ptr[:-1] - np.r_[0, np.cumsum(n_distinct)[:-1]], n_distinct) \
        + np.arange(n_distinct.sum())
    return graph_ids, keys[slot].view(np.int64), values[slot], counts[slot]

