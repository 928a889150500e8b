# The one pair driver of kernelkit: every Gram matrix computed pair by pair (string kernels:
# merge-join spectrum, gap-weighted substring, local alignment; product-graph kernels: walks,
# random walks, subtrees) goes through it.
#
# A kernel provides a `pair_kernel_t`: k(row object i, column object j) computed from an opaque
# context struct (its objects and parameters) and a per-thread scratch buffer, written to
# `value`; it returns 0, or a positive status that marks the pair (e.g. an iterative solver that
# did not converge) and that the driver counts. The driver fills rows [row_start, row_stop) of
# the output tile by tile (TILE x TILE pairs, so both tiles' objects stay in cache) with OpenMP
# over tiles. In the symmetric case only tiles and pairs with j >= i are computed and mirrored,
# so each pair is computed once; a separate diagonal pass gives the self-similarities.
#
# Determinism: every output entry is written by exactly one call of the pair kernel, with no
# reduction across threads (the count of marked pairs is an integer sum), so the result does not
# depend on the thread count or the schedule. That is why the schedule may be dynamic: pair costs
# vary with object sizes (O(|x||y|) DPs, product graphs) and a static split would leave threads
# idle. The threads take their items (tiles, rows, objects) one at a time by hand rather than by
# prange: a thread out of items waits in leave_team (_interrupt.pxd), where the team's first
# thread keeps looking at the signals while another one is still inside one long pair.
#
# Ctrl-C: the driver looks at the signals between pairs; a kernel whose single pair may run long
# (a DP over two long sequences, an iterative solver) calls `interrupted(interrupt)` between
# steps of its own and may then return any value: the driver reports INTERRUPTED and the
# `def` wrapper raises.
from cython.parallel cimport parallel
from libc.stdlib cimport malloc, free

from _interrupt cimport (INTERRUPTED, InterruptState, interrupt_init, interrupted, kk_fetch_add,
                        leave_team, next_item)
from _types cimport intp_t

ctypedef int (*pair_kernel_t)(const void *ctx, intp_t i, intp_t j, double *work,
                              double *value, InterruptState *interrupt) noexcept nogil

# A kernel that computes one row object against a block of up to `block` column objects at once
# (SIMD lanes across pairs): k(i, js[l]) for l < n_js written to values[l]; returns the number of
# marked pairs.
ctypedef intp_t (*block_kernel_t)(const void *ctx, intp_t i, const intp_t *js, intp_t n_js,
                                  double *work, double *values,
                                  InterruptState *interrupt) noexcept nogil

cdef enum:
    PAIRS_TILE = 16

# How the blocked driver hands a row's columns to a block kernel: in `order`, `size` at a time.
ctypedef struct ColumnBlocks:
    const intp_t *order         # (n_cols,) the order in which columns are blocked
    intp_t size                 # columns per kernel call


cdef inline intp_t _fill_tile(
    pair_kernel_t kernel, const void *ctx,
    double[:, ::1] out,
    intp_t i0, intp_t i1, intp_t j0, intp_t j1, bint symmetric,
    double *work,
    InterruptState *interrupt,
) noexcept nogil:
    """Fill one tile (or stop on a signal); return the number of marked pairs."""
    cdef intp_t i, j, marked = 0
    cdef double value
    for i in range(i0, i1):
        for j in range(j0 if not symmetric or j0 > i else i, j1):
            if interrupted(interrupt):
                return marked
            marked += kernel(ctx, i, j, work, &value, interrupt) != 0
            out[i, j] = value
            if symmetric and j != i:
                out[j, i] = value
    return marked


cdef inline int fill_gram_rows(
    pair_kernel_t kernel, const void *ctx,
    double[:, ::1] out,        # INOUT (n_rows, n_cols): rows [row_start, row_stop) are written
    intp_t row_start, intp_t row_stop,
    bint symmetric,            # rows and columns are the same objects: compute j >= i only
    intp_t work_size,          # doubles of scratch each thread needs
    int n_threads,
    intp_t *n_marked,          # OUT: pairs whose kernel returned a non-zero status
) noexcept nogil:
    """Fill ``out[row_start:row_stop]``; returns 0, -1 when scratch memory ran out, or
    INTERRUPTED when a signal handler raised (the exception is set; see _interrupt.pxd)."""
    cdef intp_t n_cols = out.shape[1]
    cdef intp_t n_row_tiles = (row_stop - row_start + PAIRS_TILE - 1) // PAIRS_TILE
    cdef intp_t n_col_tiles = (n_cols + PAIRS_TILE - 1) // PAIRS_TILE
    cdef intp_t n_tiles = n_row_tiles * n_col_tiles
    cdef intp_t t, i0, i1, j0, j1, marked = 0, next_tile = 0, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef double *work = NULL       # allocated per thread inside the parallel block
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    n_marked[0] = 0
    if n_tiles <= 0:
        return 0
    if n_threads > n_tiles:
        n_threads = <int>n_tiles
    with parallel(num_threads=n_threads):
        work = <double *>malloc((work_size if work_size > 0 else 1) * sizeof(double))
        if work == NULL:
            status_ptr[0] = -1
        while True:
            t = next_item(&next_tile)
            if t >= n_tiles or work == NULL or interrupt.stop:
                break
            i0 = row_start + (t // n_col_tiles) * PAIRS_TILE
            i1 = i0 + PAIRS_TILE
            if i1 > row_stop:
                i1 = row_stop
            j0 = (t % n_col_tiles) * PAIRS_TILE
            j1 = j0 + PAIRS_TILE
            if j1 > n_cols:
                j1 = n_cols
            # symmetric: tiles entirely below the diagonal are mirrored from above
            if not (symmetric and j1 <= i0):
                kk_fetch_add(&marked, _fill_tile(kernel, ctx, out, i0, i1, j0, j1, symmetric,
                                                 work, &interrupt))
        free(work)
        leave_team(&interrupt, &n_done)
    n_marked[0] = marked
    return INTERRUPTED if interrupt.stop and status == 0 else status


cdef inline int fill_diagonal(
    pair_kernel_t kernel, const void *ctx,
    double[::1] out,           # OUT (n,): k(object i, object i), rows and columns the same objects
    intp_t work_size,
    int n_threads,
    intp_t *n_marked,          # OUT: objects whose kernel returned a non-zero status
) noexcept nogil:
    """Self-similarities (for normalisation); returns 0, -1 when scratch memory ran out, or
    INTERRUPTED."""
    cdef intp_t n = out.shape[0]
    cdef intp_t i, marked = 0, next_object = 0, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef double *work = NULL       # allocated per thread inside the parallel block
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    n_marked[0] = 0
    if n == 0:
        return 0
    if n_threads > n:
        n_threads = <int>n
    with parallel(num_threads=n_threads):
        work = <double *>malloc((work_size if work_size > 0 else 1) * sizeof(double))
        if work == NULL:
            status_ptr[0] = -1
        while True:
            i = next_item(&next_object)
            if i >= n or work == NULL or interrupted(&interrupt):
                break
            kk_fetch_add(&marked, kernel(ctx, i, i, work, &out[i], &interrupt) != 0)
        free(work)
        leave_team(&interrupt, &n_done)
    n_marked[0] = marked
    return INTERRUPTED if interrupt.stop and status == 0 else status


cdef inline int fill_gram_rows_blocked(
    block_kernel_t kernel, const void *ctx,
    double[:, ::1] out,        # INOUT (n_rows, n_cols): rows [row_start, row_stop) are written
    intp_t row_start, intp_t row_stop,
    bint symmetric,            # rows and columns are the same objects: compute j >= i only
    const ColumnBlocks *blocks,  # IN the order of the columns and their number per call
    intp_t work_size,          # doubles of scratch each thread needs (besides the column list)
    int n_threads,
    intp_t *n_marked,          # OUT: pairs whose kernel marked them
) noexcept nogil:
    """Fill ``out[row_start:row_stop]`` row by row, each row's columns taken in
    ``blocks.order`` and passed ``blocks.size`` at a time (objects of similar sizes side by
    side, e.g. sorted by length, keep SIMD lanes busy); returns 0, -1 when scratch memory ran
    out, or INTERRUPTED. Every entry is written once, so the result depends neither on the
    thread count nor on the schedule."""
    cdef const intp_t *col_order = blocks.order
    cdef intp_t block = blocks.size
    cdef intp_t n_cols = out.shape[1]
    cdef intp_t i, k, c, j, n_js, marked = 0, next_row = row_start, n_done = 0
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef double *work = NULL       # allocated per thread inside the parallel block
    cdef intp_t *js = NULL
    cdef double *values = NULL     # per thread too
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    n_marked[0] = 0
    if row_stop <= row_start or n_cols == 0:
        return 0
    if n_threads > row_stop - row_start:
        n_threads = <int>(row_stop - row_start)
    with parallel(num_threads=n_threads):
        work = <double *>malloc((work_size if work_size > 0 else 1) * sizeof(double))
        js = <intp_t *>malloc(n_cols * sizeof(intp_t))
        values = <double *>malloc(block * sizeof(double))
        if work == NULL or js == NULL or values == NULL:
            status_ptr[0] = -1
        while True:
            i = next_item(&next_row)
            if i >= row_stop or work == NULL or js == NULL or values == NULL or interrupt.stop:
                break
            n_js = 0
            for c in range(n_cols):
                j = col_order[c]
                if not symmetric or j >= i:
                    js[n_js] = j
                    n_js = n_js + 1
            k = 0
            while k < n_js and not interrupted(&interrupt):
                c = min(block, n_js - k)
                kk_fetch_add(&marked, kernel(ctx, i, js + k, c, work, values, &interrupt))
                for j in range(c):
                    out[i, js[k + j]] = values[j]
                    if symmetric:
                        out[js[k + j], i] = values[j]
                k = k + block
        free(values)
        free(js)
        free(work)
        leave_team(&interrupt, &n_done)
    n_marked[0] = marked
    return INTERRUPTED if interrupt.stop and status == 0 else status
