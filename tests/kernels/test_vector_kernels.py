"""The vector kernels of coverage entry D5–D8: exponential, min and sinc kernels (formulas, positive
definiteness, the min kernel's RKHS norm, Bochner's theorem) and their use as ``kernel=`` names."""

import warnings
from math import factorial

import numpy as np
import pytest

from kernelkit.decomposition import KernelPCA
from kernelkit.kernels import (
    VectorKernel,
    exponential_kernel,
    laplacian_kernel,
    min_kernel,
    pairwise_kernels,
    polynomial_kernel,
    rbf_kernel,
    sinc_kernel,
)
from kernelkit.svm import SVC

NEW_KERNELS = ["exponential", "min", "sinc"]


@pytest.mark.parametrize("name", NEW_KERNELS)
def test_gram_is_positive_semi_definite(name, rng):
    # coverage entry D0: symmetric, λ_min ≥ −tol · trace (min kernel on non-negative points)
    X = rng.uniform(0, 2, size=(60, 3))
    K = pairwise_kernels(X, metric=name, gamma=0.8)
    np.testing.assert_array_equal(K, K.T)
    assert np.linalg.eigvalsh(K).min() >= -1e-10 * np.trace(K)


def test_exponential_kernel_is_its_power_series(rng):
    # coverage entry D5: e^{γ x·y} = Σ_j (γ x·y)^j / j!
    X, Y = rng.normal(size=(8, 3)) / 2, rng.normal(size=(5, 3)) / 2
    dots = 0.7 * X @ Y.T
    series = sum(dots**j / factorial(j) for j in range(30))
    np.testing.assert_allclose(exponential_kernel(X, Y, gamma=0.7), series, rtol=1e-13)


def test_min_kernel_rkhs_norm_is_the_sobolev_energy(rng):
    # coverage entry D6: for f = Σ a_i min(·, x_i) on [0, 1], f(0) = 0 and aᵀKa = ∫_0^1 f'(u)² du;
    # f' is the step function Σ_{i: x_i > u} a_i, so the integral is an exact finite sum.
    x = rng.uniform(size=12)
    a = rng.normal(size=12)
    K = min_kernel(x[:, None])
    order = np.argsort(x)
    knots = np.concatenate([[0.0], x[order]])
    slopes = np.cumsum(a[order][::-1])[::-1]          # f' on (knots[m], knots[m + 1])
    energy = float(np.sum(slopes**2 * np.diff(knots)))
    assert a @ K @ a == pytest.approx(energy, rel=1e-12)
    assert min_kernel([[0.0]], x[:, None]) @ a == pytest.approx(0.0)   # f(0) = 0


def test_sinc_kernel_formula_and_continuity():
    # coverage entry D7: sin(Ω(x − y)) / (π(x − y)), Ω/π at x = y, continuous there
    omega = 2.5
    x = np.array([[0.3]])
    y = np.array([[0.3], [0.3 + 1e-9], [1.1]])
    K = sinc_kernel(x, y, gamma=omega)[0]
    assert K[0] == omega / np.pi
    assert K[1] == pytest.approx(omega / np.pi, rel=1e-15)
    assert K[2] == pytest.approx(np.sin(omega * -0.8) / (np.pi * -0.8), rel=1e-14)
    # product over coordinates: the band limit on the cube [−Ω, Ω]^d
    X = np.array([[0.0, 0.0], [0.5, -1.0]])
    expected = (np.sin(omega * 0.5) / (np.pi * 0.5)) * (np.sin(omega) / np.pi)
    assert sinc_kernel(X, gamma=omega)[0, 1] == pytest.approx(expected, rel=1e-14)
    assert sinc_kernel(X, gamma=omega)[0, 0] == pytest.approx((omega / np.pi) ** 2, rel=1e-15)


@pytest.mark.parametrize("profile", [
    lambda t: rbf_kernel(t, np.zeros((1, 1)), gamma=2.0).ravel(),
    lambda t: laplacian_kernel(t, np.zeros((1, 1)), gamma=1.5).ravel(),
    lambda t: sinc_kernel(t, np.zeros((1, 1)), gamma=3.0).ravel(),
], ids=["rbf", "laplacian", "sinc"])
def test_translation_invariant_profiles_have_a_non_negative_fourier_transform(profile):
    # coverage entry D8 (Bochner): κ̂ ≥ 0. The profile is cut to [−T, T] under a wide Gaussian
    # window (itself of positive transform) so that the truncation adds no Gibbs ringing.
    t = np.linspace(-200, 200, 2**15, endpoint=False)
    window = np.exp(-(t**2) / (2 * 40.0**2))
    values = profile(t[:, None]) * window
    spectrum = np.fft.fft(np.fft.ifftshift(values)).real
    assert spectrum.min() >= -1e-7 * spectrum.max()


def test_min_kernel_refuses_negative_entries():
    with pytest.raises(ValueError, match="non-negative"):
        min_kernel([[1.0], [-0.5]])
    with pytest.raises(ValueError, match="non-negative"):
        SVC(kernel="min").fit([[0.0], [-1.0], [2.0], [3.0]], [0, 0, 1, 1])


def test_exponential_kernel_overflow_is_refused():
    X = np.array([[30.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    with pytest.raises(ValueError, match="overflows"):
        SVC(kernel="exponential", gamma=1.0).fit(X, [0, 0, 1, 1])


@pytest.mark.parametrize("name", NEW_KERNELS)
def test_usable_as_kernel_names(name, rng):
    # SVC's compiled kernel rows (SMO, the elementwise rows of min and sinc), the Gram layer
    # (kernel PCA) and the kernel object agree.
    X = rng.uniform(0, 1, size=(40, 2))
    y = (X[:, 0] > X[:, 1]).astype(int)
    model = SVC(kernel=name, gamma=1.3, C=10.0, tol=1e-10).fit(X, y)
    K = pairwise_kernels(X, metric=name, gamma=1.3)
    precomputed = SVC(kernel="precomputed", C=10.0, tol=1e-10).fit(K, y)
    np.testing.assert_allclose(model.decision_function(X), precomputed.decision_function(K),
                               rtol=1e-7, atol=1e-9)
    embedding = KernelPCA(2, kernel=name, gamma=1.3).fit_transform(X)
    reference = KernelPCA(2, kernel="precomputed").fit_transform(K)
    np.testing.assert_allclose(np.abs(embedding), np.abs(reference), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(VectorKernel(name, gamma=1.3).fit_transform(X), K)


def test_huge_finite_values_warn():
    """A finite Gram whose entries pass 1e100 (a polynomial of degree 60 here) is returned with a
    warning naming the kernel: next to such entries the ordinary ones carry no information."""
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.warns(UserWarning, match=r"poly kernel .*degree=60.* reaches"):
        K = polynomial_kernel(X, gamma=1000.0, coef0=-5.0, degree=60)
    assert np.isfinite(K).all() and np.abs(K).max() > 1e100
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        polynomial_kernel(X, degree=3)
