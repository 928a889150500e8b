"""Fisher discriminant projections: ``transform`` of the linear and kernel Fisher discriminants,
the kernel one for several classes (generalised eigenvectors of M a = λ N a)."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.preprocessing import StandardScaler

from kernelkit.discriminant_analysis import (
    FisherDiscriminantAnalysis,
    KernelFisherDiscriminantAnalysis,
    LinearDiscriminantAnalysis,
)


def classes(n_per_class, d=4, seed=0):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d))
    X = np.vstack([rng.normal(size=(n, d)) @ A + 2.0 * rng.normal(size=d) for n in n_per_class])
    return X, np.repeat(np.arange(len(n_per_class)), n_per_class)


def scatter_matrices(K, y, alpha):
    """M and N of the kernel Fisher quotient, written as the docstring states them."""
    n, labels = len(y), np.unique(y)
    priors = np.array([np.mean(y == k) for k in labels])
    v = np.array([K[:, y == k].mean(axis=1) for k in labels])
    v_bar = priors @ v
    M = sum(p * np.outer(vk - v_bar, vk - v_bar) for p, vk in zip(priors, v))
    H = lambda m: np.eye(m) - 1.0 / m  # noqa: E731
    N = alpha * np.eye(n) + sum(
        p * K[:, y == k] @ H(np.sum(y == k)) @ K[:, y == k].T / np.sum(y == k)
        for p, k in zip(priors, labels))
    return M, N


def test_fisher_transform_is_the_centred_unit_direction():
    X, y = classes((40, 60), seed=1)
    fda = FisherDiscriminantAnalysis().fit(X, y)
    w = fda.coef_ / np.linalg.norm(fda.coef_)
    xbar = np.mean(y == 0) * X[y == 0].mean(axis=0) + np.mean(y == 1) * X[y == 1].mean(axis=0)
    Z = fda.transform(X)
    np.testing.assert_allclose(Z[:, 0], (X - xbar) @ w, rtol=1e-12, atol=1e-12)
    assert Z[y == 1].mean() > 0 > Z[y == 0].mean()
    assert list(fda.get_feature_names_out()) == ["fisherdiscriminantanalysis0"]


def test_linear_kernel_fisher_transform_is_fisher_for_two_classes():
    X, y = classes((50, 70), seed=2)
    fisher = FisherDiscriminantAnalysis().fit(X, y).transform(X)
    kernel = KernelFisherDiscriminantAnalysis(kernel="linear", alpha=1e-8).fit(X, y)
    np.testing.assert_allclose(kernel.transform(X), fisher, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(kernel.explained_variance_ratio_, [1.0])


@pytest.mark.parametrize("loader", [load_iris, load_wine])
def test_linear_kernel_fisher_transform_is_lda_for_several_classes(loader):
    X, y = loader(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    kernel = KernelFisherDiscriminantAnalysis(kernel="linear", alpha=1e-9).fit(X, y)
    Z_kernel, Z_lda = kernel.transform(X), lda.transform(X)
    signs = np.sign(np.sum(Z_kernel * Z_lda, axis=0))  # LDA's directions have no set sign
    np.testing.assert_allclose(Z_kernel, Z_lda * signs, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(kernel.explained_variance_ratio_, lda.explained_variance_ratio_,
                               rtol=1e-5)
    np.testing.assert_array_equal(kernel.predict(X), LinearDiscriminantAnalysis(
        rule="projected_centroid").fit(X, y).predict(X))


def test_kernel_fisher_directions_are_the_generalised_eigenvectors():
    X, y = classes((30, 25, 35, 20), d=3, seed=3)
    model = KernelFisherDiscriminantAnalysis(gamma=0.2, alpha=1e-2).fit(X, y)
    K = model._kernel.training_gram()
    M, N = scatter_matrices(K, y, 1e-2)
    A = model.dual_scalings_
    assert A.shape == (len(y), 3)
    quotients = np.einsum("ij,ij->j", A, M @ A) / np.einsum("ij,ij->j", A, N @ A)
    np.testing.assert_allclose(M @ A, N @ A * quotients, atol=1e-9 * np.abs(M @ A).max())
    assert np.all(np.diff(quotients) <= 0)                     # by decreasing quotient
    np.testing.assert_allclose(np.diag(A.T @ K @ A), 1.0, rtol=1e-10)       # unit norm
    gram_of_n = A.T @ N @ A                                    # N-orthogonal
    np.testing.assert_allclose(gram_of_n - np.diag(np.diag(gram_of_n)), 0.0,
                               atol=1e-10 * np.abs(gram_of_n).max())
    best = quotients[0]
    random = np.random.default_rng(4).normal(size=(len(y), 200))
    assert np.all(np.einsum("ij,ij->j", random, M @ random)
                  / np.einsum("ij,ij->j", random, N @ random) <= best * (1 + 1e-9))
    np.testing.assert_allclose(model.explained_variance_ratio_.sum(), 1.0)


def test_kernel_fisher_several_classes_rule_and_n_components():
    X, y = classes((30, 30, 30), seed=5)
    full = KernelFisherDiscriminantAnalysis(gamma=0.3).fit(X, y)
    Z = full.transform(X)
    means = np.array([Z[y == k].mean(axis=0) for k in range(3)])
    nearest = np.argmin(((Z[:, None, :] - means[None]) ** 2).sum(axis=2), axis=1)
    np.testing.assert_array_equal(full.predict(X), nearest)
    assert full.score(X, y) > 0.9
    assert np.all(means[0] < 0)                                  # oriented: class 0 below
    one = KernelFisherDiscriminantAnalysis(gamma=0.3, n_components=1).fit(X, y)
    np.testing.assert_allclose(one.transform(X), Z[:, :1], rtol=1e-8, atol=1e-10)
    assert one.explained_variance_ratio_.shape == (1,)
    names = ["kernelfisherdiscriminantanalysis0", "kernelfisherdiscriminantanalysis1"]
    assert list(full.get_feature_names_out()) == names
    with pytest.raises(ValueError, match="n_components=3 is larger than n_classes - 1 = 2"):
        KernelFisherDiscriminantAnalysis(n_components=3).fit(X, y)
    with pytest.raises(ValueError, match="rule='threshold' is a two-class rule"):
        KernelFisherDiscriminantAnalysis(rule="threshold").fit(X, y)
    with pytest.raises(ValueError, match="n_components=2 is larger"):
        KernelFisherDiscriminantAnalysis(n_components=2).fit(X[y < 2], y[y < 2])


def test_kernel_fisher_transform_of_strings():
    from kernelkit.kernels import SpectrumKernel

    rng = np.random.default_rng(6)
    sequences = ["".join(rng.choice(list("ACGT"), 30, p=p))
                 for p in ([0.4, 0.1, 0.1, 0.4], [0.1, 0.4, 0.4, 0.1], [0.25] * 4) for _ in range(15)]
    y = np.repeat([0, 1, 2], 15)
    model = KernelFisherDiscriminantAnalysis(SpectrumKernel(k=2, normalize=True)).fit(sequences, y)
    Z = model.transform(sequences[:5])
    assert Z.shape == (5, 2) and np.all(np.isfinite(Z))
    np.testing.assert_allclose(Z, model.transform(sequences)[:5], rtol=1e-12)
