"""Random feature maps larger than memory are refused up front, naming n_components."""

import numpy as np
import pytest

from kernelkit.kernel_approximation import RandomFourierFeatures


@pytest.mark.parametrize("kernel", ["rbf", "laplacian", "sinc"])
def test_frequencies_larger_than_memory_are_refused_at_fit(kernel):
    # 10¹² components of 3 features: 58 TiB of frequencies
    with pytest.raises(ValueError, match=r"RandomFourierFeatures\(n_components=1000000000000\) "
                                         r"on 3 features would need about 58.2 TiB.*lower "
                                         r"n_components"):
        RandomFourierFeatures(kernel, n_components=10**12).fit(np.ones((2, 3)))


def test_features_larger_than_memory_are_refused_at_transform():
    model = RandomFourierFeatures(n_components=10**5, random_state=0).fit(np.ones((2, 1)))
    X = np.broadcast_to(np.zeros(1), (10**8, 1))        # 10⁸ rows, no memory of their own
    with pytest.raises(ValueError, match=r"features of 100000000 samples would need about "
                                         r"72.8 TiB.*transform fewer samples at a time"):
        model.transform(X)


def test_a_billion_components_under_an_address_space_limit_are_refused(under_address_limit):
    # asked numpy for 29.8 GiB and died with a MemoryError under ulimit -v 5G
    result = under_address_limit(
        "import numpy as np\n"
        "from kernelkit.kernel_approximation import RandomFourierFeatures",
        "RandomFourierFeatures(n_components=10**9).fit(np.ones((8, 3)))",
        headroom=4 << 30)
    assert result.returncode == 0, result.stderr
    assert "ValueError: RandomFourierFeatures(n_components=1000000000) on 3 features" in (
        result.stdout)
    assert "RLIMIT_AS" in result.stdout
