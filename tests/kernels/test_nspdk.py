"""NeighborhoodSubgraphPairwiseDistanceKernel: hand-computed cases, kernel properties, the
readable twin, GraKeL on the levels it computes alike, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp
from kernelkit.bench.suites.graph_decompositions import _grakel_format

from kernelkit.kernels import (
    NeighborhoodSubgraphPairwiseDistanceKernel,
    neighborhood_subgraph_pairwise_distance_kernel,
)
from kernelkit.reference.graph_decompositions import nspdk_gram

NSPDK = NeighborhoodSubgraphPairwiseDistanceKernel
PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def _path(n, labels=None):
    adjacency = np.diag(np.ones(n - 1, dtype=int), 1)
    return adjacency + adjacency.T, [0] * n if labels is None else labels


def test_hand_computed_path_and_triangle():
    # levels (0, 0): same label counts, cosine 1; (0, 1): ordered labelled edges
    # path (C,C)x2 (C,O) (O,C), triangle (C,C)x2 (C,O)x2 (O,C)x2: 8 / (√6 √12); radius 1: none
    K = NSPDK(r=1, d=1, normalize=False).fit_transform([PATH, TRIANGLE])
    off = 1 + 2 * np.sqrt(2) / 3
    np.testing.assert_allclose(K, [[4, off], [off, 4]], rtol=1e-14)
    normalized = NSPDK(r=1, d=1).fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(normalized, [[1, off / 4], [off / 4, 1]], rtol=1e-14)


def test_levels_beyond_the_diameter_are_empty():
    # a single node has pairs at distance 0 only: r + 1 non-empty levels, d of them empty
    single = (np.zeros((1, 1)), ["C"])
    K = NSPDK(r=2, d=3, normalize=False).fit_transform([single, _path(5)])
    assert K[0, 0] == pytest.approx(3)
    assert K[1, 1] == pytest.approx(12)
    assert K[0, 1] == 0  # labels differ: C vs 0


def test_disconnected_graph_counts_reachable_pairs_only():
    two_edges = (np.kron(np.eye(2, dtype=int), [[0, 1], [1, 0]]), [0, 0, 0, 0])
    one_edge = _path(2)
    # every level of both graphs has the same features in the same proportions
    K = NSPDK(r=1, d=3, normalize=False).fit_transform([two_edges, one_edge])
    np.testing.assert_allclose(K, np.full((2, 2), 4.0), rtol=1e-14)


def test_edge_labels_separate_neighbourhoods():
    single = (np.array([[0, 1], [1, 0]]), ["C", "C"], {(0, 1): "single"})
    double = (np.array([[0, 1], [1, 0]]), ["C", "C"], {(0, 1): "double"})
    with_labels = NSPDK(r=1, d=1, edge_label="label", normalize=False)
    K = with_labels.fit_transform([single, double])
    assert K[0, 1] == pytest.approx(2)  # radius 0 only
    K = NSPDK(r=1, d=1, normalize=False).fit_transform([single, double])
    assert K[0, 1] == pytest.approx(4)


def test_symmetric_psd_unit_diagonal(mutag):
    K = NSPDK(edge_label="label").fit_transform(mutag.graphs)
    np.testing.assert_allclose(K, K.T, atol=1e-14)
    np.testing.assert_allclose(np.diag(K), 1.0, rtol=1e-12)
    assert np.linalg.eigvalsh(K).min() > -1e-10


def test_node_order_invariance(make_graphs, permute_graph, rng):
    graphs = make_graphs(12, 1, 9, n_edge_labels=3)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = NSPDK(r=2, d=3, edge_label="label")
    np.testing.assert_allclose(kernel.fit_transform(permuted), kernel.fit_transform(graphs),
                               rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(("r", "d"), [(0, 0), (1, 2), (2, 5), (3, 4)])
def test_equals_reference_on_random_graphs(make_graphs, r, d):
    graphs = make_graphs(10, 1, 8, n_edge_labels=2)
    expected = nspdk_gram(graphs, r=r, d=d, normalize=False)
    got = NSPDK(r=r, d=d, edge_label="label", normalize=False).fit_transform(graphs)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)


def test_equals_reference_on_mutag(mutag_dense):
    graphs = mutag_dense[:12]
    expected = nspdk_gram(graphs, r=2, d=3)
    got = NSPDK(r=2, d=3, edge_label="label").fit_transform(graphs)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)


def test_transform_equals_block_of_fit_transform(mutag):
    graphs = mutag.graphs[:60]
    kernel = NSPDK(r=2, d=3, edge_label="label")
    full = kernel.fit_transform(graphs)
    got = kernel.fit(graphs[:40]).transform(graphs[40:])
    np.testing.assert_allclose(got, full[40:, :40], rtol=1e-12, atol=1e-14)
    # the function form fits on Y and transforms X
    np.testing.assert_allclose(
        neighborhood_subgraph_pairwise_distance_kernel(graphs[40:], graphs[:40], r=2, d=3,
                                                       edge_label="label"),
        full[40:, :40], rtol=1e-12, atol=1e-14)


def test_transform_reference_with_unseen_features(make_graphs):
    train, test = make_graphs(8, 2, 7, n_labels=2), make_graphs(5, 2, 7, n_labels=3)
    expected = nspdk_gram(test, train, r=2, d=2)
    got = NSPDK(r=2, d=2).fit(train).transform(test)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("normalize", [False, True])
def test_transform_features_give_the_gram(mutag, normalize):
    graphs = mutag.graphs[:50]
    kernel = NSPDK(r=2, d=3, edge_label="label", normalize=normalize).fit(graphs[:30])
    features_fit = kernel.transform_features(graphs[:30])
    features = kernel.transform_features(graphs[30:])
    assert sp.issparse(features) and features.shape == (20, len(kernel.feature_keys_))
    np.testing.assert_allclose((features @ features_fit.T).toarray(),
                               kernel.transform(graphs[30:]), rtol=1e-12, atol=1e-14)


def test_one_thread_equals_two(mutag):
    # the whole of MUTAG (3371 nodes) is above the threading threshold
    one = NSPDK(edge_label="label", n_jobs=1).fit_transform(mutag.graphs)
    two = NSPDK(edge_label="label", n_jobs=2).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(one, two)


def test_networkx_input_equals_tuples(mutag):
    from kernelkit.datasets import load_mutag

    nx_graphs = load_mutag().graphs[:30]
    kernel = NSPDK(r=2, d=2, edge_label="label")
    np.testing.assert_allclose(kernel.fit_transform(nx_graphs),
                               kernel.fit_transform(mutag.graphs[:30]), rtol=1e-12)


@pytest.mark.parametrize(("params", "match"), [
    ({"r": -1}, "r"), ({"d": -2}, "d"), ({"r": 1.5}, "r"), ({"d": "4"}, "d"),
    ({"r": 1 << 20}, "r"),
])
def test_bad_parameters(params, match):
    with pytest.raises((ValueError, TypeError), match=match):
        NSPDK(**params).fit([PATH])


def test_bad_graphs():
    with pytest.raises(ValueError, match="graph 1 has no node labels but graph 0 has"):
        NSPDK().fit([PATH, (PATH[0],)])
    with pytest.raises(ValueError, match="no edge labels"):
        NSPDK(edge_label="label").fit([PATH])
    with pytest.raises(ValueError, match="no nodes"):
        NSPDK().fit([(np.zeros((0, 0)), [])])
    with pytest.raises(ValueError, match="NaN"):
        NSPDK().fit([(np.array([[0, np.nan], [np.nan, 0]]), [0, 1])])
    with pytest.raises(ValueError, match="directed"):
        NSPDK().fit([(np.array([[0, 1], [0, 0]]), [0, 1])])


def test_unlabelled_graphs(unlabelled_graph):
    graphs = [unlabelled_graph(n) for n in (2, 3, 5)] + [unlabelled_graph(4, complete=True)]
    expected = nspdk_gram(graphs, r=1, d=2)
    got = NSPDK(r=1, d=2, node_label=None).fit_transform(graphs)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)


# --- GraKeL -------------------------------------------------------------------------------------


def _grakel_level_gram(features):
    """GraKeL's per-level cosine (0 for a graph without pairs at that level)."""
    K = (features @ features.T).toarray().astype(np.float64)
    norms = np.sqrt(np.diag(K))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.nan_to_num(K / np.outer(norms, norms))


def _check_radius_zero_equals_grakel(graphs):
    """Radius 0 at distances 0..2 is the one part GraKeL computes as the paper: its radius-0
    neighbourhoods are single labelled nodes (no node order to depend on), and its distances
    are right up to 2 (its balls grow by doubling past radius 2; see the test below)."""
    from grakel.kernels import NeighborhoodSubgraphPairwiseDistance

    peer = NeighborhoodSubgraphPairwiseDistance(r=1, d=2).fit(_grakel_format(graphs))
    expected = sum(_grakel_level_gram(peer.X[0, delta]) for delta in range(3))
    got = NSPDK(r=0, d=2, edge_label="label", normalize=False).fit_transform(graphs)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_radius_zero_equals_grakel_on_mutag(mutag):
    pytest.importorskip("grakel")
    _check_radius_zero_equals_grakel(mutag.graphs)


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_radius_zero_equals_grakel_on_shared_sets(shared_data, name):
    pytest.importorskip("grakel")
    from kernelkit.datasets import load_tudataset

    graphs = load_tudataset(shared_data, name, as_networkx=False).graphs[:300]
    # ENZYMES has no edge labels: one label for every edge
    graphs = [(a, labels, e if e is not None else dict.fromkeys(zip(*a.nonzero()), 0))
              for a, labels, e, *_ in graphs]
    _check_radius_zero_equals_grakel(graphs)


def test_grakel_distances_double_past_two():
    """Why GraKeL differs beyond radius 0: on a path 0-1-2-3-4-5 it puts node 4 at distance 3
    from node 0 and node 5 at distance 4 (its neighbourhood of level l + 1 is the union of the
    level-l neighbourhoods of the level-l neighbours: radius 2l, not l + 1)."""
    pytest.importorskip("grakel")
    from grakel import Graph

    adjacency, labels = _path(6)
    _, pairs, _ = Graph(adjacency, dict(enumerate(labels))).produce_neighborhoods(
        r=3, purpose="adjacency", with_distances=True, d=4)
    assert (0, 4) in pairs[3] and (0, 5) in pairs[4]
    # here they are at distances 4 and 5: the path of 5 nodes has pairs at distance 4,
    # the path of 4 nodes none, so level (0, 4) separates them
    K = NSPDK(r=0, d=4, normalize=False).fit_transform([_path(4), _path(5)])
    assert K[0, 0] == pytest.approx(4) and K[1, 1] == pytest.approx(5)


def test_grakel_depends_on_node_order():
    """Why GraKeL differs beyond radius 0: its neighbourhood code lists the nodes in the order
    of their ids, so renumbering the nodes of the path C-C-O changes its Gram matrix; ours
    does not change."""
    pytest.importorskip("grakel")
    from grakel.kernels import NeighborhoodSubgraphPairwiseDistance

    adjacency = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    renumbered = np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]])  # middle C is node 0
    bonds = {(i, j): 0 for i in range(3) for j in range(3) if i != j}
    first = (adjacency, {0: "C", 1: "C", 2: "O"}, bonds)
    second = (renumbered, {0: "C", 1: "C", 2: "O"}, bonds)
    K = NeighborhoodSubgraphPairwiseDistance(r=1, d=1).fit_transform([first, second])
    assert K[0, 1] < K[0, 0] - 0.5
    ours = NSPDK(r=1, d=1, normalize=False).fit_transform(
        [(adjacency, ["C", "C", "O"]), (renumbered, ["C", "C", "O"])])
    np.testing.assert_allclose(ours, np.full((2, 2), 4.0), rtol=1e-14)


def test_ctrl_c_stops_the_core(ctrl_c):
    # radius-3 balls of a 3000-node random graph (degree ~30) hold most of it: minutes of
    # sorting per root
    setup = """
    import scipy.sparse as sp
    from kernelkit.kernels import NeighborhoodSubgraphPairwiseDistanceKernel
    A = sp.triu(sp.random_array((3000, 3000), density=0.01, random_state=0), k=1)
    A = sp.csr_array(((A + A.T) > 0).astype(float))
    run = lambda: NeighborhoodSubgraphPairwiseDistanceKernel(n_jobs=2).fit_transform(
        [(A, [0] * 3000)])
    """
    assert ctrl_c(setup) == ["interrupted"]
