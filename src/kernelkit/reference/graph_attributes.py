"""Readable twins of the kernels on graphs with continuous node attributes: GraphHopper and the
propagation kernel, written from the papers, for the tests to compare the compiled cores with.

Graphs are ``(adjacency, node_labels, node_attributes)``: a dense 0/1 adjacency, a sequence of
labels (or None) and an ``(n_nodes, n_attributes)`` float array (or None).
"""

import math
from collections import Counter

import numpy as np

__all__ = ["graphhopper_gram", "graphhopper_weights", "propagation_features",
           "propagation_gram", "propagation_product_features"]


def _distances(adjacency):
    """All shortest-path distances (``inf`` between components) by Floyd–Warshall."""
    n = len(adjacency)
    dist = np.where(np.asarray(adjacency) != 0, 1.0, np.inf)
    np.fill_diagonal(dist, 0.0)
    for k in range(n):
        dist = np.minimum(dist, dist[:, k:k + 1] + dist[k:k + 1, :])
    return dist


def _path_counts(adjacency, dist):
    """``sigma[s, t]``: number of shortest paths from ``s`` to ``t`` (1 on the diagonal)."""
    n = len(adjacency)
    sigma = np.eye(n)
    finite = dist[np.isfinite(dist)]
    for length in range(1, int(finite.max()) + 1 if len(finite) else 1):
        for s in range(n):
            for t in range(n):
                if dist[s, t] == length:
                    # the last step comes from a neighbour one step closer to s
                    sigma[s, t] = sum(sigma[s, u] for u in range(n)
                                      if adjacency[u][t] and dist[s, u] == length - 1)
    return sigma


def graphhopper_weights(adjacency, n_lengths=None):
    """The matrices ``M_v`` of Feragen et al. (2013): ``M[v, a, b]`` is the number of shortest
    paths of length ``b`` (over all ordered pairs of end points ``(s, t)``, ``s = t`` included)
    on which ``v`` is the node at position ``a``.

    A shortest path from ``s`` to ``t`` goes through ``v`` at position ``a`` iff
    ``d(s, v) = a`` and ``d(s, v) + d(v, t) = d(s, t)``; there are ``σ(s, v) σ(v, t)`` of them.

    Parameters
    ----------
    adjacency : array-like of shape (n_nodes, n_nodes)
    n_lengths : int, optional
        ``δ`` (the size of the last two axes); default: diameter + 1.

    Returns
    -------
    M : ndarray of shape (n_nodes, δ, δ)
    """
    adjacency = np.asarray(adjacency)
    n = len(adjacency)
    dist = _distances(adjacency)
    sigma = _path_counts(adjacency, dist)
    if n_lengths is None:
        n_lengths = int(dist[np.isfinite(dist)].max()) + 1
    M = np.zeros((n, n_lengths, n_lengths))
    for s in range(n):
        for t in range(n):
            if not np.isfinite(dist[s, t]):
                continue
            for v in range(n):
                if dist[s, v] + dist[v, t] == dist[s, t]:
                    M[v, int(dist[s, v]), int(dist[s, t])] += sigma[s, v] * sigma[v, t]
    return M


def graphhopper_gram(graphs, node_kernel="linear", gamma=1.0):
    """GraphHopper Gram matrix ``k(G, G') = Σ_{v ∈ G, v' ∈ G'} ⟨M_v, M_v'⟩_F k_node(v, v')``.

    ``k_node`` is the label delta ``[ℓ(v) = ℓ(v')]`` (when the graphs have labels) times
    ``⟨x_v, x_v'⟩`` (``"linear"``) or ``exp(-gamma ‖x_v − x_v'‖²)`` (``"gaussian"``) on the
    attributes (when they have attributes).
    """
    weights = [graphhopper_weights(adjacency) for adjacency, _, _ in graphs]
    K = np.zeros((len(graphs), len(graphs)))
    for i, (gi, Mi) in enumerate(zip(graphs, weights)):
        for j, (gj, Mj) in enumerate(zip(graphs, weights)):
            m = min(Mi.shape[1], Mj.shape[1])  # longer paths exist in one graph only
            total = 0.0
            for u in range(len(Mi)):
                for v in range(len(Mj)):
                    hop = float(np.sum(Mi[u, :m, :m] * Mj[v, :m, :m]))
                    total += hop * _node_kernel(gi, u, gj, v, node_kernel, gamma)
            K[i, j] = total
    return K


def _node_kernel(gi, u, gj, v, node_kernel, gamma):
    value = 1.0 if gi[1] is None else float(gi[1][u] == gj[1][v])
    xi, xj = gi[2], gj[2]
    if xi is None:
        return value
    if node_kernel == "linear":
        return value * float(np.dot(xi[u], xj[v]))
    return value * math.exp(-gamma * float(np.sum((xi[u] - xj[v]) ** 2)))


def _transition(adjacency):
    """Row-normalised adjacency (a node without neighbours has a zero row)."""
    adjacency = np.asarray(adjacency, dtype=float)
    degree = adjacency.sum(axis=1, keepdims=True)
    return np.divide(adjacency, degree, out=np.zeros_like(adjacency), where=degree > 0)


def propagation_features(graphs, t_max, w, projections, offsets, sqrt=False):
    """Per-iteration bin counts of the propagation kernel (Neumann et al. 2016, Algorithm 1).

    Every node starts from its label distribution (one-hot over the label codes, or its
    attribute vector); iteration ``t`` hashes every node's vector ``p`` to the bin
    ``floor((p · r_t + θ_t) / w)`` (``sqrt``: of ``√p``, the Hellinger variant), counts the
    bins of each graph, then propagates ``P ← T P`` with the row-normalised adjacency ``T``.

    Parameters
    ----------
    graphs : list of (adjacency, vectors)
        ``vectors`` of shape (n_nodes, dim): one-hot labels or attributes.
    t_max : int
    w : float
    projections : ndarray of shape (t_max, dim)
    offsets : ndarray of shape (t_max,)
    sqrt : bool

    Returns
    -------
    features : list of Counter
        ``features[g][(t, bin)]``: the number of nodes of graph ``g`` in ``bin`` at ``t``.
    """
    features = []
    for adjacency, vectors in graphs:
        counts = Counter()
        for t, bins in enumerate(_bins(adjacency, vectors, t_max, w, projections, offsets,
                                       sqrt)):
            counts.update((t, int(b)) for b in bins)
        features.append(counts)
    return features


def _bins(adjacency, vectors, t_max, w, projections, offsets, sqrt=False):
    """The bin of every node at every iteration (a list of ``t_max`` arrays)."""
    transition = _transition(adjacency)
    P = np.array(vectors, dtype=float)
    bins = []
    for t in range(t_max):
        values = np.sqrt(P) if sqrt else P
        bins.append(np.floor((values @ projections[t] + offsets[t]) / w))
        P = transition @ P
    return bins


def propagation_product_features(graphs, t_max, label_hash, attribute_hash):
    """Bin counts of the propagation kernel on labels and attributes together: the product of
    the two node kernels, ``[label bins equal] [attribute bins equal]`` at every iteration.

    The one-hot labels and the attributes propagate side by side, each hashed by its own
    ``(w, projections, offsets)``; a node's bin at ``t`` is the pair of its two bins.

    Parameters
    ----------
    graphs : list of (adjacency, label_vectors, attributes)
    t_max : int
    label_hash, attribute_hash : (float, ndarray of shape (t_max, dim), ndarray of shape \
(t_max,))

    Returns
    -------
    features : list of Counter
        ``features[g][(t, label_bin, attribute_bin)]``: the number of nodes of graph ``g``.
    """
    features = []
    for adjacency, labels, attributes in graphs:
        counts = Counter()
        for t, (label_bins, attribute_bins) in enumerate(zip(
                _bins(adjacency, labels, t_max, *label_hash),
                _bins(adjacency, attributes, t_max, *attribute_hash))):
            counts.update((t, int(a), int(b)) for a, b in zip(label_bins, attribute_bins))
        features.append(counts)
    return features


def propagation_gram(features, other=None):
    """``K[i, j] = Σ_{t, bin} φ_i(t, bin) φ_j(t, bin)``."""
    other = features if other is None else other
    return np.array([[float(sum(c * b[key] for key, c in a.items())) for b in other]
                     for a in features])
