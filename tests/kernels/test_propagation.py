"""PropagationKernel: closed forms, the twin, GraKeL with the same projections, bad input."""

import numpy as np
import pytest
from sklearn.base import clone

from kernelkit.kernels import PropagationKernel, propagation_kernel
from kernelkit.reference.graph_attributes import (
    propagation_features,
    propagation_gram,
    propagation_product_features,
)


def _graphs(rng, n_graphs, max_nodes=7, n_labels=3, d=2):
    graphs = []
    for _ in range(n_graphs):
        n = int(rng.integers(1, max_nodes + 1))
        upper = np.triu(rng.random((n, n)) < 0.4, 1)
        graphs.append(((upper | upper.T).astype(int), rng.integers(0, n_labels, n), None,
                       rng.normal(size=(n, d))))
    return graphs


def _cycle(n, label="C"):
    a = np.roll(np.eye(n, dtype=int), 1, axis=1)
    return (a + a.T, [label] * n)


def test_regular_graphs_with_one_label_stay_in_one_bin():
    # every node of a cycle with one label keeps the one-hot distribution: one bin per step
    graphs = [_cycle(3), _cycle(4), _cycle(6)]
    K = PropagationKernel(t_max=4, random_state=0).fit_transform(graphs)
    n = np.array([3, 4, 6])
    np.testing.assert_array_equal(K, 4 * np.outer(n, n))


def test_one_step_is_the_label_histogram_kernel(rng):
    graphs = _graphs(rng, 8)
    K = PropagationKernel(t_max=1, random_state=0).fit_transform(graphs)
    histograms = np.array([np.bincount(g[1], minlength=3) for g in graphs])
    np.testing.assert_array_equal(K, histograms @ histograms.T)


def _twin(kernel, graphs, attributes):
    if attributes:
        vectors = [(a, x) for a, _, _, x in graphs]
    else:
        codes = kernel.node_label_codes_
        vectors = [(a, np.eye(kernel.projections_.shape[1])[[codes[label] for label in lab]])
                   for a, lab, _, _ in graphs]
    features = propagation_features(vectors, kernel.t_max, kernel._bin_width(),
                                    kernel.projections_, kernel.offsets_,
                                    sqrt=kernel.distance == "hellinger")
    return propagation_gram(features)


@pytest.mark.parametrize("params", [
    {"distance": "l1"}, {"distance": "l2"}, {"distance": "hellinger"},
    {"distance": "l1", "node_label": None, "node_attributes": "attributes"},
    {"distance": "l2", "node_label": None, "node_attributes": "attributes", "w": 0.5},
])
def test_agrees_with_the_twin(rng, params):
    graphs = _graphs(rng, 10)
    kernel = PropagationKernel(t_max=4, random_state=0, **params)
    K = kernel.fit_transform(graphs)
    np.testing.assert_array_equal(K, _twin(kernel, graphs, "node_attributes" in params))


def test_symmetric_psd_and_invariant_to_node_order(rng):
    graphs = _graphs(rng, 12)
    kernel = PropagationKernel(random_state=0)
    K = kernel.fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * K.max()
    permuted = []
    for a, lab, _, x in graphs:
        order = rng.permutation(len(lab))
        permuted.append((a[np.ix_(order, order)], lab[order], None, x[order]))
    # codes follow first occurrences: fit on the same label order, then permute the nodes
    kernel.fit(graphs)
    np.testing.assert_array_equal(kernel.transform(permuted), kernel.transform(graphs))


@pytest.mark.parametrize("attributes", [False, True])
@pytest.mark.parametrize("normalize", [False, True])
def test_transform_is_a_block_of_the_whole_gram(rng, attributes, normalize):
    graphs = _graphs(rng, 12)
    # the new graphs bring a label never seen at fit
    new = [(a, np.where(lab == 2, 7, lab), None, x) for a, lab, _, x in graphs[8:]]
    train = [(a, np.minimum(lab, 1), None, x) for a, lab, _, x in graphs[:8]]
    params = {"node_label": None, "node_attributes": "attributes"} if attributes else {}
    kernel = PropagationKernel(random_state=3, normalize=normalize, **params)
    K = kernel.fit_transform(train + new)
    np.testing.assert_array_equal(clone(kernel).fit(train).transform(new), K[8:, :8])
    np.testing.assert_array_equal(
        propagation_kernel(new, train, random_state=3, normalize=normalize, **params), K[8:, :8])


def test_transform_of_graphs_with_fewer_labels_than_fitted(rng):
    graphs = _graphs(rng, 10)
    kernel = PropagationKernel(random_state=0)
    one_label = [(a, np.zeros_like(lab), None, x) for a, lab, _, x in graphs[:3]]
    np.testing.assert_array_equal(kernel.fit(graphs).transform(one_label),
                                  kernel.fit_transform(graphs + one_label)[10:, :10])


def test_draws_depend_only_on_random_state(rng):
    graphs = _graphs(rng, 10)
    first = PropagationKernel(random_state=5).fit_transform(graphs)
    np.testing.assert_array_equal(PropagationKernel(random_state=5).fit_transform(graphs), first)
    assert not np.array_equal(PropagationKernel(random_state=6).fit_transform(graphs), first)
    fitted = PropagationKernel().fit(graphs)  # random_state=None: drawn once, stored
    np.testing.assert_array_equal(fitted.transform(graphs), fitted.transform(graphs))


def test_explicit_features_give_the_gram(rng):
    graphs = _graphs(rng, 10)
    kernel = PropagationKernel(random_state=0).fit(graphs[:6])
    features = kernel.transform_features(graphs)
    np.testing.assert_array_equal((features @ features[:6].T).toarray(),
                                  kernel.transform(graphs))


def test_threads_do_not_change_results(rng):
    graphs = _graphs(rng, 30)
    one = PropagationKernel(random_state=0, n_jobs=1).fit_transform(graphs)
    np.testing.assert_array_equal(PropagationKernel(random_state=0, n_jobs=2).fit_transform(graphs),
                                  one)


@pytest.mark.parametrize("grakel_metric, distance", [("TV", "l1"), ("H", "hellinger")])
def test_agrees_with_grakel_given_its_projections(mutag, grakel_metric, distance):
    # GraKeL draws its projections from its own random stream: give ours the same ones
    grakel = pytest.importorskip("grakel")
    graphs = [(a.toarray(), labels) for a, labels, _ in mutag.graphs[:40]]
    peer = grakel.Propagation(t_max=5, w=0.01, M=grakel_metric, random_state=0)
    expected = peer.fit_transform([grakel.Graph(a, dict(enumerate(labels.tolist())),
                                                graph_format="adjacency")
                                   for a, labels in graphs])
    kernel = PropagationKernel(distance=distance)

    def grakel_draws(batch, with_labels):
        codes = kernel.node_label_codes_
        labels = sorted(codes, key=codes.get)
        kernel.projections_ = np.array([[u[peer._enum_labels[label]] for label in labels]
                                        for u in peer._u])
        kernel.random_seed_, kernel.offsets_ = 0, np.array(peer._b)

    kernel._draw_hashes = grakel_draws
    np.testing.assert_array_equal(kernel.fit_transform(graphs), expected)


@pytest.mark.parametrize("params, message", [
    ({"node_label": None, "node_attributes": "attributes", "distance": "hellinger"},
     "hellinger"),
])
def test_bad_parameter_combinations(params, message):
    graph = (np.eye(2)[::-1], [0, 1], None, np.ones((2, 1)))
    with pytest.raises(ValueError, match=message):
        PropagationKernel(**params).fit([graph])


@pytest.mark.parametrize("params", [{"t_max": 0}, {"w": 0.0}, {"w": -1.0},
                                    {"distance": "tv"}, {"random_state": "x"}])
def test_bad_parameter_values(params):
    with pytest.raises(ValueError, match="t_max|w|distance|random_state"):
        PropagationKernel(**params).fit([_cycle(3)])


def test_bad_attributes():
    with pytest.raises(ValueError, match="graph 0 has no node attributes"):
        PropagationKernel(node_label=None, node_attributes="attributes").fit([_cycle(3)])
    fitted = PropagationKernel(node_label=None, node_attributes="attributes").fit(
        [(_cycle(3)[0], None, None, np.ones((3, 2)))])
    with pytest.raises(ValueError, match="graph 0 has 1 attributes per node"):
        fitted.transform([(_cycle(3)[0], None, None, np.ones((3, 1)))])


def test_tiny_bin_width_overflow_is_refused():
    with pytest.raises(ValueError, match="use a larger bin width"):
        PropagationKernel(w=1e-320, node_label=None, node_attributes="attributes",
                          random_state=0).fit([(_cycle(3)[0], None, None, np.ones((3, 1)))])


def test_grakel_attribute_variant_hashes_otherwise(rng):
    # GraKeL's PropagationAttr is not the paper's hashing, so no Gram comparison: its offsets
    # are w · N(0, 1) per coordinate (the paper: one θ ~ U[0, w) per step) and every coordinate
    # is binned on its own (bins are d-tuples), where the paper projects the vector.
    grakel = pytest.importorskip("grakel")
    graphs = _graphs(rng, 6, d=3)
    peer = grakel.PropagationAttr(t_max=2, w=4.0, random_state=0)
    peer.fit([grakel.Graph(a, {v: x[v] for v in range(len(x))}, graph_format="adjacency")
              for a, _, _, x in graphs])
    offsets = np.array(peer._b)
    assert offsets.shape == (2, 3) and (offsets < 0).any()
    ours = PropagationKernel(t_max=2, node_label=None, node_attributes="attributes",
                             random_state=0).fit(graphs)
    assert ours.offsets_.shape == (2,) and np.all((ours.offsets_ >= 0) & (ours.offsets_ < 4.0))


# --- labels and attributes together: the product node kernel ---------------------------------

def _connected(graphs):
    """The graphs of two nodes or more, with a path through their nodes added: no isolated
    node (whose vectors propagate to zero, which the limits below leave out)."""
    out = []
    for a, lab, e, x in (graph for graph in graphs if len(graph[1]) > 1):
        a = a.copy()
        n = len(a)
        a[np.arange(n - 1), np.arange(1, n)] = a[np.arange(1, n), np.arange(n - 1)] = 1
        out.append((a, lab, e, x))
    return out


def _product_twin(kernel, graphs):
    codes = kernel.node_label_codes_
    n_codes = kernel.label_projections_.shape[1]
    features = propagation_product_features(
        [(a, np.eye(n_codes)[[codes[label] for label in lab]], x) for a, lab, _, x in graphs],
        kernel.t_max, (0.01, kernel.label_projections_, kernel.label_offsets_),
        (kernel._bin_width(), kernel.projections_, kernel.offsets_))
    return propagation_gram(features)


@pytest.mark.parametrize("params", [{"distance": "l1"}, {"distance": "l2", "w": 0.5}])
def test_labels_times_attributes_agrees_with_the_twin(rng, params):
    graphs = _graphs(rng, 10)
    kernel = PropagationKernel(t_max=4, random_state=0, node_attributes="attributes", **params)
    K = kernel.fit_transform(graphs)
    np.testing.assert_array_equal(K, _product_twin(kernel, graphs))
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * K.max()


@pytest.mark.parametrize("distance", ["l1", "l2"])
def test_labels_times_attributes_at_its_limits(rng, distance):
    graphs = _connected(_graphs(rng, 10))
    params = {"t_max": 4, "random_state": 0, "distance": distance}
    product = PropagationKernel(node_attributes="attributes", **params)
    # every label equal: the attribute kernel alone
    one_label = [(a, ["C"] * len(lab), e, x) for a, lab, e, x in graphs]
    np.testing.assert_array_equal(
        clone(product).fit_transform(one_label),
        PropagationKernel(node_label=None, node_attributes="attributes", **params)
        .fit_transform(one_label))
    # every attribute vector equal: the label kernel alone
    constant = [(a, lab, e, np.full((len(lab), 2), 0.3)) for a, lab, e, _ in graphs]
    np.testing.assert_array_equal(clone(product).fit_transform(constant),
                                  PropagationKernel(**params).fit_transform(constant))
    # labels of unlabeled_nodes="constant" leave the attribute kernel alone
    unlabelled = [(a, None, e, x) for a, _, e, x in graphs]
    np.testing.assert_array_equal(
        clone(product).fit_transform(unlabelled),
        PropagationKernel(node_label=None, node_attributes="attributes", **params)
        .fit_transform(unlabelled))
