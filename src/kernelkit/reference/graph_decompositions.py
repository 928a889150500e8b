"""Kernels that decompose a graph into rooted pieces, written as their papers state them.

Twins of methods (they take graphs and hyper-parameters, not the cores' arrays): a graph is
``(adjacency, node_labels)`` or ``(adjacency, node_labels, edge_labels)`` with ``adjacency`` a
dense symmetric 0/1 array, ``node_labels`` a sequence of mutually comparable labels and
``edge_labels`` a dense array read at the edges (absent or None: unlabelled edges).

- :func:`nspdk_features`, :func:`nspdk_gram`: the neighbourhood subgraph pairwise distance
  kernel (F. Costa, K. De Grave, "Fast neighborhood subgraph pairwise distance kernel",
  ICML 2010), with exact invariants: the sorted lists themselves, as nested tuples, where the
  compiled core hashes them to 64 bits.
- :func:`oddst_features`, :func:`oddst_gram`: the ODD-ST_h kernel (D. Da San Martino,
  N. Navarin, A. Sperduti, "A tree-based kernel for graphs", SDM 2012), trees as nested tuples.
"""

import functools
from collections import Counter, deque

import numpy as np

__all__ = ["nspdk_features", "nspdk_gram", "oddst_features", "oddst_gram"]


def _parts(graph):
    adjacency = np.asarray(graph[0])
    labels = list(graph[1])
    edge_labels = graph[2] if len(graph) > 2 and graph[2] is not None else None
    n = adjacency.shape[0]
    neighbours = [[int(j) for j in np.flatnonzero(adjacency[i])] for i in range(n)]

    def edge_label(i, j):
        return 0 if edge_labels is None else edge_labels[i][j]

    return n, neighbours, labels, edge_label


def _all_distances(n, neighbours):
    """``dist[s][t]`` by one BFS per node; None when ``t`` is unreachable from ``s``."""
    dist = []
    for s in range(n):
        row = [None] * n
        row[s] = 0
        queue = deque([s])
        while queue:
            u = queue.popleft()
            for w in neighbours[u]:
                if row[w] is None:
                    row[w] = row[u] + 1
                    queue.append(w)
        dist.append(row)
    return dist


def _rooted_invariant(v, radius, dist, neighbours, labels, edge_label):
    """Invariant of the subgraph induced by the nodes within ``radius`` of ``v``, rooted at
    ``v``: each node is described by its distance to the root and the sorted list of
    ``(distance, label)`` over the ball; the subgraph by the sorted node descriptions and the
    sorted ``(description, description, edge label)`` of its edges."""
    ball = [u for u in range(len(dist)) if dist[v][u] is not None and dist[v][u] <= radius]
    code = {u: (dist[v][u], tuple(sorted((dist[u][w], labels[w]) for w in ball)))
            for u in ball}
    in_ball = set(ball)
    edges = sorted((*sorted((code[u], code[w])), edge_label(u, w))
                   for u in ball for w in neighbours[u] if w in in_ball and u < w)
    return tuple(sorted(code.values())), tuple(edges)


def nspdk_features(graph, r, d):
    """NSPDK feature counts of one graph.

    Returns
    -------
    features : dict
        ``(rho, delta) -> Counter`` of ``(invariant of N_rho(A), invariant of N_rho(B))`` over
        the ordered node pairs ``(A, B)`` at distance ``delta`` (``A == B`` at distance 0).
    """
    n, neighbours, labels, edge_label = _parts(graph)
    dist = _all_distances(n, neighbours)
    invariant = {(rho, v): _rooted_invariant(v, rho, dist, neighbours, labels, edge_label)
                 for rho in range(r + 1) for v in range(n)}
    features = {}
    for a in range(n):
        for b in range(n):
            delta = dist[a][b]
            if delta is None or delta > d:
                continue
            for rho in range(r + 1):
                level = features.setdefault((rho, delta), Counter())
                level[invariant[rho, a], invariant[rho, b]] += 1
    return features


def nspdk_gram(X, Y=None, r=3, d=4, normalize=True):
    """NSPDK Gram matrix ``K(X, Y)``: per level, the cosine of the feature counts (0 when
    either graph has no pair at that level), summed over the levels; ``normalize`` divides by
    ``sqrt(k(x, x) k(y, y))``."""
    def level_cosine(p, q):
        dot = sum(count * q[key] for key, count in p.items() if key in q)
        return dot / np.sqrt(sum(c * c for c in p.values()) * sum(c * c for c in q.values()))

    def k(a, b):
        return sum(level_cosine(a[level], b[level]) for level in a if level in b)

    return _gram([nspdk_features(g, r, d) for g in X],
                 None if Y is None else [nspdk_features(g, r, d) for g in Y], k, normalize)


def _gram(fx, fy, k, normalize):
    """``[[k(a, b) for b in fy] for a in fx]`` (``fy`` None: ``fx``), cosine-normalised by
    ``k(a, a)`` and ``k(b, b)`` when ``normalize``."""
    fy = fx if fy is None else fy
    K = np.array([[k(a, b) for b in fy] for a in fx], dtype=np.float64).reshape(len(fx), len(fy))
    if normalize:
        diag_x = np.array([k(a, a) for a in fx])
        diag_y = np.array([k(b, b) for b in fy])
        K = K / np.sqrt(np.outer(diag_x, diag_y))
    return K


def _dag_visit_codes(v, h, neighbours, labels):
    """Canonical codes of the tree visits of every node of the BFS DAG from ``v`` cut at depth
    ``h`` (None: not cut): ``(label, sorted codes of the children)``, the children of ``u``
    being its neighbours one level deeper."""
    depth = {v: 0}
    order = [v]
    for u in order:
        if h is not None and depth[u] >= h:
            continue
        for w in neighbours[u]:
            if w not in depth:
                depth[w] = depth[u] + 1
                order.append(w)
    code = {}
    for u in reversed(order):
        children = [code[w] for w in neighbours[u] if depth.get(w) == depth[u] + 1]
        code[u] = (labels[u], tuple(sorted(children)))
    return code


@functools.cache
def _tree_size(code):
    return 1 + sum(_tree_size(child) for child in code[1])


def oddst_features(graph, h=None):
    """ODD-ST_h feature counts of one graph (D. Da San Martino, N. Navarin, A. Sperduti, "A
    tree-based kernel for graphs", SDM 2012): over the roots ``v`` and the nodes ``u`` of the
    DAG visit from ``v`` up to depth ``h``, the canonical tree visits from ``u``.

    Returns
    -------
    features : Counter
        Canonical tree (nested ``(label, children)`` tuples) -> number of occurrences.
    """
    n, neighbours, labels, _ = _parts(graph)
    features = Counter()
    for v in range(n):
        features.update(_dag_visit_codes(v, h, neighbours, labels).values())
    return features


def oddst_gram(X, Y=None, h=None, lambda_=1.0, normalize=False):
    """ODD-ST_h Gram matrix: ``sum over shared trees t of lambda_ ** size(t) * count_x(t) *
    count_y(t)`` (the subtree kernel's weight of a match of ``size(t)`` nodes)."""
    def k(a, b):
        return sum(lambda_ ** _tree_size(t) * count * b[t] for t, count in a.items() if t in b)

    return _gram([oddst_features(g, h) for g in X],
                 None if Y is None else [oddst_features(g, h) for g in Y], k, normalize)
