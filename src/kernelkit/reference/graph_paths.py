"""Pure-Python twin of the path kernel up to length h, written from the papers: every simple path
enumerated by depth-first search, its label sequence counted, the counts compared.

Ralaivola, Swamidass, Saigo, Baldi, "Graph kernels for chemical informatics", Neural Networks
2005, §2.3 (MinMax and Tanimoto kernels on path fingerprints); Suard, Rakotomamonjy, Bensrhair,
"Kernel on bag of paths", ESANN 2007. A graph is ``(adjacency, node_labels)`` or
``(adjacency, node_labels, edge_labels)`` as in :mod:`kernelkit.reference.graph_features`.

A path is a sequence of distinct nodes ``v0, v1, ..., vl`` (``0 <= l <= max_length`` edges),
each orientation its own path; its label sequence is ``(label(v0), label(v0, v1), label(v1), ...)``
(edge labels only when asked for).
"""

from collections import Counter

import numpy as np

from kernelkit.reference.graph_features import _edge_label, _neighbours, _node_labels

__all__ = ["path_gram", "path_sequences"]


def path_sequences(graph, max_length, edge_labels=False):
    """Counter of the label sequences of the simple paths of ``graph`` of up to ``max_length``
    edges."""
    neighbours = _neighbours(graph[0])
    labels = _node_labels(graph)
    counts = Counter()

    def extend(path, sequence):
        counts[sequence] += 1
        if len(path) > max_length:
            return
        for u in neighbours[path[-1]]:
            if u not in path:
                edge = (_edge_label(graph, path[-1], u),) if edge_labels else ()
                extend(path + [u], sequence + edge + (labels[u],))

    for v in range(len(labels)):
        extend([v], (labels[v],))
    return counts


def path_gram(graphs_X, graphs_Y=None, max_length=10, sub_kernel="minmax", edge_labels=False):
    """``K[i, j]``: the MinMax kernel ``Σ min / Σ max`` of the sequence counts, or the Tanimoto
    kernel ``|S ∩ S'| / |S ∪ S'|`` of the sequence sets (``graphs_Y`` None: ``graphs_X``)."""
    features_X = [path_sequences(g, max_length, edge_labels) for g in graphs_X]
    features_Y = features_X if graphs_Y is None else [
        path_sequences(g, max_length, edge_labels) for g in graphs_Y]
    K = np.zeros((len(features_X), len(features_Y)))
    for i, a in enumerate(features_X):
        for j, b in enumerate(features_Y):
            if sub_kernel == "tanimoto":
                K[i, j] = len(a.keys() & b.keys()) / len(a.keys() | b.keys())
            else:
                keys = a.keys() | b.keys()
                K[i, j] = sum(min(a[s], b[s]) for s in keys) / sum(max(a[s], b[s]) for s in keys)
    return K
