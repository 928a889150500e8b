# Partition of a node's samples by its split (the boosting grower, _hist_grower): the node's slice
# of ``sample_indices`` is reordered in place, stably, left child's samples first, so every node
# owns a contiguous slice and the leaves' slices give the training predictions. A numeric split
# sends left the bins ``≤ bin`` (and the missing bin if ``missing_go_left``), a categorical one
# the bins of its bitset (the missing bin among them when missing values go left). The chunks are
# fixed by the node's size, not the thread count. Ctrl-C: the signals are looked at before each
# chunk; an interrupted partition leaves the slice as it was.
from cython.parallel cimport prange
from libc.string cimport memcpy

from _bitset cimport bitset_test
from _hist_grower cimport CHUNK, MIN_PARALLEL_SAMPLES, Grower, Node, SplitInfo
from _interrupt cimport interrupted
from _types cimport int32_t, intp_t, uint8_t


cdef inline bint _goes_left(const uint8_t *column, int32_t i, const SplitInfo *split,
                            bint categorical, intp_t missing_bin) noexcept nogil:
    cdef intp_t b = column[i]
    if categorical:
        return bitset_test(split.left_bins, b)
    if b == missing_bin:
        return split.missing_go_left
    return b <= split.bin


cdef inline void _partition(Grower *g, const Node *node) noexcept nogil:
    """Stable in-place partition of the node's slice: the left child's samples, then the
    right's, each in their previous order. Chunks count their left samples, then write at their
    offsets (prefix sums), in parallel."""
    cdef intp_t start = node.start, n = node.stop - node.start
    cdef intp_t n_chunks = (n + CHUNK - 1) // CHUNK, c, j, j1, n_left_total
    cdef intp_t *offsets = g.work.chunk_offsets
    cdef intp_t *right_offsets = offsets + n_chunks + 1
    cdef intp_t left_at, right_at, missing_bin = g.data.missing_bin
    cdef const SplitInfo *split = &node.split
    cdef bint categorical = g.data.is_categorical[node.split.feature]
    cdef const uint8_t *column = g.data.X_binned + node.split.feature * g.data.n_samples
    cdef int32_t *idx = g.work.sample_indices + start
    cdef int32_t *buffer = g.work.partition_buffer + start
    cdef int n_threads = g.work.n_threads if n >= MIN_PARALLEL_SAMPLES else 1
    for c in prange(n_chunks, num_threads=n_threads, schedule='static'):
        if interrupted(g.work.interrupt):
            continue
        j1 = min(n, (c + 1) * CHUNK)
        offsets[c + 1] = 0
        for j in range(c * CHUNK, j1):
            offsets[c + 1] += _goes_left(column, idx[j], split, categorical, missing_bin)
    if g.work.interrupt.stop:
        return   # the counts are unfinished
    offsets[0] = 0
    for c in range(n_chunks):
        offsets[c + 1] += offsets[c]
    n_left_total = offsets[n_chunks]
    for c in range(n_chunks):
        right_offsets[c] = n_left_total + c * CHUNK - offsets[c]
    for c in prange(n_chunks, num_threads=n_threads, schedule='static'):
        if interrupted(g.work.interrupt):
            continue
        left_at = offsets[c]
        right_at = right_offsets[c]
        j1 = min(n, (c + 1) * CHUNK)
        for j in range(c * CHUNK, j1):
            if _goes_left(column, idx[j], split, categorical, missing_bin):
                buffer[left_at] = idx[j]
                left_at = left_at + 1
            else:
                buffer[right_at] = idx[j]
                right_at = right_at + 1
    if g.work.interrupt.stop:
        return   # the buffer is unfinished: the slice stays as it was
    memcpy(idx, buffer, n * sizeof(int32_t))
