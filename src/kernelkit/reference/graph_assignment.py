"""Twins of the Weisfeiler–Lehman optimal assignment and neighbourhood hash kernels, written as
their papers state them, one graph pair at a time.

- :func:`wl_optimal_assignment_gram` solves each optimal assignment explicitly (Hungarian
  method on the matrix of the WL base kernel between the nodes of the two graphs), the kernel's
  definition, instead of the histogram intersection that Theorem 2 of Kriege, Giscard & Wilson
  (NeurIPS 2016) reduces it to;
- :func:`neighborhood_hash_gram` hashes node by node with Python integers and counts common
  labels by merging the two sorted label lists (Hido & Kashima, ICDM 2009, Section 3);
- :func:`initial_bit_labels` is the documented map from labels to bit strings, with Python
  integers and :mod:`hashlib`.

Graphs are ``(adjacency, node_labels)`` pairs (dense or ``scipy.sparse`` adjacency).
"""

import hashlib

import numpy as np
from scipy.optimize import linear_sum_assignment

__all__ = ["initial_bit_labels", "label_key", "neighborhood_hash_gram",
           "wl_label_sequences", "wl_optimal_assignment_gram"]


def _neighbours(adjacency):
    dense = adjacency.toarray() if hasattr(adjacency, "toarray") else np.asarray(adjacency)
    return [np.flatnonzero(row).tolist() for row in dense]


def wl_label_sequences(graphs, n_iter):
    """``labels[g][h][v]``: the WL label of node ``v`` of graph ``g`` after ``h`` iterations,
    as integers shared by all the graphs (one dictionary of signatures per iteration)."""
    neighbours = [_neighbours(adjacency) for adjacency, _ in graphs]
    first = {}
    current = [[first.setdefault(label, len(first)) for label in labels] for _, labels in graphs]
    labels = [[list(c)] for c in current]
    for _ in range(n_iter):
        table = {}
        current = [[table.setdefault((c[v], tuple(sorted(c[u] for u in nbrs[v]))), len(table))
                    for v in range(len(c))]
                   for c, nbrs in zip(current, neighbours)]
        for g, c in enumerate(current):
            labels[g].append(list(c))
    return labels


def wl_optimal_assignment_gram(graphs, n_iter):
    """Gram matrix of the WL optimal assignment kernel, by solving every assignment.

    ``K(G, G') = max_B Σ_{(v, v') ∈ B} k(v, v')``, ``B`` a matching that covers the smaller
    graph, ``k(v, v') = Σ_{h=0}^{n_iter} [ℓ_h(v) = ℓ_h(v')]``.

    Parameters
    ----------
    graphs : list of (adjacency, node_labels)
    n_iter : int

    Returns
    -------
    K : ndarray of shape (n_graphs, n_graphs)
    """
    labels = [np.array(per_graph).T for per_graph in wl_label_sequences(graphs, n_iter)]
    n = len(graphs)
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(i, n):
            base = (labels[i][:, None, :] == labels[j][None, :, :]).sum(axis=2)
            rows, cols = linear_sum_assignment(base, maximize=True)
            K[i, j] = K[j, i] = base[rows, cols].sum()
    return K


def label_key(label):
    """The 64-bit key of a node label: the first 8 bytes (little-endian) of the BLAKE2b digest
    of ``b"N"`` for None, ``b"I"`` and the decimal digits for an integer (an integral float
    and a bool too), ``b"R"`` and ``float.hex`` for another float, ``b"S"`` and the UTF-8
    bytes for a string (the types the tests use; the kernel documents the others)."""
    if label is None:
        encoded = b"N"
    elif isinstance(label, str):
        encoded = b"S" + label.encode("utf-8")
    elif float(label).is_integer():
        encoded = b"I" + str(int(label)).encode()
    else:
        encoded = b"R" + float(label).hex().encode()
    return int.from_bytes(hashlib.blake2b(encoded, digest_size=8).digest(), "little")


def initial_bit_labels(labels, bits):
    """``bits``-bit strings of node labels: the top ``bits`` bits of :func:`label_key`."""
    return [label_key(label) >> (64 - bits) for label in labels]


def _rot(x, shift, bits):
    shift %= bits
    mask = (1 << bits) - 1
    return ((x << shift) | (x >> (bits - shift))) & mask if shift else x


def _hash(labels, neighbours, bits, nh_type):
    new = []
    for v, nbrs in enumerate(neighbours):
        h = _rot(labels[v], 1, bits)
        if nh_type == "simple":
            for u in nbrs:
                h ^= labels[u]
        else:
            occurrences = {}
            for u in nbrs:
                occurrences[labels[u]] = occurrences.get(labels[u], 0) + 1
            for label, o in occurrences.items():
                h ^= _rot((label ^ o) & ((1 << bits) - 1), o, bits)
        new.append(h)
    return new


def _common(x, y):
    """Common labels of two sorted lists, with multiplicity (a merge)."""
    a = b = c = 0
    while a < len(x) and b < len(y):
        if x[a] == y[b]:
            c, a, b = c + 1, a + 1, b + 1
        elif x[a] < y[b]:
            a += 1
        else:
            b += 1
    return c


def neighborhood_hash_gram(graphs, R, bits, nh_type, initial):
    """Gram matrix of the neighbourhood hash kernel.

    ``K(G, G') = (1/R) Σ_{r=1}^{R} c_r / (|V| + |V'| − c_r)``, ``c_r`` the common labels after
    ``r`` hashes.

    Parameters
    ----------
    graphs : list of (adjacency, node_labels)
    R : int
    bits : int
    nh_type : {"simple", "count_sensitive"}
    initial : dict
        Node label → its bit string (an int below ``2^bits``).

    Returns
    -------
    K : ndarray of shape (n_graphs, n_graphs)
    """
    per_graph = []
    for adjacency, node_labels in graphs:
        neighbours = _neighbours(adjacency)
        labels = [initial[label] for label in node_labels]
        rounds = []
        for _ in range(R):
            labels = _hash(labels, neighbours, bits, nh_type)
            rounds.append(sorted(labels))
        per_graph.append(rounds)
    n = len(graphs)
    K = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            total = 0.0
            for x, y in zip(per_graph[i], per_graph[j]):
                c = _common(x, y)
                total += c / (len(x) + len(y) - c)
            K[i, j] = total / R
    return K
