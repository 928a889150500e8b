"""Neighbourhood hash kernel: the hash and kernel of the paper (by hand and by the twin), its
defining properties, GraKeL's Gram matrix given the same initial bit strings, bad input."""

import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit.kernels import NeighborhoodHashKernel, neighborhood_hash_kernel
from kernelkit.kernels._graphs._encoding import label_key, label_keys
from kernelkit.kernels._graphs._neighborhood_hash import initial_bit_labels
from kernelkit.reference import graph_assignment as twin

PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def _pairs(graphs):
    return [(adjacency, list(labels)) for adjacency, labels, *_ in graphs]


def _initial(kernel, bits):
    """The fitted label → bit string map, by the twin's formula."""
    labels = list(kernel.node_label_codes_)
    return dict(zip(labels, twin.initial_bit_labels(labels, bits)))


def test_known_small_case():
    # labels a (C), b (O). One hash: path → rot(a)^a, rot(a)^a^b, rot(b)^a; triangle →
    # rot(a)^a^b twice, rot(b)^a^a = rot(b). One label in common: c = 1, 1 / (3 + 3 - 1)
    K = NeighborhoodHashKernel(R=1).fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, 0.2], [0.2, 1]], rtol=1e-15)


def test_equal_neighbours_cancel_only_in_the_simple_hash():
    # a centre with two equal neighbours: the simple hash is rot(l(centre)) (a ^ a = 0), the
    # same as an isolated node of the centre's label; the count-sensitive one differs
    cherry = (np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]), ["N", "C", "C"])
    lone = (np.zeros((1, 1)), ["N"])
    simple = NeighborhoodHashKernel(R=1).fit_transform([cherry, lone])
    np.testing.assert_allclose(simple[0, 1], 1 / 3, rtol=1e-15)  # c = 1, 3 + 1 - 1
    counted = NeighborhoodHashKernel(R=1, nh_type="count_sensitive").fit_transform([cherry, lone])
    assert counted[0, 1] == 0


@pytest.mark.parametrize("nh_type", ["simple", "count_sensitive"])
def test_graphs_without_edges(nh_type):
    # no neighbours: NH(v) = ROT_1(l(v)), so the kernel is the label-histogram Tanimoto
    a = (np.zeros((3, 3)), ["C", "C", "O"])
    b = (np.zeros((2, 2)), ["C", "N"])
    K = NeighborhoodHashKernel(R=2, nh_type=nh_type).fit_transform([a, b])
    np.testing.assert_allclose(K, [[1, 1 / 4], [1 / 4, 1]], rtol=1e-15)


def test_initial_bit_labels_come_from_the_labels_themselves():
    labels = ["C", "O", "N", "", "é", 0, 1, 2, 7, -3, 2.5, None]
    keys = label_keys({label: code for code, label in enumerate(labels)})
    for bits in (1, 3, 8, 13, 64):
        strings = initial_bit_labels(keys, bits)
        assert strings.dtype == np.uint64
        assert strings.tolist() == twin.initial_bit_labels(labels, bits)
        assert int(strings.max()) < 1 << bits
    assert len(np.unique(keys)) == len(labels)
    # the fixed map: the same strings in every process, whatever other labels were seen
    assert twin.initial_bit_labels(["C", 0], 64) == [label_key("C"), label_key(0)]
    assert label_key("C") == 0x32B5A27AAE4ACA8C
    # labels equal as dictionary keys are one label, so one string
    assert len({label_key(v) for v in (1, 1.0, True, np.int64(1), np.float64(1.0), np.True_,
                                       1 + 0j)}) == 1
    assert label_key(("C", 1)) == label_key(("C", 1.0)) != label_key(("C", 2))
    assert label_key(frozenset({"a", 1})) == label_key(frozenset({1, "a"}))
    assert label_key("1") != label_key(1) != label_key(None)


@pytest.mark.parametrize("nh_type", ["simple", "count_sensitive"])
@pytest.mark.parametrize("bits", [4, 16, None])
def test_equals_twin(make_graphs, nh_type, bits):
    graphs = make_graphs(12, 1, 8, n_labels=3)
    kernel = NeighborhoodHashKernel(R=3, nh_type=nh_type, bits=bits)
    K = kernel.fit_transform(graphs)
    b = 64 if bits is None else bits
    expected = twin.neighborhood_hash_gram(_pairs(graphs), 3, b, nh_type, _initial(kernel, b))
    np.testing.assert_allclose(K, expected, rtol=1e-14, atol=0)


@pytest.mark.parametrize("nh_type", ["simple", "count_sensitive"])
def test_equals_twin_on_mutag(mutag, nh_type):
    graphs = mutag.graphs[:40]
    kernel = NeighborhoodHashKernel(R=3, nh_type=nh_type)
    K = kernel.fit_transform(graphs)
    expected = twin.neighborhood_hash_gram(_pairs(graphs), 3, 64, nh_type, _initial(kernel, 64))
    np.testing.assert_allclose(K, expected, rtol=1e-14, atol=0)


@pytest.mark.parametrize("nh_type", ["simple", "count_sensitive"])
def test_symmetric_psd_unit_diagonal(make_graphs, nh_type):
    graphs = make_graphs(30, 1, 9, n_labels=2)
    K = NeighborhoodHashKernel(R=3, nh_type=nh_type).fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    np.testing.assert_array_equal(np.diag(K), 1)
    assert np.all((K >= 0) & (K <= 1))
    assert np.linalg.eigvalsh(K).min() > -1e-10


def test_normalize_changes_nothing(mutag):
    graphs = mutag.graphs[:50]
    np.testing.assert_allclose(NeighborhoodHashKernel(normalize=True).fit_transform(graphs),
                               NeighborhoodHashKernel().fit_transform(graphs), rtol=1e-15)


def test_invariant_to_node_order(make_graphs, permute_graph, rng):
    graphs = make_graphs(10, 2, 7, n_labels=3)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = NeighborhoodHashKernel(R=3, nh_type="count_sensitive")
    np.testing.assert_array_equal(kernel.fit(graphs).transform(permuted),
                                  kernel.fit_transform(graphs))


def test_transform_and_function_form(mutag):
    train, test = mutag.graphs[:60], mutag.graphs[60:90]
    whole = NeighborhoodHashKernel().fit_transform(train + test)
    np.testing.assert_allclose(NeighborhoodHashKernel().fit(train).transform(test),
                               whole[60:, :60], rtol=1e-15)
    np.testing.assert_allclose(neighborhood_hash_kernel(test, train), whole[60:, :60],
                               rtol=1e-15)
    np.testing.assert_allclose(neighborhood_hash_kernel(train), whole[:60, :60], rtol=1e-15)


def test_unseen_labels_get_strings_of_their_own():
    # "S" is unseen at fit: its own bit string (from the label), which matches nothing
    kernel = NeighborhoodHashKernel(R=1).fit([PATH])
    sulphur = (PATH[0], ["C", "C", "S"])
    K = kernel.transform([sulphur])
    # only the end carbon's hash rot(C)^C is shared; the middle and the S end differ
    np.testing.assert_allclose(K, [[1 / 5]], rtol=1e-15)


def test_threads_agree(mutag):
    one = NeighborhoodHashKernel(n_jobs=1).fit_transform(mutag.graphs)
    two = NeighborhoodHashKernel(n_jobs=2).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(one, two)


def test_few_bits_are_a_hash_not_a_limit_on_the_labels():
    # more labels than 1-bit strings: they share strings, as the hash's collisions are meant to
    graphs = [(np.zeros((1, 1)), [label]) for label in "ABCDE"]
    K = NeighborhoodHashKernel(R=1, bits=1).fit_transform(graphs)
    strings = twin.initial_bit_labels(list("ABCDE"), 1)
    np.testing.assert_array_equal(K, np.equal.outer(strings, strings).astype(float))


def test_absurd_R_is_refused_before_any_work():
    with pytest.raises(ValueError, match=r"NeighborhoodHashKernel\(R=1000000000000\).*lower R"):
        NeighborhoodHashKernel(R=10**12).fit([PATH])


@pytest.mark.parametrize("params, match", [
    ({"R": 0}, "R"),
    ({"R": 2.5}, "R"),
    ({"bits": 0}, "bits"),
    ({"bits": 65}, "bits"),
    ({"nh_type": "sorted"}, "nh_type"),
])
def test_bad_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        NeighborhoodHashKernel(**params).fit([PATH])


@pytest.mark.parametrize("X, error, match", [
    (PATH, TypeError, "sequence of graphs"),
    ([(np.zeros((0, 0)), [])], ValueError, "no nodes"),
    ([(np.ones((2, 2)), ["C", "C", "O"])], ValueError, "label"),
])
def test_bad_input(X, error, match):
    with pytest.raises(error, match=match):
        NeighborhoodHashKernel().fit(X)


def test_unlabelled_graphs():
    import networkx as nx

    labelled = nx.path_graph(3)
    nx.set_node_attributes(labelled, 0, "colour")
    with pytest.raises(ValueError, match="node_label=None"):
        NeighborhoodHashKernel().fit([labelled])
    # one label a, hashed by structure only: the path's middle node and the triangle's three
    # nodes hash to rot(a) ^ a ^ a = rot(a)
    K = NeighborhoodHashKernel(R=1, node_label=None).fit_transform([nx.path_graph(3),
                                                                    nx.cycle_graph(3)])
    np.testing.assert_allclose(K, [[1, 1 / 5], [1 / 5, 1]], rtol=1e-15)
    # nodes without attributes: unlabelled graphs, for the default node_label too
    np.testing.assert_array_equal(
        NeighborhoodHashKernel(R=1).fit_transform([nx.path_graph(3), nx.cycle_graph(3)]), K)


# --- GraKeL ----------------------------------------------------------------------------------

def _grakel_input(graphs, codes):
    """GraKeL's ``[edge dictionary, node labels]`` pairs, the labels replaced by their codes."""
    out = []
    for adjacency, labels, *_ in graphs:
        csr = sp.csr_array(adjacency)
        edges = {v: dict.fromkeys(csr.indices[csr.indptr[v]:csr.indptr[v + 1]].tolist(), 1.0)
                 for v in range(csr.shape[0])}
        out.append([edges, {v: codes[label] for v, label in enumerate(labels)}])
    return out


def _grakel_with_our_strings(grakel, kernel, **params):
    """GraKeL's NeighborhoodHash, its random draw of the initial bit strings replaced by those
    of the fitted ``kernel``.

    GraKeL zips the set of labels with ``random_state_.choice(2^bits, n_labels)``; the labels
    given to it are our codes 0..n-1, whose set iterates in increasing order (CPython's small
    integer hashes), so code ``c`` gets the string of the label coded ``c``.
    """
    strings = initial_bit_labels(label_keys(kernel.node_label_codes_), params["bits"])

    class FixedStrings:
        def choice(self, high, size, replace=True):
            return strings[:size]

    class Injected(grakel.kernels.NeighborhoodHash):
        def initialize(self):
            super().initialize()
            self.random_state_ = FixedStrings()

    return Injected(**params)


# GraKeL radix-sorts the neighbour labels bit by bit in Python: 64-bit count-sensitive
# hashing takes it seconds on MUTAG, so 16 bits there
@pytest.mark.parametrize("nh_type, bits", [("simple", 8), ("simple", 64),
                                           ("count_sensitive", 8), ("count_sensitive", 16)])
def test_equals_grakel_on_mutag(mutag, nh_type, bits):
    grakel = pytest.importorskip("grakel")
    kernel = NeighborhoodHashKernel(R=3, nh_type=nh_type, bits=bits)
    K = kernel.fit_transform(mutag.graphs)
    peer = _grakel_with_our_strings(grakel, kernel, R=3, nh_type=nh_type, bits=bits)
    expected = peer.fit_transform(_grakel_input(mutag.graphs, kernel.node_label_codes_))
    np.testing.assert_allclose(K, expected, rtol=1e-14, atol=0)


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_equals_grakel_on_shared_data(shared_data, name):
    from kernelkit.datasets import load_tudataset

    grakel = pytest.importorskip("grakel")
    graphs = load_tudataset(shared_data, name, as_networkx=False).graphs[::20][:150]
    kernel = NeighborhoodHashKernel(R=3, bits=16)
    K = kernel.fit_transform(graphs)
    peer = _grakel_with_our_strings(grakel, kernel, R=3, bits=16)
    expected = peer.fit_transform(_grakel_input(graphs, kernel.node_label_codes_))
    np.testing.assert_allclose(K, expected, rtol=1e-14, atol=0)


def test_verbose_prints_one_line_per_gram(check_fast_gram_verbose, mutag):
    check_fast_gram_verbose(NeighborhoodHashKernel(), mutag.graphs[:20])
