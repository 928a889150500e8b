"""The base of every graph kernel: graphs coded once into a batch, label maps learned at ``fit``.

A graph kernel reads its input through :func:`encode_graphs` (networkx graphs or tuples into a
:class:`GraphBatch`) in :meth:`GraphKernel._prepare`, and implements ``_represent`` (the batch
into what its ``_gram`` and ``_self_similarity`` consume) on top of the
:class:`~kernelkit.kernels._base.StructuredKernel` transformer API.
"""

import dataclasses
import time

import numpy as np

from kernelkit.kernels._base import StructuredKernel
from kernelkit.kernels._graphs._encoding import encode_graphs, label_keys
from kernelkit.utils._sklearn_compat import StrOptions

__all__ = ["GRAPH_DOCS", "GraphKernel"]

# Docstring text shared by the graph kernels (``fill_doc``): the rule for unlabelled graphs.
GRAPH_DOCS = {
    "unlabeled_nodes": """unlabeled_nodes : {"constant", "degree"}, default="constant"
        The node labels of graphs without any: ``"constant"`` gives every node one label,
        ``"degree"`` labels each node by its degree. A graph has no node labels when it is a
        bare adjacency (a square ndarray or any ``scipy.sparse`` array or matrix), a tuple
        without them (``(adjacency,)``, ``(adjacency, None, ...)``) or a networkx graph whose
        nodes carry no attribute at all; ``node_label=None`` applies the rule to every graph.
        Nodes that carry attributes but not ``node_label`` are an error (a misspelt name), and
        so is mixing labelled and unlabelled graphs in a batch or between ``fit`` and
        ``transform``.""",
}


class GraphKernel(StructuredKernel):
    """Base of the graph kernels: codes the input graphs once, learns label maps at ``fit``.

    Subclasses implement ``_represent(batch, fitting)`` (the graph batch → what ``_gram`` and
    ``_self_similarity`` consume) and list ``node_label``, ``edge_label`` and
    ``node_attributes`` among their parameters when they use node labels, edge labels and
    continuous node attributes (whose length is then learned at ``fit`` as
    ``n_node_attributes_``). A kernel with ``node_label`` also lists ``unlabeled_nodes``, the
    labels of unlabelled graphs, documented by ``GRAPH_DOCS["unlabeled_nodes"]``; the rule
    that labelled the fitted graphs (None: their own labels) is kept as ``unlabeled_rule_``.

    Label codes number the labels in order of first appearance: a kernel may compare them for
    equality, never compute with them, or its values would depend on the other fitted graphs.
    A kernel that hashes labels sets ``_hashes_labels``, and hashes ``batch.node_label_keys``
    (a fixed function of each label) instead.
    """

    _hashes_labels = False

    _parameter_constraints = {
        **StructuredKernel._parameter_constraints,
        "node_label": [str, None],
        "edge_label": [str, None],
        "node_attributes": [str, None],
        "unlabeled_nodes": [StrOptions({"constant", "degree"})],
    }

    def _prepare(self, X, fitting, growing=False):
        """The representation of the graphs ``X``. ``fitting``: learn the label maps (and what
        ``_represent`` learns) from ``X`` alone; ``growing``: extend the fitted ones with the
        labels of ``X`` (new labels take the next codes); neither: use the fitted ones."""
        start = time.perf_counter()
        learning = fitting or growing
        batch, node_codes, edge_codes = encode_graphs(
            X,
            node_label=self._node_label_attribute(),
            edge_label=self._edge_label_attribute(),
            node_codes=None if learning else self.node_label_codes_,
            edge_codes=None if learning else self.edge_label_codes_,
            node_attributes=getattr(self, "node_attributes", None),
            n_attributes=None if fitting else getattr(self, "n_node_attributes_", None),
            unlabeled_nodes=self._unlabeled_rule(),
        )
        self._check_unlabeled_rule(batch.unlabeled_rule, fitting)
        if growing:
            # the batch's own codes, first occurrence first, mapped into the fitted maps: the
            # codes learning from the fitted graphs followed by X would give
            batch = dataclasses.replace(
                batch,
                node_labels=_merge_codes(self.node_label_codes_, node_codes, batch.node_labels),
                edge_labels=_merge_codes(self.edge_label_codes_, edge_codes, batch.edge_labels))
        elif fitting:
            self.node_label_codes_ = node_codes
            self.edge_label_codes_ = edge_codes
            if batch.node_attributes is not None:
                self.n_node_attributes_ = batch.node_attributes.shape[1]
        if self._hashes_labels:
            batch = dataclasses.replace(batch, node_label_keys=label_keys(
                self.node_label_codes_ if growing else node_codes))
        self._report(f"coded {batch.n_samples} graphs ({batch.n_nodes} nodes)", start)
        start = time.perf_counter()
        rep = self._represent(batch, learning)
        self._report("built the representation", start)
        return rep

    def _represent(self, batch, fitting):
        return batch

    def _node_label_attribute(self):
        """The node attribute read as the label (None: unlabelled)."""
        return getattr(self, "node_label", None)

    def _edge_label_attribute(self):
        """The edge attribute read as the edge label (None: edge labels unused)."""
        return getattr(self, "edge_label", None)

    def _unlabeled_rule(self):
        """The labels of unlabelled graphs' nodes: ``"constant"`` or ``"degree"``."""
        return getattr(self, "unlabeled_nodes", "constant")

    def _check_unlabeled_rule(self, rule, fitting):
        """Learn (``fitting``, or a first ``partial_fit``) or check the batch's
        ``unlabeled_rule``: graphs labelled by their own labels and graphs labelled by a rule
        never meet in one Gram matrix."""
        if fitting or not hasattr(self, "unlabeled_rule_"):
            self.unlabeled_rule_ = rule
        elif rule != self.unlabeled_rule_:
            lacking, having = ("these", "the fitted") if rule is not None else \
                ("the fitted", "these")
            raise ValueError(
                f"{lacking} graphs have no node labels but {having} graphs have: label both, "
                "or pass node_label=None to give every node the label of unlabeled_nodes.")


def _merge_codes(codes, batch_codes, labels):
    """Add the labels of ``batch_codes`` (label → batch code) missing from ``codes`` (in place,
    in batch-code order) and return ``labels`` (batch codes) as codes of ``codes``."""
    if not batch_codes:
        return labels  # labels not used: all zero
    for label in batch_codes:
        codes.setdefault(label, len(codes))
    return np.fromiter(map(codes.__getitem__, batch_codes), dtype=np.int32,
                       count=len(batch_codes))[labels]

