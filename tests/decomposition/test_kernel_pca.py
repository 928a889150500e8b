"""Kernel PCA: linear kernel = PCA, out-of-sample map, precomputed Gram, pre-images."""

import numpy as np
import pytest

from kernelkit.decomposition import PCA, KernelPCA
from kernelkit.kernels import center_gram, rbf_kernel
from kernelkit.manifold import ClassicalMDS


def _same_up_to_signs(A, B, **tol):
    signs = np.sign((A * B).sum(axis=0))
    np.testing.assert_allclose(A * signs, B, **tol)


@pytest.mark.parametrize("eigen_solver", ["dense", "arpack"])
def test_linear_kernel_equals_pca(rng, eigen_solver):
    X = rng.normal(size=(60, 5)) @ np.diag([5.0, 3.0, 2.0, 1.0, 0.5])
    X_new = rng.normal(size=(6, 5))
    kpca = KernelPCA(n_components=3, eigen_solver=eigen_solver, random_state=0).fit(X)
    pca = PCA(n_components=3).fit(X)
    _same_up_to_signs(kpca.embedding_, pca.transform(X), atol=1e-8)
    signs = np.sign((kpca.embedding_ * pca.transform(X)).sum(axis=0))
    np.testing.assert_allclose(kpca.transform(X_new) * signs, pca.transform(X_new), atol=1e-8)
    np.testing.assert_allclose(kpca.eigenvalues_, pca.explained_variance_ * (len(X) - 1),
                               rtol=1e-8)


@pytest.mark.parametrize("n_components", [None, 1, 3, 5])
@pytest.mark.parametrize("eigen_solver", ["auto", "dense"])
def test_linear_kernel_pairs_from_the_data_equal_the_grams(rng, monkeypatch, n_components,
                                                           eigen_solver):
    # the linear kernel's eigenpairs come from the SVD of the centred data, not the n x n Gram
    from kernelkit.decomposition import _kernel_pca

    X = rng.normal(size=(60, 5)) @ np.diag([5.0, 3.0, 2.0, 1.0, 0.5])
    X_new = rng.normal(size=(6, 5))
    with monkeypatch.context() as patch:
        patch.setattr(_kernel_pca, "leading_eigenpairs", None)   # fails if called
        fast = KernelPCA(n_components, eigen_solver=eigen_solver).fit(X)
    gram = KernelPCA(n_components, kernel="precomputed").fit(X @ X.T)
    assert fast.n_components_ == gram.n_components_ == (n_components or 5)
    np.testing.assert_allclose(fast.eigenvalues_, gram.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(fast.eigenvectors_, gram.eigenvectors_, atol=1e-10)
    np.testing.assert_allclose(fast.embedding_, gram.embedding_, atol=1e-9)
    np.testing.assert_allclose(fast.transform(X_new), gram.transform(X_new @ X.T), atol=1e-9)


def test_transform_of_training_data_is_the_embedding(rng):
    X = rng.normal(size=(40, 3))
    kpca = KernelPCA(n_components=4, kernel="rbf", gamma=0.5).fit(X)
    np.testing.assert_allclose(kpca.transform(X), kpca.embedding_, atol=1e-10)


def test_precomputed_gram(rng):
    X, X_new = rng.normal(size=(40, 3)), rng.normal(size=(5, 3))
    a = KernelPCA(n_components=3, kernel="rbf", gamma=0.3).fit(X)
    b = KernelPCA(n_components=3, kernel="precomputed").fit(rbf_kernel(X, gamma=0.3))
    np.testing.assert_allclose(b.embedding_, a.embedding_, atol=1e-10)
    np.testing.assert_allclose(b.transform(rbf_kernel(X_new, X, gamma=0.3)),
                               a.transform(X_new), atol=1e-10)


def test_centred_gram_annihilates_ones_and_is_psd(rng):
    K = center_gram(rbf_kernel(rng.normal(size=(30, 2))))
    np.testing.assert_allclose(K @ np.ones(30), 0.0, atol=1e-12)
    kpca = KernelPCA(kernel="precomputed").fit(rbf_kernel(rng.normal(size=(30, 2))))
    assert np.all(kpca.eigenvalues_ > 0)


def test_equals_classical_mds_in_feature_space(rng):
    """Coverage entry C4: with D_K,ij = k_ii + k_jj − 2k_ij, classical MDS on √D_K = kernel PCA."""
    X = rng.normal(size=(30, 3))
    K = rbf_kernel(X, gamma=0.4)
    d = np.diag(K)
    D_K = np.sqrt(np.maximum(d[:, None] + d[None, :] - 2 * K, 0.0))
    np.fill_diagonal(D_K, 0.0)
    Z_mds = ClassicalMDS(n_components=3, dissimilarity="precomputed").fit_transform(D_K)
    Z_kpca = KernelPCA(n_components=3, kernel="precomputed").fit_transform(K)
    _same_up_to_signs(Z_mds, Z_kpca, atol=1e-8)


def test_matches_scikit_learn_rbf(rng):
    sklearn_decomposition = pytest.importorskip("sklearn.decomposition")
    X, X_new = rng.normal(size=(50, 4)), rng.normal(size=(5, 4))
    ours = KernelPCA(n_components=3, kernel="rbf", gamma=0.2, fit_inverse_transform=True,
                     alpha=0.1).fit(X)
    theirs = sklearn_decomposition.KernelPCA(n_components=3, kernel="rbf", gamma=0.2,
                                             fit_inverse_transform=True, alpha=0.1).fit(X)
    _same_up_to_signs(ours.transform(X_new), theirs.transform(X_new), atol=1e-8)
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-8)
    np.testing.assert_allclose(ours.inverse_transform(ours.transform(X_new)),
                               theirs.inverse_transform(theirs.transform(X_new)), atol=1e-6)


def test_rank_deficient_gram_gives_zero_columns(rng):
    X = rng.normal(size=(10, 2))
    kpca = KernelPCA(n_components=4).fit(X)  # linear kernel: rank 2 after centring
    np.testing.assert_allclose(kpca.embedding_[:, 2:], 0.0, atol=1e-12)
    assert KernelPCA().fit(X).n_components_ == 2


def test_bad_input(rng):
    X = rng.normal(size=(6, 2))
    with pytest.raises(ValueError, match="n_components"):
        KernelPCA(n_components=7).fit(X)
    with pytest.raises(ValueError, match="square"):
        KernelPCA(kernel="precomputed").fit(np.ones((6, 5)))
    with pytest.raises(ValueError, match="symmetric"):
        KernelPCA(kernel="precomputed").fit(rng.uniform(size=(6, 6)))
    with pytest.raises(ValueError, match="fit_inverse_transform"):
        KernelPCA(kernel="precomputed", fit_inverse_transform=True).fit(np.eye(6))
    with pytest.raises(ValueError, match="fit_inverse_transform=True"):
        KernelPCA(n_components=2).fit(X).inverse_transform(np.ones((1, 2)))
    with pytest.raises(ValueError, match="NaN"):
        KernelPCA().fit(np.array([[np.nan, 1.0], [1.0, 2.0]]))


@pytest.mark.parametrize("eigen_solver, name", [("dense", "LAPACK"), ("arpack", "ARPACK")])
def test_verbose_prints_its_stages_and_changes_nothing(eigen_solver, name, capsys):
    X = np.random.default_rng(0).normal(size=(80, 4))
    params = dict(n_components=3, kernel="rbf", gamma=0.3, eigen_solver=eigen_solver,
                  fit_inverse_transform=True, random_state=0)
    quiet = KernelPCA(**params).fit(X)
    assert capsys.readouterr().err == ""
    loud = KernelPCA(verbose=1, **params).fit(X)
    np.testing.assert_array_equal(quiet.embedding_, loud.embedding_)
    assert [line.split(",")[0] for line in capsys.readouterr().err.splitlines()] == [
        "[KernelPCA] Gram matrix 80 x 80", f"[KernelPCA] 3 leading eigenpairs ({name})",
        "[KernelPCA] pre-image regression"]


@pytest.mark.parametrize("X", [np.zeros((12, 3)), np.ones((12, 3))])
def test_arpack_on_identical_samples(X):
    # the centred Gram of identical samples is zero: ARPACK's Krylov space collapsed and scipy's
    # ArpackError ("Starting vector is zero") escaped; every component is 0
    Z = KernelPCA(2, kernel="rbf", eigen_solver="arpack", random_state=0).fit_transform(X)
    np.testing.assert_array_equal(Z, np.zeros((12, 2)))


def test_pre_image_parameters_changed_after_fit_need_a_refit():
    from sklearn.exceptions import NotFittedError

    X = np.random.default_rng(0).normal(size=(20, 3))
    kpca = KernelPCA(2, kernel="rbf").fit(X)
    kpca.set_params(fit_inverse_transform=True)
    with pytest.raises(NotFittedError, match="fit_inverse_transform"):
        kpca.inverse_transform(kpca.transform(X))
    kpca.set_params(fit_inverse_transform=False, verbose=0)   # back to the fitted value
    assert kpca.transform(X).shape == (20, 2)


def test_singular_pre_image_regression_names_alpha():
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="alpha=1e-300"):
        KernelPCA(2, kernel="linear", fit_inverse_transform=True, alpha=1e-300).fit(X)
