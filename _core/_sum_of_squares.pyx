"""``Σ x²`` of a contiguous array in one pass on the calling thread.

The one-pass finiteness and scale test of the estimators that take Euclidean distances
(``kernelkit.utils._validation.validate_distance_data``): the sum is NaN or infinite when an entry
is, and bounds ``max x²`` from above. Eight running sums in float64, of the entries ``i ≡ r
(mod 8)`` (independent chains of additions, which the compiler pairs into SIMD registers), added
as ``((s₀ + s₁) + (s₂ + s₃)) + ((s₄ + s₅) + (s₆ + s₇))``: the order of the NumPy twin
(``kernelkit.reference.sum_of_squares``), so the two give the same bits. A BLAS dot product gives
the same test, but only in chunks (OpenBLAS runs a long one on its thread team, whose threads
then spin and take the cores from the OpenMP team that follows): 8 192-entry chunks from Python
took 1.5–2.4× this pass's time on float64 (quiet machine, 1 000 × 12 to 300 000 × 12).
"""

from _interrupt cimport CHECK_WORK, InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport floating, intp_t


cdef enum:
    LANES = 8


cdef double _sum_of_squares(const floating *x, intp_t n, InterruptState *state) noexcept nogil:
    """The running sums over ``x[:n]``, the signals looked at every CHECK_WORK entries."""
    cdef double sums[LANES]
    cdef double v
    cdef intp_t block, i, k, r, r1, n_full = n - n % LANES
    for k in range(LANES):
        sums[k] = 0.0
    for block in range((n_full + CHECK_WORK - 1) // CHECK_WORK):
        if interrupted(state):
            return 0.0
        r1 = min(n_full, (block + 1) * CHECK_WORK) // LANES
        for r in range(block * CHECK_WORK // LANES, r1):   # rows of LANES entries
            for k in range(LANES):
                v = x[r * LANES + k]
                sums[k] += v * v
    for i in range(n_full, n):
        v = x[i]
        sums[i - n_full] += v * v
    return (((sums[0] + sums[1]) + (sums[2] + sums[3]))
            + ((sums[4] + sums[5]) + (sums[6] + sums[7])))


def sum_of_squares(
    const floating[::1] x,              # IN (n,)
):
    """``Σ x_i²`` in float64 (inf or NaN when an entry is) of a 1-d contiguous float32 or
    float64 array; Ctrl-C stops it."""
    cdef InterruptState state
    cdef double total = 0.0
    interrupt_init(&state)
    if x.shape[0]:
        with nogil:
            total = _sum_of_squares(&x[0], x.shape[0], &state)
    if state.stop:
        raise_pending()
    return total
