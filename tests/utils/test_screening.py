"""The float32 screening guard shared by k-means, k-NN and DBSCAN."""

import numpy as np
import pytest

from kernelkit.utils._screening import _magnitude_range, float32_screening_copy


@pytest.mark.parametrize("rows", [1, 7, 8192])
def test_magnitude_range_equals_the_masked_extremes(rows):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 17)) * 10.0 ** rng.integers(-300, 300, size=(300, 17))
    X[rng.random(X.shape) < 0.3] = 0.0
    X[4, 2] = -5e-324                      # the smallest subnormal
    magnitudes = np.abs(X)
    want = magnitudes[magnitudes > 0].min(), magnitudes.max()
    assert _magnitude_range(X, rows=rows) == want
    assert _magnitude_range(np.zeros((4, 3)), rows=rows) == (np.inf, 0.0)


def test_copy_only_where_float32_products_stay_normal():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 20))
    X32 = float32_screening_copy(X)
    assert X32.dtype == np.float32 and X32.flags.c_contiguous
    np.testing.assert_array_equal(X32, X.astype(np.float32))
    assert float32_screening_copy(np.zeros((5, 20))) is not None
    assert float32_screening_copy(X * 1e16) is None            # products overflow float32
    tiny = X.copy()
    tiny[0, 0] = 1e-40                                          # flushed to zero in float32
    assert float32_screening_copy(tiny) is None
    assert float32_screening_copy(X.astype(np.float32)) is None
    assert float32_screening_copy(X[:, :10]) is None           # too few features to pay
    assert float32_screening_copy(X[:, :10], min_features=0) is not None
