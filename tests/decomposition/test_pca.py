"""PCA: agreement with scikit-learn, the seed's three routes, exact properties."""

import numpy as np
import pytest

from kernelkit.decomposition import PCA

SOLVERS = ["full", "covariance_eigh", "randomized", "auto"]


def _same_up_to_signs(A, B, **tol):
    signs = np.sign((A * B).sum(axis=0))
    np.testing.assert_allclose(A * signs, B, **tol)


@pytest.fixture
def data(rng):
    # Decaying spectrum, so that the randomized solver is exact to high precision.
    return rng.normal(size=(120, 8)) @ np.diag(2.0 ** -np.arange(8)) + 3.0


@pytest.mark.parametrize("solver", SOLVERS)
def test_equals_scikit_learn_up_to_signs(data, solver):
    sklearn_decomposition = pytest.importorskip("sklearn.decomposition")
    ours = PCA(n_components=3, svd_solver=solver, random_state=0).fit(data)
    theirs = sklearn_decomposition.PCA(n_components=3, svd_solver="full").fit(data)
    _same_up_to_signs(ours.transform(data), theirs.transform(data), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ours.explained_variance_, theirs.explained_variance_, rtol=1e-9)
    np.testing.assert_allclose(ours.explained_variance_ratio_,
                               theirs.explained_variance_ratio_, rtol=1e-9)
    np.testing.assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-9)
    np.testing.assert_allclose(ours.mean_, theirs.mean_)


def test_three_routes_of_algorithm_15_agree(data):
    """Seed 003 Algorithm 15 (on centred data): covariance, Gram and SVD routes."""
    Xc = data - data.mean(axis=0)
    p = 3
    values, V = np.linalg.eigh(Xc.T @ Xc)
    U_a = Xc @ V[:, ::-1][:, :p]
    lam, v = np.linalg.eigh(Xc @ Xc.T)
    U_b = v[:, ::-1][:, :p] * np.sqrt(lam[::-1][:p])
    U_c = PCA(n_components=p, svd_solver="full").fit_transform(data)
    _same_up_to_signs(U_a, U_c, atol=1e-9)
    _same_up_to_signs(U_b, U_c, atol=1e-9)


def test_reconstruction_error_is_discarded_variance(data):
    full = PCA().fit(data)
    pca = PCA(n_components=3).fit(data)
    residual = ((data - pca.inverse_transform(pca.transform(data))) ** 2).sum()
    assert residual == pytest.approx(full.explained_variance_[3:].sum() * (len(data) - 1),
                                     rel=1e-9)
    assert full.explained_variance_ratio_.sum() == pytest.approx(1.0)


def test_scores_uncorrelated_with_decreasing_variance(data):
    Z = PCA(n_components=4).fit_transform(data)
    C = np.cov(Z.T)
    np.testing.assert_allclose(C - np.diag(np.diag(C)), 0.0, atol=1e-10)
    assert np.all(np.diff(np.diag(C)) <= 0)


def test_float_n_components_and_subspace_data(rng):
    X = rng.normal(size=(50, 2)) @ rng.normal(size=(2, 6))  # rank 2
    pca = PCA(n_components=0.999).fit(X)
    assert pca.n_components_ == 2
    np.testing.assert_allclose(pca.inverse_transform(pca.transform(X)), X, atol=1e-10)


def test_whiten(data):
    pca = PCA(n_components=3, whiten=True).fit(data)
    Z = pca.transform(data)
    np.testing.assert_allclose(np.var(Z, axis=0, ddof=1), 1.0, rtol=1e-10)
    np.testing.assert_allclose(pca.inverse_transform(Z), PCA(3).fit(data).inverse_transform(
        PCA(3).fit_transform(data)), atol=1e-10)


def test_float32_preserved(data):
    pca = PCA(n_components=2).fit(data.astype(np.float32))
    assert pca.transform(data.astype(np.float32)).dtype == np.float32


def test_bad_input(rng):
    X = rng.normal(size=(5, 3))
    with pytest.raises(ValueError, match="n_components"):
        PCA(n_components=4).fit(X)
    with pytest.raises(ValueError, match="int n_components"):
        PCA(n_components=0.5, svd_solver="randomized").fit(X)
    with pytest.raises(ValueError, match="NaN"):
        PCA().fit(np.array([[np.nan, 1.0], [1.0, 2.0]]))
    pca = PCA(n_components=2).fit(X)
    with pytest.raises(ValueError, match="features"):
        pca.transform(X[:, :2])
    with pytest.raises(ValueError, match="expected scores"):
        pca.inverse_transform(np.ones((2, 3)))


def test_values_near_the_float_maximum_are_refused(near_float_max):
    # the covariance overflowed to inf and the eigendecomposition returned NaN components
    with pytest.raises(ValueError, match="overflow float64"):
        PCA(2).fit(near_float_max())


def test_covariance_eigh_on_wide_data_warns_before_the_eigendecomposition():
    # a d x d eigendecomposition at d = 5000: minutes in LAPACK, which Ctrl-C cannot stop
    import warnings

    X = np.random.default_rng(0).normal(size=(20, 5000))
    with warnings.catch_warnings():
        warnings.simplefilter("error")    # stop at the warning instead of running the fit
        with pytest.raises(UserWarning, match="svd_solver='full' or 'randomized'"):
            PCA(2, svd_solver="covariance_eigh").fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert PCA(2).fit(X).components_.shape == (2, 5000)
