"""Twin of ``kernelkit._core._feature_counts``: the canonical CSR matrix of summed feature
counts, by ``bincount`` over the whole ``n_samples × n_features`` table.

The same signature and result as the compiled function; compared with it in
``tests/kernels/test_feature_counts.py``.
"""

import numpy as np

__all__ = ["count_matrix"]


def count_matrix(rows, columns, counts, indptr, indices, data, n_features):
    """:func:`kernelkit._core._feature_counts.count_matrix`: the number of cells stored."""
    n_samples = len(indptr) - 1
    if ((rows < 0) | (rows >= n_samples) | (columns < 0) | (columns >= n_features)).any():
        raise ValueError("count_matrix: a row or a column is out of range.")
    cell = rows * n_features + columns
    n_cells = n_samples * n_features
    cells = np.flatnonzero(np.bincount(cell, minlength=n_cells))  # stored even if summing to 0
    nnz = len(cells)
    data[:nnz] = np.bincount(cell, weights=counts, minlength=n_cells)[cells]
    indices[:nnz] = cells % n_features
    indptr[0] = 0
    np.cumsum(np.bincount(cells // n_features, minlength=n_samples), out=indptr[1:])
    return nnz
