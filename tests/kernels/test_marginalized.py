"""Marginalised kernel: hand values, the twin, graphkit-learn's Gram matrices, the random-walk
kernel it tends to, tottering removal, the kernel's properties, bad input."""

import pathlib

import numpy as np
import pytest

from kernelkit.kernels import MarginalizedKernel, RandomWalkKernel, marginalized_kernel
from kernelkit.reference.graph_marginalized import marginalized_gram, walk_graph

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "graphkit_learn"

EDGE = (np.array([[0, 1], [1, 0]]), ["C", "C"])
PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def test_hand_values_of_an_edge():
    # p = 1/2, every vertex of degree 1: R_1 = 1/4, R_2 = 1/4 + (1/2)(1/2) R_1 = 5/16, and
    # R_3 = 1/4 + R_2 / 4 = 21/64; K averages R over the 4 vertex pairs
    for n_iter, value in [(1, 1 / 4), (2, 5 / 16), (3, 21 / 64)]:
        K = MarginalizedKernel(p_quit=0.5, n_iter=n_iter).fit_transform([EDGE])
        np.testing.assert_allclose(K, [[value]], rtol=1e-15)


def test_tottering_removal_on_an_edge():
    # without totters a walk on one edge has at most 2 vertices: from u to the state (u, v),
    # which has no successor and stops (probability 1); R(u, u') = 1/4 + (1/2)(1/2) · 1
    K = MarginalizedKernel(p_quit=0.5, n_iter=5, remove_totters=True).fit_transform([EDGE])
    np.testing.assert_allclose(K, [[1 / 2]], rtol=1e-15)
    # the twin's transformed graph: u → (u, v), and (u, v) leads nowhere
    successors, labels, starts = walk_graph(EDGE, remove_totters=True)
    assert successors == [[(2, None)], [(3, None)], [], []] and starts == [0, 1]


@pytest.mark.parametrize("remove_totters", [False, True])
@pytest.mark.parametrize("edges", [False, True])
def test_equals_the_twin(make_graphs, remove_totters, edges):
    graphs = make_graphs(10, 1, 6, n_labels=2, n_edge_labels=2)
    train, test = graphs[:6], graphs[6:]
    kernel = MarginalizedKernel(p_quit=0.3, n_iter=4, remove_totters=remove_totters,
                                edge_label="label" if edges else None)
    params = dict(p_quit=0.3, n_iter=4, remove_totters=remove_totters, edge_labels=edges)
    np.testing.assert_allclose(kernel.fit_transform(train), marginalized_gram(train, **params),
                               rtol=1e-13, atol=0)
    np.testing.assert_allclose(kernel.transform(test),
                               marginalized_gram(test, train, **params), rtol=1e-13, atol=0)


@pytest.mark.parametrize("edges", [False, True])
@pytest.mark.parametrize("n_iter", [1, 3, 10])
def test_equals_graphkit_learn_on_mutag(mutag, n_iter, edges):
    stored = np.load(DATA / "marginalized.npz")[
        f"marginalized_{n_iter}_{'edges' if edges else 'nodes'}"]
    K = MarginalizedKernel(p_quit=0.3, n_iter=n_iter,
                           edge_label="label" if edges else None).fit_transform(
        mutag.graphs[:len(stored)])
    np.testing.assert_allclose(K, stored, rtol=1e-13, atol=0)


def test_tends_to_the_random_walk_kernel(mutag):
    # the truncated series' remainder after n vertices is below (1 - p)^(2n) of the whole
    graphs = mutag.graphs[:15]
    K = MarginalizedKernel(p_quit=0.3, n_iter=200).fit_transform(graphs)
    np.testing.assert_allclose(K, RandomWalkKernel(p_stop=0.3).fit_transform(graphs),
                               rtol=1e-9, atol=0)
    # and the series grows with n_iter towards it
    K3 = MarginalizedKernel(p_quit=0.3, n_iter=3).fit_transform(graphs)
    assert (K3 <= K).all() and (K3 < K).any()


@pytest.mark.parametrize("remove_totters", [False, True])
def test_symmetric_psd(make_graphs, remove_totters):
    graphs = make_graphs(20, 1, 7, n_labels=2)
    K = MarginalizedKernel(p_quit=0.4, n_iter=6, remove_totters=remove_totters).fit_transform(
        graphs)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() > -1e-12 * np.abs(K).max()


@pytest.mark.parametrize("remove_totters", [False, True])
def test_invariant_to_node_order(make_graphs, permute_graph, rng, remove_totters):
    graphs = make_graphs(8, 2, 7, n_labels=3, n_edge_labels=2)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = MarginalizedKernel(n_iter=5, remove_totters=remove_totters, edge_label="label")
    np.testing.assert_allclose(kernel.fit(graphs).transform(permuted),
                               kernel.fit_transform(graphs), rtol=1e-12, atol=0)


def test_function_form_and_normalize(mutag):
    graphs = mutag.graphs[:20]
    K = MarginalizedKernel(n_iter=4).fit_transform(graphs)
    np.testing.assert_allclose(marginalized_kernel(graphs[:5], graphs, n_iter=4), K[:5],
                               rtol=1e-14)
    normalized = MarginalizedKernel(n_iter=4, normalize=True).fit_transform(graphs)
    d = np.sqrt(np.diag(K))
    np.testing.assert_allclose(normalized, K / np.outer(d, d), rtol=1e-12)


@pytest.mark.parametrize("params, message", [
    ({"p_quit": 0.0}, "p_quit"),
    ({"p_quit": 1.0}, "p_quit"),
    ({"n_iter": 0}, "n_iter"),
])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        MarginalizedKernel(**params).fit([PATH])


def test_rows_beyond_memory_are_refused():
    # one graph of 10⁵ vertices: 10¹⁰ dense state pairs, refused before any is built
    import scipy.sparse as sp

    n = 100_000
    path = sp.diags_array([np.ones(n - 1), np.ones(n - 1)], offsets=[-1, 1], format="csr")
    with pytest.raises(ValueError, match=r"MarginalizedKernel rows of 100000 x 100000 state "
                                         r"pairs would need .*compare fewer or smaller graphs"):
        MarginalizedKernel().fit_transform([(path, [0] * n)])
    with pytest.raises(ValueError, match=r"MarginalizedKernel rows of 100000 x 100000 state"):
        MarginalizedKernel(normalize=True).fit([(path, [0] * n)])
