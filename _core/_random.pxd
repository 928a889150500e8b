# Pseudo-random numbers in nogil code. The splitmix64 generator (Steele, Lea & Flood,
# "Fast splittable pseudorandom number generators", OOPSLA 2014), as in Vigna's reference C, for
# the cores that draw streams of their own (dual coordinate descent, graphlet sampling), and its
# output function alone (`splitmix64_mix`) for the cores that hash (graph decompositions); and
# scikit-learn's 32-bit xorshift for the trees' feature draws, so that a seed grows the same tree
# in both libraries.
#
# The state is one uint64 the caller owns (a seed, one per stream): any value, zero included,
# starts a full-period stream, so a stream per graph or per solve needs no set-up and results
# depend on the seeds only, never on which thread draws. The Python twins in kernelkit.reference
# compute the same streams.
from libc.stdint cimport uint32_t, uint64_t

from _types cimport intp_t

cdef enum:
    XORSHIFT32_MAX = 2147483647  # scikit-learn's RAND_R_MAX: draws lie in [0, 2³¹)


cdef inline uint64_t splitmix64_mix(uint64_t z) noexcept nogil:
    """splitmix64's output function: a bijection of 64-bit words that mixes every bit."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64(uint64_t *state) noexcept nogil:
    """Advance ``state`` by the golden-ratio increment and return its mixed value."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    return splitmix64_mix(state[0])


cdef inline uint64_t splitmix64_below(uint64_t *state, uint64_t bound) noexcept nogil:
    """A draw in ``[0, bound)`` (``bound ≥ 1``): the next value modulo ``bound``.

    Modulo, not rejection: the bias is below ``bound / 2⁶⁴``, negligible for the sizes drawn
    here (indices into arrays), and every call takes exactly one value of the stream, which the
    twins reproduce with the same arithmetic.
    """
    return splitmix64(state) % bound


cdef inline void shuffle_intp(intp_t *items, intp_t n, uint64_t *state) noexcept nogil:
    """Fisher–Yates on ``items[:n]``: ``items[i]`` swapped with ``items[splitmix64_below(i + 1)]``
    for ``i = n−1, …, 1`` (the coordinate descents' random order of an epoch)."""
    cdef intp_t i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <intp_t>splitmix64_below(state, <uint64_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp


cdef inline uint32_t xorshift32(uint32_t *state) noexcept nogil:
    """32-bit xorshift (Marsaglia 2003) reduced to [0, 2³¹), as scikit-learn's ``our_rand_r``
    (a zero state, which xorshift never leaves, is replaced by 1 first)."""
    if state[0] == 0:
        state[0] = 1
    state[0] ^= <uint32_t>(state[0] << 13)
    state[0] ^= <uint32_t>(state[0] >> 17)
    state[0] ^= <uint32_t>(state[0] << 5)
    return state[0] % (<uint32_t>XORSHIFT32_MAX + 1)


cdef inline intp_t xorshift32_between(intp_t low, intp_t high, uint32_t *state) noexcept nogil:
    """A draw in ``[low, high)`` as scikit-learn's ``rand_int``: ``low + xorshift32 % (high − low)``."""
    return low + xorshift32(state) % (high - low)
