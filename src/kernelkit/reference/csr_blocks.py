"""Twin of ``kernelkit._core._csr_blocks``: the checks and layout of a batch of CSR matrices,
and the symmetry of a sorted pattern, by whole-array NumPy operations.

The same signatures and verdicts as the compiled functions; compared with them in
``tests/utils/test_csr_blocks.py``.
"""

import numpy as np

__all__ = ["block_diagonal_csr", "check_symmetric_pattern"]


def block_diagonal_csr(indptr, indices, blocks, converted, row_ptr, rows, cols, convert):
    """:func:`kernelkit._core._csr_blocks.block_diagonal_csr`: 0 (outputs filled), 1
    (malformed) or 2 (the blocks marked in ``convert`` need converting)."""
    n_rows, n_cols, lengths, n_index, n_values = np.asarray(blocks, dtype=np.int64).T
    converted = np.asarray(converted, dtype=bool)
    convert[:] = 0
    ends = np.cumsum(lengths)
    firsts = ends - lengths
    if (lengths != n_rows + 1).any() or (n_index != n_values).any():
        return 1
    n_stored = indptr[ends - 1]
    drops = indptr[1:] < indptr[:-1]
    drops[firsts[1:] - 1] = False  # from one block's last pointer to the next block's first
    if indptr[firsts].any() or drops.any() or (n_stored > n_index).any():
        return 1
    unused = (n_stored < n_index) & ~converted
    if unused.any():
        convert[unused] = 1
        return 2
    # negative indices, seen as unsigned, exceed every bound
    if (indices.view(np.uint64) >= np.repeat(n_cols, n_index).view(np.uint64)).any():
        return 1
    # each block's pointers but its leading 0, shifted by the entries of the blocks before it
    global_ptr = np.delete(indptr + np.repeat(np.cumsum(n_index) - n_index, lengths), firsts[1:])
    row_start = np.zeros(len(indices) + 1, dtype=bool)
    row_start[global_ptr] = True
    out_of_order = (indices[1:] <= indices[:-1]) > row_start[1:-1]
    if out_of_order.any():
        entry_starts = np.cumsum(n_index) - n_index
        unsorted = np.unique(np.searchsorted(entry_starts, np.flatnonzero(out_of_order) + 1,
                                             side="right") - 1)
        unsorted = unsorted[~converted[unsorted]]
        if len(unsorted):
            convert[unsorted] = 1
            return 2
    row_ptr[:] = global_ptr
    rows[:] = np.repeat(np.arange(len(global_ptr) - 1), np.diff(global_ptr))
    cols[:] = indices + np.repeat(np.cumsum(n_cols) - n_cols, n_index)
    return 0


def check_symmetric_pattern(rows, cols, row_ptr):
    """:func:`kernelkit._core._csr_blocks.check_symmetric_pattern`: ``(verdict, entry)``."""
    n_nodes = len(row_ptr) - 1
    keys = rows * n_nodes + cols
    inside = ((rows >= 0) & (rows < n_nodes) & (cols >= 0) & (cols < n_nodes)).all()
    if not inside or (keys[1:] <= keys[:-1]).any():
        return 3, -1
    row_ptr[0] = 0
    np.cumsum(np.bincount(rows, minlength=n_nodes), out=row_ptr[1:])
    loops = np.flatnonzero(rows == cols)
    if len(loops):
        return 1, int(loops[0])
    missing = np.flatnonzero(~np.isin(keys, cols * n_nodes + rows))
    if len(missing):
        return 2, int(missing[0])
    return 0, -1
