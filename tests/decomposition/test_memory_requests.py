"""Random projections larger than memory are refused up front, naming n_components."""

import numpy as np
import pytest

from kernelkit.decomposition import GaussianRandomProjection, SparseRandomProjection


@pytest.mark.parametrize("Projection", [GaussianRandomProjection, SparseRandomProjection])
def test_a_projection_matrix_larger_than_memory_is_refused_at_fit(Projection):
    # 10¹² rows of 10⁴ features (a hundredth of them non-zero for the sparse one)
    with pytest.raises(ValueError, match=rf"{Projection.__name__}\(n_components=1000000000000\) "
                                         r"on 10000 features would need about .*TiB.*fewer "
                                         r"components"):
        Projection(n_components=10**12).fit(np.ones((3, 10_000)))


@pytest.mark.parametrize("Projection", [GaussianRandomProjection, SparseRandomProjection])
def test_projections_larger_than_memory_are_refused_at_transform(Projection):
    model = Projection(n_components=10**5, random_state=0).fit(np.ones((2, 1)))
    X = np.broadcast_to(np.ones(1), (10**8, 1))          # 10⁸ rows, no memory of their own
    with pytest.raises(ValueError, match=r"projections of 100000000 samples would need about "
                                         r"72.8 TiB.*transform fewer samples"):
        model.transform(X)


def test_a_billion_rows_under_an_address_space_limit_are_refused(under_address_limit):
    result = under_address_limit(
        "import numpy as np\nfrom kernelkit.decomposition import SparseRandomProjection",
        "SparseRandomProjection(n_components=10**9).fit(np.ones((3, 1000)))")
    assert result.returncode == 0, result.stderr
    assert "ValueError: SparseRandomProjection(n_components=1000000000) on 1000" in result.stdout
    assert "RLIMIT_AS" in result.stdout
