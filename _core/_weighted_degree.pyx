"""Weighted degree kernel with shifts (Rätsch & Sonnenburg 2004; Rätsch, Sonnenburg & Schölkopf
2005), pair by pair through the pair driver of ``_pair_gram.pxd``.

For sequences x, y of equal length L, degree D and shift S::

    k(x, y) = Σ_{d=1..D} β_d Σ_l [ 1[u_{d,l}(x) = u_{d,l}(y)]
              + Σ_{s=1..S} δ_s (1[u_{d,l+s}(x) = u_{d,l}(y)] + 1[u_{d,l}(x) = u_{d,l+s}(y)]) ]

where ``u_{d,l}`` is the d-mer starting at l (terms whose d-mer runs past the end are absent).

The match-length trick: along one diagonal (x shifted by s against y), the d-mers at start l
match for exactly the degrees d ≤ min(r_l, D), r_l the number of matching positions from l on
(r_l = r_{l+1} + 1 on a match, else 0), so start l contributes
``start_weights[r_l] = Σ_{d ≤ min(r_l, D)} β_d``, precomputed for r = 0..L by the caller. A
diagonal is one backward O(L) scan, all degrees at once; a pair costs O((2S + 1) L).

A code below zero is a letter outside the alphabet: it matches nothing, not even itself, so the
d-mers covering it drop out of the feature space (the kernel stays positive semi-definite).
"""

from _types cimport intp_t, int32_t
from _pair_gram cimport fill_diagonal, fill_gram_rows
from _interrupt cimport INTERRUPTED, InterruptState, interrupted, raise_pending, steps_per_check


cdef struct WeightedDegreePair:
    const int32_t *codes_a
    const int32_t *codes_b
    intp_t length               # L, every sequence's
    int shift                   # S
    const double *start_weights # (L + 1,) weight of a start followed by r matching positions
    const double *shift_weights # (S + 1,) δ_s; entry 0 unused


cdef inline double _diagonal(const int32_t *x, const int32_t *y, intp_t n,
                             const double *start_weights) noexcept nogil:
    """Σ_l start_weights[r_l] over the starts l < n, r_l the number of matching positions
    (x[i] = y[i], known letters) from l on, counted backwards."""
    cdef intp_t i, run = 0
    cdef double total = 0.0
    for i in range(n - 1, -1, -1):
        # branch-free: matches of random letters are unpredictable
        run = (run + 1) * ((x[i] == y[i]) & (x[i] >= 0))
        total += start_weights[run]       # start_weights[0] = 0
    return total


cdef int _weighted_degree_pair(const void *ctx, intp_t i, intp_t j, double *work,
                               double *value, InterruptState *interrupt) noexcept nogil:
    cdef const WeightedDegreePair *wd = <const WeightedDegreePair *>ctx
    cdef intp_t n = wd.length
    cdef const int32_t *x = wd.codes_a + i * n
    cdef const int32_t *y = wd.codes_b + j * n
    cdef intp_t shifts_per_check = steps_per_check(2 * n)
    cdef double total = _diagonal(x, y, n, wd.start_weights)
    cdef int s
    for s in range(1, wd.shift + 1):
        if s >= n:
            break                         # no d-mer fits a shift of L or more
        if s % shifts_per_check == 0 and interrupted(interrupt):
            break
        total += wd.shift_weights[s] * (_diagonal(x + s, y, n - s, wd.start_weights)
                                        + _diagonal(x, y + s, n - s, wd.start_weights))
    value[0] = total
    return 0


def weighted_degree_gram(
    const int32_t[:, ::1] codes_a,  # IN (n_a, L) letter codes of the row sequences (< 0: unknown)
    const int32_t[:, ::1] codes_b,  # IN (n_b, L) letter codes of the column sequences
    const double[::1] start_weights,  # IN (L + 1,) weight of a start before r matches
    const double[::1] shift_weights,  # IN (S + 1,) δ_s of shift s ≥ 1 (entry 0 unused)
    double[:, ::1] out,             # OUT (n_a, n_b)
    intp_t row_start, intp_t row_stop,
    bint symmetric,
    int n_threads,
):
    """Weighted degree Gram rows ``[row_start, row_stop)``.

    Parameters
    ----------
    codes_a : ndarray of shape (n_a, L), dtype int32
        Letter codes; a negative code matches nothing.
    codes_b : ndarray of shape (n_b, L), dtype int32
    start_weights : ndarray of shape (L + 1,), dtype float64
        ``start_weights[r] = Σ_{d ≤ min(r, D)} β_d``; ``start_weights[0] = 0``.
    shift_weights : ndarray of shape (S + 1,), dtype float64
        The weight δ_s of shift s (both directions); S = len − 1 is the largest shift.
    out : ndarray of shape (n_a, n_b), dtype float64
    row_start, row_stop : int
    symmetric : bool
        Rows and columns are the same sequences: pairs are computed once and mirrored.
    n_threads : int
    """
    cdef WeightedDegreePair ctx
    cdef int status
    cdef intp_t n_marked
    _set_context(&ctx, codes_a, codes_b, start_weights, shift_weights)
    with nogil:
        status = fill_gram_rows(_weighted_degree_pair, &ctx, out, row_start, row_stop,
                                symmetric, 0, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread scratch of the pair driver")


def weighted_degree_diagonal(
    const int32_t[:, ::1] codes,    # IN (n, L)
    const double[::1] start_weights,  # IN (L + 1,)
    const double[::1] shift_weights,  # IN (S + 1,)
    double[::1] out,                # OUT (n,) k(x_i, x_i)
    int n_threads,
):
    """Self-similarities ``k(x_i, x_i)`` (see :func:`weighted_degree_gram` for the parameters)."""
    cdef WeightedDegreePair ctx
    cdef int status
    cdef intp_t n_marked
    _set_context(&ctx, codes, codes, start_weights, shift_weights)
    with nogil:
        status = fill_diagonal(_weighted_degree_pair, &ctx, out, 0, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread scratch of the pair driver")


cdef void _set_context(WeightedDegreePair *ctx, const int32_t[:, ::1] codes_a,
                       const int32_t[:, ::1] codes_b, const double[::1] start_weights,
                       const double[::1] shift_weights) except *:
    if codes_a.shape[1] != codes_b.shape[1]:
        raise ValueError(f"row sequences have length {codes_a.shape[1]}, column sequences "
                         f"{codes_b.shape[1]}.")
    if start_weights.shape[0] != codes_a.shape[1] + 1 or shift_weights.shape[0] < 1:
        raise ValueError("start_weights needs L + 1 entries and shift_weights at least one.")
    ctx.codes_a = &codes_a[0, 0] if codes_a.shape[0] * codes_a.shape[1] else NULL
    ctx.codes_b = &codes_b[0, 0] if codes_b.shape[0] * codes_b.shape[1] else NULL
    ctx.length = codes_a.shape[1]
    ctx.shift = <int>(shift_weights.shape[0] - 1)
    ctx.start_weights = &start_weights[0]
    ctx.shift_weights = &shift_weights[0]
