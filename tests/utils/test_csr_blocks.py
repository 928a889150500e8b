"""The compiled checks of CSR batches and of symmetric patterns (``_core/_csr_blocks.pyx``)
against their NumPy twin (``kernelkit.reference.csr_blocks``): the same verdicts, the same
arrays, on well-formed, non-canonical and malformed blocks."""

import numpy as np
import pytest

from kernelkit._core import _csr_blocks as core
from kernelkit.reference import csr_blocks as twin


def _block(rng, fault):
    """The CSR arrays ``(shape, indptr, indices, n_values)`` of a random block with ``fault``."""
    n_rows, n_cols = int(rng.integers(0, 6)), int(rng.integers(1, 7))
    rows = [np.sort(rng.choice(n_cols, size=rng.integers(0, n_cols + 1), replace=False))
            for _ in range(n_rows)]
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    indices = np.concatenate(rows + [np.zeros(0)]).astype(np.int64)
    n_values = len(indices)
    if fault == "unused storage":
        indices = np.concatenate([indices, [0, 0]])
        n_values += 2
    elif fault == "unsorted" and (np.diff(indptr) > 1).any():
        r = int(np.flatnonzero(np.diff(indptr) > 1)[0])
        indices[indptr[r]:indptr[r + 1]] = indices[indptr[r]:indptr[r + 1]][::-1]
    elif fault == "duplicate" and (np.diff(indptr) > 1).any():
        r = int(np.flatnonzero(np.diff(indptr) > 1)[0])
        indices[indptr[r] + 1] = indices[indptr[r]]
    elif fault == "index out of range" and len(indices):
        indices[rng.integers(len(indices))] = n_cols + int(rng.integers(0, 2))
    elif fault == "negative index" and len(indices):
        indices[rng.integers(len(indices))] = -1
    elif fault == "pointer drop" and n_rows >= 2 and indptr[-1] > 0:
        indptr[1] = indptr[-1] + 1
    elif fault == "first pointer" and len(indices):
        indptr[0] = 1
    elif fault == "too many pointers":
        indptr = np.concatenate([indptr, indptr[-1:]])
    elif fault == "values differ":
        n_values += 1
    elif fault == "last pointer beyond":
        indptr[-1] = len(indices) + 1
    return (n_rows, n_cols), indptr, indices, n_values


_FAULTS = [None] * 6 + ["unused storage", "unsorted", "duplicate", "index out of range",
                        "negative index", "pointer drop", "first pointer", "too many pointers",
                        "values differ", "last pointer beyond"]


def _run(module, blocks, converted):
    shapes, indptrs, indices, n_values = zip(*blocks)
    table = np.array([(*shape, len(p), len(i), v)
                      for shape, p, i, v in zip(shapes, indptrs, indices, n_values)],
                     dtype=np.int64).reshape(-1, 5)
    indptr, index = np.concatenate(indptrs), np.concatenate(indices)
    row_ptr = np.full(len(indptr) - len(blocks) + 1, -7, dtype=np.int64)
    rows, cols = np.full(len(index), -7, dtype=np.int64), np.full(len(index), -7, dtype=np.int64)
    convert = np.full(len(blocks), 9, dtype=np.uint8)
    verdict = module.block_diagonal_csr(indptr, index, table, converted, row_ptr, rows, cols,
                                        convert)
    return verdict, convert, row_ptr, rows, cols


def test_block_diagonal_csr_is_the_twins():
    rng = np.random.default_rng(0)
    verdicts = set()
    for trial in range(600):
        n_blocks = int(rng.integers(1, 6))
        faults = [_FAULTS[i] for i in rng.integers(len(_FAULTS), size=n_blocks)]
        if trial % 3 == 0:
            faults = [None] * n_blocks
        blocks = [_block(rng, fault) for fault in faults]
        # converted blocks come from checked_csr_arrays: canonical
        converted = np.array([fault is None and rng.random() < 0.3 for fault in faults],
                             dtype=np.uint8)
        verdict, convert, row_ptr, rows, cols = _run(core, blocks, converted)
        expected = _run(twin, blocks, converted)
        assert verdict == expected[0], (trial, faults)
        verdicts.add(verdict)
        if verdict == 2:
            np.testing.assert_array_equal(convert, expected[1], err_msg=f"{trial} {faults}")
        if verdict == 0:
            for name, found, want in zip(("row_ptr", "rows", "cols"), (row_ptr, rows, cols),
                                         expected[2:]):
                np.testing.assert_array_equal(found, want, err_msg=f"{trial} {name}")
    assert verdicts == {0, 1, 2}


def test_block_diagonal_csr_refuses_inconsistent_lengths():
    blocks = np.array([[2, 2, 3, 1, 1]], dtype=np.int64)
    with pytest.raises(ValueError, match="lengths do not match"):
        core.block_diagonal_csr(np.zeros(3, dtype=np.int64), np.zeros(1, dtype=np.int64), blocks,
                                np.zeros(1, dtype=np.uint8), np.zeros(2, dtype=np.int64),
                                np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                                np.zeros(1, dtype=np.uint8))


def _pattern(rng, case):
    """Sorted entries of a random batch of undirected graphs, with the fault of ``case``."""
    n = int(rng.integers(1, 30))
    upper = np.triu(rng.random((n, n)) < 0.2, 1)
    adjacency = upper | upper.T
    if case == "self-loop":
        adjacency[rng.integers(n), rng.integers(n)] = True
    elif case == "missing reverse":
        i, j = rng.integers(n), rng.integers(n)
        adjacency[i, j], adjacency[j, i] = True, i == j
    rows, cols = np.nonzero(adjacency)
    rows, cols = rows.astype(np.int64), cols.astype(np.int64)
    if case == "unsorted" and len(rows) > 1:
        rows, cols = rows[::-1].copy(), cols[::-1].copy()
    return n, rows, cols


@pytest.mark.parametrize("case", ["symmetric", "self-loop", "missing reverse", "unsorted"])
def test_check_symmetric_pattern_is_the_twins(case):
    rng = np.random.default_rng(1)
    seen = set()
    for trial in range(300):
        n, rows, cols = _pattern(rng, case)
        found_ptr, want_ptr = (np.full(n + 1, -7, dtype=np.int64) for _ in range(2))
        found = core.check_symmetric_pattern(rows, cols, found_ptr)
        assert found == twin.check_symmetric_pattern(rows, cols, want_ptr), (case, trial)
        if found[0] == 0:
            np.testing.assert_array_equal(found_ptr, want_ptr)
        seen.add(found[0])
    assert seen >= {"symmetric": {0}, "self-loop": {1}, "missing reverse": {2},
                    "unsorted": {3}}[case]


def test_check_symmetric_pattern_names_the_first_entry_without_reverse():
    # 0 -> 2 lacks its reverse, 1 <-> 2 does not; row 2's entry to 1 is fine
    rows, cols = np.array([0, 1, 2], dtype=np.int64), np.array([2, 2, 1], dtype=np.int64)
    assert core.check_symmetric_pattern(rows, cols, np.empty(4, dtype=np.int64)) == (2, 0)
    # the in-degrees match the out-degrees, the columns do not: 0 -> 1, 1 -> 2, 2 -> 0
    rows, cols = np.array([0, 1, 2], dtype=np.int64), np.array([1, 2, 0], dtype=np.int64)
    assert core.check_symmetric_pattern(rows, cols, np.empty(4, dtype=np.int64)) == (2, 0)
