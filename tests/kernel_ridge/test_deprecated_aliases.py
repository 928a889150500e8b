"""KernelSVC2 and KernelSquaredSVR, the old names of kernelkit.svm.SquaredHingeSVC and
kernelkit.svm.SquaredEpsilonSVR: served by kernelkit.kernel_ridge's module ``__getattr__`` with a
FutureWarning naming the new class, they are the new classes themselves (and so pass the common
checks as those do), and stay out of kernelkit.kernel_ridge.__all__."""

import importlib

import numpy as np
import pytest

import kernelkit.kernel_ridge
from kernelkit.svm import SquaredEpsilonSVR, SquaredHingeSVC

ALIASES = [("KernelSVC2", SquaredHingeSVC), ("KernelSquaredSVR", SquaredEpsilonSVR)]


@pytest.mark.parametrize("alias, new", ALIASES, ids=[name for name, _ in ALIASES])
def test_old_name_warns_and_is_the_new_class(alias, new):
    with pytest.warns(FutureWarning, match=f"kernelkit.svm.{new.__name__}"):
        old = getattr(importlib.import_module("kernelkit.kernel_ridge"), alias)
    assert old is new
    assert alias not in kernelkit.kernel_ridge.__all__
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = (X[:, 0] > 0).astype(int) if new is SquaredHingeSVC else X[:, 1]
    np.testing.assert_array_equal(old(lambda_=0.5, random_state=0).fit(X, y).dual_coef_,
                                  new(lambda_=0.5, random_state=0).fit(X, y).dual_coef_)


def test_from_import_warns():
    with pytest.warns(FutureWarning, match="kernelkit.svm.SquaredHingeSVC"):
        from kernelkit.kernel_ridge import KernelSVC2
    assert KernelSVC2 is SquaredHingeSVC


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="NoSuchEstimator"):
        kernelkit.kernel_ridge.NoSuchEstimator  # noqa: B018
