"""The compiled feature counts (``_core/_feature_counts.pyx``) against their NumPy twin
(``kernelkit.reference.feature_counts``): the same canonical CSR matrix."""

import numpy as np
import pytest

from kernelkit._core import _feature_counts as core
from kernelkit.reference import feature_counts as twin


def _run(module, rows, columns, counts, n_samples, n_features):
    n = len(rows)
    indptr = np.full(n_samples + 1, -7, dtype=np.int64)
    indices, data = np.full(n, -7, dtype=np.int64), np.full(n, np.nan)
    nnz = module.count_matrix(rows, columns, counts, indptr, indices, data, n_features)
    return nnz, indptr, indices[:nnz], data[:nnz]


def test_count_matrix_is_the_twins():
    rng = np.random.default_rng(0)
    for trial in range(300):
        n_samples, n_features = int(rng.integers(0, 8)), int(rng.integers(1, 12))
        n = int(rng.integers(0, 60)) if n_samples else 0
        rows = rng.integers(0, max(n_samples, 1), size=n)
        columns = rng.integers(0, n_features, size=n)
        # zero counts too: their cells are stored
        counts = rng.integers(0, 2**40 if trial % 5 == 0 else 4, size=n)
        found = _run(core, rows, columns, counts, n_samples, n_features)
        expected = _run(twin, rows, columns, counts, n_samples, n_features)
        assert found[0] == expected[0], trial
        for name, a, b in zip(("indptr", "indices", "data"), found[1:], expected[1:]):
            np.testing.assert_array_equal(a, b, err_msg=f"{trial} {name}")


@pytest.mark.parametrize("module", [core, twin])
@pytest.mark.parametrize("fault", ["row", "negative row", "column", "negative column"])
def test_count_matrix_refuses_out_of_range_cells(module, fault):
    rows, columns = np.array([0, 1]), np.array([0, 2])
    if fault == "row":
        rows[1] = 2
    elif fault == "negative row":
        rows[0] = -1
    elif fault == "column":
        columns[1] = 3
    else:
        columns[0] = -1
    with pytest.raises(ValueError, match="out of range"):
        _run(module, rows, columns, np.ones(2, dtype=np.int64), 2, 3)
