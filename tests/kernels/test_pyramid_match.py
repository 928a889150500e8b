"""PyramidMatchKernel: hand-computed cases, defining properties, the twin, GraKeL, bad input."""

import numpy as np
import pytest
from sklearn.base import clone

from kernelkit.datasets import load_tudataset
from kernelkit.kernels import PyramidMatchKernel, is_positive_definite, pyramid_match_kernel
from kernelkit.reference import graph_pyramid as reference
from kernelkit.utils._sklearn_compat import InvalidParameterError

EDGE = (np.array([[0, 1], [1, 0]]), ["C", "C"])
NODE = (np.zeros((1, 1)), ["C"])
PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def _dense(graphs):
    return [(adjacency.toarray(), list(labels)) for adjacency, labels, *_ in graphs]


def test_hand_computed_edge_and_node():
    # edge: eigenvectors (1, ±1)/√2, both nodes at (0.707, 0.707): cells 0, 1, 2 at levels
    # 0, 1, 2 in each of its 2 dimensions. Node: one dimension at 1, cells 0, 1, 3.
    # I_0 = min(2, 1) = 1, I_1 = 1, I_2 = 0: k = I_2 + (I_0 - I_1)/4 + (I_1 - I_2)/2 = 1/2
    K = PyramidMatchKernel(L=2, d=2).fit_transform([EDGE, NODE])
    np.testing.assert_array_equal(K, [[4.0, 0.5], [0.5, 1.0]])


def test_self_similarity_is_nodes_times_dimensions(mutag):
    graphs = mutag.graphs[:20]
    n_nodes = np.array([g[0].shape[0] for g in graphs])
    for d in (1, 6, 30):
        K = PyramidMatchKernel(L=3, d=d).fit_transform(graphs)
        np.testing.assert_array_equal(np.diag(K), n_nodes * np.minimum(n_nodes, d))


def test_labels_separate_nodes():
    other = (EDGE[0], ["C", "N"])
    with_labels = PyramidMatchKernel(L=1, d=2).fit_transform([EDGE, other])
    without = PyramidMatchKernel(L=1, d=2, with_labels=False).fit_transform([EDGE, other])
    # same embedding; with labels only the C node of `other` matches, in both dimensions
    assert with_labels[0, 1] == 2.0
    assert without[0, 1] == without[0, 0] == 4.0


@pytest.mark.parametrize("L, d, with_labels", [(4, 6, True), (2, 3, False), (0, 1, True),
                                                (5, 2, True)])
def test_equals_the_twin(make_graphs, mutag, L, d, with_labels):
    graphs = [(a, list(l)) for a, l, _ in make_graphs(12, 1, 9, n_labels=3)]
    graphs += _dense(mutag.graphs[:25])
    K = PyramidMatchKernel(L=L, d=d, with_labels=with_labels).fit_transform(graphs)
    np.testing.assert_array_equal(K, reference.pyramid_match_gram(graphs, graphs, L, d,
                                                                   with_labels))
    fitted = PyramidMatchKernel(L=L, d=d, with_labels=with_labels).fit(graphs[:20])
    np.testing.assert_array_equal(
        fitted.transform(graphs[20:]),
        reference.pyramid_match_gram(graphs[20:], graphs[:20], L, d, with_labels))


def test_symmetric_psd_and_normalized(mutag):
    K = PyramidMatchKernel().fit_transform(mutag.graphs)
    np.testing.assert_array_equal(K, K.T)
    assert is_positive_definite(K)
    Kn = PyramidMatchKernel(normalize=True).fit_transform(mutag.graphs)
    np.testing.assert_allclose(np.diag(Kn), 1.0)
    np.testing.assert_allclose(Kn, K / np.sqrt(np.outer(np.diag(K), np.diag(K))), rtol=1e-12)


def test_function_form(mutag):
    X, Y = mutag.graphs[:10], mutag.graphs[10:30]
    np.testing.assert_array_equal(pyramid_match_kernel(X, Y, L=3, d=4),
                                  PyramidMatchKernel(L=3, d=4).fit(Y).transform(X))


def _simple_spectrum(adjacency, d, L):
    """The embedding is canonical: the selected eigenvalues are simple, the magnitude cut falls
    between two magnitudes (or between λ and -λ of a bipartite graph, whose eigenvectors have
    the same absolute values), and no coordinate lies on a cell boundary (up to rounding)."""
    eigenvalues, eigenvectors = np.linalg.eigh(adjacency)
    n = len(eigenvalues)
    if n > d + 1:
        order = np.lexsort((-eigenvalues, -np.abs(eigenvalues)))
        last, first_left_out = order[d - 1], order[d]
        if abs(abs(eigenvalues[last]) - abs(eigenvalues[first_left_out])) < 1e-6 and not (
                np.allclose(np.abs(eigenvectors[:, last]),
                            np.abs(eigenvectors[:, first_left_out]), atol=1e-9)):
            return False
        chosen = order[:d]
    else:
        chosen = np.arange(n)[::-1][:d]
    if any(np.sum(np.abs(eigenvalues - eigenvalues[i]) < 1e-6) > 1 for i in chosen):
        return False
    scaled = reference.pyramid_embedding(adjacency, d)[..., None] * 2.0 ** np.arange(L + 1)
    interior = (scaled > 0.5) & (scaled < 2.0 ** np.arange(L + 1) - 0.5)
    return not np.any(interior & (np.abs(scaled - np.round(scaled)) < 1e-6))


def test_invariant_to_node_order_on_simple_spectra(mutag, rng):
    graphs = [g for g in _dense(mutag.graphs) if _simple_spectrum(g[0], 6, 4)][:40]
    permuted = []
    for adjacency, labels in graphs:
        order = rng.permutation(len(labels))
        permuted.append((adjacency[np.ix_(order, order)], [labels[i] for i in order]))
    kernel = PyramidMatchKernel()
    np.testing.assert_array_equal(kernel.fit_transform(graphs), kernel.fit_transform(permuted))


def test_repeated_eigenvalues_make_the_embedding_basis_dependent():
    # the 4-cycle has eigenvalue 0 twice: the basis of its eigenspace, so the embedding's
    # coordinates, depend on the eigensolver and node order (why GraKeL's ARPACK with a random
    # start changes from run to run on such graphs)
    cycle = np.array([[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]], dtype=float)
    eigenvalues = np.linalg.eigvalsh(cycle)
    assert np.isclose(eigenvalues[1], eigenvalues[2])
    assert not _simple_spectrum(cycle, 2, 2)


# GraKeL 0.1.11's PyramidMatch(L) bins the levels 0..L-1 and, its accumulation being inside the
# loop over levels, adds the formula's partial sums once per level: I_l weighs (L - l) c_l.
def _grakel_value(intersections):
    L = len(intersections)
    value = np.zeros_like(intersections[0])
    for last in range(L):
        partial = [I if level <= last else 0 * I for level, I in enumerate(intersections)]
        value = value + partial[L - 1]
        for level in range(L - 1):
            value = value + (partial[level] - partial[level + 1]) / 2.0 ** (L - level - 1)
    return value


def _level_intersections(graphs, n_levels, d):
    """I_0..I_{n_levels-1} recovered from kernelkit's Gram matrices: K_L = (K_{L-1} + I_L)/2."""
    K = [PyramidMatchKernel(L=L, d=d).fit_transform(graphs) for L in range(n_levels)]
    return [K[0]] + [2 * K[L] - K[L - 1] for L in range(1, n_levels)]


def _grakel_input(graphs):
    """GraKeL's input: dense adjacency and a {node: label} dict per graph."""
    return [[adjacency, dict(enumerate(labels))] for adjacency, labels in graphs]


def test_level_zero_equals_grakel_on_all_of_mutag(mutag):
    # level 0 (one cell per dimension) does not depend on the eigenvectors: exact everywhere
    grakel = pytest.importorskip("grakel")
    graphs = _dense(mutag.graphs)
    expected = grakel.kernels.PyramidMatch(L=1, d=6).fit_transform(_grakel_input(graphs))
    np.testing.assert_array_equal(PyramidMatchKernel(L=0).fit_transform(graphs), expected)


def _check_grakel(graphs, n_levels=4, d=6):
    grakel = pytest.importorskip("grakel")
    graphs = [g for g in graphs if _simple_spectrum(g[0], d, n_levels - 1)]
    expected = grakel.kernels.PyramidMatch(L=n_levels, d=d).fit_transform(_grakel_input(graphs))
    np.testing.assert_array_equal(_grakel_value(_level_intersections(graphs, n_levels, d)),
                                  expected)
    return len(graphs)


def test_equals_grakel_on_mutag_where_the_spectrum_is_simple(mutag):
    assert _check_grakel(_dense(mutag.graphs)) >= 170  # 178 of MUTAG's 188


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_equals_grakel_on_shared_sets(shared_data, name):
    data = load_tudataset(shared_data, name, as_networkx=False)
    rng = np.random.default_rng(0)
    graphs = _dense([data.graphs[i] for i in rng.choice(len(data.graphs), 50, replace=False)])
    assert _check_grakel(graphs) >= 40  # 48 of these 50


def test_threads_agree(mutag):
    one = PyramidMatchKernel(n_jobs=1).fit_transform(mutag.graphs)
    two = PyramidMatchKernel(n_jobs=2).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(one, two)


def test_unlabelled_networkx_graphs_without_labels():
    nx = pytest.importorskip("networkx")
    graphs = [nx.path_graph(4), nx.cycle_graph(5), nx.star_graph(3)]
    K = PyramidMatchKernel(L=2, d=3, with_labels=False).fit_transform(graphs)
    assert K.shape == (3, 3)
    # nodes without attributes: unlabelled graphs, one label for every node
    K_constant = PyramidMatchKernel(L=2, d=3).fit_transform(graphs)
    assert np.all(np.isfinite(K_constant))
    nx.set_node_attributes(graphs[0], 0, "colour")
    with pytest.raises(ValueError, match="has no 'label' attribute"):
        PyramidMatchKernel().fit(graphs)


@pytest.mark.parametrize("params", [{"L": -1}, {"L": 31}, {"d": 0}, {"L": 1.5},
                                    {"with_labels": "yes"}])
def test_bad_parameters(params):
    with pytest.raises(InvalidParameterError):
        PyramidMatchKernel(**params).fit([PATH])


def test_bad_graphs():
    with pytest.raises(ValueError, match="NaN"):
        PyramidMatchKernel().fit([(np.array([[0, np.nan], [np.nan, 0]]), [0, 1])])
    with pytest.raises(ValueError, match="graph 1 has no node labels but graph 0 has"):
        PyramidMatchKernel().fit([PATH, (PATH[0], None)])
    with pytest.raises(ValueError, match="directed"):
        PyramidMatchKernel().fit([(np.array([[0, 1], [0, 0]]), [0, 1])])


def test_too_many_bins_is_refused():
    many_labels = (np.ones((3, 3)) - np.eye(3), [0, 1, 2])
    with pytest.raises(ValueError, match="histogram bins"):
        PyramidMatchKernel(L=25, d=2**40).fit([many_labels])


def test_unseen_labels_match_nothing():
    fitted = PyramidMatchKernel(L=2, d=2).fit([EDGE])
    K = fitted.transform([(EDGE[0], ["X", "X"])])
    assert K[0, 0] == 0.0
    assert clone(fitted).set_params(normalize=True).fit([EDGE]).transform(
        [(EDGE[0], ["X", "X"])])[0, 0] == 0.0
