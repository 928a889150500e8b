"""Twin of ``kernelkit._core._weighted_scatter``: each slot's weighted scatter matrix by NumPy
row blocks and SciPy's ``syrk``.

Same entry point and arguments as the compiled module (``n_threads`` accepted and ignored): the
blocks of each slot are shifted by the centre, scaled by ``√w_i`` (with the column of ones after
the features) and added
by one ``syrk`` each, in order, into the slot's column-major total. Compared with the compiled
module, bit for bit, in ``tests/utils/test_threads.py``.
"""

import numpy as np
from scipy.linalg import get_blas_funcs

__all__ = ["weighted_scatter_slots"]


def weighted_scatter_slots(X, roots, centres, ones_column, block_rows, cuts, totals,
                           n_threads=1):
    """Fill ``totals[j, s]`` (column-major upper triangle: ``totals[j, s].T``'s upper part) with
    ``Σ_i w_ij a_i a_iᵀ`` over the blocks ``cuts[s] .. cuts[s + 1]`` of ``block_rows`` rows,
    ``a_i = x_i − c_j`` or ``(x_i − c_j, 1)``, ``√w_ij = roots[j, i]`` (all 1 when ``roots``
    has no columns), ``c_j = centres[j]`` (0 when ``centres`` has no columns)."""
    for j in range(len(roots)):
        _one_set(np.asarray(X), roots[j], centres[j], ones_column, block_rows, cuts, totals[j])


def _one_set(X, root, centre, ones_column, block_rows, cuts, totals):
    n_samples = X.shape[0]
    syrk = get_blas_funcs("syrk", dtype=X.dtype)
    for s in range(len(cuts) - 1):
        total = np.zeros(totals.shape[1:], dtype=X.dtype, order="F")
        for block in range(cuts[s], cuts[s + 1]):
            rows = slice(block * block_rows, min((block + 1) * block_rows, n_samples))
            shifted = X[rows] if len(centre) == 0 else X[rows] - centre
            scaled = shifted if len(root) == 0 else shifted * root[rows, None]
            if ones_column:
                column = np.ones(len(scaled)) if len(root) == 0 else root[rows]
                scaled = np.column_stack([scaled, column.astype(X.dtype)])
            total = syrk(1.0, np.ascontiguousarray(scaled).T, beta=1.0, c=total, overwrite_c=1)
        totals[s] = total.T
