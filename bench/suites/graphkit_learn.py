"""graphkit-learn's kernels: Gram matrices of kernelkit vs the pure-Python twins vs
graphkit-learn (the path kernel up to length h, the marginalised kernel)."""

import numpy as np
from kernelkit.bench._harness import Contender, Suite
from kernelkit.bench.suites.graphs import molecule_like_graphs

P_QUIT = 0.3


def _cases(quick):
    sizes = [30] if quick else [30, 188]
    datas = ("synthetic",) if quick else ("synthetic", "MUTAG")
    paths = [{"data": data, "n_graphs": n, "kernel": "path", "depth": depth, "k_func": k_func}
             for data in datas for n in sizes for depth in (2, 10)
             for k_func in ("MinMax", "tanimoto")]
    # graphkit-learn's marginalised kernel takes ~40 ms a pair at n_iteration=10: 30 graphs
    return paths + [{"data": data, "n_graphs": 30, "kernel": "marginalized", "n_iter": 10}
                    for data in datas]


def _setup(params):
    if params["data"] == "synthetic":
        graphs = molecule_like_graphs(params["n_graphs"], max_nodes=30)
    else:
        from kernelkit.datasets import load_mutag

        graphs = load_mutag(as_networkx=False).graphs[:params["n_graphs"]]
    return {"params": params, "graphs": graphs}


def _summary(K):
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _kernelkit(data):
    from kernelkit.kernels import MarginalizedKernel, PathKernel

    p = data["params"]
    if p["kernel"] == "marginalized":
        kernel = MarginalizedKernel(p_quit=P_QUIT, n_iter=p["n_iter"])
    else:
        kernel = PathKernel(max_length=p["depth"], sub_kernel=p["k_func"].lower())
    return _summary(kernel.fit_transform(data["graphs"]))


def _reference(data):
    from kernelkit.reference.graph_marginalized import marginalized_gram
    from kernelkit.reference.graph_paths import path_gram

    p = data["params"]
    if p["kernel"] == "marginalized":
        return _summary(marginalized_gram(data["graphs"], p_quit=P_QUIT, n_iter=p["n_iter"]))
    return _summary(path_gram(data["graphs"], max_length=p["depth"],
                              sub_kernel=p["k_func"].lower()))


def _networkx(graphs):
    import networkx as nx
    import scipy.sparse as sp

    out = []
    for adjacency, labels, *_ in graphs:
        graph = nx.from_scipy_sparse_array(sp.csr_array(adjacency))
        nx.set_node_attributes(graph, dict(enumerate(np.asarray(labels).tolist())), "label")
        out.append(graph)
    return out


def _graphkit_learn(data):
    from kernelkit.bench.graphkit_learn_values import marginalized_gram, path_up_to_h_gram

    p = data["params"]
    graphs = _networkx(data["graphs"])
    if p["kernel"] == "marginalized":
        return _summary(marginalized_gram(graphs, p["n_iter"], False, P_QUIT))
    return _summary(path_up_to_h_gram(graphs, p["depth"], p["k_func"], False))


SUITE = Suite(
    name="graphkit_learn",
    description="""
Gram matrix ``fit_transform`` of the marginalised kernel (``MarginalizedKernel(p_quit=0.3,
n_iter=10)`` against graphkit-learn's ``Marginalized(p_quit=0.3, n_iteration=10)``, node labels
only, on 30 graphs) and of the path kernel up to length h: kernelkit's
``PathKernel(max_length=depth, sub_kernel=k_func)`` against graphkit-learn's
``PathUpToH(depth=depth, k_func=k_func, compute_method='trie')`` (node labels only; the
networkx conversion is outside graphkit-learn's timing) and the twin
(``kernelkit.reference.graph_paths``). Data: ``synthetic`` = the molecule-like random graphs
of the ``graphs`` suite (10–30 atoms), seed 0; ``MUTAG`` (shipped). Values: sum and trace of K,
equal in every contender. Ratios from alternating runs are the figure to read.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("reference", _reference, applies=lambda params: params["n_graphs"] <= 30),
        Contender("graphkit-learn", _graphkit_learn, requires=("gklearn",)),
    ],
    repeats=lambda params, quick: 3 if quick else 1,
    warmup=False,
    measure_memory=False,
)
