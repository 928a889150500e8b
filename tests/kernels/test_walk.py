"""Walk kernels: the seed's Lemma (walk pairs ↔ product-graph walks), series and closed forms."""

import itertools
from collections import Counter

import networkx as nx
import numpy as np
import pytest

from kernelkit.datasets import load_mutag
from kernelkit.kernels import GeometricWalkKernel, RandomWalkKernel, WalkKernel


def _label_sequences(graph, n):
    """Counter of the (vertex, edge, vertex, ...) label sequences of all walks with n edges."""
    adjacency, labels, elabels = graph
    sequences = Counter()
    for walk in itertools.product(range(len(labels)), repeat=n + 1):
        if all(adjacency[a, b] for a, b in zip(walk, walk[1:])):
            seq = [labels[walk[0]]]
            for a, b in zip(walk, walk[1:]):
                seq += [elabels[a, b], labels[b]]
            sequences[tuple(seq)] += 1
    return sequences


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("edge_label", [None, "label"])
def test_walk_kernel_counts_pairs_of_equally_labelled_walks(n, edge_label, make_graphs):
    graphs = make_graphs(5, max_nodes=5, n_edge_labels=2 if edge_label else 1)
    counts = [_label_sequences(g, n) for g in graphs]
    if edge_label is None:
        # without edge labels the sequences keep only the vertex labels
        counts = [Counter() for _ in graphs]
        for c, g in zip(counts, graphs):
            for s, m in _label_sequences(g, n).items():
                c[s[::2]] += m
    expected = np.array([[sum(a[s] * b[s] for s in a) for b in counts] for a in counts])
    K = WalkKernel(n=n, edge_label=edge_label).fit_transform(graphs)
    np.testing.assert_array_equal(K, expected)


def test_zeroth_order_counts_equally_labelled_vertex_pairs():
    g1 = (np.zeros((3, 3)), ["a", "a", "b"])
    g2 = (np.zeros((2, 2)), ["a", "b"])
    np.testing.assert_array_equal(WalkKernel(n=0).fit_transform([g1, g2]),
                                  [[5.0, 3.0], [3.0, 2.0]])


def test_geometric_kernel_equals_truncated_series_and_closed_form(make_graphs):
    graphs = make_graphs(6, max_nodes=6, n_edge_labels=2)
    lambda_ = 0.04
    series = sum(lambda_**n * WalkKernel(n=n, edge_label="label").fit_transform(graphs)
                 for n in range(40))
    K = GeometricWalkKernel(lambda_=lambda_, edge_label="label").fit_transform(graphs)
    np.testing.assert_allclose(K, series, rtol=1e-9)
    from kernelkit import reference
    from kernelkit.kernels._graphs._bases import batch_arrays
    from kernelkit.kernels._graphs._encoding import encode_graphs

    batch, _, _ = encode_graphs(graphs, edge_label="label")
    dense = np.zeros_like(K)
    reference.product_graph_gram(reference.PRODUCT_GRAPH_KERNELS["geometric"],
                                 batch_arrays(batch), batch_arrays(batch), True,
                                 {"lambda_": lambda_}, dense, 0, batch.n_samples)
    np.testing.assert_allclose(K, dense, rtol=1e-9)


def test_random_walk_kernel_closed_forms():
    # One edge, one label: both walks emit C^L with probability q (1-q)^(L-1) each; the kernel
    # is sum_L q^2 (1-q)^(2(L-1)) = q^2 / (1 - (1-q)^2).
    edge = (np.array([[0, 1], [1, 0]]), ["C", "C"])
    for q in (0.1, 0.5, 0.9):
        K = RandomWalkKernel(p_stop=q).fit_transform([edge])
        assert K[0, 0] == pytest.approx(q**2 / (1 - (1 - q) ** 2), rel=1e-10)
    # isolated vertices stop at once: the kernel is P(same start label)
    dots = (np.zeros((3, 3)), ["a", "a", "b"])
    assert RandomWalkKernel().fit_transform([dots])[0, 0] == pytest.approx(5 / 9)


def test_random_walk_kernel_matches_monte_carlo(rng):
    """Coverage entry D16 'stat': P(label(W1) = label(W2)) by simulation, within 4 sigma."""
    g1 = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), [0, 0, 1])
    g2 = (np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 0]]), [0, 1, 0, 1])
    q = 0.4

    def walk(graph):
        adjacency, labels = graph
        v = rng.integers(len(labels))
        seq = [labels[v]]
        while rng.random() >= q:
            v = rng.choice(np.flatnonzero(adjacency[v]))
            seq.append(labels[v])
        return seq

    n = 20000
    hits = np.mean([walk(g1) == walk(g2) for _ in range(n)])
    K = RandomWalkKernel(p_stop=q).fit([g2]).transform([g1])[0, 0]
    assert abs(hits - K) < 4 * np.sqrt(K * (1 - K) / n)


def test_geometric_walk_checks_the_new_graphs_with_themselves(unlabelled_graph):
    # with normalize, K(test, test) of a denser new graph diverged and cosines came out above 1:
    # λ·1·5 < 1 with the training graph, but λ·5·5 > 1 for the new graph with itself
    model = GeometricWalkKernel(lambda_=0.1, normalize=True).fit([unlabelled_graph(2)])
    with pytest.raises(ValueError, match="too large"):
        model.transform([unlabelled_graph(6, complete=True)])


def test_overflowing_walk_counts_raise(unlabelled_graph):
    with pytest.raises(ValueError, match="overflow float64"):
        WalkKernel(n=400).fit_transform([unlabelled_graph(12, complete=True)])


@pytest.mark.filterwarnings("ignore:RandomWalkKernel. conjugate gradients did not reach")
def test_random_walk_with_a_tolerance_below_rounding_is_finite():
    # with tol=1e-300 the residual underflowed to zero and conjugate gradients divided 0 by 0
    # (314 NaN entries of 400 on these molecules)
    graphs = load_mutag().graphs[:20]
    K = RandomWalkKernel(tol=1e-300).fit_transform(graphs)
    assert np.all(np.isfinite(K))
    np.testing.assert_allclose(K, RandomWalkKernel(tol=1e-12).fit_transform(graphs), rtol=1e-6)


def test_absurd_walk_lengths_end_early():
    # WalkKernel(n=10**9) ran 10⁹ mat-vecs per pair, uninterruptibly; the counts are
    # non-negative, so once they overflow (any path) or vanish (no edges) the walk stops
    path = nx.path_graph(3)
    empty = nx.empty_graph(3)
    for g in (path, empty):
        nx.set_node_attributes(g, "a", "label")
    with pytest.raises(ValueError, match="overflow"):
        WalkKernel(n=10**9).fit_transform([path, path])
    np.testing.assert_array_equal(WalkKernel(n=10**9).fit_transform([empty, empty]),
                                  np.zeros((2, 2)))
    # single edges: the product graph's walk counts repeat with period 2 and never overflow
    edges = nx.Graph([(0, 1), (2, 3)])
    nx.add_path(edges, [4])
    nx.set_node_attributes(edges, dict(zip(range(5), "abbab")), "label")
    for n in (10**9, 10**9 + 1):
        np.testing.assert_array_equal(WalkKernel(n=n).fit_transform([edges, edges]),
                                      WalkKernel(n=4 + n % 2).fit_transform([edges, edges]))
