"""Random Fourier features (coverage entry D8): Z Zᵀ converges to the kernel's Gram matrix."""

import numpy as np
import pytest
from sklearn.kernel_approximation import RBFSampler

from kernelkit.kernel_approximation import RandomFourierFeatures
from kernelkit.kernels import pairwise_kernels


@pytest.mark.parametrize("kernel", ["rbf", "laplacian", "sinc"])
def test_features_converge_to_the_gram_matrix(kernel, rng):
    X = rng.uniform(-1, 1, size=(40, 2))
    K = pairwise_kernels(X, metric=kernel, gamma=1.5)
    errors = []
    for n_components in (100, 20000):
        Z = RandomFourierFeatures(kernel, gamma=1.5, n_components=n_components,
                                  random_state=0).fit_transform(X)
        errors.append(np.abs(Z @ Z.T - K).max() / K.diagonal().max())
    # Monte-Carlo error ~ 1/sqrt(D): at D = 20000 a few percent of k(x, x) at most
    assert errors[1] < 0.05
    assert errors[1] < errors[0]


def test_rbf_case_is_scikit_learns_sampler_in_distribution(rng):
    # same features as RBFSampler up to the random draws: same scale and same mean Gram
    X = rng.normal(size=(30, 4))
    ours = RandomFourierFeatures(gamma=0.3, n_components=50000, random_state=1).fit_transform(X)
    theirs = RBFSampler(gamma=0.3, n_components=50000, random_state=1).fit_transform(X)
    np.testing.assert_allclose(ours @ ours.T, theirs @ theirs.T, atol=0.03)
    assert ours.shape == theirs.shape


def test_scale_gamma_and_shapes(rng):
    X = rng.normal(size=(20, 3)) * 4.0
    rff = RandomFourierFeatures(gamma="scale", n_components=7, random_state=0).fit(X)
    assert rff.gamma_ == pytest.approx(1.0 / (3 * X.var()))
    assert rff.transform(X).shape == (20, 7)
    assert list(rff.get_feature_names_out()) == [f"randomfourierfeatures{i}" for i in range(7)]
    with pytest.raises(ValueError, match="features"):
        rff.transform(X[:, :2])


@pytest.mark.parametrize("kernel", ["rbf", "sinc"])
def test_features_that_overflow_are_refused(kernel):
    X = np.random.default_rng(0).normal(size=(10, 5))
    model = RandomFourierFeatures(kernel=kernel, random_state=0).fit(X)
    W = model.random_weights_
    # a row aligned with the signs of the heaviest frequency: x·w = 1.7e308 Σ|w| overflows
    column = np.argmax(np.abs(W).sum(axis=0))
    assert np.abs(W[:, column]).sum() > 1.1
    with pytest.raises(ValueError, match="overflows float64"):
        model.transform(1.7e308 * np.sign(W[:, column])[None, :])


def test_sinc_normalisation_that_overflows_is_refused():
    # k(x, x) = (γ/π)^d of the sinc kernel: a ValueError, not Python's OverflowError
    X = np.random.default_rng(0).normal(size=(10, 5))
    with pytest.raises(ValueError, match="overflows float64"):
        RandomFourierFeatures(kernel="sinc", gamma=1e300).fit(X)
