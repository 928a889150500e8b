"""Weisfeiler–Lehman and shortest-path Gram matrices equal GraKeL's exactly on real molecules.

Conventions mapped: kernelkit's ``WeisfeilerLehmanKernel(n_iter=h)`` = GraKeL's
``WeisfeilerLehman(n_iter=h, base_graph_kernel=VertexHistogram)`` (labellings 0..h);
``ShortestPathKernel()`` = GraKeL's ``ShortestPath(with_labels=True)`` (ordered node pairs,
triples (label_u, label_v, d)); both with ``normalize=False``.
"""

import numpy as np
import pytest

from kernelkit.kernels import ShortestPathKernel, WeisfeilerLehmanKernel

grakel = pytest.importorskip("grakel")


def _grakel_input(graphs):
    out = []
    for adjacency, labels, *_ in graphs:
        coo = adjacency.tocoo()
        edges = {i: {} for i in range(adjacency.shape[0])}
        for i, j in zip(coo.row.tolist(), coo.col.tolist()):
            edges[i][j] = 1.0
        out.append([edges, {i: int(label) for i, label in enumerate(labels)}])
    return out


@pytest.fixture(params=["MUTAG", "PTC_MR"])
def dataset(request, mutag, ptc_mr):
    return {"MUTAG": mutag, "PTC_MR": ptc_mr}[request.param].graphs


@pytest.mark.parametrize("n_iter", [1, 3, 5])
def test_weisfeiler_lehman_equals_grakel(dataset, n_iter):
    from grakel.kernels import VertexHistogram, WeisfeilerLehman

    expected = WeisfeilerLehman(n_iter=n_iter, base_graph_kernel=VertexHistogram,
                                normalize=False).fit_transform(_grakel_input(dataset))
    np.testing.assert_array_equal(WeisfeilerLehmanKernel(n_iter=n_iter).fit_transform(dataset),
                                  expected)


def test_weisfeiler_lehman_transform_equals_grakel(dataset):
    from grakel.kernels import VertexHistogram, WeisfeilerLehman

    train, test = dataset[:100], dataset[100:150]
    peer = WeisfeilerLehman(n_iter=3, base_graph_kernel=VertexHistogram, normalize=False)
    peer.fit(_grakel_input(train))
    expected = peer.transform(_grakel_input(test))
    got = WeisfeilerLehmanKernel(n_iter=3).fit(train).transform(test)
    np.testing.assert_array_equal(got, expected)


def test_shortest_path_equals_grakel(dataset):
    from grakel.kernels import ShortestPath

    expected = ShortestPath(normalize=False, with_labels=True).fit_transform(
        _grakel_input(dataset))
    np.testing.assert_array_equal(ShortestPathKernel().fit_transform(dataset), expected)
