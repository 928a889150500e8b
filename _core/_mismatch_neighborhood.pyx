"""Mismatch neighbourhoods of k-mers (mismatch kernel, Leslie et al., NIPS 2002 / Bioinformatics 2004).

Mairal & Vert, "Example: substring indexation" (mismatch bullet).

``Φ_u(x) = #{i : Hamming(x_{i..i+k−1}, u) ≤ m}``: every window of x contributes one count to each
k-mer of its Hamming ball of radius m. The ball is enumerated explicitly (the leaves a mismatch-tree
traversal would reach for this window): substituting letter ``b`` for ``c`` at position t changes the
code of ``_spectrum_gram.pyx`` by ``(b − c)·B^{k−1−t}``, so each neighbour costs O(1). The ball has
``Σ_{j≤m} C(k, j)(a−1)^j`` members, each enumerated once (positions are substituted in increasing
order). The resulting multiset per sequence is counted by ``_spectrum_gram.count_runs`` and the
Gram is the spectrum Gram of these counts; m = 0 gives back the spectrum kernel exactly.
"""

from cython.parallel cimport prange

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending, steps_per_check
from _types cimport intp_t, int32_t, uint64_t


def mismatch_codes(
    const int32_t[::1] codes,        # IN (total_length,) letter codes, concatenated
    const intp_t[::1] offsets,       # IN (n_samples + 1,)
    const uint64_t[::1] windows,     # IN (n_windows,) k-mer codes from _spectrum.kmer_codes
    const intp_t[::1] window_offsets,  # IN (n_samples + 1,)
    dict ball,                       # IN k, m, n_letters, powers, size: the Hamming ball
    uint64_t[::1] out,               # OUT (n_windows * ball["size"],) ball codes of every window
    int n_threads,
):
    """Codes of the radius-m Hamming ball of every k-mer window, ball after ball.

    Parameters
    ----------
    codes : ndarray of shape (total_length,), dtype int32
    offsets : ndarray of shape (n_samples + 1,), dtype intp
    windows : ndarray of shape (n_windows,), dtype uint64
    window_offsets : ndarray of shape (n_samples + 1,), dtype intp
    ball : dict
        ``k``, ``m``, ``n_letters`` (int): k-mer length, radius, alphabet size; ``powers``,
        ndarray of shape (k,), uint64: B^0, B^1, ..., B^{k-1} (mod 2^64); ``size`` (int): the
        members of one ball.
    out : ndarray of shape (n_windows * size,), dtype uint64
    n_threads : int
    """
    cdef int k = ball["k"], m = ball["m"], n_letters = ball["n_letters"]
    cdef const uint64_t[::1] powers = ball["powers"]
    cdef intp_t ball_size = ball["size"]
    cdef intp_t n_samples = offsets.shape[0] - 1
    cdef intp_t s, w, start
    cdef intp_t windows_per_check = steps_per_check(ball_size)
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    with nogil:
        for s in prange(n_samples, schedule='dynamic', num_threads=n_threads):
            start = offsets[s]
            for w in range(window_offsets[s], window_offsets[s + 1]):
                if (w - window_offsets[s]) % windows_per_check == 0 and interrupted(&interrupt):
                    break
                _ball(windows[w], &codes[start + w - window_offsets[s]], 0, k, m, n_letters,
                      &powers[0], &out[w * ball_size], 0)
    if interrupt.stop:
        raise_pending()


cdef intp_t _ball(uint64_t h, const int32_t *letters, int first, int k, int m_left,
                  int n_letters, const uint64_t *powers, uint64_t *out,
                  intp_t pos) noexcept nogil:
    """Write h and every code reached by ≤ m_left substitutions at positions ≥ first."""
    cdef int t, b
    cdef uint64_t weight
    out[pos] = h
    pos += 1
    if m_left == 0:
        return pos
    for t in range(first, k):
        weight = powers[k - 1 - t]
        for b in range(n_letters):
            if b != letters[t]:
                # unsigned arithmetic wraps mod 2^64, matching the code definition
                pos = _ball(h + <uint64_t>b * weight - <uint64_t>letters[t] * weight, letters,
                            t + 1, k, m_left - 1, n_letters, powers, out, pos)
    return pos
