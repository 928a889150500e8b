"""Weisfeiler–Lehman relabelling: node signatures, their sorting, compression and look-up.

Shervashidze et al., JMLR 12 (2011), Algorithm 1. One iteration gives every node the
signature ``(label(v), sorted multiset of its neighbours' labels)`` and compresses signatures to
new integer labels. With edge labels (the WL edge variant, Shervashidze et al. 2011, §3.2) the
multiset is of ``(edge label, neighbour label)`` pairs, stored flat as two entries each.
Compression here sorts the signatures lexicographically (a stable merge sort of node ids, each
with a key of its signature's first entries, on a team of threads: runs sorted side by side,
then merges cut at merge-path positions), so the new label of a signature is its rank among the
distinct signatures: no hashing, hence no collisions, and the same result for any thread count.

Signatures are stored CSR-like: node ``i`` owns ``signatures[sig_ptr[i]:sig_ptr[i + 1]]``, and
with ``sig_ptr[i] = indptr[i] + i`` (``2 indptr[i] + i`` with edge labels) the layout follows the
adjacency's without a counting pass.

A batch of a million nodes takes seconds per call (the merge sort most of them): the loops look
at the signals (_interrupt.pxd) every ``ROWS_PER_CHECK`` nodes, rows or merge steps, so Ctrl-C
stops them.
"""

from cython.parallel cimport prange
from libc.stdlib cimport malloc, free
from libc.stdint cimport INT32_MAX
from libc.string cimport memcpy

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _sort cimport sort
from _types cimport intp_t, int32_t, int64_t, kk_team_for_work, uint64_t

cdef enum:
    # nodes, rows or merge steps between two looks at the signals: each costs a short sort, a
    # comparison or a binary search of signatures, so a look (a clock read) per thousand of them
    # costs nothing measurable
    ROWS_PER_CHECK = 1024
    # runs sorted side by side: a bound on the team of the sort
    MAX_RUNS = 64

# the low half of an (edge label << 32 | neighbour label) pair
cdef int64_t LOW_32 = 0xFFFFFFFF
# seconds a merge step of the sort takes (a key comparison and a copy: 6-7 ns on 49 000 nodes
# of 2 000 molecules, quiet, one thread)
cdef double SECONDS_PER_MERGE_STEP = 7e-9


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


ctypedef struct KeyedRow:
    # a row id, the key of its first entries (_prefix_key) and whether the key holds them all
    uint64_t key
    int32_t row
    int32_t whole


ctypedef struct KeyPacking:
    # a row's key: its first ``per_key`` entries, each as ``entry - low + 1`` in ``bits`` bits
    # (0: no entry), the first in the highest bits
    int64_t low
    int bits
    int per_key


cdef KeyPacking _key_packing(const int32_t *data, intp_t n) noexcept nogil:
    """The packing of the entries ``data[:n]``: as many as fit in 64 bits, at least one."""
    cdef KeyPacking packing
    cdef int32_t low = 0, high = 0
    cdef intp_t i
    if n > 0:
        low, high = data[0], data[0]
    for i in range(n):
        low = min(low, data[i])
        high = max(high, data[i])
    packing.low = low
    packing.bits = 1
    while (<int64_t>1 << packing.bits) < <int64_t>high - low + 2:
        packing.bits += 1
    packing.per_key = 64 // packing.bits
    return packing


cdef inline uint64_t _prefix_key(
    const int32_t *data, const intp_t *ptr, intp_t r, const KeyPacking *packing,
) noexcept nogil:
    """Row ``r``'s first entries packed (``KeyPacking``) into a key that orders as they do:
    rows of unequal keys compare as their keys; equal keys are compared entry by entry."""
    cdef intp_t start = ptr[r], length = ptr[r + 1] - ptr[r], e
    cdef uint64_t key = 0
    for e in range(packing.per_key):
        key <<= packing.bits
        if e < length:
            key |= <uint64_t>(data[start + e] - packing.low + 1)
    return key


cdef inline int _compare_keyed(
    const KeyedRow *a, const KeyedRow *b, const int32_t *data, const intp_t *ptr,
) noexcept nogil:
    if a.key != b.key:
        return -1 if a.key < b.key else 1
    if a.whole and b.whole:   # equal keys of all their entries: equal rows
        return 0
    return _compare_rows(data, ptr, a.row, data, ptr, b.row)


cdef bint _merge_runs(
    const KeyedRow *a, intp_t n_a, const KeyedRow *b, intp_t n_b, KeyedRow *out,
    const int32_t *data, const intp_t *ptr, InterruptState *interrupt,
) noexcept nogil:
    """Stable merge of the sorted runs ``a`` and ``b`` into ``out`` (ties: ``a``'s first).
    Returns False when a signal handler raised."""
    cdef intp_t i = 0, j = 0, k = 0, until_check = ROWS_PER_CHECK
    while i < n_a and j < n_b:
        until_check -= 1
        if until_check == 0:
            until_check = ROWS_PER_CHECK
            if interrupted(interrupt):
                return False
        if _compare_keyed(&a[i], &b[j], data, ptr) <= 0:
            out[k] = a[i]
            i += 1
        else:
            out[k] = b[j]
            j += 1
        k += 1
    memcpy(&out[k], &a[i], (n_a - i) * sizeof(KeyedRow))
    memcpy(&out[k + n_a - i], &b[j], (n_b - j) * sizeof(KeyedRow))
    return True


cdef bint _sort_run(
    KeyedRow *items, KeyedRow *scratch, intp_t n, const int32_t *data, const intp_t *ptr,
    InterruptState *interrupt,
) noexcept nogil:
    """Stable bottom-up merge sort of ``items[:n]``, in place (``scratch``: as many)."""
    cdef intp_t width = 1, lo, mid, hi
    cdef KeyedRow *src = items
    cdef KeyedRow *dst = scratch
    cdef KeyedRow *swap
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            if not _merge_runs(&src[lo], mid - lo, &src[mid], hi - mid, &dst[lo], data, ptr,
                               interrupt):
                return False
            lo += 2 * width
        swap = src
        src = dst
        dst = swap
        width *= 2
    if src != items:
        memcpy(items, src, n * sizeof(KeyedRow))
    return True


cdef intp_t _co_rank(
    intp_t k, const KeyedRow *a, intp_t n_a, const KeyedRow *b, intp_t n_b,
    const int32_t *data, const intp_t *ptr,
) noexcept nogil:
    """How many of the first ``k`` items of the stable merge of ``a`` and ``b`` come from ``a``:
    the least ``i`` whose ``b[:k - i]`` all go before ``a[i:]`` (merge path)."""
    cdef intp_t lo = max(0, k - n_b), hi = min(k, n_a), i, j
    while lo < hi:
        i = (lo + hi) // 2
        j = k - i
        if j == 0 or i == n_a or _compare_keyed(&b[j - 1], &a[i], data, ptr) < 0:
            hi = i
        else:
            lo = i + 1
    return lo


cdef void _merge_part(
    const KeyedRow *src, KeyedRow *dst, const intp_t *bounds, intp_t pair, intp_t part,
    intp_t n_parts, const int32_t *data, const intp_t *ptr, InterruptState *interrupt,
) noexcept nogil:
    """Part ``part`` of ``n_parts`` of the merge of runs ``2 pair`` and ``2 pair + 1`` of
    ``src`` (run ``r`` is ``bounds[r]:bounds[r + 1]``) into the same positions of ``dst``."""
    cdef intp_t lo = bounds[2 * pair], mid = bounds[2 * pair + 1], hi = bounds[2 * pair + 2]
    cdef intp_t k0 = (hi - lo) * part // n_parts, k1 = (hi - lo) * (part + 1) // n_parts
    cdef intp_t i0 = _co_rank(k0, &src[lo], mid - lo, &src[mid], hi - mid, data, ptr)
    cdef intp_t i1 = _co_rank(k1, &src[lo], mid - lo, &src[mid], hi - mid, data, ptr)
    _merge_runs(&src[lo + i0], i1 - i0, &src[mid + k0 - i0], (k1 - i1) - (k0 - i0),
                &dst[lo + k0], data, ptr, interrupt)


cdef KeyedRow *_parallel_sort(
    KeyedRow *items, KeyedRow *scratch, intp_t n, int team, const int32_t *data,
    const intp_t *ptr, InterruptState *interrupt,
) noexcept nogil:
    """Stable sort of ``items[:n]`` on ``team`` threads: a run per thread sorted by it, then
    rounds of pairwise merges, each merge cut into ``team`` parts at merge-path positions so
    that every thread merges a share. Returns the array holding the result (``items`` or
    ``scratch``); a stable sort's result does not depend on ``team``."""
    cdef intp_t bounds[MAX_RUNS + 1]
    cdef intp_t n_runs = min(<intp_t>team, MAX_RUNS), r, q, n_pairs
    cdef KeyedRow *src = items
    cdef KeyedRow *dst = scratch
    cdef KeyedRow *swap
    for r in range(n_runs + 1):
        bounds[r] = n * r // n_runs
    for r in prange(n_runs, schedule='static', num_threads=team):
        _sort_run(&items[bounds[r]], &scratch[bounds[r]], bounds[r + 1] - bounds[r], data, ptr,
                  interrupt)
    while n_runs > 1 and not interrupted(interrupt):
        n_pairs = n_runs // 2
        for q in prange(n_pairs * team, schedule='static', num_threads=team):
            _merge_part(src, dst, bounds, q // team, q % team, team, data, ptr, interrupt)
        if n_runs % 2:   # the last run has no partner: copied as it is
            memcpy(&dst[bounds[n_runs - 1]], &src[bounds[n_runs - 1]],
                   (n - bounds[n_runs - 1]) * sizeof(KeyedRow))
        for r in range(1, (n_runs + 1) // 2 + 1):
            bounds[r] = bounds[min(2 * r, n_runs)]
        n_runs = (n_runs + 1) // 2
        swap = src
        src = dst
        dst = swap
    return src


def compress_signatures(
    const int32_t[::1] signatures,  # IN (sig_ptr[-1],)
    const intp_t[::1] sig_ptr,      # IN (n_rows + 1,)
    intp_t[::1] rows,               # INOUT (n_items,): rows to compress, sorted on return
    int32_t[::1] codes,             # OUT (n_rows,): written at ``rows`` only
    int32_t first_code=0,
    int n_threads=1,
    double min_work_per_thread=0.0,
):
    """Rank distinct signatures: ``codes[r] = first_code + rank of row r's signature``.

    A stable merge sort of the rows by signature, each row carrying a key of its first entries
    packed into 64 bits (most comparisons compare keys, not rows elsewhere in memory), on a team of up to
    ``n_threads`` threads sized by the work (``kk_team_for_work``); the result does not depend
    on the team.

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
    n_threads : int
    min_work_per_thread : float
        Seconds of work a thread must get (``kernelkit.utils._threads.min_work_per_thread``).

    Returns
    -------
    n_distinct : int
        Number of distinct signatures among ``rows``.
    """
    cdef intp_t n = rows.shape[0]
    cdef intp_t k, levels = 1
    cdef int32_t code = first_code
    cdef KeyedRow *items
    cdef KeyedRow *sorted_items
    cdef InterruptState interrupt
    cdef KeyPacking packing
    cdef int team
    if n == 0:
        return 0
    if sig_ptr.shape[0] - 1 > INT32_MAX:
        raise ValueError("compress_signatures takes at most 2**31 - 1 rows.")
    while (<intp_t>1 << levels) < n:
        levels += 1
    team = kk_team_for_work(n * levels * SECONDS_PER_MERGE_STEP, min_work_per_thread,
                            n_threads)
    items = <KeyedRow*>malloc(2 * n * sizeof(KeyedRow))
    if items == NULL:
        raise MemoryError()
    interrupt_init(&interrupt)
    try:
        with nogil:
            packing = _key_packing(&signatures[0], signatures.shape[0])
            for k in range(n):
                items[k].row = <int32_t>rows[k]
                items[k].key = _prefix_key(&signatures[0], &sig_ptr[0], rows[k], &packing)
                items[k].whole = sig_ptr[rows[k] + 1] - sig_ptr[rows[k]] <= packing.per_key
            sorted_items = _parallel_sort(items, &items[n], n, team, &signatures[0],
                                          &sig_ptr[0], &interrupt)
            for k in range(n):
                if k % ROWS_PER_CHECK == 0 and interrupted(&interrupt):
                    break
                if k > 0 and _compare_keyed(&sorted_items[k - 1], &sorted_items[k],
                                            &signatures[0], &sig_ptr[0]) != 0:
                    code += 1
                rows[k] = sorted_items[k].row
                codes[rows[k]] = code
    finally:
        free(items)
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
