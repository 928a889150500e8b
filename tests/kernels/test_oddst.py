"""ODDSTKernel: hand-computed cases, kernel properties, the readable twin, GraKeL's feature
counts, why GraKeL's Gram matrix differs, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from kernelkit.bench.suites import graphs as graphs_suite

from kernelkit.kernels import ODDSTKernel, oddst_kernel
from kernelkit.reference.graph_decompositions import oddst_gram

CHAIN = (np.array([[0, 1], [1, 0]]), ["C", "O"])
PAIR = (np.zeros((2, 2)), ["C", "O"])


def _tree(edges, labels):
    adjacency = np.zeros((len(labels), len(labels)), dtype=int)
    for i, j in edges:
        adjacency[i, j] = adjacency[j, i] = 1
    return adjacency, labels


def test_hand_computed_chain_and_pair():
    # chain C-O: visits C, O, C(O), O(C); isolated C and O: visits C, O
    K = ODDSTKernel(h=1, lambda_=0.5).fit_transform([CHAIN, PAIR])
    chain_self = 2 * 0.5 + 2 * 0.25  # two single nodes (λ¹), two trees of 2 nodes (λ²)
    np.testing.assert_allclose(K, [[chain_self, 1.0], [1.0, 1.0]], rtol=1e-14)


def test_path_of_three_counts_dag_nodes():
    # path a-b-c (one label x), h=None: the visit from an end has the nodes x(x(x)), x(x), x,
    # the one from the middle x(x, x), x, x
    path = _tree([(0, 1), (1, 2)], [0, 0, 0])
    features = ODDSTKernel().fit([path]).X_fit_.known.toarray().ravel()
    # x: 1 + 1 + 2, x(x): 2, x(x(x)): 2, x(x, x): 1
    assert sorted(features.tolist()) == [1, 2, 2, 4]


def test_symmetric_psd(mutag):
    K = ODDSTKernel(h=3, lambda_=0.8).fit_transform(mutag.graphs)
    np.testing.assert_allclose(K, K.T, rtol=1e-14)
    assert np.linalg.eigvalsh(K / np.abs(K).max()).min() > -1e-10
    normalized = ODDSTKernel(h=3, lambda_=0.8, normalize=True).fit_transform(mutag.graphs)
    np.testing.assert_allclose(np.diag(normalized), 1.0, rtol=1e-12)


def test_node_order_invariance(make_graphs, permute_graph, rng):
    graphs = make_graphs(12, 1, 9)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = ODDSTKernel(h=3)
    np.testing.assert_array_equal(kernel.fit_transform(permuted), kernel.fit_transform(graphs))


@pytest.mark.parametrize(("h", "lambda_"), [(0, 1.0), (1, 0.5), (2, 1.0), (3, 0.3), (None, 0.9)])
def test_equals_reference_on_random_graphs(make_graphs, h, lambda_):
    graphs = [g[:2] for g in make_graphs(10, 1, 7)]
    expected = oddst_gram(graphs, h=h, lambda_=lambda_)
    got = ODDSTKernel(h=h, lambda_=lambda_).fit_transform(graphs)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_equals_reference_on_mutag(mutag_dense):
    graphs = [g[:2] for g in mutag_dense[:20]]
    np.testing.assert_allclose(ODDSTKernel(h=3, lambda_=0.5).fit_transform(graphs),
                               oddst_gram(graphs, h=3, lambda_=0.5), rtol=1e-12)


def test_transform_reference_with_unseen_trees(make_graphs):
    train, test = make_graphs(8, 2, 7, n_labels=2), make_graphs(5, 2, 7, n_labels=3)
    expected = oddst_gram(test, train, h=2, lambda_=0.5, normalize=True)
    got = ODDSTKernel(h=2, lambda_=0.5, normalize=True).fit(train).transform(test)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    np.testing.assert_allclose(oddst_kernel(test, train, h=2, lambda_=0.5, normalize=True),
                               expected, rtol=1e-12)


@pytest.mark.parametrize("normalize", [False, True])
def test_transform_features_give_the_gram(mutag, normalize):
    graphs = mutag.graphs[:50]
    kernel = ODDSTKernel(h=2, lambda_=0.6, normalize=normalize).fit(graphs[:30])
    features_fit = kernel.transform_features(graphs[:30])
    features = kernel.transform_features(graphs[30:])
    assert sp.issparse(features) and features.shape == (20, len(kernel.feature_keys_))
    np.testing.assert_allclose((features @ features_fit.T).toarray(),
                               kernel.transform(graphs[30:]), rtol=1e-12)


def test_one_thread_equals_two(mutag):
    one = ODDSTKernel(n_jobs=1).fit_transform(mutag.graphs)
    two = ODDSTKernel(n_jobs=2).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(one, two)


def test_deep_visits_stay_finite():
    # a chain of 70 diamonds: the uncut visit from an end unfolds to a tree of more than 2⁷⁰
    # nodes (one per path); sizes saturate, λ^size underflows to 0 for λ < 1, and the kernel
    # stays finite
    edges = []
    for k in range(70):
        top, left, right, bottom = 3 * k, 3 * k + 1, 3 * k + 2, 3 * k + 3
        edges += [(top, left), (top, right), (left, bottom), (right, bottom)]
    diamonds = _tree(edges, [0] * (3 * 70 + 1))
    for lambda_ in (1.0, 0.5):
        K = ODDSTKernel(lambda_=lambda_).fit_transform([diamonds])
        assert np.isfinite(K).all() and K[0, 0] > 0


@pytest.mark.parametrize(("params", "match"), [
    ({"h": -1}, "h"), ({"h": 1.5}, "h"), ({"lambda_": 0.0}, "lambda_"),
    ({"lambda_": 1.5}, "lambda_"), ({"lambda_": "1"}, "lambda_"),
])
def test_bad_parameters(params, match):
    with pytest.raises((ValueError, TypeError), match=match):
        ODDSTKernel(**params).fit([CHAIN])


def test_bad_graphs():
    with pytest.raises(ValueError, match="graph 1 has no node labels but graph 0 has"):
        ODDSTKernel().fit([CHAIN, (CHAIN[0],)])
    with pytest.raises(ValueError, match="no nodes"):
        ODDSTKernel().fit([(np.zeros((0, 0)), [])])
    with pytest.raises(ValueError, match="self-loop"):
        ODDSTKernel().fit([(np.eye(2), [0, 1])])
    with pytest.raises(TypeError, match="hashable"):
        ODDSTKernel().fit([(CHAIN[0], [[0], [1]])])


# --- GraKeL -------------------------------------------------------------------------------------


def _grakel_unit_weight_gram(peer):
    """GraKeL's Gram matrix with every tree weighed 1: its feature counts, ``Φ Φᵀ``."""
    entries = peer.X[0].values()
    phi = np.array([entry[1] for entry in entries], dtype=np.float64)
    return phi.T @ phi


def test_counts_equal_grakel_at_depth_one(mutag):
    """At depth 1 every tree is a node and its children, all leaves: GraKeL's order of the
    children is then canonical and its feature counts are ours."""
    pytest.importorskip("grakel")
    from grakel.kernels import OddSth

    peer = OddSth(h=1)
    peer.fit_transform(graphs_suite._grakel_format(mutag.graphs))
    np.testing.assert_array_equal(ODDSTKernel(h=1).fit_transform(mutag.graphs),
                                  _grakel_unit_weight_gram(peer))


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_counts_equal_grakel_at_depth_one_on_shared_sets(shared_data, name):
    pytest.importorskip("grakel")
    from grakel.kernels import OddSth

    from kernelkit.datasets import load_tudataset

    graphs = load_tudataset(shared_data, name, as_networkx=False).graphs[:300]
    peer = OddSth(h=1)
    peer.fit_transform(graphs_suite._grakel_format(graphs))
    np.testing.assert_array_equal(ODDSTKernel(h=1).fit_transform(graphs),
                                  _grakel_unit_weight_gram(peer))


def test_grakel_weights_depend_on_graph_order(mutag):
    """Why GraKeL's Gram matrix differs: it weighs each tree by its count in the first graph of
    the input where it occurs, so reversing the input changes the kernel values."""
    pytest.importorskip("grakel")
    from grakel.kernels import OddSth

    graphs = graphs_suite._grakel_format(mutag.graphs[:10])
    forward = OddSth(h=1).fit_transform(graphs)
    backward = OddSth(h=1).fit_transform(graphs[::-1])[::-1, ::-1]
    assert np.abs(forward - backward).max() > 1
    ours = ODDSTKernel(h=1).fit_transform(mutag.graphs[:10])
    np.testing.assert_array_equal(ODDSTKernel(h=1).fit_transform(mutag.graphs[:10][::-1]),
                                  ours[::-1, ::-1])


def test_grakel_child_order_depends_on_node_ids():
    """Why GraKeL's features differ beyond depth 1: it orders same-label children by node id,
    not by their subtrees. The tree C0-C1, C0-C2, C1-O3 renumbered with nodes 1 and 2 swapped
    is the same graph, yet GraKeL's kernel between the two is below their self-similarities."""
    pytest.importorskip("grakel")
    from grakel.kernels import OddSth

    first = _tree([(0, 1), (0, 2), (1, 3)], [6, 6, 6, 8])  # atomic numbers: C, O
    second = _tree([(0, 2), (0, 1), (2, 3)], [6, 6, 6, 8])
    peer_input = graphs_suite._grakel_format(
        [(sp.csr_array(a), labels, None) for a, labels in (first, second)])
    K = OddSth(h=2).fit_transform(peer_input)
    assert K[0, 1] < min(K[0, 0], K[1, 1])
    ours = ODDSTKernel(h=2).fit_transform([first, second])
    assert ours[0, 1] == ours[0, 0] == ours[1, 1]


def test_ctrl_c_stops_the_core(ctrl_c):
    # uncut visits of a random graph of 3000 nodes (degree ~30), eight times: a BFS and 3000
    # sorted codes per root, 9e6 tree visits to sort per graph; seconds per graph
    setup = """
    import scipy.sparse as sp
    from kernelkit.kernels import ODDSTKernel
    A = sp.triu(sp.random_array((3000, 3000), density=0.01, random_state=0), k=1)
    A = sp.csr_array(((A + A.T) > 0).astype(float))
    run = lambda: ODDSTKernel(n_jobs=2).fit_transform([(A, [0] * 3000)] * 8)
    """
    assert ctrl_c(setup) == ["interrupted"]
