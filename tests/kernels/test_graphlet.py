"""Graphlet kernel: the isomorphism table, exact counts on known graphs, sampling."""

from math import comb

import numpy as np
import pytest

from kernelkit._core import _graphlet_counts
from kernelkit.kernels import GraphletKernel
from kernelkit.kernels._graphs._graphlet import graphlet_classes
from kernelkit.kernels._graphs._encoding import encode_graphs


def _counts(graph, k):
    batch, _, _ = encode_graphs([graph], node_label=None)
    class_of_mask, n_classes = graphlet_classes(k)
    counts = np.zeros((1, n_classes), dtype=np.int64)
    _graphlet_counts.graphlet_counts(batch.node_ptr, batch.indptr, batch.indices, k,
                                     class_of_mask, 0, np.zeros(1, dtype=np.uint64), counts, 1)
    return counts[0]


def test_class_tables():
    # 4 graphs on 3 nodes and 11 on 4 nodes, up to isomorphism (coverage entry D20)
    assert graphlet_classes(3)[1] == 4
    assert graphlet_classes(4)[1] == 11
    table, _ = graphlet_classes(4)
    # relabelling the nodes of a mask keeps its class: the 4-cycle 0-1-2-3 vs 0-2-1-3
    cycle_a = (1 << 0) | (1 << 3) | (1 << 5) | (1 << 2)  # (0,1) (1,2) (2,3) (0,3)
    cycle_b = (1 << 1) | (1 << 3) | (1 << 4) | (1 << 2)  # (0,2) (1,2) (1,3) (0,3)
    assert table[cycle_a] == table[cycle_b]


@pytest.mark.parametrize("k", [3, 4])
def test_counts_sum_to_the_number_of_subsets(k, make_graphs):
    for graph in make_graphs(5, min_nodes=4, max_nodes=8):
        assert _counts(graph[:2], k).sum() == comb(len(graph[1]), k)


def test_known_counts():
    complete = (np.ones((5, 5)) - np.eye(5), None)
    assert _counts(complete, 3)[-1] == comb(5, 3)
    assert _counts(complete, 4)[-1] == comb(5, 4)
    path = (np.diag(np.ones(3), 1) + np.diag(np.ones(3), -1), None)  # 0-1-2-3
    # triples: {0,1,2}, {1,2,3} are paths; {0,1,3}, {0,2,3} have one edge
    np.testing.assert_array_equal(_counts(path, 3), [0, 2, 2, 0])
    star = (np.pad(np.ones((1, 3)), ((0, 3), (1, 0))), None)
    star = (star[0] + star[0].T, None)
    counts = _counts(star, 4)
    assert counts.sum() == 1 and counts[graphlet_classes(4)[0][0b000111]] == 1


def test_sampling_converges_to_exact_frequencies(rng):
    upper = np.triu(rng.random((12, 12)) < 0.3, 1)
    graph = ((upper | upper.T).astype(int), None)
    exact = GraphletKernel(k=4).fit([graph]).X_fit_[0]
    sampled = GraphletKernel(k=4, n_graphlet_samples=40000, random_state=0).fit([graph]).X_fit_[0]
    np.testing.assert_allclose(sampled, exact, atol=0.015)
    np.testing.assert_array_equal(
        GraphletKernel(k=4, n_graphlet_samples=50, random_state=1).fit([graph]).X_fit_,
        GraphletKernel(k=4, n_graphlet_samples=50, random_state=1).fit([graph]).X_fit_)


def test_small_graphs_have_zero_features():
    edge = (np.array([[0, 1], [1, 0]]), None)
    assert GraphletKernel(k=3).fit_transform([edge])[0, 0] == 0.0


def test_n_samples_is_a_deprecated_alias():
    graph = (np.ones((5, 5)) - np.eye(5), None)
    with pytest.warns(FutureWarning, match="n_graphlet_samples"):
        old = GraphletKernel(k=3, n_samples=30, random_state=0).fit([graph]).X_fit_
    new = GraphletKernel(k=3, n_graphlet_samples=30, random_state=0).fit([graph]).X_fit_
    np.testing.assert_array_equal(old, new)


@pytest.mark.parametrize("params", [dict(k=3), dict(k=4), dict(k=4, n_graphlet_samples=50)],
                         ids=["k3", "k4", "sampled"])
def test_absurd_n_jobs_uses_the_usable_cpus(params, make_graphs):
    graphs = make_graphs(6, min_nodes=4, max_nodes=9)
    expected = GraphletKernel(**params, random_state=0, n_jobs=1).fit_transform(graphs)
    got = GraphletKernel(**params, random_state=0, n_jobs=10**6).fit_transform(graphs)
    np.testing.assert_array_equal(got, expected)


def test_sampled_graphs_keep_their_fitted_sample(make_graphs):
    # random_state=None: the seed drawn at fit is kept, so transform samples the fitted graphs
    # as fit did, each graph as it would alone
    graphs = make_graphs(8, 4, 9)
    kernel = GraphletKernel(k=4, n_graphlet_samples=25).fit(graphs)
    frequencies = kernel.X_fit_
    np.testing.assert_allclose(kernel.transform(graphs), frequencies @ frequencies.T,
                               rtol=1e-14)
    np.testing.assert_allclose(kernel.transform(graphs[::-1][:3]),
                               frequencies[::-1][:3] @ frequencies.T, rtol=1e-14)
