"""CoreFrameworkKernel: core numbers, the definition on small cases, the twin, GraKeL, params."""

import numpy as np
import pytest
from kernelkit._core import _k_core_decomposition
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from kernelkit.datasets import load_tudataset
from kernelkit.kernels import (
    CoreFrameworkKernel,
    ShortestPathKernel,
    SpectrumKernel,
    WalkKernel,
    WeisfeilerLehmanKernel,
    core_framework_kernel,
    is_positive_definite,
)
from kernelkit.reference import graph_pyramid as reference
from kernelkit.utils._sklearn_compat import InvalidParameterError

PATH = (np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]]), ["C", "C", "O"])
TRIANGLE = (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]), ["C", "C", "O"])


def _complete(n, label="C"):
    return np.ones((n, n), dtype=int) - np.eye(n, dtype=int), [label] * n


def _dense(graphs):
    return [(adjacency.toarray(), list(labels)) for adjacency, labels, *_ in graphs]


def _base_gram(kernel):
    return lambda X, Y: clone(kernel).fit(Y).transform(X)


def test_core_numbers_equal_the_definition(make_graphs):
    graphs = make_graphs(30, 1, 12, p_edge=0.4)
    for adjacency, _, _ in graphs:
        indptr = np.r_[0, np.cumsum((adjacency != 0).sum(axis=1))].astype(np.intp)
        indices = np.nonzero(adjacency)[1].astype(np.int32)
        core = np.empty(adjacency.shape[0], dtype=np.int32)
        _k_core_decomposition.core_numbers(indptr, indices, core)
        assert core.tolist() == reference.core_numbers(adjacency)


def test_hand_computed_path_and_triangle():
    # the path is its own 0- and 1-core; the triangle its own 0-, 1- and 2-core
    wl = WeisfeilerLehmanKernel(n_iter=1)
    base = wl.fit_transform([PATH, TRIANGLE])  # [[8, 7], [7, 10]]
    K = CoreFrameworkKernel(wl).fit_transform([PATH, TRIANGLE])
    np.testing.assert_array_equal(K, [[2 * base[0, 0], 2 * base[0, 1]],
                                      [2 * base[1, 0], 3 * base[1, 1]]])


def test_cores_of_a_triangle_with_a_tail():
    # nodes 0-1-2 a triangle, 3 hangs on 2: the 2-core is the triangle
    tailed = (np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]]),
              ["C", "C", "O", "N"])
    sp = ShortestPathKernel()
    K = CoreFrameworkKernel(sp).fit_transform([tailed, TRIANGLE])
    whole = sp.fit_transform([tailed, TRIANGLE])
    core2 = sp.fit_transform([TRIANGLE, TRIANGLE])
    np.testing.assert_array_equal(K, 2 * whole + core2)


@pytest.mark.parametrize("base", [WeisfeilerLehmanKernel(n_iter=2), ShortestPathKernel(),
                                  WalkKernel(n=2)], ids=repr)
@pytest.mark.parametrize("min_core", [-1, 1])
def test_equals_the_twin(make_graphs, mutag, base, min_core):
    graphs = [(a, list(l)) for a, l, _ in make_graphs(10, 3, 9, p_edge=0.5, n_labels=2)]
    graphs += _dense(mutag.graphs[:14])
    K = CoreFrameworkKernel(base, min_core=min_core).fit_transform(graphs)
    np.testing.assert_array_equal(
        K, reference.core_framework_gram(graphs, graphs, _base_gram(base), min_core))
    fitted = CoreFrameworkKernel(base, min_core=min_core).fit(graphs[:15])
    np.testing.assert_array_equal(
        fitted.transform(graphs[15:]),
        reference.core_framework_gram(graphs[15:], graphs[:15], _base_gram(base), min_core))


def test_invariant_to_node_order(mutag, rng):
    graphs = _dense(mutag.graphs[:30])
    permuted = []
    for adjacency, labels in graphs:
        order = rng.permutation(len(labels))
        permuted.append((adjacency[np.ix_(order, order)], [labels[i] for i in order]))
    kernel = CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=2))
    np.testing.assert_array_equal(kernel.fit_transform(graphs), kernel.fit_transform(permuted))


def test_symmetric_psd_and_normalized(mutag):
    K = CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=3)).fit_transform(mutag.graphs)
    np.testing.assert_array_equal(K, K.T)
    assert is_positive_definite(K)
    Kn = CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=3),
                             normalize=True).fit_transform(mutag.graphs)
    np.testing.assert_allclose(Kn, K / np.sqrt(np.outer(np.diag(K), np.diag(K))), rtol=1e-12)


def test_normalized_transform_counts_cores_above_the_fitted_ones():
    # the new graphs have deeper cores than any fitted graph: they count in k(G, G)
    train = [PATH, TRIANGLE, _complete(4)]
    new = [_complete(6), _complete(5, "O"), PATH]
    kernel = CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=2), normalize=True)
    union = clone(kernel).fit_transform(train + new)
    np.testing.assert_allclose(clone(kernel).fit(train).transform(new), union[3:, :3],
                               rtol=1e-12)


def test_function_form(mutag):
    X, Y = mutag.graphs[:10], mutag.graphs[10:30]
    base = WeisfeilerLehmanKernel(n_iter=2)
    np.testing.assert_array_equal(core_framework_kernel(X, Y, base_kernel=base),
                                  CoreFrameworkKernel(base).fit(Y).transform(X))


def test_default_base_is_shortest_path(mutag):
    graphs = mutag.graphs[:20]
    np.testing.assert_array_equal(
        CoreFrameworkKernel().fit_transform(graphs),
        CoreFrameworkKernel(ShortestPathKernel()).fit_transform(graphs))


def test_nested_parameters(mutag):
    kernel = CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=3))
    assert kernel.get_params(deep=True)["base_kernel__n_iter"] == 3
    graphs = mutag.graphs[:20]
    kernel.fit(graphs)
    kernel.set_params(base_kernel__n_iter=1)
    with pytest.raises(NotFittedError, match="base_kernel__n_iter"):
        kernel.transform(graphs)
    np.testing.assert_array_equal(
        kernel.fit_transform(graphs),
        CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=1)).fit_transform(graphs))
    # the base kernel passed in is cloned, never fitted itself
    assert not hasattr(kernel.base_kernel, "X_fit_")


def test_unlabelled_base_on_networkx_graphs():
    nx = pytest.importorskip("networkx")
    graphs = [nx.complete_graph(4), nx.cycle_graph(5), nx.path_graph(3)]
    K = CoreFrameworkKernel(ShortestPathKernel(node_label=None)).fit_transform(graphs)
    # K4 is its own 0-, 1-, 2- and 3-core: 12 ordered pairs at distance 1 at every level
    assert K[0, 0] == 4 * 12**2
    # nodes without attributes: unlabelled graphs, for the default node_label too
    np.testing.assert_array_equal(CoreFrameworkKernel(ShortestPathKernel()).fit_transform(graphs),
                                  K)


def _grakel_input(graphs):
    """GraKeL's input: dense adjacency and a {node: label} dict per graph."""
    return [[adjacency, dict(enumerate(labels))] for adjacency, labels in graphs]


def _grakel_pair(base):
    grakel = pytest.importorskip("grakel")
    if isinstance(base, ShortestPathKernel):
        return grakel.kernels.ShortestPath, {}
    return grakel.kernels.WeisfeilerLehman, {
        "n_iter": base.n_iter, "base_graph_kernel": grakel.kernels.VertexHistogram}


def _check_grakel(graphs, base, n_fit):
    grakel = pytest.importorskip("grakel")
    peer = grakel.kernels.CoreFramework(base_graph_kernel=_grakel_pair(base))
    expected = peer.fit_transform(_grakel_input(graphs))
    np.testing.assert_array_equal(CoreFrameworkKernel(base).fit_transform(graphs), expected)
    peer = grakel.kernels.CoreFramework(base_graph_kernel=_grakel_pair(base))
    peer.fit(_grakel_input(graphs[:n_fit]))
    np.testing.assert_array_equal(
        CoreFrameworkKernel(base).fit(graphs[:n_fit]).transform(graphs[n_fit:]),
        peer.transform(_grakel_input(graphs[n_fit:])))


@pytest.mark.parametrize("base", [ShortestPathKernel(), WeisfeilerLehmanKernel(n_iter=3)],
                         ids=repr)
def test_equals_grakel_on_mutag(mutag, base):
    _check_grakel(_dense(mutag.graphs), base, 120)


@pytest.mark.parametrize("name", ["ENZYMES", "NCI1"])
def test_equals_grakel_on_shared_sets(shared_data, name):
    data = load_tudataset(shared_data, name, as_networkx=False)
    rng = np.random.default_rng(0)
    graphs = _dense([data.graphs[i] for i in rng.choice(len(data.graphs), 100, replace=False)])
    _check_grakel(graphs, WeisfeilerLehmanKernel(n_iter=2), 70)


def test_threads_agree(mutag):
    kernel = CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=3))
    np.testing.assert_array_equal(clone(kernel).set_params(n_jobs=1).fit_transform(mutag.graphs),
                                  clone(kernel).set_params(n_jobs=2).fit_transform(mutag.graphs))


def test_bad_parameters():
    with pytest.raises(InvalidParameterError, match="base_kernel"):
        CoreFrameworkKernel(SpectrumKernel()).fit([PATH])
    with pytest.raises(InvalidParameterError, match="min_core"):
        CoreFrameworkKernel(min_core=-2).fit([PATH])
    with pytest.raises(InvalidParameterError, match="n_iter"):
        CoreFrameworkKernel(WeisfeilerLehmanKernel(n_iter=-1)).fit([PATH])
    with pytest.raises(ValueError, match="normalize=False"):
        CoreFrameworkKernel(WeisfeilerLehmanKernel(normalize=True)).fit([PATH])
    with pytest.raises(ValueError, match="largest core number of these graphs is 2"):
        CoreFrameworkKernel(min_core=2).fit([PATH, TRIANGLE])


def test_bad_graphs():
    with pytest.raises(ValueError, match="NaN"):
        CoreFrameworkKernel().fit([(np.array([[0, np.nan], [np.nan, 0]]), [0, 1])])
    with pytest.raises(ValueError, match="self-loop"):
        CoreFrameworkKernel().fit([(np.eye(2), [0, 1])])
    with pytest.raises(TypeError, match="sequence of graphs"):
        CoreFrameworkKernel().fit(PATH[0])
