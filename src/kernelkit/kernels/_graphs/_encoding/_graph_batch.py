"""The graph batch: every graph kernel's view of its input graphs.

Every kernel works on a :class:`GraphBatch`: the graphs' adjacencies concatenated as one
block-diagonal CSR (global node ids, sorted neighbours), int32 node and edge label codes, and the
per-graph node offsets ``node_ptr``, and the node attributes as one float64
``(n_nodes, n_attributes)`` array when they are asked for.
"""

import dataclasses

import numpy as np

__all__ = ["GraphBatch"]


@dataclasses.dataclass(frozen=True)
class GraphBatch:
    """A batch of undirected labelled graphs in one concatenated CSR structure.

    Attributes
    ----------
    node_ptr : ndarray of shape (n_samples + 1,), intp
        Graph ``g`` owns the global nodes ``node_ptr[g]:node_ptr[g + 1]``.
    indptr : ndarray of shape (n_nodes + 1,), intp
        CSR row pointers of the block-diagonal adjacency (each undirected edge stored twice).
    indices : ndarray of shape (n_directed_edges,), int32
        Global neighbour ids, sorted within each row.
    node_labels : ndarray of shape (n_nodes,), int32
        Node label codes.
    edge_labels : ndarray of shape (n_directed_edges,), int32
        Edge label codes aligned with ``indices`` (all zero when edge labels are not used).
    node_attributes : ndarray of shape (n_nodes, n_attributes), float64, C-contiguous, or None
        Continuous node attributes, None when they are not used.
    node_label_keys : ndarray of shape (n_node_label_codes,), uint64, or None
        The key of the label of each node label code (a fixed function of the label, see
        ``_label_keys``), for the kernels that hash labels; None otherwise.
    unlabeled_rule : {"constant", "degree"} or None
        The rule that gave the node labels of unlabelled graphs (every node one label, or its
        degree); None when the labels were read from the graphs.
    """

    node_ptr: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    node_labels: np.ndarray
    edge_labels: np.ndarray
    node_attributes: np.ndarray | None = None
    node_label_keys: np.ndarray | None = None
    unlabeled_rule: str | None = None

    @property
    def n_samples(self):
        return len(self.node_ptr) - 1

    @property
    def n_nodes(self):
        return len(self.node_labels)
