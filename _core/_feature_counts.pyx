"""The canonical CSR matrix of feature counts: occurrences ``(row, column, count)`` summed by
cell, the representation of the explicit-feature graph kernels.

NumPy's ``bincount`` over the ``n_samples × n_features`` table, or scipy's COO to CSR conversion
(a sort, then a sum of the repeated entries) when the table is large, took two dozen calls: on a
hundred molecules more time than the vertex histogram's Gram matrix. Here the occurrences are
grouped by row with a counting sort, each row's counts summed into a dense scratch row, and the
row's columns sorted. Integer counts sum exactly in any order, so the matrix is the one the twin
``kernelkit.reference.feature_counts.count_matrix`` builds with ``bincount`` (compared in
``tests/kernels/test_feature_counts.py``).
"""

from libc.stdlib cimport calloc, free, malloc

from _interrupt cimport CHECK_WORK, InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport sort
from _types cimport int64_t, intp_t

cdef enum:
    OUT_OF_RANGE = -1
    NO_MEMORY = -3


ctypedef struct Cell:
    # a column's running sum in the current row, and that row (one cache line for both)
    int64_t total
    intp_t row


def count_matrix(
    const int64_t[::1] rows,                 # IN (n,) the row of each occurrence
    const int64_t[::1] columns,              # IN (n,) its column
    const int64_t[::1] counts,               # IN (n,) its multiplicity
    int64_t[::1] indptr,                     # OUT (n_samples + 1,) row pointers
    int64_t[::1] indices,                    # OUT (n,) the first nnz: columns, increasing by row
    double[::1] data,                        # OUT (n,) the first nnz: the summed counts
    intp_t n_features,
):
    """Sum the counts of the occurrences by cell into a canonical CSR matrix.

    Every cell with an occurrence is stored, even when its counts sum to 0.

    Returns
    -------
    nnz : int
        The number of cells stored: ``indices[:nnz]`` and ``data[:nnz]``.

    Raises
    ------
    ValueError
        When a row is outside ``[0, n_samples)`` or a column outside ``[0, n_features)``.
    """
    cdef intp_t n = rows.shape[0], n_samples = indptr.shape[0] - 1, nnz = 0
    cdef InterruptState state
    if (columns.shape[0] != n or counts.shape[0] != n or indices.shape[0] != n
            or data.shape[0] != n or n_samples < 0 or n_features < 0):
        raise ValueError("count_matrix: the arrays' lengths do not match.")
    interrupt_init(&state)
    with nogil:
        nnz = _count(&rows[0] if n else NULL, &columns[0] if n else NULL,
                     &counts[0] if n else NULL, n, &indptr[0], n_samples,
                     &indices[0] if n else NULL, &data[0] if n else NULL, n_features, &state)
    if state.stop:
        raise_pending()
    if nnz == OUT_OF_RANGE:
        raise ValueError("count_matrix: a row or a column is out of range.")
    if nnz == NO_MEMORY:
        raise MemoryError()
    return nnz


cdef intp_t _count(const int64_t *rows, const int64_t *columns, const int64_t *counts, intp_t n,
                   int64_t *indptr, intp_t n_samples, int64_t *indices, double *data,
                   intp_t n_features, InterruptState *state) noexcept nogil:
    """:func:`count_matrix` on pointers: nnz, OUT_OF_RANGE or NO_MEMORY."""
    cdef intp_t *first = <intp_t *> calloc(n_samples + 1, sizeof(intp_t))
    cdef intp_t *order = <intp_t *> malloc((n if n else 1) * sizeof(intp_t))
    cdef Cell *cells = <Cell *> malloc((n_features if n_features else 1) * sizeof(Cell))
    cdef intp_t k, r, c, nnz = NO_MEMORY, row_start, done = 0
    if first == NULL or order == NULL or cells == NULL:
        free(first)
        free(order)
        free(cells)
        return NO_MEMORY
    # the occurrences grouped by row, in their order (a counting sort)
    nnz = OUT_OF_RANGE
    for k in range(n):
        if not (0 <= rows[k] < n_samples and 0 <= columns[k] < n_features):
            break
        first[rows[k] + 1] += 1
    else:
        for r in range(n_samples):
            first[r + 1] += first[r]
        for k in range(n):
            order[first[rows[k]]] = k
            first[rows[k]] += 1
        # first[r] now ends row r: row r's occurrences are order[first[r - 1]:first[r]]
        for c in range(n_features):
            cells[c].row = -1
        nnz = 0
        indptr[0] = 0
        row_start = 0
        for r in range(n_samples):
            for k in range(row_start, first[r]):
                c = columns[order[k]]
                if cells[c].row != r:
                    cells[c].row = r
                    cells[c].total = 0
                    indices[nnz] = c
                    nnz += 1
                cells[c].total += counts[order[k]]
            sort(&indices[indptr[r]], nnz - indptr[r])
            for k in range(indptr[r], nnz):
                data[k] = <double> cells[indices[k]].total
            indptr[r + 1] = nnz
            done += first[r] - row_start
            row_start = first[r]
            if done >= CHECK_WORK:
                done = 0
                if interrupted(state):
                    break
    free(first)
    free(order)
    free(cells)
    return nnz
