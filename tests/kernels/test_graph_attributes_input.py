"""Continuous node attributes as graph input: networkx and 4-tuples give the same batch; bad
attributes give clear errors naming the graph and the node."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit.kernels import ShortestPathKernel, WeisfeilerLehmanKernel
from kernelkit.kernels._graphs._encoding import encode_graphs

PATH = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])


def _attributed(rng, n_graphs=4, d=3):
    graphs = []
    for _ in range(n_graphs):
        n = int(rng.integers(1, 6))
        upper = np.triu(rng.random((n, n)) < 0.5, 1)
        adjacency = (upper | upper.T).astype(int)
        graphs.append((adjacency, rng.integers(0, 3, n).tolist(), None, rng.normal(size=(n, d))))
    return graphs


def _as_networkx(graph, name="attributes", order=None):
    adjacency, labels, _, attributes = graph
    n = len(labels)
    order = range(n) if order is None else order
    g = nx.Graph()
    g.add_nodes_from((f"v{i}", {"label": labels[i], name: attributes[i]}) for i in order)
    g.add_edges_from((f"v{i}", f"v{j}") for i, j in zip(*np.nonzero(np.triu(adjacency))))
    return g


def test_networkx_and_tuples_give_the_same_attributes(rng):
    graphs = _attributed(rng)
    from_tuples, _, _ = encode_graphs(graphs, node_attributes="attributes")
    from_networkx, _, _ = encode_graphs([_as_networkx(g, "x") for g in graphs],
                                        node_attributes="x")
    sparse = [(sp.csr_array(a), lab, None, list(map(list, x))) for a, lab, _, x in graphs]
    from_sparse, _, _ = encode_graphs(sparse, node_attributes="attributes")
    expected = np.concatenate([g[3] for g in graphs])
    for batch in (from_tuples, from_networkx, from_sparse):
        assert batch.node_attributes.dtype == np.float64
        assert batch.node_attributes.flags.c_contiguous
        np.testing.assert_array_equal(batch.node_attributes, expected)
        np.testing.assert_array_equal(batch.indptr, from_tuples.indptr)


def test_networkx_nodes_in_any_order_keep_their_attributes(rng):
    graph = _attributed(rng, 1)[0]
    n = len(graph[1])
    batch, _, _ = encode_graphs([_as_networkx(graph, order=range(n)[::-1])],
                                node_attributes="attributes")
    np.testing.assert_array_equal(batch.node_attributes, graph[3][::-1])


def test_attributes_are_none_unless_asked_for(rng):
    batch, _, _ = encode_graphs(_attributed(rng))
    assert batch.node_attributes is None


def test_labels_may_be_none_when_only_attributes_are_used():
    batch, _, _ = encode_graphs([(PATH, None, None, np.eye(3))], node_label=None,
                                node_attributes="attributes")
    np.testing.assert_array_equal(batch.node_attributes, np.eye(3))


def test_existing_kernels_ignore_the_fourth_element(rng):
    graphs = _attributed(rng, 6)
    triples = [g[:2] for g in graphs]
    for kernel in (WeisfeilerLehmanKernel(n_iter=2), ShortestPathKernel()):
        np.testing.assert_array_equal(kernel.fit_transform(graphs), kernel.fit_transform(triples))


def _nx(attributes):
    g = nx.path_graph(len(attributes))
    for v, value in enumerate(attributes):
        if value is not None:
            g.nodes[v]["attributes"] = value
    return g


@pytest.mark.parametrize("graph, message", [
    (_nx([[1.0], None]), r"graph 1: node 1 has no 'attributes' attribute"),
    (_nx([[1.0, 2.0], [1.0]]), r"graph 1: node 1 has 1 'attributes' values, node 0 has 2"),
    (_nx([[1.0], [np.nan]]), r"graph 1: node 1 has NaN or infinite"),
    (_nx([[1.0], [np.inf]]), r"graph 1: node 1 has NaN or infinite"),
    (_nx([[1.0], ["a"]]), r"graph 1: node 1 has a non-numeric 'attributes'"),
    (_nx([[1.0], {"a": 1}]), r"graph 1: node 1 has a non-numeric 'attributes'"),
    (_nx([1.0, 2.0]), r"graph 1: node 0 has a 'attributes' attribute of shape \(\)"),
    (_nx([[], []]), r"graph 1: node attribute vectors are empty"),
    (_nx([[1.0, 2.0], [3.0, 4.0]]), r"graph 1 has 2 attributes per node, graph 0 has 1"),
    ((PATH, None), r"graph 1 has no node attributes"),
    ((PATH, None, None, np.ones(3)), r"graph 1: node_attributes must have shape \(3, "),
    ((PATH, None, None, np.ones((2, 1))), r"graph 1: node_attributes must have shape \(3, "),
    ((PATH, None, None, [[1.0], [2.0, 3.0], [4.0]]), r"graph 1: .* ragged or not numeric"),
    ((PATH, None, None, [["a"], ["b"], ["c"]]), r"graph 1: .* ragged or not numeric"),
    ((PATH, None, None, [[1.0], [np.nan], [0.0]]), r"graph 1: node 1 has NaN or infinite"),
])
def test_bad_attributes_name_the_graph_and_node(graph, message):
    good = (np.zeros((1, 1)), None, None, np.zeros((1, 1)))
    with pytest.raises(ValueError, match=message):
        encode_graphs([good, graph], node_label=None, node_attributes="attributes")


def test_attribute_length_must_match_the_fitted_one():
    with pytest.raises(ValueError, match="graph 0 has 2 attributes per node, the graphs seen at "
                                         "fit have 3"):
        encode_graphs([(PATH, None, None, np.ones((3, 2)))], node_label=None,
                      node_attributes="attributes", n_attributes=3)


def test_a_single_four_tuple_is_refused_as_a_single_graph():
    with pytest.raises(TypeError, match="single graph"):
        encode_graphs((PATH, None, None, np.ones((3, 1))), node_attributes="attributes")


def test_five_tuples_are_refused():
    with pytest.raises(ValueError, match="tuple of length 5"):
        encode_graphs([(PATH, [0, 0, 0], None, np.ones((3, 1)), None)])
