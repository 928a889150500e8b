"""Subtree (tree-pattern) kernels: both recursions against explicit enumeration, and p.d.-ness."""

import numpy as np
import pytest

from kernelkit import reference
from kernelkit.kernels import SubtreeKernel, is_positive_definite
from kernelkit.kernels._graphs._bases import batch_arrays
from kernelkit.kernels._graphs._encoding import encode_graphs


@pytest.mark.parametrize("variant", ["matchings", "subsets"])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_subtree_kernel_equals_explicit_enumeration(variant, depth, make_graphs):
    graphs = make_graphs(5, max_nodes=5, n_edge_labels=2, p_edge=0.5)
    K = SubtreeKernel(depth=depth, lambda_=0.6, variant=variant,
                      edge_label="label").fit_transform(graphs)
    batch, _, _ = encode_graphs(graphs, edge_label="label")
    expected = np.zeros_like(K)
    reference.product_graph_gram(reference.PRODUCT_GRAPH_KERNELS["subtree"],
                                 batch_arrays(batch), batch_arrays(batch), True,
                                 {"n_steps": depth, "lambda_": 0.6,
                                  "matchings": variant == "matchings"},
                                 expected, 0, batch.n_samples)
    np.testing.assert_allclose(K, expected, rtol=1e-10)


def test_star_by_hand():
    # centre C, two O leaves. Matchings at depth 2: each (O, O) pair has T = 1 + λ (4 pairs);
    # (C, C): empty + 4 single pairs + 2 perfect matchings = 1 + 4λ + 2λ².
    star = (np.array([[0, 1, 1], [1, 0, 0], [1, 0, 0]]), ["C", "O", "O"])
    lam = 0.5
    K = SubtreeKernel(depth=2, lambda_=lam).fit_transform([star])
    assert K[0, 0] == pytest.approx(4 * (1 + lam) + 1 + 4 * lam + 2 * lam**2)
    K = SubtreeKernel(depth=2, lambda_=lam, variant="subsets").fit_transform([star])
    assert K[0, 0] == pytest.approx(4 * (1 + lam) + (1 + lam) ** 4)


def test_subsets_variant_is_not_positive_definite_beyond_depth_2(mutag):
    """The seed's subset recursion admits non-injective pairings; at depth 3 it is no longer an
    inner product of per-graph features, and MUTAG shows it (coverage entry D18 [AMBIG]): the
    normalised Gram has an eigenvalue near -7e-4, ten orders above rounding."""
    K = SubtreeKernel(depth=3, lambda_=0.5, variant="subsets", normalize=True)
    assert np.linalg.eigvalsh(K.fit_transform(mutag.graphs))[0] < -1e-5
    K = SubtreeKernel(depth=3, lambda_=0.5, normalize=True).fit_transform(mutag.graphs)
    assert np.linalg.eigvalsh(K)[0] > -1e-12
    assert is_positive_definite(K)


def test_subtree_checks_the_degree_of_new_graphs_with_normalize(unlabelled_graph):
    # a dense new graph sized a 2^degree matching table and the transform hung
    model = SubtreeKernel(depth=2, normalize=True).fit([unlabelled_graph(3)])
    with pytest.raises(ValueError, match="variant='subsets'"):
        model.transform([unlabelled_graph(40, complete=True)])


def test_overflowing_subtree_counts_raise(unlabelled_graph):
    model = SubtreeKernel(depth=200, lambda_=50.0, variant="subsets")
    with pytest.raises(ValueError, match="overflow float64"):
        model.fit_transform([unlabelled_graph(12, complete=True)])


@pytest.mark.parametrize("variant", ["matchings", "subsets"])
def test_absurd_depths_end_at_a_fixed_point_or_an_overflow(variant):
    # SubtreeKernel(depth=10**9) ran 10⁹ levels per pair; once a level leaves the table unchanged
    # every later level does too, and an overflow stays infinite, so the recursion stops early
    import networkx as nx

    empty, cycle = nx.empty_graph(3), nx.cycle_graph(5)
    for g in (empty, cycle):
        nx.set_node_attributes(g, "a", "label")
    for graphs, lambda_ in (([empty, empty], 1.0), ([cycle, cycle], 0.01)):
        deep = SubtreeKernel(depth=10**9, lambda_=lambda_, variant=variant).fit_transform(graphs)
        settled = SubtreeKernel(depth=200, lambda_=lambda_, variant=variant).fit_transform(graphs)
        np.testing.assert_array_equal(deep, settled)
    with pytest.raises(ValueError, match="overflow"):
        SubtreeKernel(depth=10**9, variant=variant).fit_transform([cycle, cycle])
