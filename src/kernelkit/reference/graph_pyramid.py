"""Readable twins of the pyramid match kernel and of the core framework, written from the papers.

Graphs are ``(adjacency, labels)`` pairs: a dense symmetric 0/1 ``(n, n)`` array and a sequence
of ``n`` hashable labels. Every function works on one graph or one pair of graphs at a time,
with dictionaries for histograms: slow, and easy to check against the papers.

- Pyramid match: G. Nikolentzos, P. Meladianos, M. Vazirgiannis. Matching node embeddings for
  graph similarity. AAAI 2017; K. Grauman, T. Darrell. The pyramid match kernel. ICCV 2005.
- Core framework: G. Nikolentzos, P. Meladianos, S. Limnios, M. Vazirgiannis. A degeneracy
  framework for graph similarity. IJCAI 2018.
"""

import math

import numpy as np

__all__ = ["core_framework_gram", "core_numbers", "k_core", "pyramid_embedding",
           "pyramid_histograms", "pyramid_level_intersections", "pyramid_match_gram",
           "pyramid_match_value"]

# a coordinate this close below a cell boundary belongs to the upper cell (rounding of the
# eigensolver on exact dyadic coordinates such as 1/2)
BOUNDARY_TOL = 1e-10


def pyramid_embedding(adjacency, d):
    """Absolute eigenvector coordinates of the nodes, ``(n, min(n, d))``.

    The eigenvectors of the ``d`` eigenvalues of largest magnitude (ties: the positive one
    first), or of the ``min(n, d)`` algebraically largest when ``n <= d + 1``; columns in
    decreasing order of the eigenvalue (ties: ``eigh``'s order reversed).
    """
    A = np.asarray(adjacency, dtype=np.float64)
    n = A.shape[0]
    eigenvalues, eigenvectors = np.linalg.eigh(A)  # increasing
    if n > d + 1:
        chosen = sorted(range(n), key=lambda i: (-abs(eigenvalues[i]), -eigenvalues[i]))[:d]
    else:
        chosen = list(range(n - 1, -1, -1))[:d]
    chosen = sorted(chosen, reverse=True)
    return np.abs(eigenvectors[:, chosen])


def pyramid_histograms(embedding, labels, L):
    """For each level ``l = 0..L``, ``{(label, dimension, cell): count}`` with ``2**l`` cells
    per dimension of ``[0, 1]``."""
    histograms = []
    for level in range(L + 1):
        n_cells = 2 ** level
        counts = {}
        for node, label in enumerate(labels):
            for dim, value in enumerate(embedding[node]):
                cell = min(math.floor((value + BOUNDARY_TOL) * n_cells), n_cells - 1)
                counts[(label, dim, cell)] = counts.get((label, dim, cell), 0) + 1
        histograms.append(counts)
    return histograms


def pyramid_level_intersections(histograms_x, histograms_y):
    """Histogram intersection ``I_l = Σ_bins min(H_x, H_y)`` at every level."""
    return [sum(min(count, hy.get(key, 0)) for key, count in hx.items())
            for hx, hy in zip(histograms_x, histograms_y)]


def pyramid_match_value(intersections):
    """``I_L + Σ_{l<L} (I_l − I_{l+1}) / 2^(L−l)``: new matches at level ``l`` weigh
    ``2^(l−L)``."""
    L = len(intersections) - 1
    value = float(intersections[L])
    for level in range(L):
        value += (intersections[level] - intersections[level + 1]) / 2 ** (L - level)
    return value


def pyramid_match_gram(graphs_x, graphs_y, L=4, d=6, with_labels=True):
    """Gram matrix ``(len(graphs_x), len(graphs_y))`` of the pyramid match kernel."""
    def histograms(graph):
        adjacency, labels = graph
        labels = list(labels) if with_labels else [0] * len(labels)
        return pyramid_histograms(pyramid_embedding(adjacency, d), labels, L)

    hx = [histograms(g) for g in graphs_x]
    hy = [histograms(g) for g in graphs_y]
    return np.array([[pyramid_match_value(pyramid_level_intersections(a, b)) for b in hy]
                     for a in hx]).reshape(len(hx), len(hy))


def core_numbers(adjacency):
    """Core number of every node, by the definition: repeatedly remove a node of least degree;
    a node's core number is the largest least degree seen up to its removal."""
    A = np.asarray(adjacency) != 0
    remaining = set(range(A.shape[0]))
    core = [0] * A.shape[0]
    level = 0
    while remaining:
        degree = {v: sum(1 for u in remaining if A[v, u]) for v in remaining}
        v = min(remaining, key=lambda node: (degree[node], node))
        level = max(level, degree[v])
        core[v] = level
        remaining.remove(v)
    return core


def k_core(graph, k):
    """The ``k``-core of ``(adjacency, labels)`` as a graph of the same form, or None if empty."""
    adjacency, labels = graph
    keep = [v for v, c in enumerate(core_numbers(adjacency)) if c >= k]
    if not keep:
        return None
    A = np.asarray(adjacency)
    return A[np.ix_(keep, keep)], [labels[v] for v in keep]


def core_framework_gram(graphs_x, graphs_y, base_gram, min_core=-1):
    """``Σ_{i > min_core} k_base(C_i(G), C_i(G'))`` over the cores present in both graphs.

    ``base_gram(list_x, list_y)`` is the base kernel's Gram matrix between two lists of
    graphs.
    """
    K = np.zeros((len(graphs_x), len(graphs_y)))
    degeneracy = max(max(core_numbers(g[0])) for g in list(graphs_x) + list(graphs_y))
    for level in range(min_core + 1, degeneracy + 1):
        cores_x = [k_core(g, level) for g in graphs_x]
        cores_y = [k_core(g, level) for g in graphs_y]
        rows = [i for i, c in enumerate(cores_x) if c is not None]
        cols = [j for j, c in enumerate(cores_y) if c is not None]
        if rows and cols:
            K[np.ix_(rows, cols)] += base_gram([cores_x[i] for i in rows],
                                               [cores_y[j] for j in cols])
    return K
