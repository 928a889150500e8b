"""The batch reader of tuple graphs gives what reading them one by one gives, bit for bit."""

import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit.kernels._graphs._encoding import _readers, _tuple_batch, encode_graphs
from kernelkit.kernels._graphs._encoding._label_coder import LabelCoder
from kernelkit.kernels._graphs._encoding._tuple_batch import read_tuple_batch

_FIELDS = ("node_ptr", "indptr", "indices", "node_labels", "edge_labels", "node_attributes")


def _one_by_one(monkeypatch, X, **params):
    with monkeypatch.context() as patch:
        patch.setattr(_readers, "read_tuple_batch", lambda *args: None)
        return encode_graphs(X, **params)


def _assert_same(found, expected, case):
    for field in _FIELDS:
        a, b = getattr(found[0], field), getattr(expected[0], field)
        if a is None or b is None:
            assert a is b, (case, field)
            continue
        assert a.dtype == b.dtype and a.shape == b.shape, (case, field, a.dtype, b.dtype)
        np.testing.assert_array_equal(a, b, err_msg=f"{case}: {field}")
    for found_codes, expected_codes in zip(found[1:], expected[1:]):
        # the same labels, of the same types, in the same order, with the same codes
        assert [(type(k), repr(k), v) for k, v in found_codes.items()] == \
            [(type(k), repr(k), v) for k, v in expected_codes.items()], case


def _symmetric(rng, n, density=0.4):
    upper = np.triu(rng.random((n, n)) < density, 1)
    return upper | upper.T


def _adjacency(rng, edges, form):
    """The boolean ``edges`` in one of the forms a tuple may hold, some not canonical."""
    n = len(edges)
    weights = np.where(edges, rng.integers(1, 4, size=(n, n)), 0)
    weights = np.maximum(weights, weights.T)
    if form == "dense int":
        return weights
    if form == "dense bool":
        return edges
    if form == "dense float, Fortran order":
        return np.asfortranarray(weights.astype(np.float32))
    if form == "nested lists":
        return weights.tolist()
    if form == "csr":
        return sp.csr_array(weights.astype(float))
    if form == "csr_matrix, int64 indices":
        X = sp.csr_matrix(weights)
        X.indices, X.indptr = X.indices.astype(np.int64), X.indptr.astype(np.int64)
        return X
    if form == "csr, explicit zeros":
        rows, cols = np.nonzero(np.ones((n, n)) - np.eye(n))  # every off-diagonal position
        return sp.csr_array((weights[rows, cols].astype(float), cols, np.arange(n + 1) * (n - 1)),
                            shape=(n, n))
    if form == "csr, unsorted indices":
        X = sp.csr_array(weights)
        for i in range(n):
            X.indices[X.indptr[i]:X.indptr[i + 1]] = X.indices[X.indptr[i]:X.indptr[i + 1]][::-1]
            X.data[X.indptr[i]:X.indptr[i + 1]] = X.data[X.indptr[i]:X.indptr[i + 1]][::-1]
        X.has_sorted_indices = False
        return X
    rows, cols = np.nonzero(weights)
    if form == "csr, duplicates (some summing to 0)":
        # each entry stored twice; the second copy cancels the first on the first row's
        twice = np.repeat(np.arange(len(rows)), 2)
        data = np.tile([1.0, 1.0], len(rows))
        data[1::2] = np.where((rows == 0) | (cols == 0), -1.0, 1.0)
        return _csr_with_duplicates(data, rows[twice], cols[twice], n)
    if form == "csc":
        return sp.csc_array(weights)
    if form == "coo, repeated entries":
        return sp.coo_matrix((np.ones(2 * len(rows)), (np.r_[rows, rows], np.r_[cols, cols])),
                             shape=(n, n))
    raise AssertionError(form)


def _csr_with_duplicates(data, rows, cols, n):
    """A CSR matrix holding the entries as given, duplicates not summed."""
    order = np.argsort(rows, kind="stable")
    indptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=n))]
    X = sp.csr_matrix((n, n))
    X.data, X.indices, X.indptr = data[order], cols[order].astype(np.int32), indptr.astype(
        np.int32)
    return X


_FORMS = ["dense int", "dense bool", "dense float, Fortran order", "nested lists", "csr",
          "csr_matrix, int64 indices", "csr, explicit zeros", "csr, unsorted indices",
          "csr, duplicates (some summing to 0)", "csc", "coo, repeated entries"]


def _labels(rng, n, kind):
    values = rng.integers(0, 4, size=n)
    if kind == "int64 array":
        return values
    if kind == "uint8 array":
        return values.astype(np.uint8)
    if kind == "bool array":
        return values > 1
    if kind == "str array":
        return np.array(["C", "N", "O", "S"])[values]
    if kind == "str array of its own width":
        return np.array(["C", "Cl", "O", "Br"])[values].astype(str)  # U1 or U2
    if kind == "int32 array":
        return values.astype(np.int32)
    if kind == "uint64 array":
        return values.astype(np.uint64)
    if kind == "float32 array":
        return values.astype(np.float32) / 2
    if kind == "float array with NaN and -0.0":
        out = np.array([1.5, np.nan, -0.0, 0.0])[values]
        return out
    if kind == "large ints":
        return values.astype(np.int64) * 2**40 - 7
    if kind == "list of str":
        return [("C", "N", "O", "S")[v] for v in values.tolist()]
    if kind == "list of mixed int and float":
        return [v if v % 2 else float(v) for v in values.tolist()]
    if kind == "dict":
        return {i: f"L{v}" for i, v in enumerate(values.tolist())}
    raise AssertionError(kind)


_LABELS = ["int64 array", "uint8 array", "bool array", "str array",
           "float array with NaN and -0.0", "large ints", "list of str",
           "list of mixed int and float", "dict"]


def _edge_labels(rng, adjacency, kind):
    edges = np.asarray(adjacency.toarray() if sp.issparse(adjacency) else adjacency) != 0
    n = len(edges)
    values = rng.integers(0, 3, size=(n, n))
    values = np.maximum(values, values.T)
    if kind == "dense int":
        return values
    if kind == "dense str":
        return np.array(["-", "=", "#"])[values]
    # a dict with one orientation of each edge, or both
    i, j = np.nonzero(np.triu(np.ones((n, n)), 1))
    pairs = zip(i.tolist(), j.tolist())
    if kind == "dict, one orientation":
        return {(a, b): int(values[a, b]) for a, b in pairs}
    return {key: int(values[key]) for a, b in pairs for key in ((a, b), (b, a))}


_EDGE_LABELS = ["dense int", "dense str", "dict, one orientation", "dict, both orientations"]


def _graphs(seed, n_graphs, forms, label_kinds, edge_kinds=None, attributes=False):
    rng = np.random.default_rng(seed)
    graphs = []
    for g in range(n_graphs):
        n = int(rng.integers(1, 7))
        edges = _symmetric(rng, n, density=0.0 if g % 5 == 0 else 0.5)  # some have no edge
        adjacency = _adjacency(rng, edges, forms[g % len(forms)])
        graph = (adjacency, _labels(rng, n, label_kinds[g % len(label_kinds)]))
        if edge_kinds is not None:
            graph += (_edge_labels(rng, adjacency, edge_kinds[g % len(edge_kinds)]),)
        if attributes:
            graph += (rng.normal(size=(n, 3)).tolist() if g % 2 else rng.normal(size=(n, 3)),)
        graphs.append(graph)
    return graphs


def _cases():
    for form in _FORMS:
        yield f"adjacency {form}", dict(forms=[form], label_kinds=["int64 array"])
    yield "every adjacency form", dict(forms=_FORMS, label_kinds=["int64 array"])
    yield "dense adjacencies", dict(forms=_FORMS[:4], label_kinds=["str array"])
    for kind in _LABELS:
        yield f"labels {kind}", dict(forms=["csr"], label_kinds=[kind])
    yield "labels of every kind", dict(forms=_FORMS, label_kinds=_LABELS)
    for mix in (["int64 array", "uint8 array", "int32 array"], ["int64 array", "uint64 array"],
                ["bool array", "int64 array"], ["float array with NaN and -0.0", "float32 array"],
                ["str array", "str array of its own width"], ["float32 array", "int32 array"]):
        yield " and ".join(mix), dict(forms=["csr"], label_kinds=mix)
    for kind in _EDGE_LABELS:
        yield f"edge labels {kind}", dict(forms=_FORMS, label_kinds=["int64 array"],
                                          edge_kinds=[kind])
    yield "edge labels of every kind", dict(forms=_FORMS, label_kinds=_LABELS,
                                            edge_kinds=_EDGE_LABELS)
    yield "attributes", dict(forms=_FORMS, label_kinds=["int64 array"],
                             edge_kinds=["dense int"], attributes=True)


@pytest.mark.parametrize("case, spec", list(_cases()), ids=[case for case, _ in _cases()])
def test_the_batch_reader_reads_what_the_per_graph_reader_reads(monkeypatch, case, spec):
    """The same batch arrays, dtypes and label maps, at fit and with fitted maps (unseen labels
    among the new graphs), and the batch reader did read the graphs (it gave up on none)."""
    params = dict(node_label="label")
    if "edge_kinds" in spec:
        params["edge_label"] = "label"
    if spec.get("attributes"):
        params["node_attributes"] = "attributes"
    fitted = _graphs(0, 30, **spec)
    new = _graphs(1, 30, **spec)
    for X in (fitted, new):
        assert read_tuple_batch(X, params["node_label"], params.get("edge_label"),
                                params.get("node_attributes"), None) is not None, case
    found = encode_graphs(fitted, **params)
    _assert_same(found, _one_by_one(monkeypatch, fitted, **params), case)
    known = dict(node_codes=dict(found[1]), edge_codes=dict(found[2]))
    _assert_same(encode_graphs(new, **params, **known),
                 _one_by_one(monkeypatch, new, **params, **known), case + ", transform")
    unlabelled = dict(params, node_label=None)
    _assert_same(encode_graphs(fitted, **unlabelled),
                 _one_by_one(monkeypatch, fitted, **unlabelled), case + ", unlabelled")


def test_dense_adjacencies_read_in_chunks(monkeypatch):
    """Dense adjacencies are concatenated chunk by chunk (a graph larger than a chunk on its
    own): the same entries as one by one."""
    monkeypatch.setattr(_tuple_batch, "_DENSE_CHUNK", 20)
    X = _graphs(3, 40, forms=_FORMS[:4], label_kinds=["int64 array"])
    assert read_tuple_batch(X, "label", None, None, None) is not None
    _assert_same(encode_graphs(X), _one_by_one(monkeypatch, X), "chunks")


@pytest.mark.parametrize("bad", [
    "not a tuple", "short tuple", "node labels None", "2-d labels", "labels too short",
    "NaN adjacency", "non-square", "empty graph", "object adjacency", "bad dict labels",
    "missing edge label", "ragged attributes", "attribute width", "NaN attribute",
    "malformed csr"])
def test_the_batch_reader_leaves_every_bad_graph_to_the_per_graph_reader(bad):
    """At any fault, wherever the graph is, the batch reader gives up (the per-graph reader then
    raises the error naming the graph, tested in test_graph_input.py)."""
    for position in (0, 3, 5):
        X = _graphs(2, 6, forms=_FORMS, label_kinds=["int64 array"],
                    edge_kinds=["dict, both orientations"], attributes=True)
        adjacency, labels, edge_labels, attributes = X[position]
        n = len(labels)
        X[position] = {
            "not a tuple": [adjacency, labels, edge_labels, attributes],
            "short tuple": (adjacency, labels),
            "node labels None": (adjacency, None, edge_labels, attributes),
            "2-d labels": (adjacency, labels.reshape(-1, 1), edge_labels, attributes),
            "labels too short": (adjacency, labels[:-1], edge_labels, attributes),
            "NaN adjacency": (np.full((n, n), np.nan), labels, edge_labels, attributes),
            "non-square": (np.zeros((n, n + 1)), labels, edge_labels, attributes),
            "empty graph": (np.zeros((0, 0)), labels[:0], {}, np.zeros((0, 3))),
            "object adjacency": (np.zeros((n, n), dtype=object), labels, edge_labels,
                                 attributes),
            "bad dict labels": (adjacency, {i + 1: 0 for i in range(n)}, edge_labels,
                                attributes),
            "missing edge label": (np.ones((n + 1, n + 1)) - np.eye(n + 1),
                                   np.zeros(n + 1), {}, np.zeros((n + 1, 3))),
            "ragged attributes": (adjacency, labels, edge_labels, [[0.0]] * (n - 1) + [[0.0, 1]]),
            "attribute width": (adjacency, labels, edge_labels, np.zeros((n, 2))),
            "NaN attribute": (adjacency, labels, edge_labels, np.full((n, 3), np.nan)),
            "malformed csr": (sp.csr_matrix((np.ones(1), np.array([n + 5]),
                                             np.r_[0, np.ones(n, dtype=int)]), shape=(n, n)),
                              labels, edge_labels, attributes),
        }[bad]
        assert read_tuple_batch(X, "label", "label", "attributes", None) is None, (bad, position)
        with pytest.raises((ValueError, TypeError)):
            encode_graphs(X, edge_label="label", node_attributes="attributes")


@pytest.mark.parametrize("values", [
    np.array([3, 1, 3, 2**40, -5, 1]),
    np.array([3, 1, 3, 70000, -5, 1], dtype=np.int32),
    np.array([2**64 - 1, 0, 7, 2**64 - 1], dtype=np.uint64),
    # integers of a range smaller than their number (coded through a table over the range),
    # offsets from the smallest that wrap in the dtype included
    np.array([5, 3, 5, 4, 3, 5], dtype=np.int64),
    np.r_[np.arange(100, -101, -1), np.arange(-100, 101)].astype(np.int8),
    np.array([2**64 - 1, 2**64 - 3, 2**64 - 1, 2**64 - 2], dtype=np.uint64),
    np.array([True, False, True]),
    np.array([np.nan, 1.0, -0.0, 0.0, np.nan, np.inf, 1.0], dtype=np.float32),
    np.array(["b", "a", "", "b", "a\u00e9"]),
    np.array([b"x", b"", b"x"]),
    np.zeros(0, dtype=np.int64),
])
def test_coding_an_array_is_coding_its_list(values):
    """Codes and maps, learning and with known codes (unseen values fresh), are those of the
    values as a list."""
    codes = {}
    for known in (None, codes):
        by_array, by_list = LabelCoder(dict(known) if known is not None else None), \
            LabelCoder(dict(known) if known is not None else None)
        found, expected = by_array.encode(values, "labels"), by_list.encode(values.tolist(),
                                                                             "labels")
        assert found.dtype == expected.dtype == np.int32
        np.testing.assert_array_equal(found, expected)
        assert [(type(k), repr(k), v) for k, v in by_array.all_codes.items()] == \
            [(type(k), repr(k), v) for k, v in by_list.all_codes.items()]
        codes.update(list(by_list.all_codes.items())[: len(by_list.all_codes) // 2])
