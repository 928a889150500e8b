"""The labels of one ``(adjacency, node_labels, edge_labels, ...)`` tuple graph as lists, in the
order of its nodes and of its adjacency entries: what the per-graph reader reads, and what the
batch reader reads of the graphs whose labels are not arrays."""

import numpy as np

__all__ = ["edge_label_list", "node_label_list"]


def node_label_list(node_labels, n, g):
    """The ``n`` labels of graph ``g``'s nodes from a sequence (a 1-d array read by ``tolist``)
    or a dict ``{node_index: label}``; a ValueError naming the graph when they do not fit."""
    if isinstance(node_labels, dict):
        try:
            return [node_labels[i] for i in range(n)]
        except KeyError as exc:
            raise ValueError(f"graph {g}: node {exc.args[0]} has no label.") from None
    if isinstance(node_labels, np.ndarray):
        if node_labels.ndim != 1:
            raise ValueError(f"graph {g}: node_labels must be 1-d, got shape {node_labels.shape}.")
        node_labels = node_labels.tolist()
    else:
        node_labels = list(node_labels)
    if len(node_labels) != n:
        raise ValueError(f"graph {g}: {len(node_labels)} node labels for {n} nodes.")
    return node_labels


def edge_label_list(edge_labels, r, c, n, g):
    """The labels of graph ``g``'s adjacency entries ``(r[k], c[k])`` from a dict ``{(i, j):
    label}`` (either orientation) or a dense ``(n, n)`` array; a ValueError naming the graph
    and the edge without one."""
    if isinstance(edge_labels, dict):
        out = []
        for i, j in zip(r.tolist(), c.tolist()):
            label = edge_labels.get((i, j), edge_labels.get((j, i)))
            if label is None:
                raise ValueError(f"graph {g}: edge ({i}, {j}) has no edge label.")
            out.append(label)
        return out
    dense = np.asarray(edge_labels)
    if dense.shape != (n, n):
        raise ValueError(
            f"graph {g}: edge_labels must be a dict {{(i, j): label}} or an array of shape "
            f"({n}, {n}), got shape {dense.shape}."
        )
    return dense[r, c].tolist()
