"""Path kernel up to length h: hand counts, the twin, graphkit-learn's Gram matrices, the
kernel's properties, bad input."""

import pathlib

import numpy as np
import pytest

from kernelkit.kernels import PathKernel, path_kernel
from kernelkit.reference.graph_paths import path_gram, path_sequences

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "graphkit_learn"

PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
STAR = (np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]), ["N", "C", "C", "C"])


def test_hand_counts_of_a_path_a_triangle_and_a_star():
    # path C-C-O: 3 nodes, 4 directed edges, 2 directed 2-paths (CCO and OCC)
    assert path_sequences(PATH, 10) == {("C",): 2, ("O",): 1, ("C", "C"): 2, ("C", "O"): 1,
                                        ("O", "C"): 1, ("C", "C", "O"): 1, ("O", "C", "C"): 1}
    # triangle: every ordering of 2 or 3 distinct nodes is a path, none longer
    tri = path_sequences(TRIANGLE, 10)
    assert sum(tri.values()) == 3 + 6 + 6
    assert tri[("C", "O", "C")] == 2 and tri[("C", "C", "O")] == 2
    # star with centre N: 6 directed edges and 6 directed 2-paths C-N-C, nothing longer
    star = path_sequences(STAR, 10)
    assert star == {("N",): 1, ("C",): 3, ("N", "C"): 3, ("C", "N"): 3, ("C", "N", "C"): 6}


def test_known_gram_values():
    # MinMax, paths of up to 2 edges: Σ min = 3 + 4 + 2 = 9 over Σ max = 9 + 15 - 9
    K = PathKernel(max_length=2).fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, 0.6], [0.6, 1]], rtol=0, atol=1e-15)
    # Tanimoto: 7 sequences in the path, 8 in the triangle (C, O, CC, CO, OC, CCO, OCC, COC),
    # the 7 of the path shared
    K = PathKernel(max_length=2, sub_kernel="tanimoto").fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, 7 / 8], [7 / 8, 1]], rtol=0, atol=1e-15)
    # length 0: the node-label histograms, {C: 3} vs {N: 1, C: 3}
    K = PathKernel(max_length=0).fit_transform([STAR, (np.zeros((3, 3)), ["C"] * 3)])
    np.testing.assert_allclose(K[0, 1], 3 / 4)


@pytest.mark.parametrize("sub_kernel", ["minmax", "tanimoto"])
@pytest.mark.parametrize("max_length", [0, 1, 3, 10])
@pytest.mark.parametrize("edges", [False, True])
def test_equals_the_twin(make_graphs, sub_kernel, max_length, edges):
    graphs = make_graphs(14, 1, 7, n_labels=2, n_edge_labels=2)
    train, test = graphs[:9], graphs[9:]
    kernel = PathKernel(max_length=max_length, sub_kernel=sub_kernel,
                        edge_label="label" if edges else None)
    params = dict(max_length=max_length, sub_kernel=sub_kernel, edge_labels=edges)
    np.testing.assert_allclose(kernel.fit_transform(train), path_gram(train, **params),
                               rtol=1e-14, atol=0)
    np.testing.assert_allclose(kernel.transform(test), path_gram(test, train, **params),
                               rtol=1e-14, atol=0)


def test_unseen_labels_and_sequences_count_in_the_union(make_graphs):
    train = make_graphs(6, 2, 6, n_labels=2)
    test = make_graphs(5, 2, 6, n_labels=4)  # labels 2 and 3 never seen at fit
    for sub_kernel in ("minmax", "tanimoto"):
        kernel = PathKernel(max_length=4, sub_kernel=sub_kernel).fit(train)
        np.testing.assert_allclose(kernel.transform(test),
                                   path_gram(test, train, 4, sub_kernel), rtol=1e-14, atol=0)


@pytest.mark.parametrize("edges", [False, True])
@pytest.mark.parametrize("k_func", ["MinMax", "tanimoto"])
@pytest.mark.parametrize("depth", [2, 10])
def test_equals_graphkit_learn_on_mutag(mutag, depth, k_func, edges):
    stored = np.load(DATA / "path_up_to_h.npz")[
        f"path_{depth}_{k_func}_{'edges' if edges else 'nodes'}"]
    K = PathKernel(max_length=depth, sub_kernel=k_func.lower(),
                   edge_label="label" if edges else None).fit_transform(
        mutag.graphs[:len(stored)])
    np.testing.assert_allclose(K, stored, rtol=1e-14, atol=0)


@pytest.mark.parametrize("sub_kernel", ["minmax", "tanimoto"])
def test_symmetric_psd_unit_diagonal(make_graphs, sub_kernel):
    graphs = make_graphs(25, 1, 8, n_labels=2)
    K = PathKernel(max_length=5, sub_kernel=sub_kernel).fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    np.testing.assert_array_equal(np.diag(K), 1.0)
    assert np.linalg.eigvalsh(K).min() > -1e-12
    assert (K >= 0).all() and (K <= 1).all()


def test_invariant_to_node_order(make_graphs, permute_graph, rng):
    graphs = make_graphs(10, 2, 7, n_labels=3, n_edge_labels=2)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = PathKernel(max_length=6, edge_label="label")
    np.testing.assert_allclose(kernel.fit(graphs).transform(permuted),
                               kernel.fit_transform(graphs), rtol=1e-15, atol=0)


def test_threads_agree_and_function_form(mutag):
    graphs = mutag.graphs[:40]
    one = PathKernel(max_length=4, n_jobs=1).fit_transform(graphs)
    np.testing.assert_array_equal(PathKernel(max_length=4, n_jobs=2).fit_transform(graphs), one)
    np.testing.assert_array_equal(path_kernel(graphs, max_length=4), one)
    np.testing.assert_array_equal(path_kernel(graphs[:5], graphs, max_length=4), one[:5])


def test_normalize_changes_nothing(make_graphs):
    graphs = make_graphs(8, 1, 6)
    np.testing.assert_allclose(PathKernel(normalize=True).fit_transform(graphs),
                               PathKernel().fit_transform(graphs), rtol=1e-15)


@pytest.mark.parametrize("params, message", [
    ({"max_length": -1}, "max_length"),
    ({"max_length": 2.5}, "max_length"),
    ({"sub_kernel": "MinMax"}, "sub_kernel"),
])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        PathKernel(**params).fit([PATH])


def test_paths_beyond_memory_are_refused():
    # the complete graph on 200 nodes has 200 · 199 · 198 · 197 ≈ 1.6·10⁹ paths of 3 edges:
    # over 100 GB, refused before they are built
    complete = (np.ones((200, 200)) - np.eye(200), [0] * 200)
    with pytest.raises(ValueError, match=r"PathKernel paths of 3 edges would need .*lower "
                                         r"max_length"):
        PathKernel(max_length=5).fit([complete])
