"""Pure-Python twin of the marginalised kernel, written from the papers: the recursion of
Kashima, Tsuda, Inokuchi, "Marginalized kernels between labeled graphs", ICML 2003 (eq. 6–8),
node pair by node pair, on the graph itself or on the transformed graph of Mahé, Ueda, Akutsu,
Perret, Vert, "Extensions of marginalized graph kernels", ICML 2004 (§3), which removes
tottering.

A graph is ``(adjacency, node_labels)`` or ``(adjacency, node_labels, edge_labels)`` as in
:mod:`kernelkit.reference.graph_features`. A walk starts at a vertex chosen uniformly, stops at
each state with probability ``p_quit`` (with probability 1 at a state without successor) or
moves to a successor chosen uniformly.
"""

import numpy as np

from kernelkit.reference.graph_features import _edge_label, _neighbours, _node_labels

__all__ = ["marginalized_gram", "walk_graph"]


def walk_graph(graph, remove_totters=False, edge_labels=False):
    """``(successors, labels, starts)``: for each state the list of ``(successor, edge
    label)``, the state labels and the states a walk may start at. With ``remove_totters``,
    Mahé et al.'s graph: a state per vertex ``u`` and per directed edge ``(u, v)`` (label
    ``l(v)``), arcs ``u → (u, v)`` and ``(u, v) → (v, w)`` for ``w ≠ u``; walks start at
    the vertices."""
    neighbours = _neighbours(graph[0])
    labels = _node_labels(graph)

    def label(u, v):
        return _edge_label(graph, u, v) if edge_labels else None

    vertices = list(range(len(labels)))
    if not remove_totters:
        return [[(v, label(u, v)) for v in neighbours[u]] for u in vertices], labels, vertices
    states = vertices + [(u, v) for u in vertices for v in neighbours[u]]
    index = {state: i for i, state in enumerate(states)}
    successors = [[(index[(u, v)], label(u, v)) for v in neighbours[u]] for u in vertices]
    successors += [[(index[(v, w)], label(v, w)) for w in neighbours[v] if w != u]
                   for u, v in states[len(vertices):]]
    state_labels = labels + [labels[v] for _, v in states[len(vertices):]]
    return successors, state_labels, vertices


def _pair(walk_1, walk_2, p_quit, n_iter):
    succ_1, labels_1, starts_1 = walk_1
    succ_2, labels_2, starts_2 = walk_2

    def stop(successors):
        return p_quit if successors else 1.0

    R = {(a, b): stop(succ_1[a]) * stop(succ_2[b])
         for a in range(len(labels_1)) for b in range(len(labels_2))}
    for _ in range(n_iter - 1):
        previous = dict(R)
        for a, b in R:
            total = stop(succ_1[a]) * stop(succ_2[b])
            for a2, e1 in succ_1[a]:
                for b2, e2 in succ_2[b]:
                    if labels_1[a2] == labels_2[b2] and e1 == e2:
                        total += ((1 - p_quit) / len(succ_1[a])) * \
                            ((1 - p_quit) / len(succ_2[b])) * previous[(a2, b2)]
            R[(a, b)] = total
    return sum(R[(a, b)] / (len(starts_1) * len(starts_2))
               for a in starts_1 for b in starts_2 if labels_1[a] == labels_2[b])


def marginalized_gram(graphs_X, graphs_Y=None, p_quit=0.5, n_iter=10, remove_totters=False,
                      edge_labels=False):
    """``K[i, j]``: the probability that walks of at most ``n_iter`` states on ``graphs_X[i]``
    and ``graphs_Y[j]`` have the same labels (``graphs_Y`` None: ``graphs_X``)."""
    walks_X = [walk_graph(g, remove_totters, edge_labels) for g in graphs_X]
    walks_Y = walks_X if graphs_Y is None else [walk_graph(g, remove_totters, edge_labels)
                                                for g in graphs_Y]
    return np.array([[_pair(a, b, p_quit, n_iter) for b in walks_Y] for a in walks_X])
