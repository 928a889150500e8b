"""Gap-weighted subsequence kernel: brute force, Lodhi's recursion, k = 1, p.d."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernelkit import reference
from kernelkit.kernels import SubstringKernel, substring_kernel


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize("lambda_", [0.3, 0.8, 1.0])
def test_equals_brute_force_enumeration_of_index_tuples(make_strings, k, lambda_):
    X = make_strings(7, 1, 9, "abc")
    K = SubstringKernel(k=k, lambda_=lambda_, alphabet="abc").fit_transform(X)
    brute = [[reference.substring_kernel_bruteforce(x, y, k, lambda_) for y in X] for x in X]
    np.testing.assert_allclose(K, brute, rtol=1e-12, atol=0)


def test_equals_lodhis_recursion_on_longer_strings(make_strings):
    X, Y = make_strings(6, 10, 40), make_strings(3, 10, 40)
    est = SubstringKernel(k=3, lambda_=0.7, alphabet="protein").fit(X)
    np.testing.assert_allclose(est.transform(Y),
                               reference.substring_kernel(Y, X, k=3, lambda_=0.7), rtol=1e-10)


def test_k_equal_one_counts_common_letters(make_strings):
    X = make_strings(10, 1, 30, "ACGT")
    counts = np.array([[x.count(a) for a in "ACGT"] for x in X], dtype=float)
    lam = 0.6
    np.testing.assert_allclose(substring_kernel(X, k=1, lambda_=lam),
                               lam**2 * counts @ counts.T, rtol=1e-12)


def test_seed_gap_convention_differs_by_lambda_to_the_2k():
    # Mairal & Vert decays by the number of gaps (span − k); Lodhi by the span: factor λ^{2k}
    x, y, k, lam = "abcab", "acbb", 2, 0.5
    K = substring_kernel([x], [y], k=k, lambda_=lam)[0, 0]
    by_gaps = reference.substring_kernel_bruteforce(x, y, k, lam) / lam ** (2 * k)
    assert K == pytest.approx(lam ** (2 * k) * by_gaps, rel=1e-14)


@given(st.lists(st.text(alphabet="xyz", min_size=1, max_size=7), min_size=1, max_size=6),
       st.integers(1, 3), st.floats(0.05, 1.0))
def test_property_symmetric_psd_and_reference(X, k, lam):
    X = X + ["x" * k]
    K = SubstringKernel(k=k, lambda_=lam, alphabet="xyz").fit_transform(X)
    np.testing.assert_array_equal(K, K.T)
    np.testing.assert_allclose(K, reference.substring_kernel(X, k=k, lambda_=lam), rtol=1e-10,
                               atol=1e-300)
    assert np.linalg.eigvalsh(K)[0] >= -1e-9 * max(1.0, np.trace(K))


def test_lambda_must_be_in_zero_one():
    for lam in (0.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="'lambda_' parameter"):
            SubstringKernel(lambda_=lam).fit(["abc"])


def test_underflow_is_reported():
    # λ^(2k) underflows: refused, instead of a normalised Gram silently all zero
    with pytest.raises(ValueError, match="underflows float64"):
        SubstringKernel(k=40, lambda_=1e-5, normalize=True).fit_transform(["ACDEFGHIKL" * 5])
