# Partition of a node's samples by its split (the boosting grower, _hist_grower): the node's slice
# of ``sample_indices`` is reordered in place, stably, left child's samples first, so every node
# owns a contiguous slice and the leaves' slices give the training predictions. A numeric split
# sends left the bins ``≤ bin`` (and the missing bin if ``missing_go_left``), a categorical one
# the bins of its bitset (the missing bin among them when missing values go left). The chunks are
# fixed by the node's size, not the thread count. Ctrl-C: the signals are looked at before each
# chunk; an interrupted partition leaves the slice unfinished (the grower then stops).
from cython.parallel cimport parallel, prange
from libc.string cimport memcpy

from _bitset cimport bitset_test
from _hist_grower cimport CHUNK, PARTITION_COST, Grower, Node, SplitInfo
from _interrupt cimport interrupted
from _types cimport int32_t, intp_t, kk_team_for_work, uint8_t


cdef inline bint _goes_left(const uint8_t *column, int32_t i, const SplitInfo *split,
                            bint categorical, intp_t missing_bin) noexcept nogil:
    cdef intp_t b = column[i]
    if categorical:
        return bitset_test(split.left_bins, b)
    if b == missing_bin:
        return split.missing_go_left
    return b <= split.bin


cdef inline void _partition_serial(Grower *g, const Node *node) noexcept nogil:
    """The partition in one pass by one thread: left samples moved down in place, right ones
    into the buffer, then copied after them."""
    cdef intp_t n = node.stop - node.start, n_left = 0, n_right = 0, block, j
    cdef intp_t missing_bin = g.data.missing_bin
    cdef const SplitInfo *split = &node.split
    cdef bint categorical = g.data.is_categorical[node.split.feature]
    cdef const uint8_t *column = g.data.X_binned + node.split.feature * g.data.n_samples
    cdef int32_t *idx = g.work.sample_indices + node.start
    cdef int32_t *buffer = g.work.partition_buffer + node.start
    for block in range((n + CHUNK - 1) // CHUNK):
        if interrupted(g.work.interrupt):
            return
        for j in range(block * CHUNK, min(n, (block + 1) * CHUNK)):
            if _goes_left(column, idx[j], split, categorical, missing_bin):
                idx[n_left] = idx[j]
                n_left += 1
            else:
                buffer[n_right] = idx[j]
                n_right += 1
    memcpy(idx + n_left, buffer, n_right * sizeof(int32_t))


cdef inline void _partition(Grower *g, const Node *node) noexcept nogil:
    """Stable in-place partition of the node's slice: the left child's samples, then the
    right's, each in their previous order. On a team (sized by the work, ``kk_team_for_work``), in
    one parallel region: chunks count their left samples, then write them at their offsets (sums
    of the counts before them) into the buffer, which is then copied back."""
    cdef intp_t start = node.start, n = node.stop - node.start
    cdef intp_t n_chunks = (n + CHUNK - 1) // CHUNK, c, c2, j, j1, n_left_total
    cdef intp_t *counts = g.work.chunk_counts
    cdef intp_t left_at, right_at, missing_bin = g.data.missing_bin
    cdef const SplitInfo *split = &node.split
    cdef bint categorical = g.data.is_categorical[node.split.feature]
    cdef const uint8_t *column = g.data.X_binned + node.split.feature * g.data.n_samples
    cdef int32_t *idx = g.work.sample_indices + start
    cdef int32_t *buffer = g.work.partition_buffer + start
    cdef int team = kk_team_for_work(0.5e-9 * PARTITION_COST * n, g.work.min_work_per_thread,
                                 g.work.n_threads)
    if team == 1:
        _partition_serial(g, node)
        return
    with parallel(num_threads=team):
        for c in prange(n_chunks, schedule='static'):
            if interrupted(g.work.interrupt):
                continue
            counts[c] = 0
            for j in range(c * CHUNK, min(n, (c + 1) * CHUNK)):
                counts[c] += _goes_left(column, idx[j], split, categorical, missing_bin)
        # after the loop's barrier every thread sees a stop any of them saw
        for c in prange(n_chunks, schedule='static'):
            if g.work.interrupt.stop:
                continue   # the counts are unfinished
            left_at = 0
            n_left_total = 0
            for c2 in range(n_chunks):
                if c2 < c:
                    left_at = left_at + counts[c2]
                n_left_total = n_left_total + counts[c2]
            right_at = n_left_total + c * CHUNK - left_at
            j1 = min(n, (c + 1) * CHUNK)
            for j in range(c * CHUNK, j1):
                if _goes_left(column, idx[j], split, categorical, missing_bin):
                    buffer[left_at] = idx[j]
                    left_at = left_at + 1
                else:
                    buffer[right_at] = idx[j]
                    right_at = right_at + 1
        for c in prange(n_chunks, schedule='static'):
            if not g.work.interrupt.stop:
                j1 = min(n, (c + 1) * CHUNK)
                memcpy(idx + c * CHUNK, buffer + c * CHUNK, (j1 - c * CHUNK) * sizeof(int32_t))
