"""Treelet kernel: hand counts, the brute-force twin, graphkit-learn's Gram matrices where it
counts as the paper does and the graphs where it does not, the kernel's properties, bad
input."""

import pathlib
from collections import Counter

import numpy as np
import pytest

from kernelkit.bench.treelet_graphkit_learn import DIFFERING, differing_graph
from kernelkit.kernels import TreeletKernel, treelet_kernel
from kernelkit.reference.graph_treelets import TREELET_EDGES, treelet_counts, treelet_gram

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "graphkit_learn"

PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def _adjacency(n_nodes, edges):
    adjacency = np.zeros((n_nodes, n_nodes), dtype=np.int64)
    for u, v in edges:
        adjacency[u, v] = adjacency[v, u] = 1
    return adjacency


def _shapes(graph):
    """Occurrences of each treelet shape (graphkit-learn's numbers) in ``graph``."""
    shapes = Counter()
    for (shape, _), count in treelet_counts(graph).items():
        shapes[shape] += count
    return dict(shapes)


# a star of 4 branches; a triangle with a pendant node
STAR_4 = (_adjacency(5, [(0, 1), (0, 2), (0, 3), (0, 4)]), None)
PENDANT_TRIANGLE = (_adjacency(4, [(0, 1), (1, 2), (0, 2), (2, 3)]), None)


def test_each_treelet_occurs_once_in_itself():
    for shape, edges in TREELET_EDGES.items():
        n_nodes = len(edges) + 1
        counts = _shapes((_adjacency(n_nodes, edges), None))
        assert counts[shape] == 1
        assert counts[0] == n_nodes and counts.get(1, 0) == len(edges)


def test_hand_counts():
    # triangle: 3 nodes, 3 edges, 3 paths of 3 nodes (one per middle node), nothing else
    assert _shapes(TRIANGLE) == {0: 3, 1: 3, 2: 3}
    assert treelet_counts(TRIANGLE)[(2, ("C", ((0, ("C", ())), (0, ("O", ())))))] == 2
    # a star of 4 branches: C(4, 2) paths of 3 nodes, C(4, 3) stars of 3, one star of 4
    assert _shapes(STAR_4) == {0: 5, 1: 4, 2: 6, 6: 4, 8: 1}
    # triangle with a pendant node: 4 + 4 + 5 (pairs of edges at a node) + 2 (paths of 4
    # nodes through the pendant edge), one 3-star at the node of degree 3; a cycle is no tree
    assert _shapes(PENDANT_TRIANGLE) == {0: 4, 1: 4, 2: 5, 3: 2, 6: 1}


def test_known_gram_values():
    # path C-C-O: {C: 2, O: 1, CC: 1, CO: 1, CCO: 1}; triangle: {C: 2, O: 1, CC: 1, CO: 2,
    # C(C)O: 2, C(O)C: 1}
    K = TreeletKernel().fit_transform([PATH, TRIANGLE])
    np.testing.assert_array_equal(K, [[8, 10], [10, 15]])
    K = TreeletKernel(sub_kernel="rbf", gamma=0.1).fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, np.exp(-0.3)], [np.exp(-0.3), 1]], rtol=1e-15)


def test_where_graphkit_learn_counts_differently():
    # graphkit-learn's ‖f(G)‖² (stored), unlabelled: on a star of 4 branches it counts no
    # 3-star (here C(4, 3) = 4: 94 = 78 + 4²); on a triangle with a pendant node it grows
    # patterns 7, 9 and 10 into the triangle (2 + 1 + 2 cycles, no trees: 62 = 71 − 9); on a
    # chain of four degree-3 nodes it loses the middle pair of pattern 12 (3, not 2: 846 =
    # 841 − 2² + 3²)
    stored = np.load(DATA / "treelet.npz")
    expected = {"star_4": (94, 78), "pendant_triangle": (62, 71), "four_centres": (846, 841)}
    for name, (ours, theirs) in expected.items():
        graph = differing_graph(name)
        assert TreeletKernel(node_label=None).fit_transform([graph])[0, 0] == ours
        assert stored[f"differing_{name}"] == theirs
    assert _shapes((_adjacency(*DIFFERING["four_centres"]), None))[12] == 3


@pytest.mark.parametrize("sub_kernel", ["linear", "rbf"])
@pytest.mark.parametrize("edges", [False, True])
def test_equals_the_twin(make_graphs, sub_kernel, edges):
    graphs = make_graphs(14, 1, 8, n_labels=2, n_edge_labels=2, p_edge=0.45)
    train, test = graphs[:9], graphs[9:]
    kernel = TreeletKernel(sub_kernel=sub_kernel, gamma=0.01,
                           edge_label="label" if edges else None)
    params = dict(sub_kernel=sub_kernel, gamma=0.01, edge_labels=edges)
    np.testing.assert_allclose(kernel.fit_transform(train), treelet_gram(train, **params),
                               rtol=1e-13, atol=0)
    np.testing.assert_allclose(kernel.transform(test), treelet_gram(test, train, **params),
                               rtol=1e-13, atol=0)


@pytest.mark.parametrize("max_size", [1, 2, 3, 4, 5])
def test_smaller_treelets_equal_the_twin(make_graphs, max_size):
    graphs = make_graphs(10, 1, 8, n_labels=2, n_edge_labels=2, p_edge=0.45)
    kernel = TreeletKernel(max_size, edge_label="label")
    np.testing.assert_array_equal(
        kernel.fit_transform(graphs), treelet_gram(graphs, edge_labels=True, max_size=max_size))


def test_features_are_the_counts(make_graphs):
    graphs = make_graphs(8, 1, 8, n_labels=3, p_edge=0.5)
    features = TreeletKernel().fit(graphs).transform_features(graphs).toarray()
    # each row holds the graph's counts: its sum, the number of occurrences
    np.testing.assert_array_equal(features.sum(axis=1),
                                  [sum(treelet_counts(g).values()) for g in graphs])


def test_unseen_labels(make_graphs):
    train = make_graphs(6, 2, 7, n_labels=2)
    test = make_graphs(5, 2, 7, n_labels=4)  # labels 2 and 3 never seen at fit
    for sub_kernel in ("linear", "rbf"):
        kernel = TreeletKernel(sub_kernel=sub_kernel, gamma=0.05).fit(train)
        np.testing.assert_allclose(kernel.transform(test),
                                   treelet_gram(test, train, sub_kernel, 0.05),
                                   rtol=1e-13, atol=0)


def test_equals_graphkit_learn_on_mutag(mutag):
    stored = np.load(DATA / "treelet.npz")
    graphs = [mutag.graphs[i] for i in stored["graphs"]]
    for key, edges in (("treelet_nodes", False), ("treelet_edges", True)):
        K = TreeletKernel(edge_label="label" if edges else None).fit_transform(graphs)
        np.testing.assert_array_equal(K, stored[key])


def test_symmetric_psd_and_invariant_to_node_order(make_graphs, permute_graph, rng):
    graphs = make_graphs(20, 1, 9, n_labels=2, n_edge_labels=2, p_edge=0.4)
    for kernel in (TreeletKernel(edge_label="label"),
                   TreeletKernel(sub_kernel="rbf", gamma=0.01, normalize=True)):
        K = kernel.fit_transform(graphs)
        np.testing.assert_array_equal(K, K.T)
        assert np.linalg.eigvalsh(K).min() > -1e-9 * max(1.0, np.abs(K).max())
        permuted = [permute_graph(g, rng) for g in graphs]
        np.testing.assert_allclose(kernel.transform(permuted), K, rtol=1e-14, atol=0)


def test_threads_agree_and_function_form(mutag):
    graphs = mutag.graphs[:40]
    one = TreeletKernel(n_jobs=1).fit_transform(graphs)
    np.testing.assert_array_equal(TreeletKernel(n_jobs=2).fit_transform(graphs), one)
    np.testing.assert_array_equal(treelet_kernel(graphs), one)
    np.testing.assert_array_equal(treelet_kernel(graphs[:5], graphs), one[:5])


@pytest.mark.parametrize("params, message", [
    ({"sub_kernel": "gaussian"}, "sub_kernel"),
    ({"max_size": 0}, "max_size"),
    ({"max_size": 7}, "max_size"),
    ({"max_size": 2.5}, "max_size"),
    ({"gamma": 0.0}, "gamma"),
    ({"gamma": -1.0}, "gamma"),
])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        TreeletKernel(**params).fit([PATH])


def test_rbf_has_no_explicit_features():
    kernel = TreeletKernel(sub_kernel="rbf").fit([PATH, TRIANGLE])
    with pytest.raises(ValueError, match="transform_features needs sub_kernel='linear'"):
        kernel.transform_features([PATH])


def test_graphs_of_too_many_treelets_are_refused_up_front():
    # the clique of 25 nodes holds C(25, 6) · 6⁴ ≈ 2.3·10⁸ subtrees of 6 nodes (Cayley): a
    # clear error at once, naming the graph, its degree and the fix
    clique = np.ones((25, 25)) - np.eye(25)
    path = np.diag(np.ones(3), 1) + np.diag(np.ones(3), -1)
    with pytest.raises(ValueError, match=r"graph 1 \(of 2, maximum degree 24\) would grow "
                                         r"about .* lower max_size"):
        TreeletKernel(node_label=None).fit([path, clique])
    # with treelets of at most 4 nodes it is small work
    K = TreeletKernel(4, node_label=None).fit_transform([clique])
    # 25 nodes, 300 edges, 25 · C(24, 2) paths of 3 nodes, 25!/(21! · 2) of 4, 25 · C(24, 3)
    # 3-stars
    counts = [25, 300, 25 * 276, 25 * 24 * 23 * 22 // 2, 25 * 2024]
    assert K[0, 0] == sum(c * c for c in counts)


def test_treelets_beyond_memory_are_refused():
    # a node of degree 5 000 centres C(5000, 5) ≈ 2.6·10¹⁶ stars: refused before they are built
    hub = np.zeros((5001, 5001), dtype=np.int8)
    hub[0, 1:] = hub[1:, 0] = 1
    with pytest.raises(ValueError, match=r"TreeletKernel treelets around the node of highest "
                                         r"degree would need"):
        TreeletKernel(node_label=None).fit([hub])


def test_sub_kernel_and_gamma_change_after_fit(make_graphs):
    # the counts do not depend on them: set after fit, as if fitted with them
    graphs = make_graphs(8, 2, 8, n_labels=2)
    kernel = TreeletKernel().fit(graphs).set_params(sub_kernel="rbf", gamma=0.02)
    np.testing.assert_array_equal(
        kernel.transform(graphs),
        TreeletKernel(sub_kernel="rbf", gamma=0.02).fit(graphs).transform(graphs))


def test_chunks_of_first_nodes_give_the_counts_of_one_chunk(mutag, monkeypatch):
    from kernelkit.kernels._graphs import _treelet

    graphs = mutag.graphs[:30]
    kernel = TreeletKernel(edge_label="label")
    one_chunk = kernel.fit(graphs).transform_features(graphs).toarray()
    K = kernel.fit_transform(graphs)
    calls = []
    chunk_keys = _treelet._chunk_keys
    monkeypatch.setattr(_treelet, "_CHUNK_ROWS", 64)
    monkeypatch.setattr(_treelet, "_chunk_keys",
                        lambda *args: calls.append(len(args[2])) or chunk_keys(*args))
    chunked = kernel.fit(graphs).transform_features(graphs).toarray()
    assert len(calls) >= 10 and sum(calls) == 2 * sum(len(g[1]) for g in graphs)
    np.testing.assert_array_equal(chunked, one_chunk)
    np.testing.assert_array_equal(kernel.fit_transform(graphs), K)
