"""Property tests (hypothesis, deterministic profile) on the compiled graph cores."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kernelkit import reference
from kernelkit.kernels import (
    ShortestPathKernel,
    SubtreeKernel,
    WeisfeilerLehmanKernel,
    is_positive_definite,
)
from kernelkit.kernels._graphs._bases import batch_arrays
from kernelkit.kernels._graphs._encoding import encode_graphs


@st.composite
def graphs(draw, max_graphs=5, max_nodes=5):
    out = []
    for _ in range(draw(st.integers(1, max_graphs))):
        n = draw(st.integers(1, max_nodes))
        upper = np.zeros((n, n), dtype=int)
        for i, j in zip(*np.triu_indices(n, 1)):
            upper[i, j] = draw(st.integers(0, 2))  # 0: no edge, else the edge label
        labels = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
        out.append(((upper + upper.T) > 0, np.array(labels), upper + upper.T))
    return out


@given(graphs())
def test_subtree_matchings_core_equals_enumeration(X):
    batch, _, _ = encode_graphs(X, edge_label="label")
    K = SubtreeKernel(depth=3, lambda_=0.7, edge_label="label").fit_transform(X)
    expected = np.zeros_like(K)
    reference.product_graph_gram(reference.PRODUCT_GRAPH_KERNELS["subtree"],
                                 batch_arrays(batch), batch_arrays(batch), True,
                                 {"n_steps": 3, "lambda_": 0.7}, expected, 0, batch.n_samples)
    np.testing.assert_allclose(K, expected, rtol=1e-10)


@given(graphs(max_graphs=8, max_nodes=7))
def test_feature_kernels_are_symmetric_psd_integer_grams(X):
    for kernel in (WeisfeilerLehmanKernel(n_iter=3), ShortestPathKernel()):
        K = kernel.fit_transform(X)
        np.testing.assert_array_equal(K, K.T)
        np.testing.assert_array_equal(K, np.round(K))
        assert is_positive_definite(K)
