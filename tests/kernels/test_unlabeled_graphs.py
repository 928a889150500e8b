"""Unlabelled graphs, one rule for every graph kernel: every adjacency form, both rules, the
errors that keep a misspelt label attribute from giving an unlabelled kernel, 5 000 nodes."""

import tracemalloc

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from kernelkit.kernels import _graphs
from kernelkit.kernels._graphs._bases import GraphKernel


def _public_graph_kernels():
    return [getattr(_graphs, name) for name in _graphs.__all__
            if isinstance(getattr(_graphs, name), type)
            and issubclass(getattr(_graphs, name), GraphKernel)]


KERNELS = _public_graph_kernels()
RULES = ("constant", "degree")


def _kernel(cls, rule=None):
    """``cls`` set up for graphs with no labels of any kind: no attributes, no edge labels,
    seeded; ``rule`` (when it has ``unlabeled_nodes``, or its base kernel has) for the nodes."""
    kernel = cls()
    params = kernel.get_params(deep=False)
    fixed = {name: None for name in ("node_attributes", "edge_label")
             if name in params and not _needs(cls, name)}
    if "random_state" in params:
        fixed["random_state"] = 0
    kernel.set_params(**fixed)
    if rule is not None:
        target = kernel.base_kernel if "base_kernel" in params else kernel
        if target is None:
            kernel.set_params(base_kernel=_default_base(kernel))
            target = kernel.base_kernel
        target.set_params(unlabeled_nodes=rule)
    return kernel


def _needs(cls, name):
    """Whether ``cls`` cannot do without the input ``name`` (None is not among its values)."""
    return name in cls._parameter_constraints and None not in cls._parameter_constraints[name]


def _default_base(kernel):
    return clone(kernel._base())


def _has_rule(cls):
    kernel = cls()
    params = kernel.get_params(deep=False)
    if "base_kernel" in params:
        return "unlabeled_nodes" in _default_base(kernel).get_params()
    return "unlabeled_nodes" in params


RULED = [cls for cls in KERNELS if _has_rule(cls)]


@pytest.mark.parametrize("cls", KERNELS, ids=lambda cls: cls.__name__)
def test_every_kernel_reading_node_labels_takes_the_rule(cls):
    params = cls().get_params(deep=False)
    assert ("node_label" in params) == ("unlabeled_nodes" in params)
    if "unlabeled_nodes" in params:
        assert params["unlabeled_nodes"] == "constant"
        assert "unlabeled_nodes" in cls.__doc__  # its own text, or "as in" a sibling's


def _adjacencies(rng, n_graphs=5):
    """Random connected-ish graphs of 4 to 8 nodes, as dense 0/1 arrays."""
    out = []
    for _ in range(n_graphs):
        n = int(rng.integers(4, 9))
        upper = np.triu(rng.random((n, n)) < 0.45, 1)
        upper[np.arange(n - 1), np.arange(1, n)] = True  # a path through all nodes
        out.append((upper | upper.T).astype(np.int64))
    return out


FORMS = {
    "networkx": lambda A: nx.from_numpy_array(A),
    "dense": lambda A: A,
    "csr_array": sp.csr_array,
    "csr_matrix": sp.csr_matrix,
    "coo_array": sp.coo_array,
    "lil_matrix": sp.lil_matrix,
    "tuple (A,)": lambda A: (sp.csr_array(A),),
    "tuple (A, None)": lambda A: (A, None),
}


def _explicit_labels(A, rule):
    """The labels the rule gives, written out: None on every node, or the degrees."""
    return [None] * len(A) if rule == "constant" else A.sum(axis=1).tolist()


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("cls", KERNELS, ids=lambda cls: cls.__name__)
def test_every_form_of_an_unlabelled_graph_gives_one_gram(rng, cls, form):
    adjacencies = _adjacencies(rng)
    kernel = _kernel(cls)
    if _needs(cls, "edge_label"):  # the edge histogram: edge labels are its whole input
        with pytest.raises(ValueError, match="has no edge labels|no 'label' attribute"):
            clone(kernel).fit_transform([FORMS[form](A) for A in adjacencies])
        return
    expected = clone(kernel).fit_transform([(A, None) for A in adjacencies])
    got = clone(kernel).fit_transform([FORMS[form](A) for A in adjacencies])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)
    assert np.all(np.isfinite(got))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("cls", RULED, ids=lambda cls: cls.__name__)
def test_the_rule_is_the_labels_it_names(rng, cls, rule):
    # the exact property: unlabelled graphs under a rule are the graphs labelled as it says,
    # whether the labels are absent (networkx, bare sparse, bare dense) or ignored
    adjacencies = _adjacencies(rng)
    labelled = [(A, _explicit_labels(A, rule)) for A in adjacencies]
    kernel = _kernel(cls, rule)
    expected = clone(kernel).set_params(**_labels_read(kernel)).fit_transform(labelled)
    for form in ("networkx", "csr_array", "dense"):
        got = clone(kernel).fit_transform([FORMS[form](A) for A in adjacencies])
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0, err_msg=form)
    ignored = clone(kernel).set_params(**_labels_ignored(kernel)).fit_transform(
        [(A, ["a"] * len(A)) for A in adjacencies])
    np.testing.assert_allclose(ignored, expected, rtol=1e-12, atol=0)


def _labels_read(kernel):
    """The parameters that make ``kernel`` (or its base kernel) read the node labels."""
    return _on_labelled_part(kernel, "label")


def _labels_ignored(kernel):
    return _on_labelled_part(kernel, None)


def _on_labelled_part(kernel, node_label):
    if "base_kernel" in kernel.get_params(deep=False):
        base = kernel.base_kernel or _default_base(kernel)
        return {"base_kernel": clone(base).set_params(node_label=node_label)}
    return {"node_label": node_label}


@pytest.mark.parametrize("cls", RULED, ids=lambda cls: cls.__name__)
def test_a_misspelt_label_attribute_is_an_error(cls):
    graphs = [nx.path_graph(3), nx.cycle_graph(4)]
    for g in graphs:
        nx.set_node_attributes(g, "C", "label")
    kernel = _kernel(cls)
    kernel.set_params(**_on_labelled_part(kernel, "lable"))
    with pytest.raises(ValueError, match=r"no 'lable' attribute \(its attributes: 'label'\)"):
        kernel.fit_transform(graphs)


@pytest.mark.parametrize("cls", RULED, ids=lambda cls: cls.__name__)
def test_labelled_and_unlabelled_graphs_never_meet(cls):
    labelled = nx.path_graph(3)
    nx.set_node_attributes(labelled, 1, "label")
    unlabelled = nx.path_graph(3)
    kernel = _kernel(cls)
    kernel.set_params(**_labels_read(kernel))
    for X in ([labelled, unlabelled], [(nx.to_numpy_array(labelled), [1, 1, 1]),
                                       sp.csr_array(nx.to_numpy_array(unlabelled))]):
        with pytest.raises(ValueError, match="graph 1 has no node labels but graph 0 has"):
            clone(kernel).fit(X)
    fitted = clone(kernel).fit([labelled])
    with pytest.raises(ValueError, match="these graphs have no node labels but the fitted"):
        fitted.transform([unlabelled])
    fitted = clone(kernel).fit([unlabelled])
    with pytest.raises(ValueError, match="the fitted graphs have no node labels but these"):
        fitted.transform([labelled])


def test_a_single_adjacency_is_not_a_list_of_graphs():
    kernel = _kernel(KERNELS[0])
    for X in (sp.csr_array(np.eye(3)), (sp.csr_array(np.eye(3)),)):
        with pytest.raises(TypeError, match="single graph"):
            kernel.fit(X)


LARGE = 5000


def _large_graph():
    """A sparse random graph of 5 000 nodes (about 3 edges a node), as a CSR array."""
    g = nx.gnm_random_graph(LARGE, 3 * LARGE, seed=0)
    return nx.to_scipy_sparse_array(g, format="csr")


# Kernels whose memory grows with the square of the graph's size by their method (documented
# in their docstrings), and parameters that keep the others' time in seconds.
QUADRATIC = {
    "ShortestPathKernel": "a key and a count per ordered node pair",
    "CoreFrameworkKernel": "its default base kernel is the shortest-path kernel",
    "ODDSTKernel": "h=None: every node's DAG covers its component",
    "GraphHopperKernel": "M_v holds (diameter + 1)(diameter + 2) / 2 counts per node",
    "PyramidMatchKernel": "the embedding takes the eigenvectors of the dense adjacency",
    "MarginalizedKernel": "Kashima's recursion holds a value per pair of states of two graphs",
}
LARGE_PARAMS = {
    "GraphletKernel": {"n_graphlet_samples": 2000},  # exhaustive: all C(n, 3) triples
    "NeighborhoodSubgraphPairwiseDistanceKernel": {"r": 1, "d": 2},
    "SubtreeKernel": {"variant": "subsets", "depth": 2},  # "matchings": degrees up to 16
    "GeometricWalkKernel": {"lambda_": 0.001},  # 0.01 diverges at degree 17
    "PathKernel": {"max_length": 2},  # memory: one row per simple path, ~ degree^length
    "MarginalizedKernel": {"n_iter": 3},
    "TreeletKernel": {"max_size": 5},  # 6 nodes: ~2·10⁸ partial treelets, refused as minutes
}


@pytest.mark.slow
@pytest.mark.parametrize("cls", KERNELS, ids=lambda cls: cls.__name__)
def test_a_graph_of_5000_nodes(cls):
    if _needs(cls, "edge_label"):
        pytest.skip("needs edge labels, which a bare adjacency has not")
    A = _large_graph()
    kernel = _kernel(cls).set_params(**LARGE_PARAMS.get(cls.__name__, {}))
    tracemalloc.start()
    try:
        K = kernel.fit_transform([A, A[:2500, :2500]])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert K.shape == (2, 2) and np.all(np.isfinite(K))
    np.testing.assert_allclose(K, K.T, rtol=1e-9)
    if cls.__name__ not in QUADRATIC:
        # a dense n × n float64 array of the large graph alone would be 200 MB
        assert peak < 100e6, f"{peak / 1e6:.0f} MB"
