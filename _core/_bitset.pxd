# Sets of uint8 codes (bins, small integer categories) as bitsets of 256 bits: 8 × uint32, bit
# ``i % 32`` of word ``i // 32`` set when ``i`` is in the set. Histogram gradient boosting's
# categorical splits keep the bins (in the grower) and the raw categories (in the predictor) that
# go left in one such bitset per split node, and the predictor the known categories of each
# feature.
from _types cimport intp_t, uint32_t

cdef enum:
    BITSET_WORDS = 8     # 8 × 32 bits: one bit per uint8 code


cdef inline void bitset_clear(uint32_t *bitset) noexcept nogil:
    cdef intp_t w
    for w in range(BITSET_WORDS):
        bitset[w] = 0


cdef inline void bitset_set(uint32_t *bitset, intp_t i) noexcept nogil:
    bitset[i >> 5] |= (<uint32_t> 1) << (i & 31)


cdef inline bint bitset_test(const uint32_t *bitset, intp_t i) noexcept nogil:
    return (bitset[i >> 5] >> (i & 31)) & 1
