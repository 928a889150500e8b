"""The one-vs-one layout of the dual coefficients: scikit-learn's, and read back exactly."""

import numpy as np
import pytest
from sklearn.svm import SVC as SklearnSVC

from kernelkit.utils._one_vs_one import pack_dual_coef, unpack_dual_coef


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_unpack_inverts_pack(n_classes):
    rng = np.random.default_rng(0)
    n_support = rng.integers(1, 5, size=n_classes)
    owner = np.repeat(np.arange(n_classes), n_support)
    pairs = [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)]
    pair_coef = rng.standard_normal((owner.size, len(pairs)))
    for k, (a, b) in enumerate(pairs):
        pair_coef[(owner != a) & (owner != b), k] = 0.0
    dual_coef = pack_dual_coef(pair_coef, n_support)
    assert dual_coef.shape == (n_classes - 1, owner.size)
    np.testing.assert_array_equal(unpack_dual_coef(dual_coef, n_support), pair_coef)


def test_scikit_learn_layout():
    # scikit-learn's SVC stores its one-vs-one problems in this layout: the pair (a, b) rebuilt
    # from dual_coef_ reproduces its decision values
    rng = np.random.default_rng(1)
    X = rng.standard_normal((60, 2)) + np.repeat(np.eye(3, 2) * 3, 20, axis=0)
    y = np.repeat(np.arange(3), 20)
    svc = SklearnSVC(kernel="linear", decision_function_shape="ovo").fit(X, y)
    pair_coef = unpack_dual_coef(svc.dual_coef_, svc.n_support_)
    values = X @ svc.support_vectors_.T @ pair_coef + svc.intercept_
    np.testing.assert_allclose(values, svc.decision_function(X), atol=1e-10)
