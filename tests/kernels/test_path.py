"""Path kernel up to length h: hand counts, the twin, graphkit-learn's Gram matrices, the
kernel's properties, bad input."""

import pathlib

import numpy as np
import pytest

from kernelkit.kernels import PathKernel, path_kernel
from kernelkit.reference.graph_paths import path_gram, path_sequences

DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "graphkit_learn"

PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])
STAR = (np.array([[0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0]]), ["N", "C", "C", "C"])


def test_hand_counts_of_a_path_a_triangle_and_a_star():
    # path C-C-O: 3 nodes, 4 directed edges, 2 directed 2-paths (CCO and OCC)
    assert path_sequences(PATH, 10) == {("C",): 2, ("O",): 1, ("C", "C"): 2, ("C", "O"): 1,
                                        ("O", "C"): 1, ("C", "C", "O"): 1, ("O", "C", "C"): 1}
    # triangle: every ordering of 2 or 3 distinct nodes is a path, none longer
    tri = path_sequences(TRIANGLE, 10)
    assert sum(tri.values()) == 3 + 6 + 6
    assert tri[("C", "O", "C")] == 2 and tri[("C", "C", "O")] == 2
    # star with centre N: 6 directed edges and 6 directed 2-paths C-N-C, nothing longer
    star = path_sequences(STAR, 10)
    assert star == {("N",): 1, ("C",): 3, ("N", "C"): 3, ("C", "N"): 3, ("C", "N", "C"): 6}


def test_known_gram_values():
    # MinMax, paths of up to 2 edges: Σ min = 3 + 4 + 2 = 9 over Σ max = 9 + 15 - 9
    K = PathKernel(max_length=2).fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, 0.6], [0.6, 1]], rtol=0, atol=1e-15)
    # Tanimoto: 7 sequences in the path, 8 in the triangle (C, O, CC, CO, OC, CCO, OCC, COC),
    # the 7 of the path shared
    K = PathKernel(max_length=2, sub_kernel="tanimoto").fit_transform([PATH, TRIANGLE])
    np.testing.assert_allclose(K, [[1, 7 / 8], [7 / 8, 1]], rtol=0, atol=1e-15)
    # length 0: the node-label histograms, {C: 3} vs {N: 1, C: 3}
    K = PathKernel(max_length=0).fit_transform([STAR, (np.zeros((3, 3)), ["C"] * 3)])
    np.testing.assert_allclose(K[0, 1], 3 / 4)


@pytest.mark.parametrize("sub_kernel", ["minmax", "tanimoto"])
@pytest.mark.parametrize("max_length", [0, 1, 3, 10])
@pytest.mark.parametrize("edges", [False, True])
def test_equals_the_twin(make_graphs, sub_kernel, max_length, edges):
    graphs = make_graphs(14, 1, 7, n_labels=2, n_edge_labels=2)
    train, test = graphs[:9], graphs[9:]
    kernel = PathKernel(max_length=max_length, sub_kernel=sub_kernel,
                        edge_label="label" if edges else None)
    params = dict(max_length=max_length, sub_kernel=sub_kernel, edge_labels=edges)
    np.testing.assert_allclose(kernel.fit_transform(train), path_gram(train, **params),
                               rtol=1e-14, atol=0)
    np.testing.assert_allclose(kernel.transform(test), path_gram(test, train, **params),
                               rtol=1e-14, atol=0)


def test_unseen_labels_and_sequences_count_in_the_union(make_graphs):
    train = make_graphs(6, 2, 6, n_labels=2)
    test = make_graphs(5, 2, 6, n_labels=4)  # labels 2 and 3 never seen at fit
    for sub_kernel in ("minmax", "tanimoto"):
        kernel = PathKernel(max_length=4, sub_kernel=sub_kernel).fit(train)
        np.testing.assert_allclose(kernel.transform(test),
                                   path_gram(test, train, 4, sub_kernel), rtol=1e-14, atol=0)


@pytest.mark.parametrize("edges", [False, True])
@pytest.mark.parametrize("k_func", ["MinMax", "tanimoto"])
@pytest.mark.parametrize("depth", [2, 10])
def test_equals_graphkit_learn_on_mutag(mutag, depth, k_func, edges):
    stored = np.load(DATA / "path_up_to_h.npz")[
        f"path_{depth}_{k_func}_{'edges' if edges else 'nodes'}"]
    K = PathKernel(max_length=depth, sub_kernel=k_func.lower(),
                   edge_label="label" if edges else None).fit_transform(
        mutag.graphs[:len(stored)])
    np.testing.assert_allclose(K, stored, rtol=1e-14, atol=0)


@pytest.mark.parametrize("sub_kernel", ["minmax", "tanimoto"])
def test_symmetric_psd_unit_diagonal(make_graphs, sub_kernel):
    graphs = make_graphs(25, 1, 8, n_labels=2)
    K = PathKernel(max_length=5, sub_kernel=sub_kernel).fit_transform(graphs)
    np.testing.assert_array_equal(K, K.T)
    np.testing.assert_array_equal(np.diag(K), 1.0)
    assert np.linalg.eigvalsh(K).min() > -1e-12
    assert (K >= 0).all() and (K <= 1).all()


def test_invariant_to_node_order(make_graphs, permute_graph, rng):
    graphs = make_graphs(10, 2, 7, n_labels=3, n_edge_labels=2)
    permuted = [permute_graph(g, rng) for g in graphs]
    kernel = PathKernel(max_length=6, edge_label="label")
    np.testing.assert_allclose(kernel.fit(graphs).transform(permuted),
                               kernel.fit_transform(graphs), rtol=1e-15, atol=0)


def test_threads_agree_and_function_form(mutag):
    graphs = mutag.graphs[:40]
    one = PathKernel(max_length=4, n_jobs=1).fit_transform(graphs)
    np.testing.assert_array_equal(PathKernel(max_length=4, n_jobs=2).fit_transform(graphs), one)
    np.testing.assert_array_equal(path_kernel(graphs, max_length=4), one)
    np.testing.assert_array_equal(path_kernel(graphs[:5], graphs, max_length=4), one[:5])


def test_normalize_changes_nothing(make_graphs):
    graphs = make_graphs(8, 1, 6)
    np.testing.assert_allclose(PathKernel(normalize=True).fit_transform(graphs),
                               PathKernel().fit_transform(graphs), rtol=1e-15)


@pytest.mark.parametrize("params, message", [
    ({"max_length": -1}, "max_length"),
    ({"max_length": 2.5}, "max_length"),
    ({"sub_kernel": "MinMax"}, "sub_kernel"),
])
def test_bad_parameters(params, message):
    with pytest.raises(ValueError, match=message):
        PathKernel(**params).fit([PATH])


def test_paths_beyond_memory_are_refused(monkeypatch):
    # the complete graph on 200 nodes has 199 · 198 · 197 ≈ 7.8·10⁶ paths of 3 edges from
    # each node (1.6·10⁹ in all): about 0.9 GB for one node, refused when the process can get
    # 256 MB, naming the graph and the node
    from kernelkit.utils import _validation

    monkeypatch.setattr(_validation, "available_memory", lambda: (256 << 20, "a test"))
    complete = (np.ones((200, 200)) - np.eye(200), [0] * 200)
    with pytest.raises(ValueError, match=r"PathKernel paths of 3 edges from node 0 of graph 2 "
                                         r"would need .*lower max_length"):
        PathKernel(max_length=5).fit([PATH, TRIANGLE, complete, STAR])


def _grid(n_rows, n_columns):
    """The grid graph, unlabelled: many simple paths per node."""
    index = np.arange(n_rows * n_columns).reshape(n_rows, n_columns)
    adjacency = np.zeros((index.size, index.size), dtype=np.int64)
    for u, v in [*zip(index[:, :-1].ravel(), index[:, 1:].ravel()),
                 *zip(index[:-1].ravel(), index[1:].ravel())]:
        adjacency[u, v] = adjacency[v, u] = 1
    return adjacency, [0] * index.size


@pytest.mark.parametrize("budget, single_nodes", [(1.0, True), (20000.0, False)])
@pytest.mark.parametrize("max_length", [0, 2, 5, 10])
@pytest.mark.parametrize("sub_kernel", ["minmax", "tanimoto"])
@pytest.mark.parametrize("labels, edges", [(1, False), (3, False), (2, True), (12, True)])
def test_runs_of_first_nodes_give_the_gram_of_one_run(make_graphs, monkeypatch, budget,
                                                      single_nodes, max_length, sub_kernel,
                                                      labels, edges):
    from kernelkit.kernels._graphs import _path_sequences

    graphs = make_graphs(24, 1, 9, n_labels=labels, n_edge_labels=2, p_edge=0.5)
    train, test = graphs[:14], graphs[14:]   # test: sequences and labels unseen at fit
    kernel = PathKernel(max_length, sub_kernel=sub_kernel, edge_label="label" if edges else None)
    K, K_test = kernel.fit_transform(train), kernel.transform(test)
    keys = kernel.sequence_keys_
    runs = []                                # what each run of first nodes grows
    check = _path_sequences.check_memory_request
    monkeypatch.setattr(_path_sequences, "_CHUNK_BYTES", budget)
    monkeypatch.setattr(_path_sequences, "check_memory_request",
                        lambda n_bytes, what, fix: runs.append((n_bytes, what)) or
                        check(n_bytes, what, fix))
    np.testing.assert_array_equal(kernel.fit_transform(train), K)
    np.testing.assert_array_equal(kernel.transform(test), K_test)
    assert len(kernel.sequence_keys_) == len(keys)
    for split, whole in zip(kernel.sequence_keys_, keys):
        np.testing.assert_array_equal(split, whole)
    if max_length > 0:
        one_node = [what for _, what in runs if " from node " in what]
        if single_nodes:   # the tiny budget: a first node a run (several if no step out)
            assert one_node and all(" from node " in what for n, what in runs if n > 0)
        else:              # runs were split (one grows each length unsplit), some not down to one
            assert len(runs) > 2 * max_length and len(one_node) < len(runs)


@pytest.mark.parametrize("sub_kernel", ["minmax", "tanimoto"])
def test_many_labels_equal_the_twin(make_graphs, sub_kernel):
    # sequences mostly of one graph each: their (graph, sequence) pairs are counted by a sort
    graphs = make_graphs(20, 1, 9, n_labels=12, n_edge_labels=2, p_edge=0.5)
    train, test = graphs[:12], graphs[12:]
    kernel = PathKernel(max_length=4, sub_kernel=sub_kernel, edge_label="label")
    params = dict(max_length=4, sub_kernel=sub_kernel, edge_labels=True)
    np.testing.assert_allclose(kernel.fit_transform(train), path_gram(train, **params),
                               rtol=1e-14, atol=0)
    np.testing.assert_allclose(kernel.transform(test), path_gram(test, train, **params),
                               rtol=1e-14, atol=0)


def test_memory_of_a_run_is_bounded_whatever_the_number_and_size_of_graphs(monkeypatch):
    from kernelkit.kernels._graphs import _path_sequences

    requests = []
    monkeypatch.setattr(_path_sequences, "_CHUNK_BYTES", 1e6)
    monkeypatch.setattr(_path_sequences, "check_memory_request",
                        lambda n_bytes, what, fix: requests.append(n_bytes))
    # 30 grids of 4 × 5 nodes: 14752 paths of 10 edges each, 1.9 MB for one, 57 MB for all
    K = PathKernel(max_length=10).fit_transform([_grid(4, 5)] * 30)
    np.testing.assert_array_equal(K, np.ones((30, 30)))
    assert 0.25e6 < max(requests) <= 1e6


def test_many_graphs_beyond_the_address_space_in_one_piece_are_counted(under_address_limit):
    # 100 grids of 4 × 6 nodes: 32792 paths of 10 edges each, 4.2 MB for one and 420 MB for
    # all at once, more than the 256 MB left; runs of 16 MB fit
    result = under_address_limit(
        "import numpy as np\n"
        "from kernelkit.kernels import PathKernel\n"
        "from kernelkit.kernels._graphs import _path_sequences\n"
        "_path_sequences._CHUNK_BYTES = float(1 << 24)\n"
        f"grid = {tuple(np.asarray(x).tolist() for x in _grid(4, 6))!r}\n"
        "grid = (np.array(grid[0]), grid[1])",
        "K = PathKernel(max_length=10).fit_transform([grid] * 100)\n"
        "print('equal' if (K == 1.0).all() else 'differ')",
        headroom=256 << 20)
    assert result.returncode == 0, result.stderr
    assert "ValueError" not in result.stdout and "equal" in result.stdout


@pytest.mark.parametrize("max_length", [4, 5])
def test_graphs_of_more_than_64_nodes_equal_the_twin(make_graphs, rng, max_length):
    # a path's nodes as a row (max_length 4), or a bitset of 3 words (5): a node's bit lies
    # beyond the first 64-bit word
    n_nodes = 150
    ring = np.roll(np.eye(n_nodes, dtype=np.int64), 1, axis=1)
    chords = np.triu(rng.random((n_nodes, n_nodes)) < 0.01, 2)
    adjacency = ((ring + ring.T + chords + chords.T) > 0).astype(np.int64)
    large = (adjacency, list(rng.integers(0, 2, n_nodes)))
    graphs = [large, *make_graphs(4, 1, 7, n_labels=2)]
    np.testing.assert_allclose(PathKernel(max_length).fit_transform(graphs),
                               path_gram(graphs, max_length=max_length), rtol=1e-14, atol=0)
