"""Properties every graph kernel must have: compiled = reference, permutation invariance, PSD,
thread-count independence, fit/transform consistency, clear errors, scikit-learn API."""

import inspect

import numpy as np
import pytest
from sklearn.base import clone

from kernelkit import reference
from kernelkit._core import _graphlet_counts, _product_graph, _shortest_path_bfs, _wl_relabel
from kernelkit.kernels import (
    GeometricWalkKernel,
    GraphletKernel,
    RandomWalkKernel,
    ShortestPathKernel,
    SubtreeKernel,
    WalkKernel,
    WeisfeilerLehmanKernel,
    is_positive_definite,
)
from kernelkit.kernels._graphs._bases import batch_arrays
from kernelkit.kernels._graphs._graphlet import graphlet_classes
from kernelkit.kernels._graphs._encoding import encode_graphs

KERNELS = [
    WalkKernel(n=3, edge_label="label"),
    GeometricWalkKernel(lambda_=0.02, edge_label="label"),
    RandomWalkKernel(p_stop=0.2),
    SubtreeKernel(depth=3, lambda_=0.5, edge_label="label"),
    # the subsets recursion is p.d. up to depth 2 only (see test_subtree.py)
    SubtreeKernel(depth=2, lambda_=0.5, variant="subsets"),
    WeisfeilerLehmanKernel(n_iter=3),
    ShortestPathKernel(),
    GraphletKernel(k=3),
    GraphletKernel(k=4, n_graphlet_samples=200, random_state=0),
]
IDS = [f"{type(k).__name__}-{i}" for i, k in enumerate(KERNELS)]


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_verbose_prints_one_line_per_fast_gram_and_changes_nothing(kernel, mutag_dense,
                                                                   check_fast_gram_verbose,
                                                                   capsys):
    graphs = mutag_dense[:30]
    quiet = check_fast_gram_verbose(kernel, graphs)
    detailed = clone(kernel).set_params(verbose=2).fit_transform(graphs)
    np.testing.assert_array_equal(quiet, detailed)
    lines = capsys.readouterr().err.splitlines()
    assert any("coded 30 graphs" in line for line in lines) and "Gram matrix" in lines[-1]


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_permutation_invariance(kernel, mutag_dense, permute_graph, rng):
    graphs = mutag_dense[:25]
    permuted = [permute_graph(g, rng) for g in graphs]
    K = clone(kernel).fit_transform(graphs)
    if isinstance(kernel, GraphletKernel) and kernel.n_graphlet_samples is not None:
        # sampled features depend on node order; the exact counts must not
        K = clone(kernel).set_params(n_graphlet_samples=None).fit_transform(graphs)
        K_permuted = clone(kernel).set_params(n_graphlet_samples=None).fit_transform(permuted)
    else:
        K_permuted = clone(kernel).fit_transform(permuted)
    np.testing.assert_allclose(K_permuted, K, rtol=1e-9)


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_psd_on_mutag(kernel, mutag_dense):
    K = clone(kernel).fit_transform(mutag_dense)
    assert K.shape == (188, 188)
    assert is_positive_definite(K, tol=1e-8)
    K_normalized = clone(kernel).set_params(normalize=True).fit_transform(mutag_dense)
    assert is_positive_definite(K_normalized, tol=1e-8)
    np.testing.assert_allclose(np.diag(K_normalized)[np.diag(K) > 0], 1.0)


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("kernel", KERNELS[:-1], ids=IDS[:-1])
def test_transform_matches_fit_transform_on_union(kernel, normalize, mutag_dense):
    train, test = mutag_dense[:60], mutag_dense[60:100]
    model = clone(kernel).set_params(normalize=normalize).fit(train)
    K_union = clone(model).fit_transform(train + test)
    np.testing.assert_allclose(model.transform(test), K_union[60:, :60], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(model.transform(train), K_union[:60, :60], rtol=1e-9, atol=1e-12)


def test_unseen_labels_match_nothing_but_count_in_the_norm():
    path = (np.array([[0, 1], [1, 0]]), ["C", "C"])
    new = (np.array([[0, 1], [1, 0]]), ["C", "Xe"])
    model = WeisfeilerLehmanKernel(n_iter=1).fit([path])
    # iteration 0: C·C = 1·2; iteration 1: the signatures (C, [Xe]) and (Xe, [C]) are unseen
    assert model.transform([new])[0, 0] == 2.0
    assert model.set_params(normalize=True).fit([path]).transform([new])[0, 0] == pytest.approx(
        2.0 / np.sqrt(8.0 * 4.0))
    assert ShortestPathKernel().fit([path]).transform([new])[0, 0] == 0.0
    assert WalkKernel(n=1).fit([path]).transform([new])[0, 0] == 0.0


def _batches(graphs_a, graphs_b, edge_label=None):
    a, codes, edge_codes = encode_graphs(graphs_a, edge_label=edge_label)
    b, _, _ = encode_graphs(graphs_b, edge_label=edge_label, node_codes=codes,
                            edge_codes=edge_codes)
    return a, b


@pytest.mark.parametrize("graphs_b", ["symmetric", "other", "diagonal"])
@pytest.mark.parametrize(
    "name, params",
    [
        ("walk", dict(n_steps=0)),
        ("walk", dict(n_steps=3)),
        ("geometric", dict(lambda_=0.05, tol=1e-12, max_iter=1000)),
        ("random_walk", dict(p_stop=0.3, tol=1e-12, max_iter=1000)),
        ("subtree", dict(n_steps=3, lambda_=0.7, matchings=True, max_small_degree=6)),
        ("subtree", dict(n_steps=3, lambda_=0.7, matchings=False, max_small_degree=6)),
    ],
)
def test_product_graph_cores_match_reference(name, params, graphs_b, make_graphs):
    a, b = _batches(make_graphs(5, max_nodes=5, n_edge_labels=2),
                    make_graphs(4, max_nodes=5, n_edge_labels=2), edge_label="label")
    code = _product_graph.PRODUCT_GRAPH_KERNELS[name]
    assert reference.PRODUCT_GRAPH_KERNELS[name] == code
    if graphs_b == "diagonal":
        expected = np.zeros(a.n_samples)
        reference.product_graph_diagonal(code, batch_arrays(a), params, expected)
    else:
        other = a if graphs_b == "symmetric" else b
        expected = np.zeros((a.n_samples, other.n_samples))
        reference.product_graph_gram(code, batch_arrays(a), batch_arrays(other),
                                     graphs_b == "symmetric", params, expected, 0, a.n_samples)
    for n_threads in (1, 2):
        got = np.zeros_like(expected)
        if graphs_b == "diagonal":
            _product_graph.product_graph_diagonal(code, batch_arrays(a), params, got,
                                                  n_threads=n_threads)
        else:
            # two row blocks: the rows of the second call see the first call's mirror images
            middle = a.n_samples // 2
            for start, stop in ((0, middle), (middle, a.n_samples)):
                _product_graph.product_graph_gram(code, batch_arrays(a), batch_arrays(other),
                                                  graphs_b == "symmetric", params, got, start,
                                                  stop, n_threads=n_threads)
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)



def test_product_graph_core_refuses_an_unknown_kernel_or_option(make_graphs):
    # a misspelled option would otherwise run the kernel silently with its default, 0
    a, _ = _batches(make_graphs(2, max_nodes=3), make_graphs(1, max_nodes=3))
    out = np.zeros(a.n_samples)
    with pytest.raises(TypeError, match="nsteps"):
        _product_graph.product_graph_diagonal(_product_graph.WALK, batch_arrays(a),
                                              {"nsteps": 2}, out)
    with pytest.raises(ValueError, match="code 9"):
        _product_graph.product_graph_diagonal(9, batch_arrays(a), {}, out)

def test_wl_cores_match_reference(make_graphs):
    batch, _, _ = encode_graphs(make_graphs(8, max_nodes=7, n_labels=3))
    sig_ptr = batch.indptr + np.arange(batch.n_nodes + 1)
    sig, sig_ref = (np.empty(sig_ptr[-1], dtype=np.int32) for _ in range(2))
    _wl_relabel.node_signatures(batch.indptr, batch.indices, batch.node_labels, sig, 2)
    reference.node_signatures(batch.indptr, batch.indices, batch.node_labels, sig_ref)
    np.testing.assert_array_equal(sig, sig_ref)
    rows, rows_ref = np.arange(batch.n_nodes, dtype=np.intp), np.arange(batch.n_nodes)
    codes, codes_ref = (np.full(batch.n_nodes, -7, dtype=np.int32) for _ in range(2))
    n = _wl_relabel.compress_signatures(sig, sig_ptr, rows, codes, 3)
    assert n == reference.compress_signatures(sig, sig_ptr, rows_ref, codes_ref, 3)
    np.testing.assert_array_equal(rows, rows_ref)
    np.testing.assert_array_equal(codes, codes_ref)
    # a table made of the even nodes' signatures: odd-only signatures are absent
    table_rows = np.unique(codes[::2], return_index=True)[1] * 2
    lengths = sig_ptr[table_rows + 1] - sig_ptr[table_rows]
    table = np.concatenate([sig[sig_ptr[r]:sig_ptr[r + 1]] for r in table_rows]).astype(np.int32)
    table_ptr = np.r_[0, np.cumsum(lengths)].astype(np.intp)
    found, found_ref = (np.empty(batch.n_nodes, dtype=np.int32) for _ in range(2))
    _wl_relabel.lookup_signatures(sig, sig_ptr, table, table_ptr, found, 2)
    reference.lookup_signatures(sig, sig_ptr, table, table_ptr, found_ref)
    np.testing.assert_array_equal(found, found_ref)
    assert np.all(found[::2] >= 0)


@pytest.mark.parametrize("n_threads", [1, 2, 3, 4])
@pytest.mark.parametrize("values, max_length", [
    # the int32 extremes: a key holds one entry; rows up to 4 entries
    ([np.iinfo(np.int32).min, -3, -1, 0, 1, 2, np.iinfo(np.int32).max], 4),
    # 3 bits an entry: a key holds 21; mostly zeros, so that rows longer than that often tie
    # on their keys and differ further on
    ([0] * 97 + [1, 2, 5], 30),
], ids=["int32 range", "small codes"])
def test_wl_compression_sorts_as_the_reference_on_any_team(rng, n_threads, values, max_length):
    # rows of 0 to max_length entries, many equal rows and rows with equal first entries: every
    # tie of the keys is settled by the rows, stably
    n_rows = 5_000
    lengths = rng.integers(0, max_length + 1, size=n_rows)
    sig_ptr = np.r_[0, np.cumsum(lengths)].astype(np.intp)
    signatures = rng.choice(np.array(values), size=sig_ptr[-1]).astype(np.int32)
    rows = rng.permutation(n_rows)[:4_000].astype(np.intp)
    rows_ref = rows.copy()
    codes, codes_ref = (np.full(n_rows, -7, dtype=np.int32) for _ in range(2))
    # no minimum of work per thread: the whole team sorts, merges cut at merge-path positions
    n = _wl_relabel.compress_signatures(signatures, sig_ptr, rows, codes, 5, n_threads, 0.0)
    assert n == reference.compress_signatures(signatures, sig_ptr, rows_ref, codes_ref, 5)
    np.testing.assert_array_equal(rows, rows_ref)
    np.testing.assert_array_equal(codes, codes_ref)


@pytest.mark.parametrize("min_nodes, team", [(0, 2), (10**9, 1)])
def test_wl_passes_and_sorts_run_on_a_team_from_enough_nodes(monkeypatch, make_graphs,
                                                              min_nodes, team):
    from kernelkit.kernels._graphs._bases import _label_refinement_kernel

    graphs = make_graphs(30, max_nodes=9, n_labels=3)
    expected = WeisfeilerLehmanKernel(n_iter=3, n_jobs=1).fit_transform(graphs)
    calls = []

    class Spied:
        def __getattr__(self, name):
            core = getattr(_wl_relabel, name)
            return lambda *args: (calls.append((name, args[4:])), core(*args))[1]
    monkeypatch.setattr(_label_refinement_kernel, "_wl_relabel", Spied())
    monkeypatch.setattr(_label_refinement_kernel, "_MIN_NODES_PER_THREAD", min_nodes)
    monkeypatch.setattr(_label_refinement_kernel, "min_work_per_thread", lambda n: 1e-3 * n)
    np.testing.assert_array_equal(WeisfeilerLehmanKernel(n_iter=3, n_jobs=2).fit_transform(graphs),
                                  expected)
    # the signatures' pass on the team; the sort on it too, the core sizing it by the work
    assert [args[0] for name, args in calls if name == "node_signatures"] == [team] * 3
    assert [args[1:] for name, args in calls if name == "compress_signatures"] == [
        (team, 1e-3 * team)] * 3


def test_shortest_path_core_matches_floyd_warshall_reference(make_graphs):
    batch, _, _ = encode_graphs(make_graphs(10, max_nodes=8, n_labels=3, p_edge=0.25))
    n = np.diff(batch.node_ptr)
    key_ptr = np.r_[0, np.cumsum(n * (n - 1))].astype(np.int64)
    out = [[np.zeros(max(key_ptr[-1], 1), dtype=np.int64) for _ in range(2)]
           + [np.zeros(batch.n_samples, dtype=np.int64)] for _ in range(2)]
    args = (batch.node_ptr, batch.indptr, batch.indices, batch.node_labels, key_ptr)
    _shortest_path_bfs.shortest_path_counts(*args, *out[0], 2)
    reference.shortest_path_counts(*args, *out[1])
    n_distinct = out[1][2]
    np.testing.assert_array_equal(out[0][2], n_distinct)
    for g in range(batch.n_samples):
        used = slice(key_ptr[g], key_ptr[g] + n_distinct[g])
        np.testing.assert_array_equal(out[0][0][used], out[1][0][used])
        np.testing.assert_array_equal(out[0][1][used], out[1][1][used])


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("n_samples", [0, 30])
def test_graphlet_core_matches_reference(k, n_samples, make_graphs):
    batch, _, _ = encode_graphs(make_graphs(6, max_nodes=7), node_label=None)
    class_of_mask, n_classes = graphlet_classes(k)
    seeds = np.arange(1, batch.n_samples + 1, dtype=np.uint64) * 12345
    got, expected = (np.zeros((batch.n_samples, n_classes), dtype=np.int64) for _ in range(2))
    args = (batch.node_ptr, batch.indptr, batch.indices, k, class_of_mask, n_samples, seeds)
    _graphlet_counts.graphlet_counts(*args, got, 2)
    reference.graphlet_counts(*args, expected)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("kernel", KERNELS, ids=IDS)
def test_empty_graph_and_empty_input_are_rejected(kernel):
    with pytest.raises(ValueError, match="no nodes"):
        clone(kernel).fit([(np.zeros((0, 0)), [], {})])
    with pytest.raises(ValueError, match="no graph"):
        clone(kernel).fit([])


def test_bad_parameters_are_rejected():
    graphs = [(np.array([[0, 1], [1, 0]]), [0, 0])]
    for kernel in (WalkKernel(n=-1), GeometricWalkKernel(lambda_=0), RandomWalkKernel(p_stop=1),
                   SubtreeKernel(depth=0), SubtreeKernel(variant="paths"),
                   WeisfeilerLehmanKernel(n_iter=-1), GraphletKernel(k=5)):
        with pytest.raises(ValueError):
            kernel.fit(graphs)


def test_each_graph_kernel_class_has_its_own_parameters():
    """The parameter names, read once per class, are each class's own: a subclass with one more
    parameter gets, sets, clones and validates it, its base still does not have it."""

    class Wider(WeisfeilerLehmanKernel):
        _parameter_constraints = {**WeisfeilerLehmanKernel._parameter_constraints,
                                  "extra": [int]}

        def __init__(self, n_iter=3, extra=1):
            super().__init__(n_iter=n_iter)
            self.extra = extra

    graphs = [(np.array([[0, 1], [1, 0]]), [0, 0])]
    for _ in range(2):  # the first calls read the names, the next ones reuse them
        assert "extra" not in WeisfeilerLehmanKernel().get_params()
        assert Wider(extra=2).get_params()["extra"] == 2
        assert clone(Wider(extra=3).set_params(extra=4)).extra == 4
        with pytest.raises(ValueError, match="extra"):
            Wider(extra="a").fit(graphs)
        with pytest.raises(ValueError, match=r"Valid parameters are: \['extra', 'n_iter'\]"):
            Wider().set_params(n_iterations=2)
        assert sorted(SubtreeKernel().get_params()) == sorted(
            inspect.signature(SubtreeKernel).parameters)


def test_geometric_lambda_beyond_the_convergence_bound_raises():
    star = (np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]), [0] * 4)
    with pytest.raises(ValueError, match=r"lambda_ < 0\.111111"):
        GeometricWalkKernel(lambda_=0.2).fit([star])
    model = GeometricWalkKernel(lambda_=0.4).fit([(np.array([[0, 1], [1, 0]]), [0, 0])])
    with pytest.raises(ValueError, match="too large"):
        model.transform([star])


def test_matchings_variant_bounds_the_degree():
    n = 18
    star = (np.pad(np.ones((1, n - 1)), ((0, n - 1), (1, 0))), [0] * n)
    star = (star[0] + star[0].T, star[1])
    with pytest.raises(ValueError, match="variant='subsets'"):
        SubtreeKernel(depth=2).fit([star])
    assert SubtreeKernel(depth=2, variant="subsets").fit_transform([star]).shape == (1, 1)


def test_cg_not_converging_warns():
    from sklearn.exceptions import ConvergenceWarning

    path = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), [0, 0, 0])
    with pytest.warns(ConvergenceWarning, match="did not reach"):
        GeometricWalkKernel(lambda_=0.2, tol=1e-16, max_iter=1).fit_transform([path])


@pytest.mark.parametrize(
    "function, kernel",
    [
        ("walk_kernel", WalkKernel(n=2)),
        ("geometric_walk_kernel", GeometricWalkKernel(lambda_=0.02)),
        ("random_walk_kernel", RandomWalkKernel()),
        ("subtree_kernel", SubtreeKernel(depth=2)),
        ("weisfeiler_lehman_kernel", WeisfeilerLehmanKernel(n_iter=2)),
        ("shortest_path_kernel", ShortestPathKernel()),
        ("graphlet_kernel", GraphletKernel()),
    ],
)
def test_function_forms(function, kernel, mutag_dense):
    import kernelkit.kernels

    X, Y = mutag_dense[:12], mutag_dense[12:20]
    K_union = clone(kernel).fit_transform(X + Y)
    params = {k: v for k, v in kernel.get_params().items() if k in _changed(kernel)}
    form = getattr(kernelkit.kernels, function)
    np.testing.assert_allclose(form(X, **params), K_union[:12, :12], rtol=1e-10)
    np.testing.assert_allclose(form(X, Y, **params), K_union[:12, 12:], rtol=1e-10)


def _changed(kernel):
    defaults = type(kernel)().get_params()
    return [k for k, v in kernel.get_params().items() if defaults[k] != v]
