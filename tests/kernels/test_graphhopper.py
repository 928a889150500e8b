"""GraphHopperKernel: the twin, hand-computed cases, kernel properties, GraKeL, bad input."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from kernelkit.kernels import GraphHopperKernel, graphhopper_kernel
from kernelkit.reference.graph_attributes import graphhopper_gram, graphhopper_weights

EDGE = (np.array([[0, 1], [1, 0]]), None, None, np.array([[1.0], [2.0]]))
PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), None, None, np.ones((3, 1)))

VARIANTS = {
    "linear": {"kernel": "linear"},
    "gaussian": {"kernel": "gaussian", "gamma": 0.3},
    "labels": {"node_attributes": None, "node_label": "label"},
}


def _graphs(rng, n_graphs, max_nodes=7, d=3, p_edge=0.4):
    """Random graphs as 4-tuples (labels and attributes), some disconnected or edgeless."""
    graphs = []
    for _ in range(n_graphs):
        n = int(rng.integers(1, max_nodes + 1))
        upper = np.triu(rng.random((n, n)) < p_edge, 1)
        graphs.append(((upper | upper.T).astype(int), rng.integers(0, 3, n),
                       None, rng.normal(size=(n, d))))
    return graphs


def _twin(graphs, kernel="linear", gamma=1.0, labels=False, attributes=None):
    """The twin's Gram: the label delta (``labels``), the attribute kernel (``attributes``,
    by default when not ``labels``), or their product (both)."""
    attributes = not labels if attributes is None else attributes
    return graphhopper_gram([(a, lab if labels else None, x if attributes else None)
                             for a, lab, _, x in graphs], kernel, gamma)


def _twin_params(variant):
    params = VARIANTS[variant]
    return {"kernel": params.get("kernel", "linear"), "gamma": params.get("gamma", 1.0),
                "labels": variant == "labels"}


def test_hand_computed_edge():
    # each node of an edge: the path of length 0 at (0, 0), and the edge's two orientations
    # put it at (0, 1) and (1, 1); ⟨M_u, M_v⟩ = 3 for all four node pairs
    np.testing.assert_array_equal(graphhopper_weights(EDGE[0])[0], [[1, 1], [0, 1]])
    K = GraphHopperKernel().fit_transform([EDGE])
    assert K[0, 0] == 3 * (1 + 2) ** 2
    K = GraphHopperKernel(kernel="gaussian", gamma=0.5).fit_transform([EDGE])
    np.testing.assert_allclose(K[0, 0], 3 * (2 + 2 * np.exp(-0.5)))


def test_path_middle_node_counts():
    # the middle node of a 3-path: 1 path of length 0, 4 of length 1 (at positions 0 and 1
    # twice each), 2 of length 2 with it at position 1
    M = graphhopper_weights(PATH[0])[1]
    np.testing.assert_array_equal(M, [[1, 2, 0], [0, 2, 2], [0, 0, 0]])


@pytest.mark.parametrize("variant", VARIANTS)
def test_agrees_with_the_twin(rng, variant):
    graphs = _graphs(rng, 10)
    K = GraphHopperKernel(**VARIANTS[variant]).fit_transform(graphs)
    np.testing.assert_allclose(K, _twin(graphs, **_twin_params(variant)), rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("variant", VARIANTS)
def test_symmetric_psd_and_invariant_to_node_order(rng, variant):
    graphs = _graphs(rng, 12)
    kernel = GraphHopperKernel(**VARIANTS[variant])
    K = kernel.fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * np.abs(K).max()
    permuted = []
    for a, lab, _, x in graphs:
        order = rng.permutation(len(lab))
        permuted.append((a[np.ix_(order, order)], lab[order], None, x[order]))
    np.testing.assert_allclose(kernel.fit_transform(permuted), K, rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("normalize", [False, True])
def test_transform_is_a_block_of_the_whole_gram(rng, variant, normalize):
    # the new graphs are longer paths than any fitted graph: their longest paths match nothing
    train = _graphs(rng, 8, max_nodes=4)
    new = []
    for n in (6, 9):
        a = np.diag(np.ones(n - 1, dtype=int), 1)
        new.append((a + a.T, rng.integers(0, 4, n), None, rng.normal(size=(n, 3))))
    kernel = GraphHopperKernel(normalize=normalize, **VARIANTS[variant])
    K = kernel.fit_transform(train + new)
    np.testing.assert_allclose(clone(kernel).fit(train).transform(new), K[8:, :8], rtol=1e-12,
                               atol=1e-9)
    np.testing.assert_allclose(graphhopper_kernel(new, train, normalize=normalize,
                                                  **VARIANTS[variant]), K[8:, :8],
                               rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("variant", ["linear", "labels"])
def test_explicit_features_give_the_gram(rng, variant):
    graphs = _graphs(rng, 10)
    kernel = GraphHopperKernel(**VARIANTS[variant]).fit(graphs[:6])
    features = kernel.transform_features(graphs)
    assert features.shape == (10, kernel.n_features_fit_)
    np.testing.assert_allclose((features @ features[:6].T).toarray(), kernel.transform(graphs),
                               rtol=1e-12, atol=1e-9)


def test_gaussian_has_no_explicit_features(rng):
    kernel = GraphHopperKernel(kernel="gaussian").fit(_graphs(rng, 3))
    with pytest.raises(ValueError, match="no explicit features"):
        kernel.transform_features(_graphs(rng, 2))


def test_gaussian_threads_and_normalized_diagonal(rng):
    graphs = _graphs(rng, 40, max_nodes=9)
    one = GraphHopperKernel(kernel="gaussian", n_jobs=1, normalize=True).fit_transform(graphs)
    two = GraphHopperKernel(kernel="gaussian", n_jobs=2, normalize=True).fit_transform(graphs)
    np.testing.assert_array_equal(one, two)
    np.testing.assert_allclose(np.diag(one), 1.0, rtol=1e-12)


def test_path_counts_do_not_depend_on_the_thread_count(rng):
    from kernelkit._core import _graphhopper

    from kernelkit.kernels._graphs._encoding import encode_graphs

    batch, _, _ = encode_graphs(_graphs(rng, 30, max_nodes=12), node_label=None)
    diameters = [np.empty(batch.n_samples, dtype=np.intp) for _ in range(2)]
    for n_threads, out in zip((1, 2), diameters):
        _graphhopper.graph_diameters(batch.node_ptr, batch.indptr, batch.indices, out, n_threads)
    np.testing.assert_array_equal(*diameters)
    n_lengths = diameters[0] + 1
    weight_ptr = np.r_[0, np.cumsum(np.diff(batch.node_ptr) * n_lengths * (n_lengths + 1) // 2)]
    weights = [np.zeros(weight_ptr[-1]) for _ in range(2)]
    for n_threads, out in zip((1, 2), weights):
        _graphhopper.hopper_weights(batch.node_ptr, batch.indptr, batch.indices, n_lengths,
                                    weight_ptr.astype(np.intp), out, n_threads)
    np.testing.assert_array_equal(*weights)


def test_networkx_input_with_attributes(rng):
    graphs = _graphs(rng, 5)
    as_networkx = []
    for a, lab, _, x in graphs:
        g = nx.from_numpy_array(a)
        for v in g:
            g.nodes[v]["attributes"] = x[v].tolist()
        as_networkx.append(g)
    kernel = GraphHopperKernel(kernel="gaussian")
    np.testing.assert_allclose(kernel.fit_transform(as_networkx), kernel.fit_transform(graphs),
                               rtol=1e-13)


def _grakel_graphs(graphs):
    grakel = pytest.importorskip("grakel")
    return [grakel.Graph(a, {v: x[v] for v in range(len(x))}, graph_format="adjacency")
            for a, _, _, x in graphs]


def test_agrees_with_grakel_on_mutag(mutag):
    # GraKeL takes attributes only: the label delta is its linear kernel on one-hot labels
    grakel = pytest.importorskip("grakel")
    graphs = []
    for adjacency, labels, _ in mutag.graphs[:16]:
        graphs.append((adjacency.toarray(), labels, None, np.eye(7)[labels]))
    expected = grakel.GraphHopper(kernel_type="linear").fit_transform(_grakel_graphs(graphs))
    labels = GraphHopperKernel(node_attributes=None, node_label="label").fit_transform(graphs)
    one_hot = GraphHopperKernel().fit_transform(graphs)
    np.testing.assert_array_equal(labels, expected)
    np.testing.assert_array_equal(one_hot, expected)


@pytest.fixture(scope="module")
def enzymes(shared_data):
    """The first ENZYMES graphs without isolated nodes, as 4-tuples with their attributes."""
    from kernelkit.datasets import load_tudataset

    data = load_tudataset(shared_data, "ENZYMES", as_networkx=False)
    graphs = [(adjacency.toarray(), labels, None, attributes)
              for adjacency, labels, _, attributes in data.graphs]
    # GraKeL's GraphHopper fails on graphs with an isolated node (a one-node component makes
    # np.squeeze return a 0-d array there): compare on graphs without one
    return [g for g in graphs if g[0].sum(axis=1).min() > 0][:6]


@pytest.mark.parametrize("kernel, grakel_type", [("linear", "linear"),
                                                 ("gaussian", ("gaussian", 0.01))])
def test_agrees_with_grakel_on_enzymes(enzymes, kernel, grakel_type):
    grakel = pytest.importorskip("grakel")
    graphs = enzymes
    expected = grakel.GraphHopper(kernel_type=grakel_type).fit_transform(_grakel_graphs(graphs))
    K = GraphHopperKernel(kernel=kernel, gamma=0.01).fit_transform(graphs)
    np.testing.assert_allclose(K, expected, rtol=1e-12)


@pytest.mark.parametrize("params, message", [
    ({"node_attributes": None, "node_label": "label", "kernel": "gaussian"}, "kernel='gaussian'"),
])
def test_bad_parameter_combinations(params, message):
    with pytest.raises(ValueError, match=message):
        GraphHopperKernel(**params).fit([PATH])


@pytest.mark.parametrize("params", [{"kernel": "rbf"}, {"gamma": 0.0}, {"gamma": -1.0}])
def test_bad_parameter_values(params):
    with pytest.raises(ValueError, match="kernel|gamma"):
        GraphHopperKernel(**params).fit([PATH])


def test_bad_attributes():
    with pytest.raises(ValueError, match="graph 0: node 0 has no 'attributes' attribute"):
        GraphHopperKernel().fit([nx.path_graph(3)])
    with pytest.raises(ValueError, match="graph 1 has no node attributes"):
        GraphHopperKernel().fit([PATH, PATH[:2]])
    with pytest.raises(ValueError, match="node 1 has NaN"):
        GraphHopperKernel().fit([(PATH[0], None, None, np.array([[0.0], [np.nan], [1.0]]))])
    fitted = GraphHopperKernel().fit([PATH])
    with pytest.raises(ValueError, match="graph 0 has 2 attributes per node, the graphs seen at "
                                         "fit have 1"):
        fitted.transform([(PATH[0], None, None, np.ones((3, 2)))])


@pytest.mark.parametrize("variant", ["linear", "gaussian"])
@pytest.mark.parametrize("normalize", [False, True])
def test_attributes_overflowing_float64_are_refused(rng, variant, normalize):
    huge = [(a, lab, e, x * 1e300) for a, lab, e, x in _graphs(rng, 4)]
    kernel = GraphHopperKernel(**VARIANTS[variant], normalize=normalize)
    with pytest.raises(ValueError, match=r"node attributes as large as \d\.\d+e\+300 in "
                                         r"magnitude overflow float64 .* rescale them"):
        kernel.fit_transform(huge)
    fitted = clone(kernel).fit(_graphs(rng, 4))   # and at transform
    with pytest.raises(ValueError, match="overflow float64"):
        fitted.transform(huge)


@pytest.mark.parametrize("variant, scale", [("linear", 2.0**400), ("gaussian", 2.0**250)])
def test_large_attributes_that_fit_give_the_gram_of_the_rescaled_ones(rng, variant, scale):
    # a power of 2 scales exactly: the normalised linear Gram is scale-free, and the Gaussian
    # with gamma / scale² is the same kernel
    graphs = _graphs(rng, 6)
    large = [(a, lab, e, x * scale) for a, lab, e, x in graphs]
    params = dict(VARIANTS[variant], normalize=True)
    expected = GraphHopperKernel(**params).fit_transform(graphs)
    if variant == "gaussian":
        params["gamma"] = params["gamma"] / scale**2
    np.testing.assert_allclose(GraphHopperKernel(**params).fit_transform(large), expected,
                               rtol=1e-9)


def test_diameter_lower_bounds(rng):
    from kernelkit._core import _graphhopper

    from kernelkit.kernels._graphs._graphhopper import _diameter_lower_bounds
    from kernelkit.kernels._graphs._encoding import encode_graphs

    graphs = _graphs(rng, 60, max_nodes=14, p_edge=0.25)
    trees = []
    for n in rng.integers(1, 30, 20):   # node i > 0 hangs from a random earlier node
        tree = nx.Graph([(i, int(rng.integers(i))) for i in range(1, n)])
        tree.add_node(0)
        trees.append((nx.to_numpy_array(tree, nodelist=range(n)), None, None, np.ones((n, 1))))
    for batch_graphs, exact_on_all in ((graphs, False), (trees, True)):
        batch, _, _ = encode_graphs(batch_graphs, node_label=None)
        diameters = np.empty(batch.n_samples, dtype=np.intp)
        _graphhopper.graph_diameters(batch.node_ptr, batch.indptr, batch.indices, diameters, 1)
        bounds = _diameter_lower_bounds(batch)
        assert np.all(bounds <= diameters) and np.all(2 * bounds >= diameters)
        if exact_on_all:
            np.testing.assert_array_equal(bounds, diameters)
    # a disconnected graph: the longer component counts
    two_paths = nx.disjoint_union(nx.path_graph(3), nx.path_graph(6))
    batch, _, _ = encode_graphs([(nx.to_numpy_array(two_paths), None)], node_label=None)
    np.testing.assert_array_equal(_diameter_lower_bounds(batch), [5])


def test_a_path_too_long_for_memory_is_refused_before_its_diameter(monkeypatch):
    # the exact diameters take a BFS per node (10¹⁰ steps here): the refusal must not wait
    from kernelkit._core import _graphhopper

    def exact_diameters(*args):
        raise AssertionError("the O(n m) diameters were computed before the refusal")

    monkeypatch.setattr(_graphhopper, "graph_diameters", exact_diameters)
    n = 10**5
    path = sp.diags_array([np.ones(n - 1), np.ones(n - 1)], offsets=[-1, 1], format="csr")
    with pytest.raises(ValueError, match=r"path counts of graphs of diameter at least 99999 "
                                         r"would need .*TiB"):
        GraphHopperKernel(node_attributes=None, node_label="label").fit([(path, [0] * n)])


# --- labels and attributes together: the product node kernel ---------------------------------

@pytest.mark.parametrize("kernel, gamma", [("linear", 1.0), ("gaussian", 0.3)])
def test_labels_times_attributes_agrees_with_the_twin(rng, kernel, gamma):
    graphs = _graphs(rng, 10)
    model = GraphHopperKernel(node_label="label", kernel=kernel, gamma=gamma)
    K = model.fit_transform(graphs)
    np.testing.assert_allclose(K, _twin(graphs, kernel, gamma, labels=True, attributes=True),
                               rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(K, K.T, rtol=1e-12)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * np.abs(K).max()
    # against the fitted graphs: the twin's rows of the new graphs
    new = _graphs(rng, 4)
    full = _twin(graphs + new, kernel, gamma, labels=True, attributes=True)
    np.testing.assert_allclose(model.transform(new), full[len(graphs):, :len(graphs)],
                               rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("kernel, gamma", [("linear", 1.0), ("gaussian", 0.3)])
def test_labels_times_attributes_at_its_limits(rng, kernel, gamma):
    graphs = _graphs(rng, 8)
    product = GraphHopperKernel(node_label="label", kernel=kernel, gamma=gamma)
    # every label equal: the attribute kernel alone
    one_label = [(a, np.zeros(len(lab), dtype=int), e, x) for a, lab, e, x in graphs]
    np.testing.assert_allclose(
        clone(product).fit_transform(one_label),
        GraphHopperKernel(kernel=kernel, gamma=gamma).fit_transform(one_label),
        rtol=1e-12)
    # every attribute 1 (the Gaussian: any one vector): the label delta alone
    ones = [(a, lab, e, np.ones((len(lab), 1))) for a, lab, e, _ in graphs]
    np.testing.assert_allclose(
        clone(product).fit_transform(ones),
        GraphHopperKernel(node_attributes=None, node_label="label").fit_transform(ones),
        rtol=1e-12)
    # labels of unlabeled_nodes="constant" leave the attribute kernel alone
    unlabelled = [(a, None, e, x) for a, _, e, x in graphs]
    np.testing.assert_array_equal(
        clone(product).fit_transform(unlabelled),
        GraphHopperKernel(kernel=kernel, gamma=gamma).fit_transform(unlabelled))


def test_the_label_delta_only_removes_node_pairs(rng):
    # Gaussian node kernel and path weights are positive: the delta can only lower each entry
    graphs = _graphs(rng, 6)
    K = GraphHopperKernel(node_label="label", kernel="gaussian", gamma=0.3).fit_transform(graphs)
    assert np.all(K <= GraphHopperKernel(kernel="gaussian", gamma=0.3).fit_transform(graphs)
                  + 1e-9)
