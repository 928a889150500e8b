"""Pure-Python twins of the explicit-feature graph kernels: feature dictionaries, written the
slow, obvious way from the papers, and their dot products.

A graph is ``(adjacency, node_labels)`` or ``(adjacency, node_labels, edge_labels)``: a square
NumPy array or ``scipy.sparse`` matrix (a non-zero entry is an edge), a sequence of hashable
node labels (None: every node labelled alike) and the edge labels: a dict ``{(i, j): label}``
holding each undirected edge under either orientation, or a square array read at the edges. A graph's features are a ``collections.Counter`` of
hashable keys; :func:`feature_gram` takes the dot products.

- Vertex histogram: the node labels.
- Edge histogram: the edge labels, once per orientation (each undirected edge twice).
- Weisfeiler–Lehman (Shervashidze, Schweitzer, van Leeuwen, Mehlhorn, Borgwardt,
  "Weisfeiler–Lehman graph kernels", JMLR 2011, Algorithm 1 and §3.2): iteration ``h + 1``
  relabels node ``v`` by ``(label_h(v), sorted [label_h(u) for u in N(v)])``, or with edge
  labels by ``(label_h(v), sorted [(label(v, u), label_h(u)) for u in N(v)])``; the new label
  is the signature's index in a dictionary shared by all graphs of the call, in order of first
  appearance. The features are the pairs ``(h, label_h(v))`` for ``h = 0 .. n_iter``.
"""

from collections import Counter

import numpy as np
import scipy.sparse as sp

__all__ = ["edge_histogram_features", "feature_gram", "vertex_histogram_features",
           "weisfeiler_lehman_features"]


def _neighbours(adjacency):
    """Sorted neighbour lists of a dense or sparse adjacency."""
    dense = adjacency.toarray() if sp.issparse(adjacency) else np.asarray(adjacency)
    return [sorted(np.flatnonzero(row).tolist()) for row in dense]


def _node_labels(graph):
    labels = graph[1]
    n = graph[0].shape[0]
    return [0] * n if labels is None else list(labels)


def _edge_label(graph, i, j):
    edge_labels = graph[2]
    if not isinstance(edge_labels, dict):
        return edge_labels[i][j].item() if hasattr(edge_labels[i][j], "item") \
            else edge_labels[i][j]
    return edge_labels[(i, j)] if (i, j) in edge_labels else edge_labels[(j, i)]


def vertex_histogram_features(graphs):
    """Counts of node labels, one Counter per graph."""
    return [Counter(_node_labels(graph)) for graph in graphs]


def edge_histogram_features(graphs):
    """Counts of edge labels over both orientations of every edge, one Counter per graph."""
    features = []
    for graph in graphs:
        neighbours = _neighbours(graph[0])
        features.append(Counter(_edge_label(graph, i, j)
                                for i, row in enumerate(neighbours) for j in row))
    return features


def weisfeiler_lehman_features(graphs, n_iter, edge_labels=False):
    """Counts of ``(iteration, label)`` over the WL iterations ``0 .. n_iter``, one Counter per
    graph; ``edge_labels``: the edge variant (the graphs' third element is read)."""
    neighbours = [_neighbours(graph[0]) for graph in graphs]
    labels = [_node_labels(graph) for graph in graphs]
    features = [Counter((0, label) for label in graph_labels) for graph_labels in labels]
    for h in range(1, n_iter + 1):
        compressed = {}
        new_labels = []
        for graph, adjacency, graph_labels in zip(graphs, neighbours, labels):
            relabelled = []
            for v, row in enumerate(adjacency):
                if edge_labels:
                    around = sorted((_edge_label(graph, v, u), graph_labels[u]) for u in row)
                else:
                    around = sorted(graph_labels[u] for u in row)
                signature = (graph_labels[v], tuple(around))
                relabelled.append(compressed.setdefault(signature, len(compressed)))
            new_labels.append(relabelled)
        labels = new_labels
        for counter, graph_labels in zip(features, labels):
            counter.update((h, label) for label in graph_labels)
    return features


def feature_gram(features_X, features_Y=None):
    """``K[i, j] = Σ_key features_X[i][key] · features_Y[j][key]`` (``features_Y`` None: X)."""
    features_Y = features_X if features_Y is None else features_Y
    K = np.zeros((len(features_X), len(features_Y)))
    for i, a in enumerate(features_X):
        for j, b in enumerate(features_Y):
            K[i, j] = sum(count * b[key] for key, count in a.items() if key in b)
    return K
