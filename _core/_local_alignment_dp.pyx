"""Local alignment kernel, Saigo, Vert, Ueda & Akutsu, Bioinformatics 20(11) (2004).

Mairal & Vert, "Local alignment kernel (Saigo et al., 2004)", "LA kernel is p.d.".

``K_LA(x, y) = Σ_π exp(β s(π))`` over all local alignments π (the empty one included, term 1), with
affine gaps ``g(n) = d + e(n − 1)`` paid separately for the gap in x and the gap in y between two
consecutive aligned pairs. Saigo's DP (D13; tables zero on the borders)::

    M(i,j) = exp(βS(x_i,y_j)) · [1 + X(i−1,j−1) + Y(i−1,j−1) + M(i−1,j−1)]
    X(i,j) = exp(−βd) M(i−1,j) + exp(−βe) X(i−1,j)
    Y(i,j) = exp(−βd) [M(i,j−1) + X(i,j−1)] + exp(−βe) Y(i,j−1)

and ``K_LA = 1 + X2 + Y2 + M`` at (|x|, |y|), where X2 and Y2 only accumulate M over the cells
above and to the left: so ``K_LA = 1 + Σ_{i,j} M(i,j)``, which is what we sum (M(i,j) is the total
weight of alignments whose last aligned pair is (i, j); the trailing unaligned parts weigh 1).

Scaling: the values grow like exp(β·SW(x, y)) and overflow float64 for long similar sequences.
The DP runs row by row in linear arithmetic on values stored as ``true · 2^{−E}``; when a row's
largest entry leaves ``[2^{−T}, 2^{T}]`` the row is multiplied by a power of two (exact in binary
floating point) and E is updated; the "1" of a new alignment becomes ``2^{−E}``. T is chosen by the
caller so that one row cannot overflow before the check. Row sums are added into log K in
log space. Values more than 2^{−1022} below a row's maximum flush to zero: their contribution to K is
below double precision, since K exceeds that maximum. Cost: about ten flops per cell, no
transcendental function except one log per row.

Pairs run side by side in SIMD lanes (:func:`_la_block`): each Gram row's column sequences are
taken in length order, ``LANES`` at a time, and one vector step advances every lane's DP by one
cell with exactly the scalar operations (``_la_lanes.h``); the values are identical to the scalar
DP's (:func:`log_la`, still used for the diagonal and with ``lanes=False``).
"""

from libc.math cimport exp, log, log1p, frexp, ldexp, INFINITY

import numpy as np

from _types cimport intp_t, int32_t
from _pair_gram cimport ColumnBlocks, fill_diagonal, fill_gram_rows, fill_gram_rows_blocked
from _interrupt cimport INTERRUPTED, InterruptState, interrupted, raise_pending, steps_per_check

# Pairs computed side by side in SIMD lanes (one row sequence against LANES column sequences of
# similar lengths; the row step is C with generic vectors, _la_lanes.h): the DP of one pair is a
# chain of dependent operations along the row (the gap-in-y recurrence), so one pair leaves most
# of a core's arithmetic idle; LANES independent pairs fill the vector units. Each lane performs
# exactly the scalar DP's operations in the same order, so the values are identical.
cdef extern from "_la_lanes.h" nogil:
    enum: LANES "LA_LANES"
    void la_lanes_row(const double *profile, const intp_t *letters, const double *mask,
                      double *m_row, double *x_row, double *y_row, intp_t width,
                      const double *start, double open_weight, double extend_weight,
                      double *row_sum, double *row_max)
    const char *la_simd_path()


cdef struct AlignmentPair:
    const int32_t *codes_a
    const intp_t *offsets_a
    const int32_t *codes_b
    const intp_t *offsets_b
    const double *exp_scores        # (n_letters, n_letters) exp(β S(a, b)), row-major
    const double *padded_scores     # (n_letters, n_letters + 1): a last column of zeros, the
                                    # weight of the padding letter of short lanes
    intp_t n_letters
    intp_t longest_b                # longest column sequence
    double open_weight              # exp(−β d)
    double extend_weight            # exp(−β e)
    int scale_bits                  # T


cdef inline double _logaddexp(double a, double b) noexcept nogil:
    if a == -INFINITY:
        return b
    if b == -INFINITY:
        return a
    if a > b:
        return a + log1p(exp(b - a))
    return b + log1p(exp(a - b))


cdef int _la_pair(const void *ctx, intp_t i, intp_t j, double *work,
                  double *value, InterruptState *interrupt) noexcept nogil:
    cdef const AlignmentPair *ap = <const AlignmentPair *>ctx
    value[0] = log_la(ap, ap.codes_a + ap.offsets_a[i], ap.offsets_a[i + 1] - ap.offsets_a[i],
                      ap.codes_b + ap.offsets_b[j], ap.offsets_b[j + 1] - ap.offsets_b[j],
                      work, interrupt)
    return 0


cdef double log_la(const AlignmentPair *ap, const int32_t *x, intp_t len_x, const int32_t *y,
                   intp_t len_y, double *work, InterruptState *interrupt) noexcept nogil:
    """log K_LA(x, y) under the scores and gap weights of ``ap``; ``work`` holds
    3 * (len_y + 1) doubles (rows of M, X, Y). Stops early (any value) when
    ``interrupted(interrupt)``."""
    # the parameters in locals: the compiler keeps them in registers across the row's stores
    cdef const double *exp_scores = ap.exp_scores
    cdef intp_t n_letters = ap.n_letters
    cdef double open_weight = ap.open_weight, extend_weight = ap.extend_weight
    cdef int scale_bits = ap.scale_bits
    cdef double *m_row = work
    cdef double *x_row = work + (len_y + 1)
    cdef double *y_row = work + 2 * (len_y + 1)
    cdef const double *profile
    cdef double high = ldexp(1.0, scale_bits)
    cdef double low = ldexp(1.0, -scale_bits)
    cdef double log2 = log(2.0)
    cdef double log_total = -INFINITY   # log Σ M over the rows done so far
    cdef double start                   # weight 1 of a new alignment, in the row's scale
    cdef double m_diag, x_diag, y_diag, m_up, x_up, m_new, x_new, y_new, m_left, x_left, y_left
    cdef double row_sum, row_max, factor
    cdef intp_t i, q
    cdef intp_t rows_per_check = steps_per_check(len_y)
    cdef int shift = 0                  # E: stored value = true value · 2^{−E}
    cdef int exponent
    for q in range(3 * (len_y + 1)):
        work[q] = 0.0
    for i in range(len_x):
        if i % rows_per_check == 0 and interrupted(interrupt):
            break
        profile = exp_scores + x[i] * n_letters
        start = ldexp(1.0, -shift)
        m_diag = 0.0
        x_diag = 0.0
        y_diag = 0.0
        m_left = 0.0
        x_left = 0.0
        y_left = 0.0
        row_sum = 0.0
        row_max = 0.0
        for q in range(1, len_y + 1):
            m_up = m_row[q]
            x_up = x_row[q]
            m_new = profile[y[q - 1]] * (start + x_diag + y_diag + m_diag)
            x_new = open_weight * m_up + extend_weight * x_up
            y_new = open_weight * (m_left + x_left) + extend_weight * y_left
            m_diag = m_up
            x_diag = x_up
            y_diag = y_row[q]
            m_row[q] = m_new
            x_row[q] = x_new
            y_row[q] = y_new
            m_left = m_new
            x_left = x_new
            y_left = y_new
            row_sum += m_new
            row_max = max(row_max, max(m_new, max(x_new, y_new)))
        if row_sum > 0.0:
            log_total = _logaddexp(log_total, log(row_sum) + shift * log2)
        if row_max > high or (0.0 < row_max < low):
            frexp(row_max, &exponent)
            factor = ldexp(1.0, -exponent)
            for q in range(1, len_y + 1):
                m_row[q] *= factor
                x_row[q] *= factor
                y_row[q] *= factor
            shift += exponent
    return _logaddexp(0.0, log_total)

cdef intp_t _la_block(const void *ctx, intp_t i, const intp_t *js, intp_t n_js, double *work,
                      double *values, InterruptState *interrupt) noexcept nogil:
    """``log K_LA(a_i, b_js[l])`` for ``l < n_js <= LANES``, the pairs in SIMD lanes.

    Lane ``l`` runs :func:`log_la` on its pair; lanes shorter than the longest are padded with a
    letter of weight 0 and a mask that zeroes their gap states, so padding cells stay 0 and never
    reach a real cell (every state flows right or down). ``work`` holds
    ``(4 (longest_b + 1) + longest_b) LANES`` doubles. Stops early (any values) when
    ``interrupted(interrupt)``; the SIMD row step itself never looks.
    """
    cdef const AlignmentPair *ap = <const AlignmentPair *>ctx
    cdef intp_t stride = (ap.longest_b + 1) * LANES
    cdef double *m_row = work
    cdef double *x_row = work + stride
    cdef double *y_row = work + 2 * stride
    cdef double *mask = work + 3 * stride
    cdef intp_t *letters = <intp_t *>(work + 4 * stride)   # (longest_b, LANES) interleaved
    cdef const int32_t *x = ap.codes_a + ap.offsets_a[i]
    cdef intp_t len_x = ap.offsets_a[i + 1] - ap.offsets_a[i]
    cdef intp_t n_cols = ap.n_letters + 1
    cdef intp_t width = 0, length, q, l, row, rows_per_check
    cdef const int32_t *y
    cdef double open_weight = ap.open_weight, extend_weight = ap.extend_weight
    cdef double high = ldexp(1.0, ap.scale_bits)
    cdef double low = ldexp(1.0, -ap.scale_bits)
    cdef double log2 = log(2.0)
    cdef double factor
    cdef int exponent
    cdef double start[LANES]
    cdef double row_sum[LANES]
    cdef double row_max[LANES]
    cdef double log_total[LANES]
    cdef int shift[LANES]
    for l in range(LANES):
        length = ap.offsets_b[js[l] + 1] - ap.offsets_b[js[l]] if l < n_js else 0
        if length > width:
            width = length
    for l in range(LANES):
        length = 0
        y = NULL
        if l < n_js:
            y = ap.codes_b + ap.offsets_b[js[l]]
            length = ap.offsets_b[js[l] + 1] - ap.offsets_b[js[l]]
        mask[l] = 0.0
        for q in range(width):
            letters[q * LANES + l] = y[q] if q < length else ap.n_letters
            mask[(q + 1) * LANES + l] = 1.0 if q < length else 0.0
        log_total[l] = -INFINITY
        shift[l] = 0
    for q in range((width + 1) * LANES):
        m_row[q] = 0.0
        x_row[q] = 0.0
        y_row[q] = 0.0
    rows_per_check = steps_per_check(width * LANES)
    for row in range(len_x):
        if row % rows_per_check == 0 and interrupted(interrupt):
            break
        for l in range(LANES):
            start[l] = ldexp(1.0, -shift[l])
        la_lanes_row(ap.padded_scores + x[row] * n_cols, letters, mask, m_row, x_row, y_row,
                     width, start, open_weight, extend_weight, row_sum, row_max)
        for l in range(n_js):
            if row_sum[l] > 0.0:
                log_total[l] = _logaddexp(log_total[l], log(row_sum[l]) + shift[l] * log2)
            if row_max[l] > high or (0.0 < row_max[l] < low):
                frexp(row_max[l], &exponent)
                factor = ldexp(1.0, -exponent)
                for q in range(1, width + 1):
                    m_row[q * LANES + l] *= factor
                    x_row[q * LANES + l] *= factor
                    y_row[q * LANES + l] *= factor
                shift[l] += exponent
    for l in range(n_js):
        values[l] = _logaddexp(0.0, log_total[l])
    return 0


def simd_path():
    """The variant of the SIMD row step (``_la_lanes.h``) that this CPU runs.

    Returns
    -------
    path : str
        ``"avx2"`` (the AVX2 clone, picked at load time on CPUs that have AVX2) or
        ``"default"`` (the baseline x86-64 clone) on x86-64 Linux with GCC; ``"generic vectors"``
        (one build, the compiler's default target) with other GCC-compatible compilers;
        ``"scalar"`` otherwise. The values are the same on every path.
    """
    return la_simd_path().decode("ascii")


def local_alignment_gram(
    rows,                           # IN the row sequences: .codes, .offsets
    cols,                           # IN the column sequences: .codes, .offsets
    dict weights,                   # IN exp_scores, open_weight, extend_weight, scale_bits
    double[:, ::1] out,             # OUT (n_a, n_b) log K_LA
    intp_t row_start, intp_t row_stop,
    bint symmetric,
    int n_threads,
    bint lanes=True,
):
    """``log K_LA`` for Gram rows ``[row_start, row_stop)``.

    Parameters
    ----------
    rows : SequenceBatch or any object with ``codes`` and ``offsets``
        ``codes`` of shape (total_length_a,), int32: the letter codes of the row sequences,
        concatenated; ``offsets`` of shape (n_a + 1,), intp: sequence i is
        ``codes[offsets[i]:offsets[i + 1]]``.
    cols : the same for the column sequences
    weights : dict
        ``exp_scores``, ndarray of shape (n_letters, n_letters), float64: ``exp(β S)``;
        ``open_weight`` and ``extend_weight``, float: ``exp(−β d)`` and ``exp(−β e)``;
        ``scale_bits``, int: rows are rescaled when their maximum leaves
        ``[2^-scale_bits, 2^scale_bits]``; one row must not be able to grow by more than
        ``2^(1023 − scale_bits)``.
    out : ndarray of shape (n_a, n_b), dtype float64
    row_start, row_stop : int
    symmetric : bool
        Rows and columns are the same sequences: pairs are computed once and mirrored.
    n_threads : int
    lanes : bool, default=True
        Compute each row against ``LANES`` columns of similar lengths at once (SIMD across
        pairs); False runs the scalar DP pair by pair. Both give the same values.
    """
    cdef const int32_t[::1] codes_a = rows.codes
    cdef const intp_t[::1] offsets_a = rows.offsets
    cdef const int32_t[::1] codes_b = cols.codes
    cdef const intp_t[::1] offsets_b = cols.offsets
    cdef const double[:, ::1] exp_scores = weights["exp_scores"]
    cdef AlignmentPair ctx
    cdef intp_t longest = _set_context(&ctx, codes_a, offsets_a, codes_b, offsets_b, exp_scores,
                                       weights["open_weight"], weights["extend_weight"],
                                       weights["scale_bits"])
    cdef intp_t n_letters = exp_scores.shape[0]
    padded = np.zeros((n_letters, n_letters + 1))
    padded[:, :n_letters] = exp_scores
    cdef const double[:, ::1] padded_view = padded
    ctx.padded_scores = &padded_view[0, 0]
    # columns by length, so that the lanes of a block have similar lengths
    cdef const intp_t[::1] col_order = np.argsort(np.diff(offsets_b), kind="stable").astype(np.intp)
    cdef ColumnBlocks blocks
    blocks.order = &col_order[0]
    blocks.size = LANES
    cdef int status
    cdef intp_t n_marked
    with nogil:
        if lanes:
            status = fill_gram_rows_blocked(_la_block, &ctx, out, row_start, row_stop, symmetric,
                                            &blocks, (4 * (longest + 1) + longest) * LANES,
                                            n_threads, &n_marked)
        else:
            status = fill_gram_rows(_la_pair, &ctx, out, row_start, row_stop, symmetric,
                                    3 * (longest + 1), n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread DP rows of the local alignment kernel")


def local_alignment_diagonal(
    sequences,                      # IN .codes, .offsets
    dict weights,                   # IN exp_scores, open_weight, extend_weight, scale_bits
    double[::1] out,                # OUT (n,) log K_LA(x_i, x_i)
    int n_threads,
):
    """``log K_LA(x_i, x_i)`` (see :func:`local_alignment_gram` for the parameters)."""
    cdef const int32_t[::1] codes = sequences.codes
    cdef const intp_t[::1] offsets = sequences.offsets
    cdef const double[:, ::1] exp_scores = weights["exp_scores"]
    cdef AlignmentPair ctx
    cdef intp_t longest = _set_context(&ctx, codes, offsets, codes, offsets, exp_scores,
                                       weights["open_weight"], weights["extend_weight"],
                                       weights["scale_bits"])
    cdef int status
    cdef intp_t n_marked
    with nogil:
        status = fill_diagonal(_la_pair, &ctx, out, 3 * (longest + 1), n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread DP rows of the local alignment kernel")


cdef intp_t _set_context(AlignmentPair *ctx, const int32_t[::1] codes_a,
                         const intp_t[::1] offsets_a, const int32_t[::1] codes_b,
                         const intp_t[::1] offsets_b, const double[:, ::1] exp_scores,
                         double open_weight, double extend_weight, int scale_bits):
    """Fill ``ctx``; returns the length of the longest column sequence (sizes the scratch)."""
    cdef intp_t j, longest = 0
    for j in range(offsets_b.shape[0] - 1):
        if offsets_b[j + 1] - offsets_b[j] > longest:
            longest = offsets_b[j + 1] - offsets_b[j]
    ctx.codes_a = &codes_a[0]
    ctx.offsets_a = &offsets_a[0]
    ctx.codes_b = &codes_b[0]
    ctx.offsets_b = &offsets_b[0]
    ctx.exp_scores = &exp_scores[0, 0]
    ctx.n_letters = exp_scores.shape[0]
    ctx.open_weight = open_weight
    ctx.extend_weight = extend_weight
    ctx.scale_bits = scale_bits
    ctx.longest_b = longest
    ctx.padded_scores = NULL
    return longest
