"""Weisfeiler–Lehman optimal assignment kernel: the assignment it stands for, its defining
properties, its explicit features, GraKeL's Gram matrix, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from kernelkit._core import _histogram_intersection

from kernelkit.kernels import (
    WeisfeilerLehmanKernel,
    WeisfeilerLehmanOptimalAssignmentKernel,
    weisfeiler_lehman_optimal_assignment_kernel,
)
from kernelkit.reference.graph_assignment import wl_optimal_assignment_gram

PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def _pairs(graphs):
    return [(adjacency, labels) for adjacency, labels, *_ in graphs]


def test_known_small_case():
    # h = 0: both graphs have labels {C: 2, O: 1}, so 3 nodes match; h = 1: only the
    # signature (C, {C, O}) is shared, once in the path, twice in the triangle
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=1).fit_transform([PATH, TRIANGLE])
    np.testing.assert_array_equal(K, [[6, 4], [4, 6]])
    K0 = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=0).fit_transform([PATH, TRIANGLE])
    np.testing.assert_array_equal(K0, [[3, 3], [3, 3]])


def test_graphs_of_different_sizes_match_the_smaller_one():
    # a single C node is matched to one C of the path at h = 0 and, with no neighbours, to
    # nothing at h = 1
    single = (np.zeros((1, 1)), ["C"])
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=1).fit_transform([single, PATH])
    np.testing.assert_array_equal(K, [[2, 1], [1, 6]])


@pytest.mark.parametrize("n_iter", [0, 1, 3])
def test_equals_the_optimal_assignment(make_graphs, n_iter):
    graphs = make_graphs(12, 1, 7, n_labels=3)
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=n_iter).fit_transform(graphs)
    np.testing.assert_array_equal(K, wl_optimal_assignment_gram(_pairs(graphs), n_iter))


def test_equals_the_optimal_assignment_on_mutag(mutag):
    graphs = mutag.graphs[:30]
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3).fit_transform(graphs)
    np.testing.assert_array_equal(K, wl_optimal_assignment_gram(_pairs(graphs), 3))


def test_symmetric_psd_and_diagonal(make_graphs):
    graphs = make_graphs(25, 1, 8, n_labels=2)
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3).fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() > -1e-9 * np.abs(K).max()
    n_nodes = np.array([len(labels) for _, labels, *_ in graphs])
    np.testing.assert_array_equal(np.diag(K), 4 * n_nodes)
    # an intersection never exceeds the smaller graph's total
    assert np.all(K <= 4 * np.minimum.outer(n_nodes, n_nodes))


def test_invariant_to_node_order(make_graphs, permute_graph, rng):
    graphs = make_graphs(10, 2, 7, n_labels=3)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3)
    np.testing.assert_array_equal(kernel.fit(graphs).transform(permuted),
                                  kernel.fit_transform(graphs))


def test_normalize_divides_by_the_node_counts():
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=1, normalize=True).fit_transform(
        [PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, 4 / 6], [4 / 6, 1]])


def test_transform_and_function_form(mutag):
    train, test = mutag.graphs[:60], mutag.graphs[60:90]
    kernel = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2).fit(train)
    whole = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2).fit_transform(train + test)
    np.testing.assert_array_equal(kernel.transform(test), whole[60:, :60])
    np.testing.assert_array_equal(
        weisfeiler_lehman_optimal_assignment_kernel(test, train, n_iter=2), whole[60:, :60])
    np.testing.assert_array_equal(weisfeiler_lehman_optimal_assignment_kernel(train, n_iter=2),
                                  whole[:60, :60])


def test_transform_features_give_the_gram(mutag):
    train, test = mutag.graphs[:80], mutag.graphs[80:120]
    kernel = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3).fit(train)
    phi_train, phi_test = kernel.transform_features(train), kernel.transform_features(test)
    assert sp.issparse(phi_train) and phi_train.shape[1] == kernel.max_counts_.sum()
    np.testing.assert_array_equal((phi_train @ phi_train.T).toarray(),
                                  kernel.transform(train))
    np.testing.assert_array_equal((phi_test @ phi_train.T).toarray(), kernel.transform(test))


def test_threads_agree(mutag):
    one = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3, n_jobs=1).fit_transform(mutag.graphs)
    two = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3, n_jobs=2).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(one, two)


def test_core_against_dense_minimum(rng):
    a = sp.random_array((30, 40), density=0.3, random_state=rng, format="csr")
    b = sp.random_array((20, 40), density=0.3, random_state=rng, format="csr")
    a.data, b.data = np.ceil(5 * a.data), np.ceil(5 * b.data)
    out = np.zeros((30, 20))
    csc = b.tocsc()
    _histogram_intersection.intersection_gram(
        a.indptr.astype(np.intp), a.indices.astype(np.intp), a.data, csc.indptr.astype(np.intp),
        csc.indices.astype(np.intp), csc.data, out, 0, 30, 2)
    dense_a, dense_b = a.toarray(), b.toarray()
    np.testing.assert_array_equal(out, np.minimum(dense_a[:, None], dense_b[None]).sum(axis=2))


def test_shares_the_weisfeiler_lehman_labels(mutag):
    # the inner product and the intersection of the same histograms: a·b ≥ min(a, b) for
    # counts, with equality where every shared count is 1
    wl = WeisfeilerLehmanKernel(n_iter=2).fit_transform(mutag.graphs)
    oa = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2).fit_transform(mutag.graphs)
    assert np.all(wl >= oa) and np.any(wl > oa)


@pytest.mark.parametrize("params, match", [
    ({"n_iter": -1}, "n_iter"),
    ({"n_iter": 1.5}, "n_iter"),
    ({"normalize": "yes"}, "normalize"),
])
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        WeisfeilerLehmanOptimalAssignmentKernel(**params).fit([PATH])


def test_bad_input():
    kernel = WeisfeilerLehmanOptimalAssignmentKernel()
    with pytest.raises(TypeError, match="sequence of graphs"):
        kernel.fit(PATH)
    with pytest.raises(ValueError, match="no nodes"):
        kernel.fit([(np.zeros((0, 0)), [])])
    with pytest.raises(ValueError):
        kernel.fit([(np.ones((2, 3)), ["C", "C"])])
    with pytest.raises(ValueError):
        kernel.fit([(np.array([[0, 1], [1, 0]]), ["C"])])


def test_graphs_without_labels():
    import networkx as nx

    graph = nx.path_graph(4)
    K = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=1, node_label=None).fit_transform(
        [graph, nx.path_graph(3)])
    # h = 0: min(4, 3) = 3; h = 1: two ends (degree 1) shared twice, middles min(2, 1) = 1
    np.testing.assert_array_equal(K, [[8, 6], [6, 6]])
    # nodes without attributes: unlabelled graphs for the default node_label too
    np.testing.assert_array_equal(WeisfeilerLehmanOptimalAssignmentKernel(n_iter=1)
                                  .fit_transform([graph, nx.path_graph(3)]), K)
    nx.set_node_attributes(graph, 0, "colour")
    with pytest.raises(ValueError, match="has no 'label' attribute"):
        WeisfeilerLehmanOptimalAssignmentKernel().fit([graph])


# --- GraKeL ----------------------------------------------------------------------------------

def _grakel_input(graphs):
    out = []
    for adjacency, labels, *_ in graphs:
        coo = sp.coo_array(adjacency)
        edges = {i: {} for i in range(adjacency.shape[0])}
        for i, j in zip(coo.row.tolist(), coo.col.tolist()):
            edges[i][j] = 1.0
        out.append([edges, {i: int(label) for i, label in enumerate(labels)}])
    return out


@pytest.mark.parametrize("n_iter", [1, 5])
def test_equals_grakel_on_mutag(mutag, n_iter):
    # GraKeL's n_iter counts the same labellings 0..n_iter, every level weighted 1, unnormalised
    grakel = pytest.importorskip("grakel")
    expected = grakel.kernels.WeisfeilerLehmanOptimalAssignment(n_iter=n_iter).fit_transform(
        _grakel_input(mutag.graphs))
    got = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=n_iter).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(got, expected)


def test_transform_equals_grakel_on_mutag(mutag):
    grakel = pytest.importorskip("grakel")
    train, test = mutag.graphs[:120], mutag.graphs[120:]
    peer = grakel.kernels.WeisfeilerLehmanOptimalAssignment(n_iter=3, normalize=True)
    expected = peer.fit(_grakel_input(train)).transform(_grakel_input(test))
    got = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3, normalize=True).fit(train).transform(
        test)
    np.testing.assert_allclose(got, expected, rtol=1e-14, atol=0)


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_equals_grakel_on_shared_data(shared_data, name):
    from kernelkit.datasets import load_tudataset

    grakel = pytest.importorskip("grakel")
    # GraKeL compares every pair in Python (about 1 ms a pair here): 150 graphs
    graphs = load_tudataset(shared_data, name, as_networkx=False).graphs[::20][:150]
    expected = grakel.kernels.WeisfeilerLehmanOptimalAssignment(n_iter=3).fit_transform(
        _grakel_input(graphs))
    got = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=3).fit_transform(graphs)
    np.testing.assert_array_equal(got, expected)


def test_verbose_prints_one_line_per_gram(check_fast_gram_verbose, mutag):
    check_fast_gram_verbose(WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2), mutag.graphs[:20])


def test_ctrl_c_stops_the_intersection_core(ctrl_c):
    # 400 graphs sharing 20 000 labels each: 3.2e9 minima, seconds; a row takes ~10 ms
    setup = """
    import numpy as np
    from kernelkit._core import _histogram_intersection
    n, f = 400, 20_000
    indptr, indices = np.arange(0, n * f + 1, f, dtype=np.intp), np.tile(np.arange(f), n)
    colptr, rows = np.arange(0, n * f + 1, n, dtype=np.intp), np.tile(np.arange(n), f)
    counts, out = np.ones(n * f), np.zeros((n, n))
    run = lambda: _histogram_intersection.intersection_gram(
        indptr, indices, counts, colptr, rows, counts, out, 0, n, 2)
    """
    after = "print('inside' if out[-1, 0] == 0 else 'after')"
    assert ctrl_c(setup, after) == ["interrupted", "inside"]


def test_partial_fit_is_unavailable(mutag):
    """The indicator features end at the fitted maximum counts: a growing vocabulary would
    change them, so the kernel offers no partial_fit (hasattr is False, as scikit-learn's
    available_if methods)."""
    kernel = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2)
    assert not hasattr(kernel, "partial_fit")
    assert hasattr(WeisfeilerLehmanKernel(n_iter=2), "partial_fit")
    with pytest.raises(AttributeError, match="partial_fit"):
        kernel.partial_fit(mutag.graphs[:5])


def test_edge_labels_refine_the_assignment(mutag):
    """With edge labels the relabelling is WL's edge variant: the self-similarity is unchanged
    ((n_iter + 1) |V|) and no entry grows (the edge labels only split labels)."""
    plain = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2).fit_transform(mutag.graphs[:30])
    edged = WeisfeilerLehmanOptimalAssignmentKernel(n_iter=2, edge_label="label").fit_transform(
        mutag.graphs[:30])
    np.testing.assert_array_equal(np.diag(edged), np.diag(plain))
    assert np.all(edged <= plain) and np.any(edged < plain)
