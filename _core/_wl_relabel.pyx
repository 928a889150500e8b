"""Weisfeiler–Lehman relabelling: node signatures, their sorting, compression and look-up.

Shervashidze et al., JMLR 12 (2011), Algorithm 1. One iteration gives every node the
signature ``(label(v), sorted multiset of its neighbours' labels)`` and compresses signatures to
new integer labels. With edge labels (the WL edge variant, Shervashidze et al. 2011, §3.2) the
multiset is of ``(edge label, neighbour label)`` pairs, stored flat as two entries each. Compression here sorts the signatures lexicographically (a stable merge sort
over node ids), so the new label of a signature is its rank among the distinct signatures: no
hashing, hence no collisions, and the same result for any thread count.

Signatures are stored CSR-like: node ``i`` owns ``signatures[sig_ptr[i]:sig_ptr[i + 1]]``, and
with ``sig_ptr[i] = indptr[i] + i`` (``2 indptr[i] + i`` with edge labels) the layout follows the
adjacency's without a counting pass.

A batch of a million nodes takes seconds per call (the merge sort most of them): the loops look
at the signals (_interrupt.pxd) every ``ROWS_PER_CHECK`` nodes, rows or merge steps, so Ctrl-C
stops them.
"""

from cython.parallel cimport prange
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport sort
from _types cimport intp_t, int32_t, int64_t

cdef enum:
    # nodes, rows or merge steps between two looks at the signals: each costs a short sort, a
    # comparison or a binary search of signatures, so a look (a clock read) per thousand of them
    # costs nothing measurable
    ROWS_PER_CHECK = 1024

# the low half of an (edge label << 32 | neighbour label) pair
cdef int64_t LOW_32 = 0xFFFFFFFF


cdef inline int _compare_rows(
    const int32_t *a_data, const intp_t *a_ptr, intp_t a,
    const int32_t *b_data, const intp_t *b_ptr, intp_t b,
) noexcept nogil:
    """Lexicographic order of row ``a`` of one CSR-like table and row ``b`` of another."""
    cdef intp_t i = a_ptr[a], a_end = a_ptr[a + 1]
    cdef intp_t j = b_ptr[b], b_end = b_ptr[b + 1]
    while i < a_end and j < b_end:
        if a_data[i] != b_data[j]:
            return -1 if a_data[i] < b_data[j] else 1
        i += 1
        j += 1
    return (i < a_end) - (j < b_end)


cdef inline void _write_signature(
    const intp_t *indptr, const int32_t *indices, const int32_t *labels, int32_t *signatures,
    intp_t i,
) noexcept nogil:
    """Node ``i``'s label, then its neighbours' labels sorted, at ``signatures[indptr[i] + i]``."""
    cdef intp_t start = indptr[i] + i, k
    signatures[start] = labels[i]
    for k in range(indptr[i], indptr[i + 1]):
        signatures[start + 1 + k - indptr[i]] = labels[indices[k]]
    if indptr[i + 1] > indptr[i]:
        # (an isolated last node has no neighbour labels: no address past the end)
        sort(&signatures[start + 1], indptr[i + 1] - indptr[i])


cdef inline void _write_edge_signature(
    const intp_t *indptr, const int32_t *indices, const int32_t *edge_labels,
    const int32_t *labels, int64_t *pairs, int32_t *signatures, intp_t i,
) noexcept nogil:
    """Node ``i``'s label, then its ``(edge label, neighbour label)`` pairs sorted, flat, at
    ``signatures[2 indptr[i] + i]``; ``pairs[indptr[i]:indptr[i + 1]]`` is its scratch."""
    cdef intp_t start = 2 * indptr[i] + i, k, d
    cdef intp_t degree = indptr[i + 1] - indptr[i]
    cdef int64_t *own = pairs + indptr[i]
    signatures[start] = labels[i]
    if degree == 0:
        return
    # codes are non-negative int32: the int64 order of (edge << 32 | neighbour) is the
    # lexicographic order of the pairs
    for d in range(degree):
        k = indptr[i] + d
        own[d] = (<int64_t>edge_labels[k] << 32) | labels[indices[k]]
    sort(own, degree)
    for d in range(degree):
        signatures[start + 1 + 2 * d] = <int32_t>(own[d] >> 32)
        signatures[start + 2 + 2 * d] = <int32_t>(own[d] & LOW_32)


def node_signatures(
    const intp_t[::1] indptr,       # IN (n_nodes + 1,)
    const int32_t[::1] indices,     # IN (n_directed_edges,)
    const int32_t[::1] labels,      # IN (n_nodes,)
    int32_t[::1] signatures,        # OUT (n_nodes + n_directed_edges,), 2x edges with labels
    int n_threads=1,
    const int32_t[::1] edge_labels=None,  # IN (n_directed_edges,) or None
    int64_t[::1] pairs=None,              # OUT scratch (n_directed_edges,), with edge_labels
):
    """Write every node's WL signature: its label, then its neighbours' labels sorted (or,
    given ``edge_labels``, its ``(edge label, neighbour label)`` pairs sorted).

    Parameters
    ----------
    indptr : ndarray of shape (n_nodes + 1,), intp
    indices : ndarray of shape (n_directed_edges,), int32
        Block-diagonal CSR adjacency of the batch.
    labels : ndarray of shape (n_nodes,), int32
        Current labels.
    signatures : ndarray of shape (n_nodes + n_directed_edges,), int32
        Output; node ``i``'s signature starts at ``indptr[i] + i``. With ``edge_labels``: of
        shape (n_nodes + 2 n_directed_edges,), node ``i``'s signature at ``2 indptr[i] + i``.
    n_threads : int
    edge_labels : ndarray of shape (n_directed_edges,), int32, or None
        Edge label codes aligned with ``indices`` (non-negative).
    pairs : ndarray of shape (n_directed_edges,), int64, or None
        Scratch space, required with ``edge_labels``.
    """
    cdef intp_t n_nodes = labels.shape[0]
    cdef intp_t n_blocks = (n_nodes + ROWS_PER_CHECK - 1) // ROWS_PER_CHECK
    cdef intp_t b, i
    cdef const int32_t *neighbours = &indices[0] if indices.shape[0] > 0 else NULL
    cdef bint with_edges = edge_labels is not None
    cdef const int32_t *edge_codes = NULL
    cdef int64_t *scratch = NULL
    cdef InterruptState interrupt
    if with_edges:
        if pairs is None or edge_labels.shape[0] != indices.shape[0] \
                or pairs.shape[0] != indices.shape[0]:
            raise ValueError("edge_labels and pairs must have one entry per adjacency entry.")
        if indices.shape[0] > 0:
            edge_codes = &edge_labels[0]
            scratch = &pairs[0]
    if signatures.shape[0] != n_nodes + (2 if with_edges else 1) * indices.shape[0] \
            or indptr.shape[0] != n_nodes + 1:
        raise ValueError("signatures must hold every node's label and one entry (two with "
                         "edge labels) per adjacency entry.")
    if n_nodes == 0:
        return
    interrupt_init(&interrupt)
    with nogil:
        # blocks of ROWS_PER_CHECK nodes, four to a chunk: a node costs too little for a look at
        # the signals each
        for b in prange(n_blocks, schedule='dynamic', chunksize=4, num_threads=n_threads):
            if interrupted(&interrupt):
                continue
            for i in range(b * ROWS_PER_CHECK, min((b + 1) * ROWS_PER_CHECK, n_nodes)):
                if with_edges:
                    _write_edge_signature(&indptr[0], neighbours, edge_codes, &labels[0],
                                          scratch, &signatures[0], i)
                else:
                    _write_signature(&indptr[0], neighbours, &labels[0], &signatures[0], i)
    if interrupt.stop:
        raise_pending()


cdef bint _merge_sort_rows(
    intp_t *items, intp_t *scratch, intp_t n, const int32_t *data, const intp_t *ptr,
    InterruptState *interrupt,
) noexcept nogil:
    """Stable bottom-up merge sort of row ids ``items`` by their rows' lexicographic order.

    Returns False, the content of ``items`` unspecified, when a signal handler raised."""
    cdef intp_t width = 1, lo, mid, hi, i, j, k
    cdef intp_t until_check = ROWS_PER_CHECK
    cdef intp_t *src = items
    cdef intp_t *dst = scratch
    cdef intp_t *swap
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                until_check -= 1
                if until_check == 0:
                    until_check = ROWS_PER_CHECK
                    if interrupted(interrupt):
                        return False
                # '<=' keeps equal rows in input order: the sort is stable.
                if _compare_rows(data, ptr, src[i], data, ptr, src[j]) <= 0:
                    dst[k] = src[i]
                    i += 1
                else:
                    dst[k] = src[j]
                    j += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo += 2 * width
        swap = src
        src = dst
        dst = swap
        width *= 2
    if src != items:
        memcpy(items, src, n * sizeof(intp_t))
    return True


def compress_signatures(
    const int32_t[::1] signatures,  # IN (sig_ptr[-1],)
    const intp_t[::1] sig_ptr,      # IN (n_rows + 1,)
    intp_t[::1] rows,               # INOUT (n_items,): rows to compress, sorted on return
    int32_t[::1] codes,             # OUT (n_rows,): written at ``rows`` only
    int32_t first_code=0,
):
    """Rank distinct signatures: ``codes[r] = first_code + rank of row r's signature``.

    Parameters
    ----------
    signatures : ndarray, int32
    sig_ptr : ndarray of shape (n_rows + 1,), intp
        Row ``r`` is ``signatures[sig_ptr[r]:sig_ptr[r + 1]]``.
    rows : ndarray of shape (n_items,), intp
        The rows to compress; on return, sorted by signature (ties in input order).
    codes : ndarray of shape (n_rows,), int32
        Output at the positions ``rows``; equal signatures get equal codes, and codes increase
        with the lexicographic order of signatures.
    first_code : int
        Code of the smallest signature.

    Returns
    -------
    n_distinct : int
        Number of distinct signatures among ``rows``.
    """
    cdef intp_t n = rows.shape[0]
    cdef intp_t k
    cdef int32_t code = first_code
    cdef intp_t *scratch
    cdef InterruptState interrupt
    if n == 0:
        return 0
    scratch = <intp_t*>malloc(n * sizeof(intp_t))
    if scratch == NULL:
        raise MemoryError()
    interrupt_init(&interrupt)
    try:
        with nogil:
            if _merge_sort_rows(&rows[0], scratch, n, &signatures[0], &sig_ptr[0], &interrupt):
                for k in range(n):
                    if k % ROWS_PER_CHECK == 0 and interrupted(&interrupt):
                        break
                    if k > 0 and _compare_rows(&signatures[0], &sig_ptr[0], rows[k - 1],
                                               &signatures[0], &sig_ptr[0], rows[k]) != 0:
                        code += 1
                    codes[rows[k]] = code
    finally:
        free(scratch)
    if interrupt.stop:
        raise_pending()
    return code - first_code + 1


cdef inline int32_t _find_row(
    const int32_t *table, const intp_t *table_ptr, intp_t n_table,
    const int32_t *signatures, const intp_t *sig_ptr, intp_t r,
) noexcept nogil:
    """The row of the sorted table equal to signature ``r`` (binary search), or -1."""
    cdef intp_t lo = 0, hi = n_table, mid
    cdef int c
    while lo < hi:
        mid = (lo + hi) // 2
        c = _compare_rows(table, table_ptr, mid, signatures, sig_ptr, r)
        if c == 0:
            return <int32_t>mid
        if c < 0:
            lo = mid + 1
        else:
            hi = mid
    return -1


def lookup_signatures(
    const int32_t[::1] signatures,  # IN
    const intp_t[::1] sig_ptr,      # IN (n_rows + 1,)
    const int32_t[::1] table,       # IN: sorted distinct signatures
    const intp_t[::1] table_ptr,    # IN (n_table + 1,)
    int32_t[::1] codes,             # OUT (n_rows,)
    int n_threads=1,
):
    """Code of each signature in a sorted table of distinct signatures, or -1 when absent.

    Parameters
    ----------
    signatures : ndarray, int32
    sig_ptr : ndarray of shape (n_rows + 1,), intp
    table : ndarray, int32
    table_ptr : ndarray of shape (n_table + 1,), intp
        Distinct signatures in increasing lexicographic order (row ``t`` has code ``t``).
    codes : ndarray of shape (n_rows,), int32
        Output: the table row equal to each signature (binary search), -1 if none.
    n_threads : int
    """
    cdef intp_t n_rows = sig_ptr.shape[0] - 1
    cdef intp_t n_table = table_ptr.shape[0] - 1
    cdef intp_t n_blocks = (n_rows + ROWS_PER_CHECK - 1) // ROWS_PER_CHECK
    cdef intp_t b, r
    cdef InterruptState interrupt
    if n_rows == 0:
        return
    if n_table == 0:
        codes[:] = -1
        return
    interrupt_init(&interrupt)
    with nogil:
        for b in prange(n_blocks, schedule='dynamic', num_threads=n_threads):
            if interrupted(&interrupt):
                continue
            for r in range(b * ROWS_PER_CHECK, min((b + 1) * ROWS_PER_CHECK, n_rows)):
                codes[r] = _find_row(&table[0], &table_ptr[0], n_table, &signatures[0],
                                     &sig_ptr[0], r)
    if interrupt.stop:
        raise_pending()


def merge_sorted_rows(
    const int32_t[::1] data,   # IN: rows of two sorted tables, one after the other
    const intp_t[::1] ptr,     # IN (n_first + n_second + 1,)
    intp_t n_first,
    intp_t[::1] order,         # OUT (n_first + n_second,)
):
    """Merge two sorted CSR-like tables of distinct rows: their common sorted order.

    Rows ``0 .. n_first - 1`` are the first table and the rest the second, each in increasing
    lexicographic order; a linear two-way merge (not a sort) gives the order of all of them, so
    growing a table of ``T`` signatures by a batch costs ``O(T)``, not ``O(T log T)``.

    Parameters
    ----------
    data : ndarray, int32
    ptr : ndarray of shape (n_rows + 1,), intp
        Row ``r`` is ``data[ptr[r]:ptr[r + 1]]``.
    n_first : int
        Number of rows of the first table.
    order : ndarray of shape (n_rows,), intp
        Output: the row ids in increasing order (ties: the first table's row first).
    """
    cdef intp_t n_rows = ptr.shape[0] - 1
    cdef intp_t i = 0, j = n_first, k = 0
    if order.shape[0] != n_rows or not 0 <= n_first <= n_rows:
        raise ValueError("order must have one entry per row and n_first at most the rows.")
    if n_rows == 0:
        return
    with nogil:
        while i < n_first and j < n_rows:
            if _compare_rows(&data[0], &ptr[0], i, &data[0], &ptr[0], j) <= 0:
                order[k] = i
                i += 1
            else:
                order[k] = j
                j += 1
            k += 1
        while i < n_first:
            order[k] = i
            i += 1
            k += 1
        while j < n_rows:
            order[k] = j
            j += 1
            k += 1
