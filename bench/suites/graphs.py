"""Graph kernels: Gram matrices of kernelkit vs the pure-Python references vs GraKeL."""

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from kernelkit.bench._harness import Contender, Suite, shared_data

# Atom and bond type frequencies of small organic molecules (C, N, O, S, halogens;
# single, double, aromatic, triple), roughly as in NCI1 / MUTAG.
ATOM_FREQUENCIES = [0.70, 0.12, 0.13, 0.02, 0.03]
BOND_FREQUENCIES = [0.60, 0.10, 0.29, 0.01]
MAX_VALENCE = 4


def molecule_like_graphs(n_graphs, seed=0, min_nodes=10, max_nodes=40):
    """Random connected graphs shaped like molecules: a random tree of degree <= 4 plus a few
    ring closures (cycles of 5-6 atoms), atom-type node labels and bond-type edge labels.

    Returns a list of ``(csr adjacency, node labels, {(i, j): bond})`` tuples.
    """
    rng = np.random.default_rng(seed)
    graphs = []
    for _ in range(n_graphs):
        n = int(rng.integers(min_nodes, max_nodes + 1))
        degree = np.zeros(n, dtype=int)
        edges = []
        for v in range(1, n):
            candidates = np.flatnonzero(degree[:v] < MAX_VALENCE - 1)
            # mostly chains (attach near the newest atom), sometimes branches
            u = int(candidates[-1] if rng.random() < 0.6 else rng.choice(candidates))
            edges.append((u, v))
            degree[u] += 1
            degree[v] += 1
        for _ in range(int(rng.integers(0, 1 + n // 8))):
            v = int(rng.integers(5, n))
            u = v - int(rng.integers(4, 6))
            if degree[u] < MAX_VALENCE and degree[v] < MAX_VALENCE and (u, v) not in edges:
                edges.append((u, v))
                degree[u] += 1
                degree[v] += 1
        rows = np.array([e[0] for e in edges] + [e[1] for e in edges])
        cols = np.array([e[1] for e in edges] + [e[0] for e in edges])
        adjacency = sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=(n, n))
        labels = rng.choice(len(ATOM_FREQUENCIES), size=n, p=ATOM_FREQUENCIES)
        bonds = rng.choice(len(BOND_FREQUENCIES), size=len(edges), p=BOND_FREQUENCIES)
        edge_labels = {}
        for (u, v), b in zip(edges, bonds.tolist()):
            edge_labels[(u, v)] = edge_labels[(v, u)] = b
        graphs.append((adjacency, labels, edge_labels))
    return graphs


def _cases(quick):
    if quick:
        # small molecules (10-20 atoms), so that the dense reference solves stay quick
        return [dict(data="synthetic", n_graphs=n, max_nodes=20, kernel=k)
                for k, n in (("wl", 30), ("sp", 30), ("geometric", 6))]
    # GraKeL's geometric kernel takes ~5 ms a pair: 200 graphs (20 100 pairs) keep it to minutes
    cases = [dict(data="synthetic", n_graphs=n, max_nodes=40, kernel=k)
             for k, n in (("wl", 500), ("sp", 500), ("geometric", 200))]
    if shared_data("NCI1") is not None:
        cases += [dict(data="NCI1", n_graphs=4110, kernel=k) for k in ("wl", "sp")]
    return cases


def _grakel_format(graphs):
    out = []
    for adjacency, labels, *_ in graphs:
        coo = adjacency.tocoo()
        edges = {i: {} for i in range(adjacency.shape[0])}
        for i, j in zip(coo.row.tolist(), coo.col.tolist()):
            edges[i][j] = 1.0
        out.append([edges, {i: int(label) for i, label in enumerate(labels)}])
    return out


def _setup(params):
    if params["data"] == "NCI1":
        from kernelkit.datasets import load_tudataset

        graphs = load_tudataset(shared_data("NCI1"), "NCI1", as_networkx=False).graphs
    else:
        graphs = molecule_like_graphs(params["n_graphs"], max_nodes=params["max_nodes"])
    # GraKeL's geometric kernel also sums 1 over every unmatched vertex pair of every graph
    # pair: Σ_ab (n_a n_b − Σ_l c_a(l) c_b(l)) = (Σ_a n_a)² − Σ_l (Σ_a c_a(l))²
    labels = np.concatenate([np.asarray(g[1]) for g in graphs])
    unmatched = len(labels) ** 2 - int(np.sum(np.unique(labels, return_counts=True)[1] ** 2))
    return dict(params=params, graphs=graphs, grakel=_grakel_format(graphs), unmatched=unmatched,
                networkx=_networkx_format(graphs))


def _networkx_format(graphs):
    import networkx as nx

    out = []
    for adjacency, labels, *_ in graphs:
        g = nx.from_scipy_sparse_array(adjacency)
        nx.set_node_attributes(g, dict(enumerate(np.asarray(labels).tolist())), "label")
        out.append(g)
    return out


N_ITER = 5
LAMBDA = 0.01  # below 1/16 = 1/Δ² for degree <= 4: the geometric series converges


def _summary(K):
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _kernelkit(data, form="graphs"):
    from kernelkit.kernels import GeometricWalkKernel, ShortestPathKernel, WeisfeilerLehmanKernel

    kernel = {"wl": WeisfeilerLehmanKernel(n_iter=N_ITER), "sp": ShortestPathKernel(),
              "geometric": GeometricWalkKernel(lambda_=LAMBDA)}[data["params"]["kernel"]]
    return _summary(kernel.fit_transform(data[form]))


def _kernelkit_networkx(data):
    return _kernelkit(data, "networkx")


def _reference(data):
    """The reference twins driven the slow way: Python loops, dense feature counts."""
    from kernelkit import reference
    from kernelkit.kernels._graphs._bases import batch_arrays
    from kernelkit.kernels._graphs._encoding import encode_graphs

    batch, _, _ = encode_graphs(data["graphs"])
    kind = data["params"]["kernel"]
    if kind == "geometric":
        K = np.zeros((batch.n_samples, batch.n_samples))
        # many small dense solves: BLAS threads only add contention
        with threadpool_limits(limits=1, user_api="blas"):
            reference.product_graph_gram(reference.PRODUCT_GRAPH_KERNELS["geometric"],
                                         batch_arrays(batch), batch_arrays(batch), True,
                                         {"lambda_": LAMBDA}, K, 0, batch.n_samples)
        return _summary(K)
    graph_of_node = np.repeat(np.arange(batch.n_samples), np.diff(batch.node_ptr))
    if kind == "wl":
        labels, sig_ptr = batch.node_labels.copy(), batch.indptr + np.arange(batch.n_nodes + 1)
        signatures = np.zeros(sig_ptr[-1], dtype=np.int64)
        graph_ids, keys = [graph_of_node], [labels.astype(np.int64)]
        for h in range(1, N_ITER + 1):
            reference.node_signatures(batch.indptr, batch.indices, labels, signatures)
            labels = np.zeros(batch.n_nodes, dtype=np.int64)
            reference.compress_signatures(signatures, sig_ptr, np.arange(batch.n_nodes), labels)
            graph_ids.append(graph_of_node)
            keys.append((h << 32) | labels)
        graph_ids, keys, counts = np.concatenate(graph_ids), np.concatenate(keys), None
    else:
        n = np.diff(batch.node_ptr)
        key_ptr = np.r_[0, np.cumsum(n * (n - 1))].astype(np.int64)
        keys, counts = (np.zeros(max(key_ptr[-1], 1), dtype=np.int64) for _ in range(2))
        n_distinct = np.zeros(batch.n_samples, dtype=np.int64)
        reference.shortest_path_counts(batch.node_ptr, batch.indptr, batch.indices,
                                       batch.node_labels, key_ptr, keys, counts, n_distinct)
        used = np.concatenate([np.arange(key_ptr[g], key_ptr[g] + n_distinct[g])
                               for g in range(batch.n_samples)])
        graph_ids, keys, counts = np.repeat(np.arange(batch.n_samples), n_distinct), keys[used], \
            counts[used]
    vocabulary, column = np.unique(keys, return_inverse=True)
    features = np.zeros((batch.n_samples, len(vocabulary)))
    np.add.at(features, (graph_ids, column), 1.0 if counts is None else counts)
    return _summary(features @ features.T)


def _grakel(data):
    import warnings

    from grakel.kernels import RandomWalkLabeled, ShortestPath, VertexHistogram, WeisfeilerLehman

    kind = data["params"]["kernel"]
    kernel = {
        "wl": lambda: WeisfeilerLehman(n_iter=N_ITER, base_graph_kernel=VertexHistogram,
                                       normalize=False),
        "sp": lambda: ShortestPath(normalize=False, with_labels=True),
        "geometric": lambda: RandomWalkLabeled(lamda=LAMBDA, kernel_type="geometric"),
    }[kind]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        K = kernel.fit_transform(data["grakel"])
    summary = _summary(K)
    if kind == "geometric":
        # GraKeL's right-hand side is 1 on every vertex pair, each unmatched pair adding 1; its
        # CG stops at rtol=1e-6 or 20 iterations, so agreement is to that precision.
        summary["sum"] -= data["unmatched"]
        summary["trace"] = float("nan")
    return summary


def _repeats(params, quick):
    # GraKeL needs a minute or more on NCI1: one timed run there
    if quick or params["data"] == "synthetic":
        return 3
    return 1


def _small(params):
    return params["n_graphs"] <= (6 if params["kernel"] == "geometric" else 30)


SUITE = Suite(
    name="graphs",
    description="""
Gram matrix ``fit_transform`` of graph kernels, input coding included for every contender
(each from its own input format: kernelkit from ``(csr adjacency, labels)`` tuples and, for WL
and SP, from the same graphs as ``networkx.Graph`` objects, GraKeL from its edge/label
dictionaries). Kernels: Weisfeiler–Lehman (``n_iter=5``; GraKeL
``WeisfeilerLehman(n_iter=5, VertexHistogram)``), shortest path (GraKeL ``ShortestPath``), and
the geometric walk kernel with ``λ=0.01`` (200 graphs in the full profile: GraKeL needs ~5 ms a pair) (GraKeL ``RandomWalkLabeled(kernel_type="geometric")``,
conjugate gradients in both). Data: ``synthetic`` = molecule-like random graphs (10–40 atoms, 10–20 in the quick profile,
tree + ring closures, degree ≤ 4, 5 atom types) from the suite's generator, seed 0; ``NCI1`` =
the 4 110 molecules of the TU set read from ``../shared/data`` when present. ``reference`` runs
the pure-Python twins (small cases only). Values: sum and trace of K (equal for WL and SP: the
Gram matrices agree exactly; for the geometric kernel GraKeL's sum is shown minus its unmatched
vertex pairs and agrees to its CG tolerance). Ratios from alternating runs are the figure to read:
they stay fair when other jobs share the machine.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("kernelkit (networkx input)", _kernelkit_networkx,
                  applies=lambda params: params["kernel"] != "geometric"),
        Contender("reference", _reference, applies=_small),
        Contender("GraKeL", _grakel, requires=("grakel",)),
    ],
    repeats=_repeats,
    warmup=False,
    measure_memory=True,
)
