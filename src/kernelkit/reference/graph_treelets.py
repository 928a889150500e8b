"""Pure-Python twin of the treelet kernel, written from the paper by brute force: every set of at
most five edges of a graph that forms a tree (and every single node) is a treelet occurrence,
classified by its canonical code.

Gaüzère, Brun, Villemin, "Two new graph kernels and applications to chemoinformatics", Pattern
Recognition Letters 2012, §3: the treelets are the 14 trees of at most 6 nodes, an occurrence is
a subtree of the graph (not necessarily induced), and ``f_t(G)`` counts the occurrences of the
labelled treelet ``t``. A graph is ``(adjacency, node_labels)`` or ``(adjacency, node_labels,
edge_labels)`` as in :mod:`kernelkit.reference.graph_features`.

A labelled tree's canonical code is the smallest, over its nodes ``r``, of the code of the tree
rooted at ``r``: ``code(v) = (label(v), sorted((label(v, c), code(c)) for the children c))``.
Its shape is the code of the same tree without labels, numbered as graphkit-learn numbers the
treelets (``TREELET_EDGES``).
"""

import itertools
import math
from collections import Counter

import numpy as np

from kernelkit.reference.graph_features import _edge_label, _neighbours, _node_labels

__all__ = ["TREELET_EDGES", "treelet_counts", "treelet_gram"]

# The 14 treelets by graphkit-learn's numbers, each as the edges of one drawing of it.
TREELET_EDGES = {
    0: [],
    1: [(0, 1)],
    2: [(0, 1), (1, 2)],
    3: [(0, 1), (1, 2), (2, 3)],
    4: [(0, 1), (1, 2), (2, 3), (3, 4)],
    5: [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)],
    6: [(0, 1), (0, 2), (0, 3)],
    7: [(0, 1), (0, 2), (0, 3), (3, 4)],
    8: [(0, 1), (0, 2), (0, 3), (0, 4)],
    9: [(0, 1), (0, 2), (0, 3), (2, 4), (3, 5)],
    10: [(0, 1), (0, 2), (0, 3), (3, 4), (4, 5)],
    11: [(0, 1), (0, 2), (0, 3), (0, 4), (4, 5)],
    12: [(0, 1), (0, 2), (0, 3), (3, 4), (3, 5)],
    13: [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)],
}


def _canonical_code(nodes, edges, node_label, edge_label):
    """Smallest rooted code of the tree ``(nodes, edges)`` over its roots."""
    around = {v: [] for v in nodes}
    for u, v in edges:
        around[u].append(v)
        around[v].append(u)

    def code(v, parent):
        return (node_label(v), tuple(sorted((edge_label(v, c), code(c, v))
                                            for c in around[v] if c != parent)))

    return min(code(r, None) for r in nodes)


def _shape_of_code():
    shapes = {}
    for number, edges in TREELET_EDGES.items():
        nodes = range(len(edges) + 1)
        shapes[_canonical_code(nodes, edges, lambda v: 0, lambda u, v: 0)] = number
    return shapes


def _is_tree(edges):
    """Whether ``edges`` (distinct, at least one) form a tree: connected, one node more."""
    nodes = {v for edge in edges for v in edge}
    if len(nodes) != len(edges) + 1:
        return False
    reached, frontier = set(), [next(iter(nodes))]
    while frontier:
        v = frontier.pop()
        if v not in reached:
            reached.add(v)
            frontier.extend(w for edge in edges if v in edge for w in edge)
    return reached == nodes


def treelet_counts(graph, edge_labels=False, max_size=6):
    """Counter of ``(shape, canonical labelled code)`` over the occurrences in ``graph`` of the
    treelets of at most ``max_size`` nodes."""
    shapes = _shape_of_code()
    neighbours = _neighbours(graph[0])
    labels = _node_labels(graph)
    all_edges = [(u, v) for u, row in enumerate(neighbours) for v in row if u < v]
    counts = Counter()
    for v in range(len(labels)):
        counts[(0, (labels[v], ()))] += 1
    for n_edges in range(1, max_size):
        for edges in itertools.combinations(all_edges, n_edges):
            if not _is_tree(edges):
                continue
            nodes = sorted({v for edge in edges for v in edge})
            shape = shapes[_canonical_code(nodes, edges, lambda v: 0, lambda u, v: 0)]
            code = _canonical_code(
                nodes, edges, labels.__getitem__,
                (lambda u, v: _edge_label(graph, u, v)) if edge_labels else (lambda u, v: 0))
            counts[(shape, code)] += 1
    return counts


def treelet_gram(graphs_X, graphs_Y=None, sub_kernel="linear", gamma=1.0, edge_labels=False,
                 max_size=6):
    """``K[i, j] = Σ_t f_t(G_i) f_t(G'_j)`` (linear) or ``exp(-gamma Σ_t (f_t(G_i) -
    f_t(G'_j))²)`` (rbf); ``graphs_Y`` None: ``graphs_X``."""
    features_X = [treelet_counts(g, edge_labels, max_size) for g in graphs_X]
    features_Y = features_X if graphs_Y is None else [
        treelet_counts(g, edge_labels, max_size) for g in graphs_Y]
    K = np.zeros((len(features_X), len(features_Y)))
    for i, a in enumerate(features_X):
        for j, b in enumerate(features_Y):
            if sub_kernel == "linear":
                K[i, j] = sum(count * b[key] for key, count in a.items())
            else:
                K[i, j] = math.exp(-gamma * sum((a[key] - b[key]) ** 2 for key in a.keys()
                                                | b.keys()))
    return K
