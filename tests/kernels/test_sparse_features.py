"""Sparse features of the explicit-feature graph kernels: counting, and their Gram matrices."""

import numpy as np
import pytest
import scipy.sparse as sp

from kernelkit.kernels._graphs._features import _sparse_features
from kernelkit.kernels._graphs._features import SparseFeatures, count_features


def _summed_by_scipy(rows, columns, counts, n_samples, n_features):
    features = sp.csr_array((counts.astype(np.float64), (rows, columns)),
                            shape=(n_samples, n_features))
    features.sum_duplicates()
    return features


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float64])
def test_counts_are_summed_as_scipy_sums_them(dtype):
    """The same canonical CSR arrays, dtypes included, whichever way they are summed (repeated
    occurrences, zero counts, empty rows, unseen features, no occurrence at all)."""
    rng = np.random.default_rng(0)
    for trial in range(200):
        n_samples, n_features = rng.integers(0, 12, size=2)
        n = int(rng.integers(0, 60)) if n_samples and n_features else 0
        rows = rng.integers(0, max(n_samples, 1), size=n)
        columns = np.where(rng.random(n) < 0.2, -1, rng.integers(0, max(n_features, 1), size=n))
        counts = rng.integers(0, 3, size=n).astype(dtype)
        keys = columns + 1000 * (columns < 0) * rng.integers(1, 4, size=n)
        found = count_features(rows, keys, counts, n_samples, n_features, columns)
        known = columns >= 0
        expected = _summed_by_scipy(rows[known], columns[known], counts[known], n_samples,
                                    n_features)
        assert type(found.known) is type(expected)
        for name in ("indptr", "indices", "data"):
            a, b = getattr(found.known, name), getattr(expected, name)
            assert a.dtype == b.dtype, (trial, name)
            np.testing.assert_array_equal(a, b, err_msg=f"{trial} {name}")
        assert found.known.has_canonical_format


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_the_dense_columns_product_is_the_sparse_product(monkeypatch, scale):
    """Columns shared by most graphs go through a dense product: the Gram matrix is the sparse
    one, bit for bit on integer counts (exactly symmetric), to rounding on fractional ones."""
    rng = np.random.default_rng(1)
    n_samples, n_features = 300, 40
    rows = rng.integers(0, n_samples, size=3000)
    # a few features in most graphs, the others rare
    columns = np.where(rng.random(3000) < 0.7, rng.integers(0, 4, size=3000),
                       rng.integers(4, n_features, size=3000))
    features = count_features(rows, columns.astype(np.int64), np.ones(3000, dtype=np.int64),
                              n_samples, n_features, columns)
    features = SparseFeatures(features.known * scale, features.unseen_squared_norm)
    sparse = features.gram()
    monkeypatch.setattr(_sparse_features, "_MIN_PAIRS_FOR_DENSE", 1)
    split = features.gram()
    other = SparseFeatures(features.known[:50], features.unseen_squared_norm[:50])
    if scale == 1.0:
        np.testing.assert_array_equal(split, sparse)
        np.testing.assert_array_equal(split, split.T)
        np.testing.assert_array_equal(other.gram(features), sparse[:50])
    else:
        np.testing.assert_allclose(split, sparse, rtol=1e-14)
        np.testing.assert_allclose(other.gram(features), sparse[:50], rtol=1e-14)


@pytest.mark.parametrize("scale", [1.0, 0.1])
def test_a_small_gram_is_the_sparse_product_bit_for_bit(monkeypatch, scale):
    """Small feature matrices go through one dense product when every product is exact
    (integer counts): the sparse product's matrix bit for bit, symmetric or not; fractional
    ones stay with the sparse product."""
    rng = np.random.default_rng(2)
    n_samples, n_features = 60, 12
    rows = rng.integers(0, n_samples, size=400)
    columns = rng.integers(0, n_features, size=400)
    counts = rng.integers(1, 4, size=400)
    features = count_features(rows, columns.astype(np.int64), counts, n_samples, n_features,
                              columns)
    features = SparseFeatures(features.known * scale, features.unseen_squared_norm)
    other = SparseFeatures(features.known[:25], features.unseen_squared_norm[:25])
    dense_products, exact_dense_gram = [], _sparse_features._exact_dense_gram

    def spy(*args):
        dense_products.append(exact_dense_gram(*args))
        return dense_products[-1]

    monkeypatch.setattr(_sparse_features, "_exact_dense_gram", spy)
    found, found_other = features.gram(), other.gram(features)
    assert all((K is not None) == (scale == 1.0) for K in dense_products) and \
        len(dense_products) == 2
    monkeypatch.setattr(_sparse_features, "_MAX_PRODUCTS_ALL_DENSE", 0)
    expected, expected_other = features.gram(), other.gram(features)
    assert len(dense_products) == 2  # the sparse product alone
    for K, E in ((found, expected), (found_other, expected_other)):
        assert K.dtype == E.dtype == np.float64 and K.flags.c_contiguous
        np.testing.assert_array_equal(K, E)
    np.testing.assert_array_equal(found, found.T)
