"""PCA: agreement with scikit-learn, the seed's three routes, exact properties."""

import warnings

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
    with pytest.raises(ValueError, match="n_jobs"):
        PCA(n_jobs=0).fit(X)
    pca = PCA(n_components=2).fit(X)
    with pytest.raises(ValueError, match="features"):
        pca.transform(X[:, :2])
    with pytest.raises(ValueError, match="expected scores"):
        pca.inverse_transform(np.ones((2, 3)))


@pytest.mark.parametrize("solver", ["auto", "full", "randomized"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_input_gets_scikit_learns_error_on_every_route(rng, solver, bad):
    # the covariance route ("auto" on tall data) sees it on the scatter matrix, without
    # warnings from the arithmetic on inf; the others test X first
    X = rng.normal(size=(600, 5))
    X[17, 2] = bad
    n_components = 2 if solver == "randomized" else None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="NaN" if np.isnan(bad) else "infinity"):
            PCA(n_components, svd_solver=solver).fit(X)
        # an error met before the scatter matrix comes after the finiteness, as in scikit-learn
        with pytest.raises(ValueError, match="NaN" if np.isnan(bad) else "infinity"):
            PCA(n_components=7, svd_solver=solver).fit(X)


def test_covariance_route_tests_finiteness_on_the_scatter_matrix(rng, monkeypatch):
    # one pass over X (the blocked scatter matrix), not a finiteness pass before it
    from sklearn.utils import validation

    seen = []
    original = validation._assert_all_finite

    def counting(X, *args, **kwargs):
        seen.append(np.shape(X))
        return original(X, *args, **kwargs)

    monkeypatch.setattr(validation, "_assert_all_finite", counting)
    X = rng.normal(size=(2_000, 6))
    PCA().fit(X)
    assert (2_000, 6) not in seen


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


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few rows, so that small data run through many blocks, every row slot and a
    shorter last block."""
    from kernelkit.decomposition import _pca
    from kernelkit.utils import _scatter

    monkeypatch.setattr(_pca, "_TSQR_BLOCK_ELEMENTS", 64)
    monkeypatch.setattr(_scatter, "_BLOCK_ELEMENTS", 64)
    monkeypatch.setattr(_scatter, "_MIN_BLOCK_ROWS", 1)


@pytest.mark.parametrize("solver", ["full", "covariance_eigh"])
def test_tall_routes_equal_scikit_learn_across_blocks(rng, small_blocks, solver):
    # 997 rows: blocks of 16 rows (QR) or 8 rows (covariance), the last one shorter
    sklearn_decomposition = pytest.importorskip("sklearn.decomposition")
    X = rng.normal(size=(997, 8)) @ np.diag(2.0 ** -np.arange(8)) + rng.normal(size=8)
    ours = PCA(svd_solver=solver, n_jobs=2).fit(X)
    theirs = sklearn_decomposition.PCA(svd_solver="full").fit(X)
    _same_up_to_signs(ours.components_.T, theirs.components_.T, rtol=0, atol=1e-10)
    np.testing.assert_allclose(ours.explained_variance_, theirs.explained_variance_, rtol=1e-10)
    np.testing.assert_allclose(ours.singular_values_, theirs.singular_values_, rtol=1e-10)
    np.testing.assert_array_equal(ours.components_[np.arange(8), np.abs(ours.components_).argmax(
        axis=1)] > 0, True)   # scikit-learn's sign convention


@pytest.mark.parametrize("solver", ["full", "covariance_eigh", "randomized"])
def test_same_result_on_one_and_two_threads(rng, small_blocks, solver):
    X = rng.normal(size=(500, 6)) * np.arange(1, 7) + 100.0
    one = PCA(3, svd_solver=solver, random_state=0, n_jobs=1).fit(X)
    two = PCA(3, svd_solver=solver, random_state=0, n_jobs=2).fit(X)
    np.testing.assert_array_equal(one.components_, two.components_)
    np.testing.assert_array_equal(one.explained_variance_, two.explained_variance_)


def test_full_route_stays_exact_where_the_covariance_loses_digits(rng):
    """A mean 10⁶ times the spread and a condition number of 10⁶: XᵀX − nμμᵀ cancels about 12
    digits and the covariance squares the condition number; the tall-skinny QR keeps what an
    SVD of the centred copy resolves."""
    scales = np.logspace(0, -6, 5)
    X = 1e6 + rng.normal(size=(4000, 5)) @ np.diag(scales)
    Xc = X - X.mean(axis=0)
    exact = np.linalg.svd(Xc, compute_uv=False)
    pca = PCA(svd_solver="full").fit(X)
    np.testing.assert_allclose(pca.singular_values_, exact, rtol=1e-8)
    # the shortcut without block centring would have lost the smallest variances entirely
    shortcut = np.linalg.eigvalsh(X.T @ X - len(X) * np.outer(X.mean(0), X.mean(0)))
    assert np.abs(np.sqrt(np.abs(shortcut[0])) - exact[-1]) > 1e-3 * exact[-1]


@pytest.mark.parametrize("shape", [(3000, 20), (60, 400)])
def test_randomized_routes_find_the_leading_subspace(rng, shape):
    """Narrow data go through the scatter matrix, wide data through products with the data
    (the mean subtracted inside them): both find the leading components of a decaying
    spectrum."""
    X = rng.normal(size=shape) @ np.diag(3.0 ** -np.arange(shape[1])) + 5.0
    ours = PCA(4, svd_solver="randomized", random_state=0).fit(X)
    exact = PCA(4, svd_solver="full").fit(X)
    np.testing.assert_allclose(np.abs(ours.components_ @ exact.components_.T), np.eye(4),
                               atol=1e-8)
    np.testing.assert_allclose(ours.explained_variance_, exact.explained_variance_, rtol=1e-8)
    np.testing.assert_allclose(ours.explained_variance_ratio_,
                               exact.explained_variance_ratio_, rtol=1e-8)
    scores = ours.fit_transform(X)
    np.testing.assert_allclose(scores, ours.transform(X), atol=1e-8)


def test_randomized_eigh_equals_randomized_svd_of_the_data(rng):
    from kernelkit.decomposition._randomized_svd import randomized_eigh, randomized_svd

    A = rng.normal(size=(300, 12)) @ np.diag(2.0 ** -np.arange(12))
    values, vectors = randomized_eigh(A.T @ A, 3, random_state=0)
    _, s, Vt = randomized_svd(A, 3, random_state=0)
    np.testing.assert_allclose(values, s**2, rtol=1e-10)
    _same_up_to_signs(vectors, Vt.T, atol=1e-10)
