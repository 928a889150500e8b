"""KernelSVC2 and KernelSquaredSVR, deprecated aliases of kernelkit.svm.SquaredHingeSVC and
kernelkit.svm.SquaredEpsilonSVR: a FutureWarning naming the new class, the same results, and
scikit-learn's checks (they stay out of kernelkit.kernel_ridge.__all__, hence out of
tests/test_common.py)."""

import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import kernelkit.kernel_ridge
from kernelkit.kernel_ridge import KernelSquaredSVR, KernelSVC2
from kernelkit.svm import SquaredEpsilonSVR, SquaredHingeSVC

ALIASES = [(KernelSVC2, SquaredHingeSVC), (KernelSquaredSVR, SquaredEpsilonSVR)]


@pytest.mark.parametrize("alias, new", ALIASES, ids=["KernelSVC2", "KernelSquaredSVR"])
def test_alias_warns_and_fits_the_same_model(alias, new):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int) if alias is KernelSVC2 else X[:, 1]
    with pytest.warns(FutureWarning, match=f"kernelkit.svm.{new.__name__}"):
        old = alias(lambda_=0.5, random_state=0).fit(X, y)
    fitted = new(lambda_=0.5, random_state=0).fit(X, y)
    assert isinstance(old, new)
    np.testing.assert_array_equal(old.dual_coef_, fitted.dual_coef_)
    np.testing.assert_array_equal(old.predict(X), fitted.predict(X))
    assert alias.__name__ not in kernelkit.kernel_ridge.__all__


@parametrize_with_checks([KernelSVC2(random_state=0), KernelSquaredSVR(random_state=0)])
def test_aliases_pass_the_common_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        check(estimator)
