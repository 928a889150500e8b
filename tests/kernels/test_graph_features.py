"""Explicit features of the graph kernels (``transform_features``), the growing vocabulary
(``partial_fit``) and Weisfeiler–Lehman with edge labels.

Oracles: ``Φ Φᵀ`` against the kernels' own Gram matrices; the pure-Python twins of
``kernelkit.reference.graph_features``; hand-computed small cases. GraKeL has no
Weisfeiler–Lehman edge kernel (its ``WeisfeilerLehman`` reads node labels only), so the edge
variant is checked against the twin and hand cases alone.
"""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from kernelkit.kernels import (
    EdgeHistogramKernel,
    GraphletKernel,
    ShortestPathKernel,
    VertexHistogramKernel,
    WeisfeilerLehmanKernel,
    weisfeiler_lehman_kernel,
)
from kernelkit.reference.graph_features import feature_gram, weisfeiler_lehman_features
from kernelkit.utils._sklearn_compat import InvalidParameterError

SPARSE_KERNELS = [WeisfeilerLehmanKernel(n_iter=3),
                  WeisfeilerLehmanKernel(n_iter=2, edge_label="label"),
                  ShortestPathKernel(), VertexHistogramKernel(), EdgeHistogramKernel()]
EXPLICIT_KERNELS = [*SPARSE_KERNELS, GraphletKernel(k=3)]
IDS = ["wl", "wl-edge", "sp", "vh", "eh", "graphlet"]

PATH = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]])


@pytest.fixture(scope="module")
def molecules(mutag):
    return mutag.graphs


def _check_canonical(phi, n_rows):
    assert isinstance(phi, sp.csr_array)
    assert phi.dtype == np.float64
    assert phi.shape[0] == n_rows
    assert phi.has_canonical_format
    assert phi.indices.dtype == phi.indptr.dtype == np.int32


@pytest.mark.parametrize("kernel", EXPLICIT_KERNELS, ids=IDS)
def test_features_give_the_gram_matrices(kernel, molecules):
    train, test = molecules[:60], molecules[60:100]
    kernel = clone(kernel).fit(train)
    phi_train, phi_test = kernel.transform_features(train), kernel.transform_features(test)
    _check_canonical(phi_test, len(test))
    np.testing.assert_allclose((phi_test @ phi_train.T).toarray(), kernel.transform(test),
                               rtol=1e-13, atol=0)
    np.testing.assert_allclose((phi_train @ phi_train.T).toarray(),
                               clone(kernel).fit_transform(train), rtol=1e-13, atol=0)


@pytest.mark.parametrize("kernel", SPARSE_KERNELS, ids=IDS[:-1])
def test_integer_counts_give_the_gram_matrices_exactly(kernel, molecules):
    train, test = molecules[:60], molecules[60:]
    kernel = clone(kernel).fit(train)
    phi_train = kernel.transform_features(train)
    np.testing.assert_array_equal((kernel.transform_features(test) @ phi_train.T).toarray(),
                                  kernel.transform(test))


@pytest.mark.parametrize("kernel", EXPLICIT_KERNELS, ids=IDS)
def test_normalized_features_include_unseen_features_in_the_norm(kernel, molecules):
    # fitted on few molecules: the others hold labels and patterns unseen there
    train, test = molecules[:15], molecules[100:140]
    kernel = clone(kernel).set_params(normalize=True).fit(train)
    phi_train, phi_test = kernel.transform_features(train), kernel.transform_features(test)
    np.testing.assert_allclose((phi_test @ phi_train.T).toarray(), kernel.transform(test),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose((phi_train @ phi_train.T).toarray(),
                               clone(kernel).fit_transform(train), rtol=1e-12, atol=1e-15)
    norms = np.sqrt((phi_test.multiply(phi_test)).sum(axis=1))
    assert np.all(norms <= 1 + 1e-12)


def test_unseen_features_have_no_column_but_count_in_the_norm():
    kernel = VertexHistogramKernel(normalize=True).fit([(PATH, ["C", "C", "C"])])
    phi = kernel.transform_features([(PATH, ["C", "C", "O"])])
    # counts (C: 2) in the fitted space, norm² = 2² + 1² with the unseen O
    np.testing.assert_allclose(phi.toarray(), [[2 / np.sqrt(5)]])


def test_features_need_a_fitted_kernel(molecules):
    with pytest.raises(NotFittedError):
        WeisfeilerLehmanKernel().transform_features(molecules[:3])
    kernel = WeisfeilerLehmanKernel(n_iter=2).fit(molecules[:5]).set_params(n_iter=3)
    with pytest.raises(NotFittedError, match="n_iter"):
        kernel.transform_features(molecules[:3])


def test_graphlet_features_are_the_frequencies():
    triangle = (np.ones((3, 3)) - np.eye(3), None)
    kernel = GraphletKernel(k=3).fit([triangle, (PATH, None)])
    np.testing.assert_array_equal(kernel.transform_features([triangle, (PATH, None)]).toarray(),
                                  [[0, 0, 0, 1], [0, 0, 1, 0]])


# --- partial_fit: one column space, batch by batch ------------------------------------------

def _padded(phi, n_columns):
    out = sp.csr_array(phi, copy=True)
    out.resize((phi.shape[0], n_columns))
    return out.toarray()


@pytest.mark.parametrize("kernel", SPARSE_KERNELS, ids=IDS[:-1])
def test_partial_fit_never_moves_a_column(kernel, molecules):
    batches = [molecules[0:40], molecules[40:100], molecules[100:188]]
    kernel = clone(kernel)
    rows = []
    for batch in batches:
        kernel.partial_fit(batch)
        rows.append(kernel.transform_features(batch))
    n_columns = kernel.transform_features(batches[0]).shape[1]
    assert n_columns >= max(phi.shape[1] for phi in rows)
    for batch, phi in zip(batches, rows):
        # every earlier batch gives the same rows, its columns where they were
        np.testing.assert_array_equal(kernel.transform_features(batch).toarray(),
                                      _padded(phi, n_columns))


@pytest.mark.parametrize("kernel", SPARSE_KERNELS, ids=IDS[:-1])
def test_partial_fit_features_give_the_gram_of_all_graphs(kernel, molecules):
    batches = [molecules[0:50], molecules[50:120], molecules[120:]]
    streamed = clone(kernel)
    for batch in batches:
        streamed.partial_fit(batch)
    phi = sp.vstack([streamed.transform_features(batch) for batch in batches])
    np.testing.assert_array_equal((phi @ phi.T).toarray(), clone(kernel).fit_transform(molecules))
    assert streamed.transform_features(molecules).shape[1] == \
        clone(kernel).fit(molecules).transform_features(molecules).shape[1]


@pytest.mark.parametrize("edge_label", [None, "label"])
def test_many_small_batches_give_the_same_features_as_one_fit(molecules, edge_label):
    # every batch merges its new signatures into the sorted tables
    streamed = WeisfeilerLehmanKernel(n_iter=4, edge_label=edge_label)
    for start in range(0, len(molecules), 7):
        streamed.partial_fit(molecules[start:start + 7])
    fitted = WeisfeilerLehmanKernel(n_iter=4, edge_label=edge_label).fit(molecules)
    # labels are numbered in order of discovery, not by rank: the tables hold as many
    # signatures, each table sorted, with every label once
    for (table, ptr, codes), (_, _, fit_codes) in zip(streamed.signature_tables_,
                                                      fitted.signature_tables_):
        rows = [table[ptr[t]:ptr[t + 1]].tolist() for t in range(len(codes))]
        assert rows == sorted(rows)
        assert sorted(codes.tolist()) == list(range(len(fit_codes)))
    phi = streamed.transform_features(molecules)
    np.testing.assert_array_equal((phi @ phi.T).toarray(), fitted.fit_transform(molecules))


def test_merge_of_sorted_tables():
    from kernelkit._core import _wl_relabel

    # rows [1], [1, 2], [3] and [0, 5], [1, 1], [2]
    data = np.array([1, 1, 2, 3, 0, 5, 1, 1, 2], dtype=np.int32)
    ptr = np.array([0, 1, 3, 4, 6, 8, 9], dtype=np.intp)
    order = np.empty(6, dtype=np.intp)
    _wl_relabel.merge_sorted_rows(data, ptr, 3, order)
    np.testing.assert_array_equal(order, [3, 0, 4, 1, 5, 2])
    with pytest.raises(ValueError, match="n_first"):
        _wl_relabel.merge_sorted_rows(data, ptr, 7, order)


@pytest.mark.parametrize("normalize", [False, True])
def test_partial_fit_from_nothing_starts_an_empty_reference_set(molecules, normalize):
    kernel = WeisfeilerLehmanKernel(n_iter=2, normalize=normalize).partial_fit(molecules[:10])
    assert kernel.n_samples_fit_ == 0
    assert kernel.transform(molecules[:4]).shape == (4, 0)


def test_partial_fit_state_pickles(molecules):
    kernel = WeisfeilerLehmanKernel(n_iter=2, edge_label="label").partial_fit(molecules[:10])
    copy = pickle.loads(pickle.dumps(kernel))
    for k in (kernel, copy):
        k.partial_fit(molecules[10:30])
    np.testing.assert_array_equal(copy.transform_features(molecules).toarray(),
                                  kernel.transform_features(molecules).toarray())


def test_partial_fit_refuses_a_batch_without_the_labels_it_needs(molecules):
    kernel = WeisfeilerLehmanKernel(edge_label="label").partial_fit(molecules[:3])
    adjacency, labels, _ = molecules[0]
    with pytest.raises(ValueError, match="no edge labels"):
        kernel.partial_fit([(adjacency, labels)])
    with pytest.raises(ValueError, match="node labels"):
        kernel.partial_fit([(adjacency, None, molecules[0][2])])


def test_partial_fit_after_fit_keeps_the_fitted_graphs(molecules):
    kernel = WeisfeilerLehmanKernel(n_iter=3, normalize=True).fit(molecules[:30])
    before = kernel.transform(molecules[30:60])
    phi_fit = kernel.transform_features(molecules[:30])
    kernel.partial_fit(molecules[60:])
    assert kernel.n_samples_fit_ == 30
    np.testing.assert_array_equal(kernel.transform(molecules[30:60]), before)
    np.testing.assert_array_equal(kernel.transform_features(molecules[:30]).toarray(),
                                  _padded(phi_fit, kernel.X_fit_.known.shape[1]))
    # graphs seen by partial_fit now share their patterns with everything after
    np.testing.assert_array_equal(
        kernel.transform_features(molecules[60:]).toarray().sum(axis=1) > 0, True)


def test_partial_fit_grows_labels_unseen_so_far():
    c = (PATH, ["C", "C", "C"])
    o = (PATH, ["O", "O", "O"])
    kernel = VertexHistogramKernel().partial_fit([c])
    assert kernel.transform_features([o]).nnz == 0
    kernel.partial_fit([o])
    np.testing.assert_array_equal(kernel.transform_features([c, o]).toarray(), [[3, 0], [0, 3]])
    assert kernel.node_label_codes_ == {"C": 0, "O": 1}


def test_partial_fit_after_changing_a_parameter_asks_for_a_refit(molecules):
    kernel = WeisfeilerLehmanKernel(n_iter=2).partial_fit(molecules[:5]).set_params(n_iter=4)
    with pytest.raises(NotFittedError, match="n_iter"):
        kernel.partial_fit(molecules[5:10])


def test_fit_after_partial_fit_starts_over(molecules):
    kernel = WeisfeilerLehmanKernel(n_iter=2).partial_fit(molecules[100:])
    kernel.fit(molecules[:20])
    fresh = WeisfeilerLehmanKernel(n_iter=2).fit(molecules[:20])
    np.testing.assert_array_equal(kernel.feature_keys_, fresh.feature_keys_)
    np.testing.assert_array_equal(kernel.transform(molecules[20:40]),
                                  fresh.transform(molecules[20:40]))


def test_partial_fit_threads_give_the_same_features(molecules):
    one = WeisfeilerLehmanKernel(n_iter=3, n_jobs=1)
    two = WeisfeilerLehmanKernel(n_iter=3, n_jobs=2)
    for batch in (molecules[:90], molecules[90:]):
        one.partial_fit(batch)
        two.partial_fit(batch)
    np.testing.assert_array_equal(one.transform_features(molecules).toarray(),
                                  two.transform_features(molecules).toarray())


# --- Weisfeiler–Lehman with edge labels -----------------------------------------------------

def test_edge_variant_by_hand():
    single = (PATH, ["C", "C", "O"], {(0, 1): 1, (1, 2): 1})
    double = (PATH, ["C", "C", "O"], {(0, 1): 1, (1, 2): 2})
    # iteration 0: C C O both, 4 + 1 = 5; iteration 1: only the end carbon's signature
    # (C, [(1, C)]) is shared, each graph has 3 distinct signatures
    K = WeisfeilerLehmanKernel(n_iter=1, edge_label="bond").fit_transform([single, double])
    np.testing.assert_array_equal(K, [[8, 6], [6, 8]])
    # the plain kernel does not see the bonds
    plain = WeisfeilerLehmanKernel(n_iter=1).fit_transform([single, double])
    np.testing.assert_array_equal(plain, [[8, 8], [8, 8]])


def test_edge_variant_with_equal_edge_labels_is_plain_wl(make_graphs):
    graphs = make_graphs(25, 1, 9, n_labels=3, n_edge_labels=1)
    for n_iter in (0, 1, 3):
        np.testing.assert_array_equal(
            WeisfeilerLehmanKernel(n_iter=n_iter, edge_label="label").fit_transform(graphs),
            WeisfeilerLehmanKernel(n_iter=n_iter).fit_transform(graphs))


@pytest.mark.parametrize("n_iter", [1, 2, 4])
def test_edge_variant_equals_the_twin(make_graphs, n_iter):
    graphs = make_graphs(30, 1, 9, n_labels=2, n_edge_labels=3)
    train, test = graphs[:18], graphs[18:]
    features = weisfeiler_lehman_features(graphs, n_iter, edge_labels=True)
    kernel = WeisfeilerLehmanKernel(n_iter=n_iter, edge_label="label")
    np.testing.assert_array_equal(kernel.fit_transform(train), feature_gram(features[:18]))
    np.testing.assert_array_equal(kernel.transform(test),
                                  feature_gram(features[18:], features[:18]))


def test_edge_variant_on_molecules_equals_the_twin(molecules):
    graphs = molecules[:60]
    expected = feature_gram(weisfeiler_lehman_features(graphs, 3, edge_labels=True))
    np.testing.assert_array_equal(
        weisfeiler_lehman_kernel(graphs, n_iter=3, edge_label="label"), expected)


def test_plain_wl_equals_the_twin(molecules):
    graphs = molecules[:60]
    np.testing.assert_array_equal(weisfeiler_lehman_kernel(graphs, n_iter=3),
                                  feature_gram(weisfeiler_lehman_features(graphs, 3)))


def test_edge_signatures_do_not_depend_on_threads(molecules):
    from kernelkit._core import _wl_relabel

    from kernelkit.kernels._graphs._encoding import encode_graphs

    batch, _, _ = encode_graphs(molecules, edge_label="label")
    out = []
    for n_threads in (1, 2):
        signatures = np.empty(batch.n_nodes + 2 * len(batch.indices), dtype=np.int32)
        _wl_relabel.node_signatures(batch.indptr, batch.indices, batch.node_labels, signatures,
                                    n_threads, batch.edge_labels,
                                    np.empty(len(batch.indices), dtype=np.int64))
        out.append(signatures)
    np.testing.assert_array_equal(out[0], out[1])


def test_edge_signatures_need_their_scratch(molecules):
    from kernelkit._core import _wl_relabel

    from kernelkit.kernels._graphs._encoding import encode_graphs

    batch, _, _ = encode_graphs(molecules[:2], edge_label="label")
    signatures = np.empty(batch.n_nodes + 2 * len(batch.indices), dtype=np.int32)
    with pytest.raises(ValueError, match="one entry per adjacency entry"):
        _wl_relabel.node_signatures(batch.indptr, batch.indices, batch.node_labels, signatures,
                                    1, batch.edge_labels, None)
    # room for the plain signatures only
    with pytest.raises(ValueError, match="two with edge labels"):
        _wl_relabel.node_signatures(batch.indptr, batch.indices, batch.node_labels,
                                    signatures[:batch.n_nodes + len(batch.indices)], 1,
                                    batch.edge_labels,
                                    np.empty(len(batch.indices), dtype=np.int64))


def test_edge_variant_is_invariant_to_node_order(make_graphs, permute_graph, rng):
    graphs = make_graphs(15, 2, 8, n_labels=2, n_edge_labels=3)
    permuted = [permute_graph(graph, rng) for graph in graphs]
    kernel = WeisfeilerLehmanKernel(n_iter=3, edge_label="label")
    np.testing.assert_array_equal(kernel.fit_transform(permuted), kernel.fit_transform(graphs))


def test_edge_variant_gram_is_symmetric_psd(make_graphs):
    K = WeisfeilerLehmanKernel(n_iter=3, edge_label="label").fit_transform(
        make_graphs(30, 1, 8, n_edge_labels=3))
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-9 * np.abs(K).max()


def test_unlabelled_vertex_histogram_counts_every_node(unlabelled_graph):
    graphs = [(unlabelled_graph(3)[0], None), (unlabelled_graph(5)[0], None)]
    np.testing.assert_array_equal(
        WeisfeilerLehmanKernel(n_iter=0, node_label=None).fit_transform(graphs),
        [[9, 15], [15, 25]])


def test_edge_variant_needs_edge_labels():
    with pytest.raises(ValueError, match="no edge labels"):
        WeisfeilerLehmanKernel(edge_label="bond").fit([(PATH, ["C", "C", "O"])])


def test_edge_variant_rejects_a_bad_edge_label_name():
    with pytest.raises(InvalidParameterError, match="edge_label"):
        WeisfeilerLehmanKernel(edge_label=3).fit([(PATH, ["C", "C", "O"])])


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_plain_wl_equals_grakel_on_shared_data(name, shared_data, grakel_graphs):
    grakel = pytest.importorskip("grakel")
    from kernelkit.datasets import load_tudataset

    graphs = load_tudataset(shared_data, name, as_networkx=False).graphs[:600]
    peer_input = grakel_graphs(graphs)
    peer = grakel.kernels.WeisfeilerLehman(
        n_iter=3, base_graph_kernel=grakel.kernels.VertexHistogram, normalize=False)
    expected = peer.fit(peer_input[:400]).transform(peer_input[400:])
    kernel = WeisfeilerLehmanKernel(n_iter=3).fit(graphs[:400])
    np.testing.assert_array_equal(kernel.transform(graphs[400:]), expected)
    phi = kernel.transform_features(graphs)
    np.testing.assert_array_equal((phi[400:] @ phi[:400].T).toarray(), expected)
