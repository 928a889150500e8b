"""Pure-Python/NumPy twins of the graph-kernel cores (``_wl_relabel``, ``_shortest_path_bfs``,
``_product_graph``, ``_graphlet_counts``): the same signatures, written the slow, obvious way;
the arguments that only tune speed (``tol``, ``max_iter``, ``max_small_degree``, ``n_threads``)
are accepted and ignored.

Product-graph kernels build the dense product graph and take explicit matrix powers or dense
solves; subtree kernels enumerate matchings and neighbour subsets explicitly; shortest paths use
Floyd–Warshall instead of BFS; graphlets enumerate ``itertools.combinations`` (or, when
sampling, draw with the core's splitmix64 sampler, so that both count the same samples).
"""

import itertools

import numpy as np

__all__ = [
    "PRODUCT_GRAPH_KERNELS",
    "compress_signatures",
    "graphlet_counts",
    "lookup_signatures",
    "node_signatures",
    "product_graph_diagonal",
    "product_graph_gram",
    "shortest_path_counts",
]


# --- Weisfeiler–Lehman relabelling -----------------------------------------------------------

def node_signatures(indptr, indices, labels, signatures, n_threads=1):
    """Twin of ``_wl_relabel.node_signatures``: label, then sorted neighbour labels, per node."""
    for i in range(len(labels)):
        neighbours = sorted(labels[indices[k]] for k in range(indptr[i], indptr[i + 1]))
        start = indptr[i] + i
        signatures[start:start + 1 + len(neighbours)] = [labels[i]] + neighbours


def _row(signatures, sig_ptr, r):
    return tuple(int(v) for v in signatures[sig_ptr[r]:sig_ptr[r + 1]])


def compress_signatures(signatures, sig_ptr, rows, codes, first_code=0):
    """Twin of ``_wl_relabel.compress_signatures``: codes are ranks of distinct signatures."""
    if len(rows) == 0:
        return 0
    keyed = sorted(((_row(signatures, sig_ptr, r), position, r) for position, r in enumerate(rows)))
    distinct = sorted({key for key, _, _ in keyed})
    rank = {key: first_code + c for c, key in enumerate(distinct)}
    rows[:] = [r for _, _, r in keyed]
    for key, _, r in keyed:
        codes[r] = rank[key]
    return len(distinct)


def lookup_signatures(signatures, sig_ptr, table, table_ptr, codes, n_threads=1):
    """Twin of ``_wl_relabel.lookup_signatures``: code of each signature in the table, -1 if absent."""
    index = {_row(table, table_ptr, t): t for t in range(len(table_ptr) - 1)}
    for r in range(len(sig_ptr) - 1):
        codes[r] = index.get(_row(signatures, sig_ptr, r), -1)


# --- shortest paths ------------------------------------------------------------------------------

def _graphs(node_ptr, indptr, indices, labels, edge_labels=None):
    """Per graph: dense adjacency (bool), labels, edge-label matrix (-1 off the edges)."""
    out = []
    for g in range(len(node_ptr) - 1):
        first, n = node_ptr[g], node_ptr[g + 1] - node_ptr[g]
        adjacency = np.zeros((n, n), dtype=bool)
        elabels = np.full((n, n), -1, dtype=np.int64)
        for u in range(n):
            for k in range(indptr[first + u], indptr[first + u + 1]):
                adjacency[u, indices[k] - first] = True
                elabels[u, indices[k] - first] = 0 if edge_labels is None else edge_labels[k]
        out.append((adjacency, np.asarray(labels[first:first + n]), elabels))
    return out


def shortest_path_counts(node_ptr, indptr, indices, labels, key_ptr, keys, counts, n_distinct,
                         n_threads=1):
    """Twin of ``_shortest_path_bfs.shortest_path_counts`` by Floyd–Warshall."""
    for g, (adjacency, lab, _) in enumerate(_graphs(node_ptr, indptr, indices, labels)):
        n = len(lab)
        dist = np.where(adjacency, 1.0, np.inf)
        np.fill_diagonal(dist, 0.0)
        for w in range(n):
            dist = np.minimum(dist, dist[:, [w]] + dist[[w], :])
        found = {}
        for u in range(n):
            for v in range(n):
                if u != v and np.isfinite(dist[u, v]):
                    key = (int(lab[u]) << 42) | (int(lab[v]) << 21) | int(dist[u, v])
                    found[key] = found.get(key, 0) + 1
        start = key_ptr[g]
        for i, key in enumerate(sorted(found)):
            keys[start + i] = key
            counts[start + i] = found[key]
        n_distinct[g] = len(found)


# --- product-graph kernels -----------------------------------------------------------------------

def _product_graph(g1, g2):
    """Dense label-matched product graph: its vertex pairs and adjacency (Mairal & Vert).

    ``A×`` is the Kronecker product ``A1 ⊗ A2`` where the two edges' labels agree, restricted to
    the vertex pairs with equal labels.
    """
    (a1, l1, e1), (a2, l2, e2) = g1, g2
    n1, n2 = len(l1), len(l2)
    kronecker = (a1[:, None, :, None] & a2[None, :, None, :]
                 & (e1[:, None, :, None] == e2[None, :, None, :])).reshape(n1 * n2, n1 * n2)
    matched = (l1[:, None] == l2[None, :]).ravel()
    pairs = [(u, v) for u in range(n1) for v in range(n2) if l1[u] == l2[v]]
    return pairs, kronecker[np.ix_(matched, matched)].astype(np.float64)


def _walk(n_steps):
    """``1ᵀ A×ⁿ 1`` by an explicit matrix power."""
    def value(g1, g2):
        _, adjacency = _product_graph(g1, g2)
        return np.linalg.matrix_power(adjacency, n_steps).sum() if len(adjacency) else 0.0

    return value


def _geometric(lambda_):
    """``1ᵀ (I − λA×)⁻¹ 1`` by a dense solve."""
    def value(g1, g2):
        _, adjacency = _product_graph(g1, g2)
        if not len(adjacency):
            return 0.0
        ones = np.ones(len(adjacency))
        return np.linalg.solve(np.eye(len(adjacency)) - lambda_ * adjacency, ones).sum()

    return value


def _random_walk(p_stop):
    """Kashima's kernel by a dense solve of ``x = s⊗s + Λ_t x`` with the transition matrix
    ``Λ_t`` written out."""
    def value(g1, g2):
        pairs, adjacency = _product_graph(g1, g2)
        if not pairs:
            return 0.0
        deg1, deg2 = g1[0].sum(axis=1), g2[0].sum(axis=1)

        def stop(d):
            return p_stop if d > 0 else 1.0

        def move(d):
            return (1.0 - p_stop) / d if d > 0 else 0.0

        final = np.array([stop(deg1[u]) * stop(deg2[v]) for u, v in pairs])
        transition = np.array([move(deg1[u]) * move(deg2[v]) for u, v in pairs])[:, None] \
            * adjacency
        start = 1.0 / (len(g1[1]) * len(g2[1]))
        x = np.linalg.solve(np.eye(len(pairs)) - transition, final)
        return start * x.sum()

    return value


def _matchings(left, right):
    """Every one-to-one matching between two lists, the empty one included."""
    for size in range(min(len(left), len(right)) + 1):
        for chosen in itertools.combinations(left, size):
            for image in itertools.permutations(right, size):
                yield list(zip(chosen, image))


def _subtree(depth, lambda_, matchings):
    """``Σ_{(u, v)} T(u, v, depth)`` by explicit enumeration: of the matchings of neighbour
    lists (``matchings``), or of the subsets of product-graph neighbours."""
    def value(g1, g2):
        (a1, l1, e1), (a2, l2, e2) = g1, g2
        n1, n2 = len(l1), len(l2)

        def usable(u, u2, v, v2):
            return l1[u2] == l2[v2] and e1[u, u2] == e2[v, v2]

        t = {(u, v): 1.0 for u in range(n1) for v in range(n2) if l1[u] == l2[v]}
        for _ in range(depth - 1):
            new = {}
            for u, v in t:
                nu, nv = np.flatnonzero(a1[u]), np.flatnonzero(a2[v])
                if matchings:
                    groups = [m for m in _matchings(list(nu), list(nv))
                              if all(usable(u, u2, v, v2) for u2, v2 in m)]
                else:
                    neighbours = [(u2, v2) for u2 in nu for v2 in nv if usable(u, u2, v, v2)]
                    groups = [s for size in range(len(neighbours) + 1)
                              for s in itertools.combinations(neighbours, size)]
                new[(u, v)] = sum(np.prod([lambda_ * t[pair] for pair in group])
                                  for group in groups)
            t = new
        return sum(t.values())

    return value


# --- graphlets -----------------------------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def _splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def graphlet_counts(node_ptr, indptr, indices, k, class_of_mask, n_samples, seeds, counts,
                    n_threads=1):
    """Twin of ``_graphlet_counts.graphlet_counts``: every k-subset, or the same sampler."""
    pairs = list(itertools.combinations(range(k), 2))
    for g, (adjacency, _, _) in enumerate(_graphs(node_ptr, indptr, indices,
                                                  np.zeros(node_ptr[-1], dtype=np.int64))):
        n = len(adjacency)
        if n < k:
            continue
        if n_samples == 0:
            subsets = itertools.combinations(range(n), k)
        else:
            subsets = []
            state = int(seeds[g])
            for _ in range(n_samples):
                while True:
                    nodes = []
                    for _ in range(k):
                        state, z = _splitmix64(state)
                        nodes.append(z % n)
                    if len(set(nodes)) == k:
                        break
                subsets.append(nodes)
        for nodes in subsets:
            mask = sum(1 << bit for bit, (p, q) in enumerate(pairs)
                       if adjacency[nodes[p], nodes[q]])
            counts[g, class_of_mask[mask]] += 1


# Codes of kernelkit._core._product_graph.PRODUCT_GRAPH_KERNELS (a test checks they agree).
PRODUCT_GRAPH_KERNELS = {"walk": 0, "geometric": 1, "random_walk": 2, "subtree": 3}


def _pair_value(kernel, options):
    o = {"n_steps": 0, "lambda_": 0.0, "p_stop": 0.0, "matchings": True, **options}
    return {0: lambda: _walk(o["n_steps"]), 1: lambda: _geometric(o["lambda_"]),
            2: lambda: _random_walk(o["p_stop"]),
            3: lambda: _subtree(o["n_steps"], o["lambda_"], o["matchings"])}[kernel]()


def product_graph_gram(kernel, graphs_a, graphs_b, symmetric, options, out, row_start, row_stop,
                       n_threads=1):
    """Twin of ``_product_graph.product_graph_gram``: every pair by dense algebra or explicit
    enumeration (``options``' ``tol``, ``max_iter``, ``max_small_degree`` and ``n_threads`` are
    not needed).
    """
    value = _pair_value(kernel, options)
    a = _graphs(*graphs_a)
    b = a if symmetric else _graphs(*graphs_b)
    for i in range(row_start, row_stop):
        for j, g2 in enumerate(b):
            out[i, j] = value(a[i], g2)
    return 0


def product_graph_diagonal(kernel, graphs, options, out, n_threads=1):
    """Twin of ``_product_graph.product_graph_diagonal``."""
    value = _pair_value(kernel, options)
    for i, g in enumerate(_graphs(*graphs)):
        out[i] = value(g, g)
    return 0
