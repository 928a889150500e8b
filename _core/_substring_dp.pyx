"""Gap-weighted subsequence (string subsequence) kernel, Lodhi et al., JMLR 2 (2002).

Mairal & Vert, "Example: substring indexation" (gapped-substring bullet).

``Φ_u(s) = Σ_{i : s[i] = u} λ^{i_k − i_1 + 1}`` (decay with the span of the occurrence) and
``K_k(s, t) = Σ_{u ∈ A^k} Φ_u(s) Φ_u(t)``, by Lodhi's recursion with the auxiliary K'' (their
Section 4.2), O(k |s| |t|) per pair. With ``K'_0 ≡ 1`` and, for ``1 ≤ i < k``, prefixes of lengths
p and q::

    K''_i(p, q) = λ K''_i(p, q−1) + [s_p = t_q] λ² K'_{i−1}(p−1, q−1)
    K'_i(p, q)  = λ K'_i(p−1, q) + K''_i(p, q)
    K_k(s, t)   = Σ_{p, q} [s_p = t_q] λ² K'_{k−1}(p−1, q−1)

Memory is O(k |t|): one row of every K'_i, updated in place over p from level k−1 down to 1, so
that level i−1 still holds row p−1 when level i reads it.
"""

from _types cimport intp_t, int32_t
from _pair_gram cimport fill_diagonal, fill_gram_rows
from _interrupt cimport INTERRUPTED, InterruptState, interrupted, raise_pending, steps_per_check


cdef struct SubstringPair:
    const int32_t *codes_a
    const intp_t *offsets_a
    const int32_t *codes_b
    const intp_t *offsets_b
    int k
    double lambda_


cdef int _substring_pair(const void *ctx, intp_t i, intp_t j, double *work,
                         double *value, InterruptState *interrupt) noexcept nogil:
    cdef const SubstringPair *sp = <const SubstringPair *>ctx
    cdef const int32_t *s = sp.codes_a + sp.offsets_a[i]
    cdef const int32_t *t = sp.codes_b + sp.offsets_b[j]
    value[0] = gap_weighted(s, sp.offsets_a[i + 1] - sp.offsets_a[i],
                            t, sp.offsets_b[j + 1] - sp.offsets_b[j], sp.k, sp.lambda_, work,
                            interrupt)
    return 0


cdef double gap_weighted(const int32_t *s, intp_t len_s, const int32_t *t, intp_t len_t, int k,
                         double lam, double *work, InterruptState *interrupt) noexcept nogil:
    """K_k(s, t); ``work`` holds k * (len_t + 1) doubles (row q of K'_i at work[i*(len_t+1)+q]).
    Stops early (any value) when ``interrupted(interrupt)``."""
    cdef intp_t width = len_t + 1
    cdef intp_t p, q
    cdef intp_t rows_per_check = steps_per_check(k * len_t)
    cdef int level
    cdef double lam2 = lam * lam
    cdef double result = 0.0
    cdef double kpp, x
    cdef double *lower
    cdef double *row
    cdef int32_t letter
    if len_s < k or len_t < k:
        return 0.0
    for q in range(width):
        work[q] = 1.0                       # K'_0 ≡ 1
    for q in range(width, k * width):
        work[q] = 0.0                       # K'_i(0, q) = 0 for i ≥ 1
    for p in range(1, len_s + 1):
        if p % rows_per_check == 0 and interrupted(interrupt):
            break
        letter = s[p - 1]
        lower = work + (k - 1) * width      # K'_{k−1}(p−1, ·)
        for q in range(1, len_t + 1):
            if t[q - 1] == letter:
                result += lower[q - 1]
        for level in range(k - 1, 0, -1):
            row = work + level * width
            lower = row - width             # K'_{level−1}(p−1, ·), not yet updated
            kpp = 0.0
            for q in range(1, width):
                x = lower[q - 1] if t[q - 1] == letter else 0.0
                kpp = lam * kpp + lam2 * x
                row[q] = lam * row[q] + kpp
    return lam2 * result


def substring_gram(
    rows,                           # IN the row sequences: .codes, .offsets
    cols,                           # IN the column sequences: .codes, .offsets
    int k,
    double lambda_,
    double[:, ::1] out,             # OUT (n_a, n_b)
    intp_t row_start, intp_t row_stop,
    bint symmetric,
    int n_threads,
):
    """Gap-weighted subsequence Gram rows ``[row_start, row_stop)``.

    Parameters
    ----------
    rows : SequenceBatch or any object with ``codes`` and ``offsets``
        ``codes`` of shape (total_length_a,), int32: the letter codes of the row sequences,
        concatenated; ``offsets`` of shape (n_a + 1,), intp: sequence i is
        ``codes[offsets[i]:offsets[i + 1]]``.
    cols : the same for the column sequences
    k : int
        Subsequence length, ≥ 1.
    lambda_ : float
        Decay in (0, 1].
    out : ndarray of shape (n_a, n_b), dtype float64
    row_start, row_stop : int
    symmetric : bool
        Rows and columns are the same sequences: pairs are computed once and mirrored.
    n_threads : int
    """
    cdef const int32_t[::1] codes_a = rows.codes
    cdef const intp_t[::1] offsets_a = rows.offsets
    cdef const int32_t[::1] codes_b = cols.codes
    cdef const intp_t[::1] offsets_b = cols.offsets
    cdef SubstringPair ctx
    cdef intp_t longest = _set_context(&ctx, codes_a, offsets_a, codes_b, offsets_b, k, lambda_)
    cdef int status
    cdef intp_t n_marked
    with nogil:
        status = fill_gram_rows(_substring_pair, &ctx, out, row_start, row_stop, symmetric,
                                k * (longest + 1), n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread DP rows of the substring kernel")


def substring_diagonal(
    sequences,                      # IN .codes, .offsets
    int k,
    double lambda_,
    double[::1] out,                # OUT (n,) K(x_i, x_i)
    int n_threads,
):
    """Self-similarities ``K(x_i, x_i)`` (see :func:`substring_gram` for the parameters)."""
    cdef const int32_t[::1] codes = sequences.codes
    cdef const intp_t[::1] offsets = sequences.offsets
    cdef SubstringPair ctx
    cdef intp_t longest = _set_context(&ctx, codes, offsets, codes, offsets, k, lambda_)
    cdef int status
    cdef intp_t n_marked
    with nogil:
        status = fill_diagonal(_substring_pair, &ctx, out, k * (longest + 1), n_threads,
                               &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread DP rows of the substring kernel")


cdef intp_t _set_context(SubstringPair *ctx, const int32_t[::1] codes_a,
                         const intp_t[::1] offsets_a, const int32_t[::1] codes_b,
                         const intp_t[::1] offsets_b, int k, double lambda_):
    """Fill ``ctx``; returns the length of the longest column sequence (sizes the scratch)."""
    cdef intp_t j, longest = 0
    for j in range(offsets_b.shape[0] - 1):
        if offsets_b[j + 1] - offsets_b[j] > longest:
            longest = offsets_b[j + 1] - offsets_b[j]
    ctx.codes_a = &codes_a[0]
    ctx.offsets_a = &offsets_a[0]
    ctx.codes_b = &codes_b[0]
    ctx.offsets_b = &offsets_b[0]
    ctx.k = k
    ctx.lambda_ = lambda_
    return longest
