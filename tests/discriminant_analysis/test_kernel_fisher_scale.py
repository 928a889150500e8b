"""Kernel Fisher discriminant analysis on kernels without a real value, indefinite or so large
that its within-class matrix overflows: a ValueError naming the kernel, never SciPy's
"array must not contain infs or NaNs"."""

import warnings

import numpy as np
import pytest

from kernelkit.discriminant_analysis import KernelFisherDiscriminantAnalysis


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    return X, (X[:, 0] > 0).astype(int)


def test_non_integer_degree_with_a_negative_base_names_degree_and_coef0():
    X, y = _data()
    with pytest.raises(ValueError, match=r"poly kernel \(gamma=.*, coef0=1, degree=2.5\) has "
                                         "NaN values"):
        KernelFisherDiscriminantAnalysis(kernel="poly", degree=2.5).fit(X, y)


@pytest.mark.parametrize("scale", [1e300, 1e200])
def test_a_gram_overflowing_the_within_class_matrix_is_refused_by_name(scale):
    # K is finite and within max double / (4n), but N sums products K_ik K_jk
    X, y = _data()
    K = scale * (X @ X.T + np.eye(30))
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no overflow RuntimeWarning on the way
        with pytest.raises(ValueError, match="^The entries of the within-class matrix are not "
                                             "finite with the precomputed Gram matrix"):
            KernelFisherDiscriminantAnalysis(kernel="precomputed").fit(K, y)


def test_indefinite_sigmoid_is_refused():
    X, y = _data()
    with pytest.raises(ValueError, match=r"sigmoid kernel \(gamma=1, coef0=5\) .*not positive"):
        KernelFisherDiscriminantAnalysis(kernel="sigmoid", gamma=1.0, coef0=5.0).fit(X, y)


def test_a_large_but_representable_gram_gives_the_scaled_solution():
    # scaling K by s scales N by s² (up to the ridge): the decisions are unchanged when the
    # ridge is scaled too
    X, y = _data()
    K = X @ X.T + np.eye(30)
    small = KernelFisherDiscriminantAnalysis(kernel="precomputed", alpha=1e-3).fit(K, y)
    large = KernelFisherDiscriminantAnalysis(kernel="precomputed", alpha=1e-3 * 1e100).fit(
        1e50 * K, y)
    np.testing.assert_array_equal(small.predict(K), large.predict(1e50 * K))
