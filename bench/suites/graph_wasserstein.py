"""Wasserstein Weisfeiler–Lehman kernel: Gram matrices of kernelkit vs the linear-programming
twin (and the authors' ``wwl`` package where installed)."""

import numpy as np
from kernelkit.bench._harness import Contender, Suite, shared_data
from kernelkit.bench.suites.graphs import molecule_like_graphs

N_ITER = 3
GAMMA = 1.0
# the twin solves every pair's transport problem with linprog (~10 ms a pair)
_MAX_TWIN_GRAPHS = 30


def _cases(quick):
    sizes = (20,) if quick else (30, 300)
    cases = [{"data": "synthetic", "n_graphs": n, "variant": v}
             for n in sizes for v in ("labels", "attributes")]
    if not quick and shared_data("ENZYMES") is not None:
        cases += [{"data": "ENZYMES", "n_graphs": 600, "variant": v}
                  for v in ("labels", "attributes")]
    return cases


def _setup(params):
    if params["data"] == "synthetic":
        rng = np.random.default_rng(0)
        graphs = [(a, labels, None, rng.normal(size=(a.shape[0], 3)))
                  for a, labels, _ in molecule_like_graphs(params["n_graphs"], max_nodes=30)]
    else:
        from kernelkit.datasets import load_tudataset

        graphs = load_tudataset(shared_data("ENZYMES"), "ENZYMES", as_networkx=False).graphs
    return {"params": params, "graphs": graphs[:params["n_graphs"]]}


def _summary(K):
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _kernelkit(data):
    from kernelkit.kernels import WassersteinWeisfeilerLehmanKernel

    params = ({"node_label": None, "node_attributes": "attributes"}
              if data["params"]["variant"] == "attributes" else {})
    kernel = WassersteinWeisfeilerLehmanKernel(n_iter=N_ITER, gamma=GAMMA, **params)
    return _summary(kernel.fit_transform(data["graphs"]))


def _reference(data):
    from kernelkit.reference.graph_wasserstein import wwl_gram

    continuous = data["params"]["variant"] == "attributes"
    pairs = [(a, x if continuous else list(labels)) for a, labels, _, x in data["graphs"]]
    return _summary(wwl_gram(pairs, N_ITER, GAMMA, continuous))


SUITE = Suite(
    name="graph_wasserstein",
    description="""
Gram matrix ``fit_transform`` of the Wasserstein Weisfeiler–Lehman kernel (``n_iter=3``,
``gamma=1``) on discrete labels (the closed form on the tree of WL labels) and on continuous
attributes (one network simplex of POT per pair), input coding included. Data: ``synthetic`` =
the molecule-like random graphs of the ``graphs`` suite (10–30 atoms) with 3 Gaussian
attributes per node, seed 0; ``ENZYMES`` (600 proteins, 18 attributes) from the shared data
folder when present. ``reference`` runs the twin (every earth mover's distance by
``scipy.optimize.linprog``) up to 30 graphs. Values: sum and trace of K, equal in every
contender.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("reference", _reference,
                  applies=lambda params: params["n_graphs"] <= _MAX_TWIN_GRAPHS),
    ],
    repeats=lambda params, quick: 3 if quick else 1,
    warmup=False,
    measure_memory=False,
)
