"""Wasserstein Weisfeiler–Lehman kernel: hand cases, the linear-programming twin, the metric's
properties, positive definiteness in the discrete case, the authors' values, bad input."""

import itertools
import json
import pathlib
import sys
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from kernelkit.kernels import (
    WassersteinWeisfeilerLehmanKernel,
    wasserstein_weisfeiler_lehman_kernel,
)
from kernelkit.kernels._graphs import _wasserstein_weisfeiler_lehman as wwl_module
from kernelkit.reference.graph_wasserstein import wwl_gram

pytest.importorskip("ot")

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "wwl"
PATH = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])


def _continuous(rng, n_graphs, max_nodes=6, d=2, p_edge=0.4):
    """Random graphs as 4-tuples with attributes, some disconnected or edgeless."""
    graphs = []
    for _ in range(n_graphs):
        n = int(rng.integers(1, max_nodes + 1))
        upper = np.triu(rng.random((n, n)) < p_edge, 1)
        graphs.append(((upper | upper.T).astype(int), np.zeros(n, dtype=int), None,
                       rng.normal(size=(n, d))))
    return graphs


def _attributed(**params):
    return WassersteinWeisfeilerLehmanKernel(node_label=None, node_attributes="attributes",
                                             **params)


def _label_pairs(graphs):
    return [(adjacency, labels) for adjacency, labels, *_ in graphs]


def _attribute_pairs(graphs):
    return [(adjacency, x) for adjacency, _, _, x in graphs]


def test_relabelled_node():
    # n_iter=0: the label fractions C 2/3, O 1/3 against C 1 differ by 1/3 twice: D = 1/3.
    # n_iter=1 adds the signatures (C,{C}) 1/3 | 2/3, (C,{C,O}) 1/3 | 0, (O,{C}) 1/3 | 0,
    # (C,{C,C}) 0 | 1/3, absolute differences summing to 4/3: D = (2/3 + 4/3) / (2 · 2) = 1/2
    graphs = [(PATH, ["C", "C", "O"]), (PATH, ["C", "C", "C"])]
    for n_iter, expected in [(0, 1 / 3), (1, 1 / 2)]:
        kernel = WassersteinWeisfeilerLehmanKernel(n_iter=n_iter, gamma=2.0).fit(graphs)
        D = kernel.wasserstein_distances()
        np.testing.assert_allclose(D, [[0, expected], [expected, 0]], rtol=1e-15)
        np.testing.assert_allclose(kernel.fit_transform(graphs), np.exp(-2.0 * D), rtol=1e-15)


def test_identical_and_disjoint_graphs():
    graphs = [(PATH, ["C", "C", "O"]), (PATH, ["C", "C", "O"]), (PATH, ["N", "N", "N"])]
    D = WassersteinWeisfeilerLehmanKernel(n_iter=2).fit(graphs).wasserstein_distances()
    # the same graph is at distance 0; graphs sharing no label at distance 1
    np.testing.assert_allclose(D, [[0, 0, 1], [0, 0, 1], [1, 1, 0]], rtol=1e-15, atol=1e-15)


def test_continuous_hand_cases():
    # one node each: it never moves, so the embeddings are x repeated n_iter + 1 times and
    # D = sqrt(n_iter + 1) ‖x - y‖
    one = (np.zeros((1, 1)), [0], None, np.array([[0.0, 0.0]]))
    other = (np.zeros((1, 1)), [0], None, np.array([[3.0, 4.0]]))
    D = _attributed(n_iter=3).fit([one, other]).wasserstein_distances()
    np.testing.assert_allclose(D, [[0, 10], [10, 0]], rtol=1e-14)
    # an edge (0, 2): both nodes move to the midpoint 1 at every iteration after the first;
    # against two isolated nodes at 0 and 2 (which stay) half the mass moves 1 at h >= 1
    edge = (np.array([[0, 1], [1, 0]]), [0, 0], None, np.array([[0.0], [2.0]]))
    apart = (np.zeros((2, 2)), [0, 0], None, np.array([[0.0], [2.0]]))
    D = _attributed(n_iter=1).fit([edge, apart]).wasserstein_distances()
    np.testing.assert_allclose(D[0, 1], 1.0, rtol=1e-14)


@pytest.mark.parametrize("n_iter", [0, 1, 3])
def test_agrees_with_the_twin_discrete(make_graphs, n_iter):
    graphs = make_graphs(9, 1, 6, n_labels=2)
    kernel = WassersteinWeisfeilerLehmanKernel(n_iter=n_iter, gamma=0.7)
    np.testing.assert_allclose(kernel.fit_transform(graphs),
                               wwl_gram(_label_pairs(graphs), n_iter, 0.7), atol=1e-9)
    new = make_graphs(4, 1, 6, n_labels=3)  # labels and signatures unseen at fit
    expected = wwl_gram(_label_pairs(new), n_iter, 0.7, others=_label_pairs(graphs))
    np.testing.assert_allclose(kernel.transform(new), expected, atol=1e-9)


@pytest.mark.parametrize("n_iter", [0, 2])
def test_agrees_with_the_twin_continuous(rng, n_iter):
    graphs, new = _continuous(rng, 8), _continuous(rng, 3)
    kernel = _attributed(n_iter=n_iter, gamma=0.3)
    np.testing.assert_allclose(kernel.fit_transform(graphs),
                               wwl_gram(_attribute_pairs(graphs), n_iter, 0.3, True),
                               atol=1e-9)
    expected = wwl_gram(_attribute_pairs(new), n_iter, 0.3, True,
                        others=_attribute_pairs(graphs))
    np.testing.assert_allclose(kernel.transform(new), expected, atol=1e-9)
    np.testing.assert_allclose(
        wasserstein_weisfeiler_lehman_kernel(new, graphs, n_iter=n_iter, gamma=0.3,
                                             node_label=None, node_attributes="attributes"),
        expected, atol=1e-9)


def _check_metric(D):
    np.testing.assert_array_equal(D, D.T)
    np.testing.assert_array_equal(np.diag(D), 0)
    assert D.min() >= 0
    n = len(D)
    for i, j, k in itertools.product(range(n), repeat=3):
        assert D[i, k] <= D[i, j] + D[j, k] + 1e-12, (i, j, k)


def test_a_metric_discrete(make_graphs):
    _check_metric(WassersteinWeisfeilerLehmanKernel(n_iter=2).fit(make_graphs(10, 1, 7))
                  .wasserstein_distances())


def test_a_metric_continuous(rng):
    _check_metric(_attributed(n_iter=2).fit(_continuous(rng, 10)).wasserstein_distances())


def test_node_order_invariance(make_graphs, permute_graph, rng):
    graphs = make_graphs(6, 2, 7, n_labels=3)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = WassersteinWeisfeilerLehmanKernel(n_iter=3)
    np.testing.assert_allclose(kernel.fit_transform(permuted), kernel.fit_transform(graphs),
                               rtol=1e-14)
    attributed = _continuous(rng, 5)
    orders = [rng.permutation(len(x)) for _, _, _, x in attributed]
    shuffled = [(a[np.ix_(o, o)], lab[o], None, x[o])
                for (a, lab, _, x), o in zip(attributed, orders)]
    np.testing.assert_allclose(_attributed().fit_transform(shuffled),
                               _attributed().fit_transform(attributed), rtol=1e-12)


def test_continuous_distance_ignores_a_shift_of_every_attribute(rng):
    # isolated nodes keep their attributes, so no point is pulled towards the origin
    graphs = _continuous(rng, 6)
    shifted = [(a, lab, None, x + 5.0) for a, lab, _, x in graphs]
    np.testing.assert_allclose(_attributed().fit(shifted).wasserstein_distances(),
                               _attributed().fit(graphs).wasserstein_distances(), atol=1e-12)


@pytest.mark.parametrize("gamma", [0.1, 1.0, 10.0])
def test_positive_definite_in_the_discrete_case(make_graphs, gamma):
    # D is an l1 distance between label distributions, conditionally negative definite
    K = WassersteinWeisfeilerLehmanKernel(n_iter=2, gamma=gamma).fit_transform(
        make_graphs(40, 1, 8, n_labels=3))
    np.testing.assert_array_equal(np.diag(K), 1)
    assert np.linalg.eigvalsh(K).min() > -1e-12


def test_one_and_two_threads_agree(make_graphs, rng):
    graphs = make_graphs(12, 1, 6)
    np.testing.assert_array_equal(
        WassersteinWeisfeilerLehmanKernel(n_jobs=1).fit_transform(graphs),
        WassersteinWeisfeilerLehmanKernel(n_jobs=2).fit_transform(graphs))
    attributed = _continuous(rng, 12)
    np.testing.assert_array_equal(_attributed(n_jobs=1).fit_transform(attributed),
                                  _attributed(n_jobs=2).fit_transform(attributed))


def _authors_case(name):
    """Graphs and the authors' distances stored in ``tests/data/wwl`` (see its README)."""
    case = json.loads((DATA / f"{name}.json").read_text())
    graphs = []
    for edges, n_nodes, nodes in zip(case["edges"], case["n_nodes"], case["nodes"]):
        adjacency = np.zeros((n_nodes, n_nodes), dtype=int)
        for i, j in edges:
            adjacency[i, j] = adjacency[j, i] = 1
        graphs.append((adjacency, nodes) if case["discrete"]
                      else (adjacency, [0] * n_nodes, None, np.array(nodes, dtype=float)))
    return case, graphs


@pytest.mark.parametrize("name", ["mutag", "enzymes"])
def test_agrees_with_the_authors_code(name):
    case, graphs = _authors_case(name)
    params = ({} if case["discrete"] else {"node_label": None, "node_attributes": "attributes"})
    kernel = WassersteinWeisfeilerLehmanKernel(n_iter=case["n_iter"], **params).fit(graphs)
    np.testing.assert_allclose(kernel.wasserstein_distances(), case["distances"], rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("params, message", [
    ({"node_attributes": "attributes"}, "not both"),
    ({"node_label": None, "node_attributes": "attributes", "edge_label": "bond"},
     "edge_label=None"),
])
def test_bad_parameters(params, message):
    graphs = [(PATH, [0, 1, 0], None, np.ones((3, 1)))]
    with pytest.raises(ValueError, match=message):
        WassersteinWeisfeilerLehmanKernel(**params).fit(graphs)


def test_without_labels_the_discrete_embedding_takes_the_unlabelled_rule():
    graphs = [(PATH, [0, 1, 0]), (np.ones((3, 3)) - np.eye(3), [5, 5, 5])]
    for rule, labels in [("constant", lambda A: [0] * len(A)),
                         ("degree", lambda A: list(A.sum(axis=1).astype(int)))]:
        unlabelled = WassersteinWeisfeilerLehmanKernel(node_label=None, unlabeled_nodes=rule)
        written = [(A, labels(A)) for A, _ in graphs]
        np.testing.assert_array_equal(unlabelled.fit_transform(graphs),
                                      WassersteinWeisfeilerLehmanKernel().fit_transform(written))


def test_graph_without_nodes():
    with pytest.raises(ValueError, match="graph 1 has no nodes"):
        WassersteinWeisfeilerLehmanKernel().fit([(PATH, [0, 1, 0]),
                                                 (np.zeros((0, 0)), [])])


@pytest.mark.parametrize("scale", [1e200, 1e300])
def test_attributes_whose_distances_overflow(scale):
    # the transport costs would be infinite and POT's problem infeasible (it then returns 0)
    graphs = [(PATH, [0, 0, 0], None, np.array([[scale], [0.0], [-scale]])),
              (PATH, [0, 0, 0], None, np.zeros((3, 1)))]
    with pytest.raises(ValueError, match="overflow the Euclidean distances"):
        _attributed().fit(graphs)


def test_a_transport_problem_not_solved_to_optimality_warns(rng, monkeypatch):
    # the solver's status is read: optimal problems give no warning, the others are counted
    graphs = _continuous(rng, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        expected = _attributed().fit(graphs).wasserstein_distances()
    monkeypatch.setattr(wwl_module, "_OPTIMAL", -1)
    with pytest.warns(ConvergenceWarning, match="before optimality on 6 graph pairs"):
        np.testing.assert_array_equal(_attributed().fit(graphs).wasserstein_distances(),
                                      expected)


def test_missing_pot_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ot", None)
    with pytest.raises(ImportError, match=r'pip install "kernelkit\[ot\]"'):
        _attributed().fit([(PATH, [0, 0, 0], None, np.ones((3, 1)))])
    # the discrete case does not need it
    WassersteinWeisfeilerLehmanKernel().fit([(PATH, [0, 0, 0])])


def test_no_explicit_features_nor_streaming():
    kernel = WassersteinWeisfeilerLehmanKernel()
    assert not hasattr(kernel, "transform_features")
    assert not hasattr(kernel, "partial_fit")


# two-node graphs in the plane whose Wasserstein distances are not conditionally negative
# definite (found by a search over the point pairs of the 3 × 3 grid)
INDEFINITE = [[(0, 1), (1, 1)], [(0, 1), (2, 1)], [(0, 2), (1, 0)], [(1, 1), (1, 2)],
              [(1, 1), (2, 2)], [(1, 2), (2, 1)], [(2, 0), (2, 2)]]


def _indefinite_graphs():
    return [(np.zeros((2, 2), dtype=int), [0, 0], None, np.array(points, dtype=float))
            for points in INDEFINITE]


def test_indefinite_in_the_continuous_case_and_what_svc_does(rng):
    from kernelkit.svm import SVC

    kernel = _attributed(n_iter=0, gamma=0.2)
    graphs = _indefinite_graphs()
    K = kernel.fit_transform(graphs)
    assert np.linalg.eigvalsh(K).min() < -1e-3
    y = np.arange(len(graphs)) % 2
    # up to 128 training graphs the default check is complete: refused, for the Gram and for
    # the kernel object alike
    with pytest.raises(ValueError, match="not positive semi-definite"):
        SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match="not positive semi-definite"):
        SVC(kernel=kernel).fit(graphs, y)
    # above 128 the default checks the diagonal only and the solver's pair test always holds
    # (2 - 2 exp(-gamma D) >= 0): it trains on the indefinite Gram; "full" refuses it
    graphs += [(np.zeros((2, 2), dtype=int), [0, 0], None, rng.normal(size=(2, 2)))
               for _ in range(125)]
    K = kernel.fit_transform(graphs)
    assert np.linalg.eigvalsh(K).min() < -1e-3
    y = np.arange(len(graphs)) % 2
    assert SVC(kernel="precomputed").fit(K, y).predict(K).shape == y.shape
    with pytest.raises(ValueError, match="not positive semi-definite"):
        SVC(kernel="precomputed", validate_gram="full").fit(K, y)


def test_gamma_needs_no_refit(make_graphs):
    graphs = make_graphs(8, 1, 6)
    kernel = WassersteinWeisfeilerLehmanKernel(gamma=1.0).fit(graphs)
    kernel.set_params(gamma=3.0)
    np.testing.assert_array_equal(
        kernel.transform(graphs),
        WassersteinWeisfeilerLehmanKernel(gamma=3.0).fit(graphs).transform(graphs))
    np.testing.assert_allclose(kernel.transform(graphs),
                               np.exp(-3.0 * kernel.wasserstein_distances()), rtol=1e-15)
