"""Monte Carlo sizes larger than memory are refused up front, naming the parameter."""

import numpy as np
import pytest

from kernelkit.linear_model import Ridge
from kernelkit.metrics import bias_variance, empirical_rademacher_complexity


@pytest.mark.parametrize("precomputed", [False, True])
def test_rademacher_draws_larger_than_memory_are_refused(precomputed):
    # 10¹² sign vectors of 4 samples asked numpy for 36 TiB
    with pytest.raises(ValueError, match=r"empirical_rademacher_complexity\(n_draws="
                                         r"1000000000000\) on 4 samples would need about "
                                         r"87.3 TiB.*lower n_draws"):
        empirical_rademacher_complexity(np.eye(4), precomputed=precomputed, n_draws=10**12)


def test_bias_variance_repeats_larger_than_memory_are_refused_before_any_fit():
    X = np.linspace(-1, 1, 10)[:, None]
    with pytest.raises(ValueError, match=r"bias_variance\(n_repeats=1000000000000\) on 10 test "
                                         r"points would need about 291 TiB.*lower n_repeats"):
        bias_variance(Ridge(), X, lambda X: X[:, 0], noise_std=0.1, n_repeats=10**12)


def test_rademacher_draws_under_an_address_space_limit_are_refused(under_address_limit):
    # 3 · 10⁸ draws of 4 samples: 9 GiB, refused under a 1 GiB headroom
    result = under_address_limit(
        "import numpy as np\n"
        "from kernelkit.metrics import empirical_rademacher_complexity",
        "empirical_rademacher_complexity(np.eye(4), n_draws=3 * 10**8)")
    assert result.returncode == 0, result.stderr
    assert "ValueError: empirical_rademacher_complexity(n_draws=300000000)" in result.stdout
    assert "RLIMIT_AS" in result.stdout
