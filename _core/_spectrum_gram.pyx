"""k-mer spectra and their Gram matrices (spectrum kernel; the mismatch kernel reuses the Gram).

Mairal & Vert, "Spectrum kernel (1/2), (2/2)"; Leslie, Eskin & Noble, PSB 2002.

A k-mer ``x_i … x_{i+k−1}`` over an alphabet of ``a`` letters is coded as the 64-bit integer
``Σ_t c_t · B^{k−1−t}`` (mod 2^64) with ``B = a`` when ``a^k < 2^64`` (an exact, order-preserving
code: a bijection onto ``[0, a^k)``), otherwise ``B`` = a fixed odd 64-bit multiplier (a
polynomial hash; distinct k-mers then collide with probability about 2^-64 per pair). Codes of
consecutive windows are rolled in O(1): ``h ← h·B + c_new − c_old·B^k``.

Each sequence's codes are sorted and run-length encoded, giving its sparse spectrum
(sorted distinct codes, counts). Two Gram algorithms, both exact:

* ``gram_merge``: per pair, a merge-join of the two sorted lists, O(U_x + U_y) (the course's
  "O(|x| + |x'|) with pre-indexation"), through the pair driver of ``_pair_gram.pxd``;
* the sparse product ``F_A F_Bᵀ`` by an inverted index (``_gram.sparse_gram``, shared with the
  graph kernels' explicit features): each row i of A walks its k-mers and, for each, the posting
  list of the B sequences containing it. Its cost is the number of shared (i, j, k-mer) triples,
  never more than the merge-join's, and far less when k-mers are rare (large alphabets, large k).
"""

from cython.parallel cimport parallel, prange

from _types cimport intp_t, int32_t, uint64_t
from _pair_gram cimport fill_gram_rows
from _interrupt cimport (INTERRUPTED, InterruptState, interrupt_init, interrupted,
                        raise_pending, steps_per_check)
from _sort cimport sort


def kmer_codes(
    const int32_t[::1] codes,       # IN (total_length,) letter codes of all sequences, concatenated
    const intp_t[::1] offsets,      # IN (n_samples + 1,) sequence i is codes[offsets[i]:offsets[i+1]]
    int k,
    uint64_t base,                  # B of the module docstring
    const intp_t[::1] out_offsets,  # IN (n_samples + 1,) start of sequence i's windows in out
    uint64_t[::1] out,              # OUT (n_windows,) codes of every k-mer window, in order
    int n_threads,
):
    """Codes of all k-mer windows of every sequence (sequences shorter than k have none).

    Parameters
    ----------
    codes : ndarray of shape (total_length,), dtype int32
    offsets : ndarray of shape (n_samples + 1,), dtype intp
    k : int
    base : uint64
    out_offsets : ndarray of shape (n_samples + 1,), dtype intp
        ``out_offsets[i+1] − out_offsets[i] = max(0, len_i − k + 1)``.
    out : ndarray of shape (out_offsets[-1],), dtype uint64
    n_threads : int
    """
    cdef intp_t n_samples = offsets.shape[0] - 1
    cdef intp_t s
    # a sequence costs its length: look at the signals every ~CHECK_WORK letters
    cdef intp_t sequences_per_check = steps_per_check(
        (offsets[n_samples] - offsets[0]) // n_samples if n_samples > 0 else 1)
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil:
        for s in prange(n_samples, schedule='dynamic', chunksize=64, num_threads=n_threads):
            if not (interrupt.stop or (s % sequences_per_check == 0 and interrupted(&interrupt))):
                _windows(&codes[0] if codes.shape[0] else NULL, offsets[s], offsets[s + 1], k,
                         base,
                         &out[out_offsets[s]] if out_offsets[s + 1] > out_offsets[s] else NULL)
    if interrupt.stop:
        raise_pending()


cdef void _windows(const int32_t *codes, intp_t start, intp_t stop, int k, uint64_t base,
                   uint64_t *out) noexcept nogil:
    cdef intp_t p
    cdef int t
    cdef uint64_t h = 0
    cdef uint64_t top = 1            # B^k mod 2^64, removes the letter leaving the window
    if stop - start < k:
        return
    for t in range(k):
        top *= base
        h = h * base + <uint64_t>codes[start + t]
    out[0] = h
    for p in range(start + k, stop):
        h = h * base + <uint64_t>codes[p] - <uint64_t>codes[p - k] * top
        out[p - start - k + 1] = h


def count_runs(
    uint64_t[::1] kmers,            # INOUT (n_kmers,) per segment: sorted, distinct codes first
    const intp_t[::1] offsets,      # IN (n_samples + 1,) segments of kmers
    double[::1] counts,             # OUT (n_kmers,) per segment: the multiplicity of each code
    intp_t[::1] n_distinct,         # OUT (n_samples,) distinct codes in each segment
    int n_threads,
):
    """Sort each segment in place and run-length encode it (the sparse spectrum).

    After the call, segment i starts with its ``n_distinct[i]`` distinct codes in increasing
    order, and ``counts`` holds their multiplicities at the same positions.

    Parameters
    ----------
    kmers : ndarray of shape (n_kmers,), dtype uint64
    offsets : ndarray of shape (n_samples + 1,), dtype intp
    counts : ndarray of shape (n_kmers,), dtype float64
    n_distinct : ndarray of shape (n_samples,), dtype intp
    n_threads : int
    """
    cdef intp_t n_samples = offsets.shape[0] - 1
    cdef intp_t s, p, start, stop, w
    # a segment costs a sort of its k-mers (windows × ball in the mismatch kernel): look at the
    # signals every ~CHECK_WORK k-mers
    cdef intp_t segments_per_check = steps_per_check(
        (offsets[n_samples] - offsets[0]) // n_samples if n_samples > 0 else 1)
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil:
        for s in prange(n_samples, schedule='dynamic', num_threads=n_threads):
            start = offsets[s]
            stop = offsets[s + 1]
            n_distinct[s] = 0
            if interrupt.stop or (s % segments_per_check == 0 and interrupted(&interrupt)):
                continue
            if stop > start:
                sort(&kmers[start], stop - start)
                w = start
                counts[w] = 1.0
                for p in range(start + 1, stop):
                    if kmers[p] == kmers[w]:
                        counts[w] += 1.0
                    else:
                        w = w + 1
                        kmers[w] = kmers[p]
                        counts[w] = 1.0
                n_distinct[s] = w - start + 1
    if interrupt.stop:
        raise_pending()


cdef struct SpectraPair:
    const intp_t *indptr_a
    const uint64_t *kmers_a
    const double *counts_a
    const intp_t *indptr_b
    const uint64_t *kmers_b
    const double *counts_b


cdef int _merge_pair(const void *ctx, intp_t i, intp_t j, double *work,
                     double *value, InterruptState *interrupt) noexcept nogil:
    """Merge-join of two sorted spectra: ``Σ_u c_x(u) c_y(u)`` in O(U_x + U_y)."""
    cdef const SpectraPair *sp = <const SpectraPair *>ctx
    cdef intp_t p = sp.indptr_a[i]
    cdef intp_t p_end = sp.indptr_a[i + 1]
    cdef intp_t q = sp.indptr_b[j]
    cdef intp_t q_end = sp.indptr_b[j + 1]
    cdef uint64_t u, v
    cdef double total = 0.0
    while p < p_end and q < q_end:
        u = sp.kmers_a[p]
        v = sp.kmers_b[q]
        if u == v:
            total += sp.counts_a[p] * sp.counts_b[q]
            p += 1
            q += 1
        elif u < v:
            p += 1
        else:
            q += 1
    value[0] = total
    return 0


def gram_merge(
    rows,                           # IN the A spectra: .indptr, .kmers, .counts
    cols,                           # IN the B spectra: .indptr, .kmers, .counts
    double[:, ::1] out,             # OUT (n_a, n_b)
    intp_t row_start, intp_t row_stop,
    bint symmetric,
    int n_threads,
):
    """Spectrum Gram rows ``[row_start, row_stop)`` by merge-joins of sorted spectra.

    Parameters
    ----------
    rows : KmerSpectra or any object with ``indptr``, ``kmers`` and ``counts``
        CSR arrays of the A spectra: ``indptr`` of shape (n_a + 1,), intp; ``kmers`` of shape
        (nnz_a,), uint64, the sorted distinct k-mer codes of each row (codes, not feature ids);
        ``counts`` of shape (nnz_a,), float64.
    cols : the same for the B spectra
    out : ndarray of shape (n_a, n_b), dtype float64
    row_start, row_stop : int
    symmetric : bool
        A is B: pairs are computed once and mirrored.
    n_threads : int
    """
    cdef const intp_t[::1] indptr_a = rows.indptr
    cdef const uint64_t[::1] kmers_a = rows.kmers
    cdef const double[::1] counts_a = rows.counts
    cdef const intp_t[::1] indptr_b = cols.indptr
    cdef const uint64_t[::1] kmers_b = cols.kmers
    cdef const double[::1] counts_b = cols.counts
    cdef SpectraPair ctx
    cdef int status
    cdef intp_t n_marked
    ctx.indptr_a = &indptr_a[0]
    ctx.kmers_a = &kmers_a[0] if kmers_a.shape[0] else NULL
    ctx.counts_a = &counts_a[0] if counts_a.shape[0] else NULL
    ctx.indptr_b = &indptr_b[0]
    ctx.kmers_b = &kmers_b[0] if kmers_b.shape[0] else NULL
    ctx.counts_b = &counts_b[0] if counts_b.shape[0] else NULL
    with nogil:
        status = fill_gram_rows(_merge_pair, &ctx, out, row_start, row_stop, symmetric, 0,
                                n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError("could not allocate the per-thread scratch of the spectrum Gram")
