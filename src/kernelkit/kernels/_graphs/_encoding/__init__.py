"""Graph encoding: the graphs a user passes, validated and coded into one :class:`GraphBatch`.

Every graph kernel reads its input through :func:`encode_graphs` (``GraphKernel._prepare`` calls
it) and works on the batch it returns; no kernel reads networkx graphs or tuples itself.

- ``_graph_batch``: :class:`GraphBatch`, the graphs as one block-diagonal CSR with int32 label
  codes (and node attributes);
- ``_readers``: :func:`encode_graphs` and the readers of networkx graphs and
  ``(adjacency, node_labels[, edge_labels[, node_attributes]])`` tuples one by one, with their
  checks and errors;
- ``_tuple_batch``: the reader of a batch of tuples at once (a few numpy calls over all of
  them, the usual case), which leaves any other input to the one-by-one readers;
- ``_tuple_labels``: the labels of one tuple graph as lists (what both tuple readers share);
- ``_label_coder``: :class:`LabelCoder`, labels of any hashable type as int32 codes, learned at
  ``fit`` and reused at ``transform``;
- ``_label_keys``: :func:`label_keys`, a fixed 64-bit key per label value, for the kernels that
  hash labels.
"""

from kernelkit.kernels._graphs._encoding._graph_batch import GraphBatch
from kernelkit.kernels._graphs._encoding._label_coder import LabelCoder
from kernelkit.kernels._graphs._encoding._label_keys import label_key, label_keys
from kernelkit.kernels._graphs._encoding._readers import encode_graphs

__all__ = ["GraphBatch", "LabelCoder", "encode_graphs", "label_key", "label_keys"]
