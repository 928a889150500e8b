"""Graph input: every accepted form gives the same kernel; bad input gives clear errors."""

import pickle

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from kernelkit.kernels import (
    ShortestPathKernel,
    VertexHistogramKernel,
    WalkKernel,
    WeisfeilerLehmanKernel,
)
from kernelkit.kernels._graphs._encoding import encode_graphs


def _as_networkx(graph, node_attr="label", edge_attr="label"):
    adjacency, labels, elabels = graph
    g = nx.Graph()
    g.add_nodes_from((f"v{i}", {node_attr: f"L{label}"}) for i, label in enumerate(labels))
    for i, j in zip(*np.nonzero(np.triu(adjacency))):
        g.add_edge(f"v{i}", f"v{j}", **{edge_attr: int(elabels[i, j])})
    return g


def test_all_input_forms_give_the_same_kernel(make_graphs):
    graphs = make_graphs(6, max_nodes=6, n_edge_labels=2)
    forms = {
        "dense": graphs,
        "sparse": [(sp.csr_array(a), list(lab), e) for a, lab, e in graphs],
        "coo with dict labels": [(sp.coo_matrix(a), dict(enumerate(lab)),
                                  {(int(i), int(j)): int(e[i, j]) for i, j in zip(*np.nonzero(a))})
                                 for a, lab, e in graphs],
        "networkx": [_as_networkx(g) for g in graphs],
        "networkx, other attribute names": [_as_networkx(g, "atom", "bond") for g in graphs],
        # nodes 0, ..., n - 1 in order are read without an index map; in another order, with one
        "networkx, nodes 0..n-1": [nx.convert_node_labels_to_integers(_as_networkx(g))
                                   for g in graphs],
        "networkx, nodes 0..n-1 reversed": [
            nx.relabel_nodes(_as_networkx(g), {f"v{i}": len(g[1]) - 1 - i
                                               for i in range(len(g[1]))})
            for g in graphs],
    }
    for kernel in (WalkKernel(n=2, edge_label="label"),
                   WeisfeilerLehmanKernel(n_iter=2, edge_label="label")):
        expected = kernel.fit_transform(forms["dense"])
        for name, X in forms.items():
            params = {"node_label": "atom", "edge_label": "bond"} if "other" in name else {}
            params = {k: v for k, v in params.items() if k in kernel.get_params()}
            np.testing.assert_array_equal(kernel.set_params(**params).fit_transform(X), expected,
                                          err_msg=name)
            kernel.set_params(node_label="label")
            if "edge_label" in kernel.get_params():
                kernel.set_params(edge_label="label")


def test_batch_layout():
    graphs = [(np.array([[0, 1], [1, 0]]), ["b", "a"]),
              (np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]), ["a", "c", "b"])]
    batch, codes, _ = encode_graphs(graphs)
    np.testing.assert_array_equal(batch.node_ptr, [0, 2, 5])
    np.testing.assert_array_equal(batch.indptr, [0, 1, 2, 4, 5, 6])
    np.testing.assert_array_equal(batch.indices, [1, 0, 3, 4, 2, 2])
    assert codes == {"b": 0, "a": 1, "c": 2}
    np.testing.assert_array_equal(batch.node_labels, [0, 1, 1, 2, 0])
    # at transform, known labels keep their codes and new ones get fresh codes
    other, _, _ = encode_graphs([(np.zeros((3, 3)), ["z", "a", "z"])], node_codes=codes)
    np.testing.assert_array_equal(other.node_labels, [3, 1, 3])
    assert codes == {"b": 0, "a": 1, "c": 2}


@pytest.mark.parametrize(
    "X, error, match",
    [
        ([(np.array([[0, 1], [0, 0]]), [0, 0])], ValueError, "directed"),
        ([(np.array([[0, 1, 0], [1, 0, 0]]), [0, 0])], ValueError, "square"),
        ([(np.array([[1, 1], [1, 0]]), [0, 0])], ValueError, "self-loop"),
        ([(np.array([[0, np.nan], [np.nan, 0]]), [0, 0])], ValueError, "NaN"),
        ([(np.zeros((0, 0)), [])], ValueError, "no nodes"),
        ([(np.array([[0, 1], [1, 0]]), [0])], ValueError, "1 node labels for 2 nodes"),
        ([(np.array([[0, 1], [1, 0]]),), (np.eye(2)[::-1], [0, 0])], ValueError,
         "graph 0 has no node labels but graph 1 has"),
        ([(np.array([["a", "b"], ["b", "a"]]), [0, 0])], TypeError, "numeric"),
        ([(np.array([[0, 1], [1, 0]]), [[0], [1]])], TypeError, "hashable"),
        ([np.eye(2)], ValueError, "self-loop"),
        ([[[0, 1], [1, 0]]], TypeError, "networkx.Graph"),
        ("graphs", TypeError, "sequence of graphs"),
        ([], ValueError, "no graph"),
    ],
)
def test_bad_input_is_rejected_clearly(X, error, match):
    with pytest.raises(error, match=match):
        WeisfeilerLehmanKernel().fit(X)


@pytest.mark.parametrize("adjacency, match", [
    (np.array([[0, 1], [0, 0]]), "graph 1 is directed"),
    (np.array([[1, 1], [1, 0]]), "graph 1 has a self-loop"),
    (np.array([[0, 1, 0], [1, 0, 0]]), "graph 1: adjacency must be a square matrix"),
    (np.array([[0, np.nan], [np.nan, 0]]), "graph 1: adjacency contains NaN"),
    (sp.csr_matrix((np.ones(1), np.array([5]), np.array([0, 1, 1])), shape=(2, 2)),
     "graph 1: the adjacency is a malformed CSR"),
])
def test_a_label_only_kernel_checks_the_adjacencies_it_does_not_use(adjacency, match):
    """The vertex histogram reads no edge, yet refuses a bad adjacency as the kernels reading
    them do, naming the graph."""
    X = [(np.array([[0, 1], [1, 0]]), [0, 1]), (adjacency, [0, 0])]
    messages = []
    for kernel in (VertexHistogramKernel(), WeisfeilerLehmanKernel()):
        with pytest.raises(ValueError, match=match) as error:
            kernel.fit(X)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


# symmetry is checked on keys i * n_nodes + j: int32 up to 46 340 nodes in all, int64 beyond
@pytest.mark.parametrize("n_nodes", [50, 50_000])
def test_directed_graphs_are_named_whatever_the_width_of_the_keys(n_nodes):
    path = (sp.diags_array([np.ones(n_nodes - 1)] * 2, offsets=[-1, 1], format="csr"),
            np.zeros(n_nodes))
    directed = (np.array([[0, 1], [0, 0]]), [0, 0])
    batch, _, _ = encode_graphs([path, (np.array([[0, 1], [1, 0]]), [0, 0])])
    np.testing.assert_array_equal(np.diff(batch.indptr), [1] + [2] * (n_nodes - 2) + [1, 1, 1])
    # the last two path nodes' neighbours, then the edge's
    np.testing.assert_array_equal(batch.indices[-5:], [n_nodes - 3, n_nodes - 1, n_nodes - 2,
                                                       n_nodes + 1, n_nodes])
    with pytest.raises(ValueError, match="graph 1 is directed"):
        encode_graphs([path, directed])
    with pytest.raises(ValueError, match="graph 0 is directed"):
        encode_graphs([directed, path])


def test_a_one_dimensional_sparse_adjacency_is_named():
    X = [(sp.csr_array(np.array([1.0, 0.0, 2.0])), [0, 0, 0])]
    with pytest.raises(ValueError, match="graph 0: the adjacency is a 1-d sparse array"):
        encode_graphs(X)


def test_networkx_errors():
    unlabelled = nx.path_graph(3)
    # ordered pairs: 4 at distance 1, 2 at distance 2 (nodes without attributes: unlabelled)
    assert ShortestPathKernel().fit_transform([unlabelled])[0, 0] == 4**2 + 2**2
    assert ShortestPathKernel(node_label=None).fit_transform([unlabelled])[0, 0] == 4**2 + 2**2
    nx.set_node_attributes(unlabelled, 0, "colour")
    with pytest.raises(ValueError, match="has no 'label' attribute"):
        ShortestPathKernel().fit([unlabelled])
    directed = nx.DiGraph([(0, 1)])
    nx.set_node_attributes(directed, 0, "label")
    with pytest.raises(ValueError, match="directed"):
        ShortestPathKernel().fit([directed])
    g = nx.path_graph(3)
    nx.set_node_attributes(g, 0, "label")
    with pytest.raises(ValueError, match="edge .* has no 'label' attribute"):
        WalkKernel(edge_label="label").fit([g])


def test_edge_labels_must_be_given_and_symmetric():
    adjacency = np.array([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="no edge labels"):
        WalkKernel(edge_label="label").fit([(adjacency, [0, 0])])
    with pytest.raises(ValueError, match="symmetric"):
        WalkKernel(edge_label="label").fit([(adjacency, [0, 0], np.array([[0, 1], [2, 0]]))])
    with pytest.raises(ValueError, match=r"edge \(0, 1\) has no edge label"):
        WalkKernel(edge_label="label").fit([(adjacency, [0, 0], {(5, 6): 1})])


def test_a_single_graph_instead_of_a_list_is_named():
    # a networkx graph iterates over its nodes, and the error read "graph 0 is a int"
    g = nx.path_graph(4)
    nx.set_node_attributes(g, "a", "label")
    single = (np.eye(3), ["a", "b", "a"])
    for X in (g, single):
        with pytest.raises(TypeError, match="single graph"):
            WeisfeilerLehmanKernel().fit_transform(X)
    assert WeisfeilerLehmanKernel().fit_transform([g]).shape == (1, 1)


def test_malformed_sparse_adjacency_is_refused(sparse_inputs):
    """Inconsistent index arrays of a sparse adjacency are refused before scipy merges its
    entries (a decreasing indptr corrupted the heap)."""
    sparse_inputs.assert_refused("""
        import networkx as nx
        from kernelkit.kernels import WeisfeilerLehmanKernel
        def make():
            return sp.csr_matrix(nx.to_scipy_sparse_array(nx.cycle_graph(6)))
        """, ["WeisfeilerLehmanKernel(n_iter=2).fit_transform([(X, [0, 1, 0, 1, 0, 1])])"],
        name="graph 0: the adjacency")


def test_every_sparse_layout_gives_the_kernel_of_the_csr_adjacency(sparse_inputs):
    adjacency = sp.csr_matrix(nx.to_scipy_sparse_array(nx.petersen_graph()))
    labels = list(range(5)) * 2
    kernel = WeisfeilerLehmanKernel(n_iter=2)
    expected = kernel.fit_transform([(adjacency, labels)] * 2)
    for case, given in sparse_inputs.equivalent(adjacency):
        np.testing.assert_array_equal(kernel.fit_transform([(given, labels), (adjacency, labels)]),
                                      expected, err_msg=case)
def _path_with_labels(labels, edge_labels=None):
    graph = nx.path_graph(len(labels))
    nx.set_node_attributes(graph, dict(enumerate(labels)), "label")
    if edge_labels is not None:
        nx.set_edge_attributes(graph, dict(zip(graph.edges, edge_labels)), "label")
    return graph


@pytest.mark.parametrize("nans", [
    (float("nan"), np.float64("nan")), (np.float32("nan"), float("nan")),
    (complex("nan"), np.nan)], ids=["float-float64", "float32-float", "complex-numpy"])
def test_nan_labels_made_separately_are_one_label(nans):
    # NaN != NaN, and a dict matches different NaN objects by identity only
    with_nan = [_path_with_labels([0, nans[0], 1], [nans[0], 2]),
                _path_with_labels([0, nans[1], 1], [nans[1], 2])]
    with_x = [_path_with_labels([0, "x", 1], ["x", 2]), _path_with_labels([0, "x", 1], ["x", 2])]
    kernel = WeisfeilerLehmanKernel(n_iter=2, edge_label="label", normalize=False)
    np.testing.assert_array_equal(kernel.fit_transform(with_nan), kernel.fit_transform(with_x))
    # the code learned at fit is found at transform, also by an unpickled kernel
    fitted = pickle.loads(pickle.dumps(clone(kernel).fit(with_nan[:1])))
    np.testing.assert_array_equal(fitted.transform(with_nan[1:]),
                                  kernel.fit(with_x[:1]).transform(with_x[1:]))
    # in tuples, every read of a float array gives a new NaN object
    A = np.array([[0, 1], [1, 0]])
    batch, codes, _ = encode_graphs([(A, np.array([np.nan, np.nan])), (A, [np.nan, 0.0])])
    np.testing.assert_array_equal(batch.node_labels, [0, 0, 0, 1])
    assert len(codes) == 2
