"""Kernel ridge, kernel logistic regression and the dual coordinate descent machines on kernels
that are not positive definite: refused before the solver, which would diverge."""

import re
import warnings

import numpy as np
import pytest

from kernelkit.kernel_ridge import KernelLogisticRegression, KernelRidge
from kernelkit.kernels import pairwise_kernels, sigmoid_kernel
from kernelkit.svm import SquaredEpsilonSVR, SquaredHingeSVC


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    # targets below coef0 = 5, where the diverging solver once predicted ~1e152
    return X, (X[:, 0] > 0).astype(int), rng.uniform(0, 4, 30)


@pytest.mark.parametrize("make, classifier", [
    (SquaredEpsilonSVR, False), (SquaredHingeSVC, True), (KernelRidge, False),
    (KernelLogisticRegression, True),
], ids=["SquaredEpsilonSVR", "SquaredHingeSVC", "KernelRidge", "KernelLogisticRegression"])
@pytest.mark.parametrize("gamma, coef0", [(1e6, 1e6), (1.0, 5.0)])
def test_indefinite_sigmoid_is_refused_without_warnings(make, classifier, gamma, coef0):
    X, labels, values = _data()
    assert np.linalg.eigvalsh(sigmoid_kernel(X, gamma=gamma, coef0=coef0))[0] < -0.01
    parameters = re.escape(f"sigmoid kernel (gamma={gamma:g}, coef0={coef0:g})")
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no ConvergenceWarning first: refused before solving
        with pytest.raises(ValueError, match=f"{parameters} .*not positive semi-definite"):
            make(kernel="sigmoid", gamma=gamma, coef0=coef0).fit(
                X, labels if classifier else values)


@pytest.mark.parametrize("make", [SquaredEpsilonSVR, KernelRidge])
def test_precomputed_indefinite_gram_is_refused(make):
    X, _, values = _data()
    with pytest.raises(ValueError, match="^Precomputed Gram matrix .*not positive semi-definite"):
        make(kernel="precomputed").fit(sigmoid_kernel(X, gamma=1.0, coef0=5.0), values)


@pytest.mark.parametrize("kernel, params", [
    ("sigmoid", {"gamma": 1e-3, "coef0": 0.0}), ("sigmoid", {"gamma": 0.1, "coef0": -1.0}),
    ("poly", {"degree": 2, "coef0": -1.0}), ("poly", {"degree": 3, "coef0": -0.01}),
    ("poly", {"degree": 2.5, "gamma": 0.5, "coef0": 0.0}),
    ("poly", {"degree": 2, "coef0": 1.0}), ("rbf", {"gamma": 0.5}),
])
@pytest.mark.parametrize("alpha", [1e-3, 1.0])
def test_refusal_agrees_with_the_smallest_eigenvalue(kernel, params, alpha):
    # oracle: the eigenvalues of K + alpha·I, the matrix kernel ridge factorises (on non-negative
    # data, so that a non-integer degree is defined); an indefinite similarity that alpha
    # outweighs is accepted and solved exactly
    X, _, values = _data()
    X = np.abs(X)
    K = pairwise_kernels(X, metric=kernel, **params)
    smallest = np.linalg.eigvalsh(K)[0] + alpha
    assert abs(smallest) > 1e-6    # no borderline case
    model = KernelRidge(alpha=alpha, kernel=kernel, **params)
    if smallest < 0:
        with pytest.raises(ValueError, match="not positive semi-definite"):
            model.fit(X, values)
    else:
        expected = K @ np.linalg.solve(K + alpha * np.eye(len(K)), values)
        np.testing.assert_allclose(model.fit(X, values).predict(X), expected, rtol=1e-7,
                                   atol=1e-9)
