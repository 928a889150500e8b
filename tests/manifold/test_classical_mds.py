"""Classical MDS: PCA equivalence, Gower out-of-sample, negative eigenvalues."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist, squareform

from kernelkit.decomposition import PCA
from kernelkit.manifold import ClassicalMDS


def _same_up_to_signs(A, B, **tol):
    signs = np.sign((A * B).sum(axis=0))
    np.testing.assert_allclose(A * signs, B, **tol)


def test_equals_pca_scores_up_to_signs(rng):
    X = rng.normal(size=(50, 6)) @ rng.normal(size=(6, 6))
    Z = ClassicalMDS(n_components=3).fit_transform(X)
    _same_up_to_signs(Z, PCA(n_components=3).fit_transform(X), rtol=1e-8, atol=1e-8)


def test_precomputed_equals_euclidean(rng):
    X = rng.normal(size=(30, 4))
    a = ClassicalMDS(n_components=2).fit(X)
    b = ClassicalMDS(n_components=2, dissimilarity="precomputed").fit(squareform(pdist(X)))
    np.testing.assert_allclose(a.embedding_, b.embedding_, atol=1e-10)
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, atol=1e-9)


def test_property_72_and_eigenvalues(rng):
    X = rng.normal(size=(20, 3))
    mds = ClassicalMDS(n_components=2).fit(X)
    Xc = X - X.mean(axis=0)
    # −½ H D H = X'X'ᵀ: same spectrum, three positive values, the rest zero.
    np.testing.assert_allclose(mds.eigenvalues_[:3], np.linalg.eigvalsh(Xc.T @ Xc)[::-1],
                               rtol=1e-10)
    np.testing.assert_allclose(mds.eigenvalues_[3:], 0.0, atol=1e-10)
    assert np.all(np.diff(mds.eigenvalues_) <= 1e-12)


def test_exactly_p_dimensional_data_are_reproduced(rng):
    X = rng.normal(size=(25, 2))
    Z = ClassicalMDS(n_components=2).fit_transform(X)
    np.testing.assert_allclose(squareform(pdist(Z)), squareform(pdist(X)), atol=1e-10)


def test_gower_transform_equals_pca_transform(rng):
    X = rng.normal(size=(40, 5))
    X_new = rng.normal(size=(7, 5))
    mds = ClassicalMDS(n_components=3).fit(X)
    np.testing.assert_allclose(mds.transform(X), mds.embedding_, atol=1e-10)
    pca = PCA(n_components=3).fit(X)
    signs = np.sign((mds.embedding_ * pca.transform(X)).sum(axis=0))
    np.testing.assert_allclose(mds.transform(X_new) * signs, pca.transform(X_new), atol=1e-10)
    pre = ClassicalMDS(n_components=3, dissimilarity="precomputed").fit(cdist(X, X))
    np.testing.assert_allclose(pre.transform(cdist(X_new, X)), mds.transform(X_new), atol=1e-10)


def test_negative_eigenvalues_reported_and_warned(rng):
    # City-block distances of spread-out points are far from Euclidean.
    X = rng.uniform(size=(40, 8))
    D = squareform(pdist(X, metric="chebyshev")) ** 2
    with pytest.warns(UserWarning, match="far from Euclidean"):
        mds = ClassicalMDS(n_components=2, dissimilarity="precomputed").fit(D)
    assert mds.eigenvalues_.min() < 0
    B = -0.5 * D**2
    B = B - B.mean(axis=0) - B.mean(axis=1)[:, None] + B.mean()
    assert mds.eigenvalues_.sum() == pytest.approx(np.trace(B), rel=1e-8)


def test_non_positive_selected_component_is_zero():
    # Three collinear points: the second eigenvalue is 0.
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]])
    with pytest.warns(UserWarning, match="non-positive"):
        mds = ClassicalMDS(n_components=2).fit(X)
    np.testing.assert_array_equal(mds.embedding_[:, 1], 0.0)
    assert np.all(np.isfinite(mds.transform(X)))


def test_bad_input(rng):
    X = rng.normal(size=(5, 2))
    with pytest.raises(ValueError, match="n_components"):
        ClassicalMDS(n_components=5).fit(X)
    with pytest.raises(ValueError, match="symmetric"):
        ClassicalMDS(dissimilarity="precomputed").fit(rng.uniform(size=(5, 5)))
    with pytest.raises(ValueError, match="NaN"):
        ClassicalMDS().fit(np.array([[0.0, np.nan], [1.0, 2.0], [3.0, 1.0]]))
    mds = ClassicalMDS(n_components=1, dissimilarity="precomputed").fit(squareform(pdist(X)))
    with pytest.raises(ValueError, match="non-negative"):
        mds.transform(-np.ones((2, 5)))
