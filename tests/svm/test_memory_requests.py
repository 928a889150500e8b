"""The SMO row cache: clamped to the full kernel, refused beyond memory."""

import numpy as np
import pytest

from kernelkit.svm import SVC, SVR

X = np.random.default_rng(0).normal(size=(40, 3))
y = (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("cache_size", [1e6, 1e300])
def test_a_cache_beyond_the_full_kernel_is_the_full_kernel(cache_size):
    # at most every row is cached: the same solution, and no overflow of the solver's budget
    expected = SVC(kernel="rbf").fit(X, y)
    model = SVC(kernel="rbf", cache_size=cache_size).fit(X, y)
    np.testing.assert_array_equal(model.dual_coef_, expected.dual_coef_)
    np.testing.assert_array_equal(
        SVR(cache_size=cache_size).fit(X, X[:, 1]).dual_coef_, SVR().fit(X, X[:, 1]).dual_coef_)


def test_a_cache_larger_than_memory_is_refused_under_an_address_space_limit(under_address_limit):
    # 20 000 samples: a full kernel of 3 GiB, refused under a 1 GiB headroom
    result = under_address_limit(
        "import numpy as np\nfrom kernelkit.svm import SVC\n"
        "X = np.random.default_rng(0).normal(size=(20_000, 2))\ny = (X[:, 0] > 0).astype(int)",
        "SVC(kernel='rbf', cache_size=1e9).fit(X, y)")
    assert result.returncode == 0, result.stderr
    assert ("ValueError: SVC on 20000 dual variables with cache_size=1e+09 MiB would need "
            "about 2.98 GiB") in result.stdout
    assert "lower cache_size" in result.stdout and "RLIMIT_AS" in result.stdout
