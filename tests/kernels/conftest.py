"""Fixtures of the kernel tests: random strings and graphs, shipped sequences and TU sets."""

import pathlib

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

PROTEIN = "ACDEFGHIKLMNPQRSTVWY"


@pytest.fixture
def make_strings(rng):
    """``make_strings(n, min_len, max_len, alphabet)``: random strings from the seeded ``rng``."""

    def make(n, min_len, max_len, alphabet=PROTEIN):
        letters = np.array(list(alphabet))
        return ["".join(rng.choice(letters, size=int(rng.integers(min_len, max_len + 1))))
                for _ in range(n)]

    return make


@pytest.fixture
def check_fast_gram_verbose(capsys):
    """``check(kernel, X)``: a Gram matrix computed in no time prints nothing at ``verbose=0``
    and one line at ``verbose=1``, with the same values; returns it."""

    def check(kernel, X):
        quiet = clone(kernel).fit_transform(X)
        assert capsys.readouterr().err == ""
        loud = clone(kernel).set_params(verbose=1).fit_transform(X)
        np.testing.assert_array_equal(quiet, loud)
        lines = capsys.readouterr().err.splitlines()
        n = len(X)
        assert len(lines) == 1
        assert lines[0].startswith(f"[{type(kernel).__name__}] Gram matrix {n} x {n}, ")
        return quiet

    return check


@pytest.fixture(scope="session")
def secreted_proteins():
    """The shipped PeNGaRoo proteins: (sequences, labels)."""
    from kernelkit.datasets import load_secreted_proteins

    sequences, labels, _ = load_secreted_proteins()
    return sequences, labels


@pytest.fixture(scope="session")
def blosum62():
    from kernelkit.datasets import load_blosum62

    return load_blosum62()

DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def random_graph(rng, n_nodes, p_edge=0.35, n_labels=2, n_edge_labels=1):
    """``(adjacency, node_labels, edge_labels)`` with a symmetric 0/1 dense adjacency."""
    upper = np.triu(rng.random((n_nodes, n_nodes)) < p_edge, 1)
    adjacency = (upper | upper.T).astype(np.int64)
    labels = rng.integers(n_labels, size=n_nodes)
    elabels = np.triu(rng.integers(n_edge_labels, size=(n_nodes, n_nodes)), 1)
    elabels = elabels + elabels.T
    return adjacency, labels, elabels


@pytest.fixture
def make_graphs(rng):
    """``make_graphs(n_graphs, min_nodes, max_nodes, **kw)`` → list of random graphs."""

    def make(n_graphs, min_nodes=1, max_nodes=6, **kw):
        return [random_graph(rng, int(rng.integers(min_nodes, max_nodes + 1)), **kw)
                for _ in range(n_graphs)]

    return make


@pytest.fixture
def permute_graph():
    """``permute_graph(graph, rng)``: the same dense-triple graph with its nodes reordered."""

    def permute(graph, rng):
        adjacency, labels, elabels = graph
        order = rng.permutation(len(labels))
        return (adjacency[np.ix_(order, order)], labels[order], elabels[np.ix_(order, order)])

    return permute


@pytest.fixture(scope="session")
def mutag():
    from kernelkit.datasets import load_mutag

    return load_mutag(as_networkx=False)


@pytest.fixture(scope="session")
def mutag_dense(mutag):
    """MUTAG as ``(dense adjacency, labels, dense edge-label matrix)`` triples."""
    graphs = []
    for adjacency, labels, elabels in mutag.graphs:
        dense = adjacency.toarray()
        edge_matrix = np.zeros_like(dense, dtype=np.int64)
        for (i, j), label in elabels.items():
            edge_matrix[i, j] = label
        graphs.append((dense, labels, edge_matrix))
    return graphs


@pytest.fixture(scope="session")
def ptc_mr():
    from kernelkit.datasets import load_tudataset

    return load_tudataset(DATA, "PTC_MR", as_networkx=False)


@pytest.fixture(scope="session")
def grakel_graphs():
    """``convert(graphs, edge_labels=False)``: ``(adjacency, labels, edge_labels)`` triples
    (sparse adjacency) as GraKeL's ``[adjacency dict, node labels(, edge labels)]`` input."""

    def convert(graphs, edge_labels=False):
        return [[{i: dict.fromkeys(A.indices[A.indptr[i]:A.indptr[i + 1]].tolist(), 1.0)
                  for i in range(A.shape[0])},
                 dict(enumerate(np.asarray(labels).tolist())),
                 *([dict(E)] if edge_labels else [])]
                for A, labels, E in ((sp.csr_array(a), l, e) for a, l, e, *_ in graphs)]

    return convert


@pytest.fixture
def unlabelled_graph():
    """``make(n_nodes, complete=False)``: a path (or complete) graph, ``(adjacency, labels)``."""

    def make(n_nodes, complete=False):
        A = (np.ones((n_nodes, n_nodes)) - np.eye(n_nodes) if complete
             else np.diag(np.ones(n_nodes - 1), 1))
        return np.maximum(A, A.T), [0] * n_nodes

    return make
