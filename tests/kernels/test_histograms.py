"""Vertex and edge histogram kernels: hand cases, the twins, GraKeL's Gram matrices.

GraKeL's ``EdgeHistogram`` counts the entries of each graph's edge-label dictionary; the TU
datasets list both orientations of every edge there, so it counts every undirected edge twice,
as ``EdgeHistogramKernel`` does.
"""

import numpy as np
import pytest
from sklearn.base import clone

from kernelkit.kernels import (
    EdgeHistogramKernel,
    VertexHistogramKernel,
    WeisfeilerLehmanKernel,
    edge_histogram_kernel,
    vertex_histogram_kernel,
)
from kernelkit.reference.graph_features import (
    edge_histogram_features,
    feature_gram,
    vertex_histogram_features,
)
from kernelkit.utils._sklearn_compat import InvalidParameterError

PATH = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
KERNELS = [VertexHistogramKernel(), EdgeHistogramKernel()]


def test_vertex_histogram_by_hand():
    path = (PATH, ["C", "C", "O"])
    edge = (np.array([[0, 1], [1, 0]]), ["C", "N"])
    np.testing.assert_array_equal(vertex_histogram_kernel([path, edge]), [[5, 2], [2, 2]])
    # N is unseen in the fitted path: it matches nothing
    np.testing.assert_array_equal(vertex_histogram_kernel([edge], [path]), [[2]])


def test_edge_histogram_counts_both_orientations():
    single = (PATH, None, {(0, 1): "-", (1, 2): "-"})
    mixed = (PATH, None, {(1, 0): "-", (2, 1): "="})
    np.testing.assert_array_equal(edge_histogram_kernel([single, mixed]), [[16, 8], [8, 8]])


def test_vertex_histogram_is_wl_without_iteration(mutag):
    graphs = mutag.graphs
    vh = VertexHistogramKernel().fit(graphs[:100])
    wl = WeisfeilerLehmanKernel(n_iter=0).fit(graphs[:100])
    np.testing.assert_array_equal(vh.transform(graphs[100:]), wl.transform(graphs[100:]))
    np.testing.assert_array_equal(vh.transform_features(graphs).toarray(),
                                  wl.transform_features(graphs).toarray())


@pytest.mark.parametrize(("kernel", "twin"),
                         [(VertexHistogramKernel(), vertex_histogram_features),
                          (EdgeHistogramKernel(), edge_histogram_features)])
def test_histograms_equal_the_twins(kernel, twin, make_graphs):
    graphs = make_graphs(30, 1, 8, n_labels=4, n_edge_labels=3)
    features = twin(graphs)
    kernel = clone(kernel)
    np.testing.assert_array_equal(kernel.fit_transform(graphs[:20]), feature_gram(features[:20]))
    np.testing.assert_array_equal(kernel.transform(graphs[20:]),
                                  feature_gram(features[20:], features[:20]))


@pytest.mark.parametrize("kernel", KERNELS, ids=["vh", "eh"])
def test_histograms_are_symmetric_psd_and_invariant_to_node_order(kernel, make_graphs,
                                                                  permute_graph, rng):
    graphs = make_graphs(25, 1, 8, n_labels=3, n_edge_labels=3)
    K = clone(kernel).fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * np.abs(K).max()
    permuted = [permute_graph(graph, rng) for graph in graphs]
    np.testing.assert_array_equal(clone(kernel).fit_transform(permuted), K)


def test_normalized_histograms_have_unit_diagonal(mutag):
    for kernel in KERNELS:
        K = clone(kernel).set_params(normalize=True).fit_transform(mutag.graphs[:50])
        np.testing.assert_allclose(np.diag(K), 1.0)


def test_edge_histogram_needs_edge_labels():
    with pytest.raises(ValueError, match="no edge labels"):
        EdgeHistogramKernel().fit([(PATH, ["C", "C", "O"])])
    with pytest.raises(InvalidParameterError, match="edge_label"):
        EdgeHistogramKernel(edge_label=None).fit([(PATH, None, {(0, 1): 1, (1, 2): 1})])


def test_vertex_histogram_of_unlabelled_graphs_follows_unlabeled_nodes():
    # the path's degrees are 1, 2, 1: constant labels, K = 3²; degrees, two 1s and one 2
    assert VertexHistogramKernel().fit_transform([(PATH, None)])[0, 0] == 9
    assert VertexHistogramKernel(unlabeled_nodes="degree").fit_transform(
        [(PATH, None)])[0, 0] == 2**2 + 1**2
    with pytest.raises(ValueError, match="graph 1 has no node labels but graph 0 has"):
        VertexHistogramKernel().fit([(PATH, ["C"] * 3), (PATH, None)])
    with pytest.raises(TypeError, match="hashable"):
        VertexHistogramKernel().fit([(PATH, [["C"], ["C"], ["O"]])])


# --- GraKeL ---------------------------------------------------------------------------------

def _grakel_kernels():
    grakel = pytest.importorskip("grakel")
    return {VertexHistogramKernel: grakel.kernels.VertexHistogram,
            EdgeHistogramKernel: grakel.kernels.EdgeHistogram}


@pytest.mark.parametrize("kernel", KERNELS, ids=["vh", "eh"])
@pytest.mark.parametrize("dataset", ["mutag", "ptc_mr"])
def test_histograms_equal_grakel(kernel, dataset, request, grakel_graphs):
    peer = _grakel_kernels()[type(kernel)]
    graphs = request.getfixturevalue(dataset).graphs
    train, test = graphs[:100], graphs[100:]
    expected = peer(normalize=False).fit_transform(grakel_graphs(graphs, edge_labels=True))
    np.testing.assert_array_equal(clone(kernel).fit_transform(graphs), expected)
    fitted = peer(normalize=False).fit(grakel_graphs(train, edge_labels=True))
    np.testing.assert_array_equal(clone(kernel).fit(train).transform(test),
                                  fitted.transform(grakel_graphs(test, edge_labels=True)))


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_vertex_histogram_equals_grakel_on_shared_data(name, shared_data, grakel_graphs):
    # neither set has edge labels: the edge histogram is checked on MUTAG and PTC_MR above
    from kernelkit.datasets import load_tudataset

    peer = _grakel_kernels()[VertexHistogramKernel]
    graphs = load_tudataset(shared_data, name, as_networkx=False).graphs[:1500]
    np.testing.assert_array_equal(VertexHistogramKernel().fit_transform(graphs),
                                  peer(normalize=False).fit_transform(grakel_graphs(graphs)))
