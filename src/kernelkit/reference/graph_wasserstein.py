"""Twin of the Wasserstein Weisfeiler–Lehman kernel, written as the paper states it
(Togninalli et al., NeurIPS 2019: the WL embeddings, the propagation of attributes and the
graph Wasserstein distance), one graph pair at a time.

Node embeddings are built node by node (WL label sequences by
:func:`~kernelkit.reference.graph_assignment.wl_label_sequences`, attributes averaged with a
Python loop over each node's neighbours), the ground distances between every pair of nodes are
written out, and every earth mover's distance is the optimum of the transport linear program
solved by :func:`scipy.optimize.linprog` — not the closed form on the tree of WL labels, nor
the network simplex, that the kernel uses.

Graphs are ``(adjacency, node_labels)`` pairs for the discrete case and
``(adjacency, attributes)`` pairs, ``attributes`` of shape ``(n_nodes, d)``, for the
continuous case (dense or ``scipy.sparse`` adjacency).
"""

import numpy as np
from scipy.optimize import linprog

from kernelkit.reference.graph_assignment import wl_label_sequences

__all__ = ["continuous_embeddings", "earth_movers_distance", "wwl_distances", "wwl_gram"]


def _neighbours(adjacency):
    dense = adjacency.toarray() if hasattr(adjacency, "toarray") else np.asarray(adjacency)
    return [np.flatnonzero(row).tolist() for row in dense]


def continuous_embeddings(adjacency, attributes, n_iter):
    """``(n_nodes, d (n_iter + 1))`` embedding: ``x^{h+1}(v) = (x^h(v) + mean_{u ~ v}
    x^h(u)) / 2``, a node without neighbours keeping ``x^h(v)``; iterations concatenated."""
    neighbours = _neighbours(adjacency)
    x = np.asarray(attributes, dtype=np.float64).reshape(len(neighbours), -1)
    levels = [x]
    for _ in range(n_iter):
        new = np.empty_like(x)
        for v, nbrs in enumerate(neighbours):
            mean = sum(x[u] for u in nbrs) / len(nbrs) if nbrs else x[v]
            new[v] = (x[v] + mean) / 2
        x = new
        levels.append(x)
    return np.hstack(levels)


def earth_movers_distance(cost):
    """``min Σ P_ij cost_ij`` over ``P ≥ 0`` with row sums ``1/n`` and column sums ``1/m``
    (uniform distributions over the rows and the columns), by linear programming."""
    n, m = cost.shape
    rows = np.kron(np.eye(n), np.ones((1, m)))   # Σ_j P_ij
    cols = np.kron(np.ones((1, n)), np.eye(m))   # Σ_i P_ij
    result = linprog(cost.ravel(), A_eq=np.vstack([rows, cols]),
                     b_eq=np.r_[np.full(n, 1 / n), np.full(m, 1 / m)], bounds=(0, None),
                     method="highs")
    if result.status != 0:
        raise RuntimeError(f"linprog failed: {result.message}")
    return result.fun


def _embeddings(graphs, n_iter, continuous):
    if continuous:
        return [continuous_embeddings(a, x, n_iter) for a, x in graphs]
    return [np.array(sequence).T for sequence in wl_label_sequences(graphs, n_iter)]


def _ground_distances(E, F, continuous):
    """Euclidean distances between the embeddings (continuous), else the fraction of the
    iterations at which two nodes' WL labels differ (normalised Hamming)."""
    if continuous:
        return np.sqrt(((E[:, None, :] - F[None, :, :]) ** 2).sum(axis=2))
    return (E[:, None, :] != F[None, :, :]).mean(axis=2)


def wwl_distances(graphs, n_iter, continuous=False, others=None):
    """``D[i, j]``, the Wasserstein distance between graph ``i`` of ``graphs`` and graph ``j``
    of ``others`` (``graphs`` when None); discrete labels are compared across both lists."""
    everything = list(graphs) + list(others or [])
    embeddings = _embeddings(everything, n_iter, continuous)
    left = embeddings[:len(graphs)]
    right = embeddings[len(graphs):] if others is not None else left
    return np.array([[earth_movers_distance(_ground_distances(E, F, continuous))
                      for F in right] for E in left])


def wwl_gram(graphs, n_iter, gamma, continuous=False, others=None):
    """``K = exp(-gamma D)`` of :func:`wwl_distances`."""
    return np.exp(-gamma * wwl_distances(graphs, n_iter, continuous, others))
