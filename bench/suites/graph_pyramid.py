"""Pyramid match and core framework kernels: kernelkit vs the pure-Python twins vs GraKeL."""

import warnings

import numpy as np
from kernelkit.bench._harness import Contender, Suite, shared_data
from kernelkit.bench.suites.graphs import _grakel_format, molecule_like_graphs

# GraKeL's PyramidMatch(L) bins the levels 0..L-1: the same histograms as PyramidMatchKernel(L-1)
L = 4
D = 6
N_ITER = 3
KERNELS = ("pyramid", "core-sp", "core-wl")


def _cases(quick):
    if quick:
        return [{"data": "synthetic", "n_graphs": 60, "kernel": k} for k in KERNELS]
    cases = [{"data": "synthetic", "n_graphs": 400, "kernel": k} for k in KERNELS]
    if shared_data("NCI1") is not None:
        cases += [{"data": "ENZYMES", "n_graphs": 600, "kernel": k} for k in KERNELS]
        # GraKeL's pyramid match takes 40-100 µs a pair: 1 000 molecules (500 500 pairs) of NCI1
        cases += [{"data": "NCI1", "n_graphs": 1000, "kernel": "pyramid"}]
        cases += [{"data": "NCI1", "n_graphs": 4110, "kernel": k} for k in ("core-sp", "core-wl")]
    return cases


def _setup(params):
    if params["data"] == "synthetic":
        graphs = molecule_like_graphs(params["n_graphs"], max_nodes=40)
    else:
        from kernelkit.datasets import load_tudataset

        graphs = load_tudataset(shared_data("NCI1"), params["data"], as_networkx=False).graphs
        graphs = graphs[:params["n_graphs"]]
    return {"params": params, "graphs": graphs, "grakel": _grakel_format(graphs)}


def _summary(K):
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _kernelkit(data):
    from kernelkit.kernels import (
        CoreFrameworkKernel,
        PyramidMatchKernel,
        ShortestPathKernel,
        WeisfeilerLehmanKernel,
    )

    kernel = {"pyramid": lambda: PyramidMatchKernel(L=L, d=D),
              "core-sp": lambda: CoreFrameworkKernel(ShortestPathKernel()),
              "core-wl": lambda: CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=N_ITER)),
              }[data["params"]["kernel"]]()
    return _summary(kernel.fit_transform(data["graphs"]))


def _reference(data):
    from kernelkit.kernels import ShortestPathKernel, WeisfeilerLehmanKernel
    from kernelkit.reference import graph_pyramid

    graphs = [(adjacency.toarray(), list(labels)) for adjacency, labels, *_ in data["graphs"]]
    kind = data["params"]["kernel"]
    if kind == "pyramid":
        return _summary(graph_pyramid.pyramid_match_gram(graphs, graphs, L, D))
    base = ShortestPathKernel() if kind == "core-sp" else WeisfeilerLehmanKernel(n_iter=N_ITER)
    return _summary(graph_pyramid.core_framework_gram(
        graphs, graphs, lambda X, Y: base.fit(Y).transform(X)))


def _grakel(data):
    from grakel.kernels import (
        CoreFramework,
        PyramidMatch,
        ShortestPath,
        VertexHistogram,
        WeisfeilerLehman,
    )

    kernel = {
        "pyramid": lambda: PyramidMatch(L=L + 1, d=D),
        "core-sp": lambda: CoreFramework(base_graph_kernel=ShortestPath),
        "core-wl": lambda: CoreFramework(base_graph_kernel=(
            WeisfeilerLehman, {"n_iter": N_ITER, "base_graph_kernel": VertexHistogram})),
    }[data["params"]["kernel"]]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _summary(kernel.fit_transform(data["grakel"]))


def _repeats(params, quick):
    # GraKeL needs a minute or more on the TU sets: one timed run there
    return 3 if quick or params["data"] == "synthetic" else 1


SUITE = Suite(
    name="graph_pyramid",
    description=f"""
Gram matrix ``fit_transform`` of the pyramid match kernel (``PyramidMatchKernel(L={L},
d={D})``; GraKeL ``PyramidMatch(L={L + 1}, d={D})``, which bins the same levels 0..{L}) and of
the core framework (``CoreFrameworkKernel`` over ``ShortestPathKernel`` and
``WeisfeilerLehmanKernel(n_iter={N_ITER})``; GraKeL ``CoreFramework`` over ``ShortestPath`` and
``WeisfeilerLehman(n_iter={N_ITER}, VertexHistogram)``), input coding included for every
contender (kernelkit from ``(csr adjacency, labels)`` tuples, GraKeL from its edge/label
dictionaries). Data: ``synthetic`` = the molecule-like random graphs of the ``graphs`` suite
(10–40 atoms, seed 0); ``ENZYMES`` (600 proteins) and ``NCI1`` (4 110 molecules; the first
1 000 for the pyramid match, GraKeL taking 40–100 µs a pair there) from ``../shared/data`` when
present. ``reference`` runs the pure-Python twins (quick profile only). Values: sum and trace
of K. The core framework's are equal to GraKeL's; the pyramid match's are not comparable,
GraKeL weighting its levels otherwise (its accumulation loop adds the formula's partial sums
once per level) and drawing ARPACK's start vector at random (see ``PyramidMatchKernel``; the
tests check exact agreement level by level). Ratios from alternating runs are the figure to
read: they stay fair when other jobs share the machine.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("reference", _reference, applies=lambda params: params["n_graphs"] <= 60),
        Contender("GraKeL", _grakel, requires=("grakel",)),
    ],
    repeats=_repeats,
    warmup=False,
    measure_memory=False,
)
