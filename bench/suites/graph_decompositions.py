"""Graph kernels on rooted decompositions (NSPDK, ODD-ST): kernelkit vs GraKeL on the same
graphs."""

import warnings

import numpy as np
from kernelkit.bench._harness import Contender, Suite, shared_data
from kernelkit.bench.suites import graphs as graphs_suite

R, D = 3, 4
H = 3


def _cases(quick):
    names = ["MUTAG"]
    if not quick and shared_data("NCI1") is not None:
        names += ["ENZYMES", "NCI1"]
    return [{"data": name, "kernel": kernel} for kernel in ("nspdk", "oddst") for name in names]


def _setup(params):
    from kernelkit.datasets import load_mutag, load_tudataset

    if params["data"] == "MUTAG":
        graphs = load_mutag(as_networkx=False).graphs
    else:
        graphs = load_tudataset(shared_data("NCI1"), params["data"], as_networkx=False).graphs
    edge_labelled = graphs[0][2] is not None
    # GraKeL's NSPDK needs edge labels: one label for every edge when the set has none
    graphs = [(a, labels, e if edge_labelled else dict.fromkeys(zip(*a.nonzero()), 0))
              for a, labels, e, *_ in graphs]
    return {"params": params, "graphs": graphs, "grakel": _grakel_format(graphs),
            "edge_label": "label" if edge_labelled else None}


def _grakel_format(graphs):
    """GraKeL's ``[edges, node labels, edge labels]`` dictionaries of ``(adjacency, labels,
    {(i, j): label})`` tuples."""
    out = graphs_suite._grakel_format(graphs)
    for entry, (_, _, edge_labels) in zip(out, graphs):
        entry.append({(int(i), int(j)): int(label) for (i, j), label in edge_labels.items()})
    return out


def _summary(K):
    return {"sum": float(K.sum()), "trace": float(np.trace(K))}


def _kernelkit(data):
    from kernelkit.kernels import (
        NeighborhoodSubgraphPairwiseDistanceKernel,
        ODDSTKernel,
    )

    if data["params"]["kernel"] == "oddst":
        kernel = ODDSTKernel(h=H)
    else:
        kernel = NeighborhoodSubgraphPairwiseDistanceKernel(
            r=R, d=D, edge_label=data["edge_label"], normalize=False)
    return _summary(kernel.fit_transform(data["graphs"]))


def _grakel(data):
    from grakel.kernels import NeighborhoodSubgraphPairwiseDistance, OddSth

    if data["params"]["kernel"] == "oddst":
        kernel = OddSth(h=H)
    else:
        kernel = NeighborhoodSubgraphPairwiseDistance(r=R, d=D)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        K = kernel.fit_transform(data["grakel"])
    return _summary(K)


def _repeats(params, quick):
    # GraKeL's NSPDK needs more than a minute on ENZYMES and NCI1: one timed run there
    return 1 if params["data"] == "NCI1" or params == {"data": "ENZYMES", "kernel": "nspdk"} \
        else 3


SUITE = Suite(
    name="graph_decompositions",
    description=f"""
Gram matrix ``fit_transform`` of the neighbourhood subgraph pairwise distance kernel
(``r={R}, d={D}``, no final normalisation: the sum of the per-level cosines; GraKeL
``NeighborhoodSubgraphPairwiseDistance``) and of the ODD-ST kernel (``h={H}``, ``lambda_=1``;
GraKeL ``OddSth(h={H})``), input coding included for each contender (kernelkit from
``(csr adjacency, labels, edge labels)`` tuples, GraKeL from its edge/label dictionaries). Data: MUTAG
(shipped, bond types as edge labels), ENZYMES and NCI1 (TU sets read from ``../shared/data``
when present; no edge labels, so one label for every edge). Values: sum and trace of K. They
differ by design: GraKeL codes a neighbourhood by its nodes in id order (renumbering a graph
changes its features) and its balls grow by doubling past radius 2 (its radius 3 is the ball of
radius 4); the parts both compute alike (radius 0, distances 0 to 2) agree to rounding, which
``tests/kernels/test_nspdk.py`` checks on MUTAG, ENZYMES and NCI1. GraKeL's ODD-ST weighs each
tree by its count in the first graph where it occurs and orders same-label children by node id;
its feature counts equal ours at depth 1 (``tests/kernels/test_oddst.py``). Ratios from alternating runs
are the figure to read: they stay fair when other jobs share the machine.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("GraKeL", _grakel, requires=("grakel",)),
    ],
    repeats=_repeats,
    warmup=False,
)
