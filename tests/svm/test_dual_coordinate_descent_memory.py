"""Dual coordinate descent: the objective history and the row cache are checked up front."""

import numpy as np
import pytest

from kernelkit.svm import SquaredEpsilonSVR, SquaredHingeSVC

X = np.random.default_rng(0).normal(size=(30, 3))
y = (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("make", [lambda **p: (SquaredHingeSVC(**p), y),
                                  lambda **p: (SquaredEpsilonSVR(**p), X[:, 1])])
def test_an_objective_history_larger_than_memory_is_refused(make):
    model, target = make(max_iter=10**15)
    with pytest.raises(ValueError, match=r"\(max_iter=10{15}\) objective history would need "
                                         r"about 7.28e\+03 TiB.*lower max_iter"):
        model.fit(X, target)


@pytest.mark.parametrize("make", [lambda **p: (SquaredHingeSVC(**p), y),
                                  lambda **p: (SquaredEpsilonSVR(**p), X[:, 1])])
def test_a_cache_beyond_the_full_kernel_is_the_full_kernel(make):
    model, target = make(cache_size=1e300, random_state=0)
    reference, _ = make(random_state=0)
    np.testing.assert_array_equal(model.fit(X, target).dual_coef_,
                                  reference.fit(X, target).dual_coef_)
