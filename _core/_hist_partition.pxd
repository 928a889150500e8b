# Partition of a node's samples by its split (the boosting grower, _hist_grower): the node's slice
# of ``sample_indices`` is reordered in place, stably, left child's samples first, so every node
# owns a contiguous slice and the leaves' slices give the training predictions. A numeric split
# sends left the bins ``≤ bin`` (and the missing bin if ``missing_go_left``), a categorical one
# the bins of its bitset (the missing bin among them when missing values go left); both are read
# from one table of the 256 bins, and each sample is written to both sides' next slots with only
# one of them advanced, so the pass has no branch on the data (a branch on the bin costs a
# mispredicted jump on about half the samples). The chunks are fixed by the node's size, not the
# thread count. Ctrl-C: the signals are looked at before each chunk; an interrupted partition
# leaves the slice unfinished (the grower then stops).
from cython.parallel cimport parallel, prange
from libc.string cimport memcpy

from _bitset cimport bitset_test
from _hist_grower cimport CHUNK, N_BINS, PARTITION_COST, Grower, Node
from _interrupt cimport interrupted
from _types cimport int32_t, intp_t, kk_team_for_work, uint8_t


cdef inline void _left_table(const Grower *g, const Node *node, uint8_t *goes_left) noexcept nogil:
    """``goes_left[b]``: 1 when the node's split sends bin ``b`` left."""
    cdef intp_t b
    for b in range(N_BINS):
        if g.data.is_categorical[node.split.feature]:
            goes_left[b] = bitset_test(node.split.left_bins, b)
        elif b == g.data.missing_bin:
            goes_left[b] = node.split.missing_go_left
        else:
            goes_left[b] = b <= node.split.bin


cdef inline intp_t _split_chunk(const uint8_t *column, const uint8_t *goes_left,
                                const int32_t *idx, intp_t n, int32_t *left,
                                int32_t *right_end) noexcept nogil:
    """The ``n`` samples ``idx`` by side: the left ones to ``left[0], left[1], …`` in order, the
    right ones to ``right_end[-1], right_end[-2], …`` (reversed). Returns the number of left
    samples. ``left`` may be ``idx`` itself (a left sample never overtakes its reader)."""
    cdef intp_t j, n_left = 0, n_right = 0
    cdef int32_t i
    cdef uint8_t side
    for j in range(n):
        i = idx[j]
        side = goes_left[column[i]]
        left[n_left] = i
        right_end[-1 - n_right] = i
        n_left += side
        n_right += 1 - side
    return n_left


cdef inline void _copy_reversed(const int32_t *source_end, intp_t n, int32_t *out) noexcept nogil:
    """``out[k] = source_end[-1 - k]`` for ``k < n``."""
    cdef intp_t k
    for k in range(n):
        out[k] = source_end[-1 - k]


cdef inline void _partition_serial(Grower *g, const Node *node,
                                   const uint8_t *goes_left) noexcept nogil:
    """The partition by one thread: left samples moved down in place, right ones into the end of
    the buffer (reversed), then copied after them."""
    cdef intp_t n = node.stop - node.start, n_left = 0, block, j0, j1
    cdef const uint8_t *column = g.data.X_binned + node.split.feature * g.data.n_samples
    cdef int32_t *idx = g.work.sample_indices + node.start
    cdef int32_t *buffer_end = g.work.partition_buffer + node.stop
    for block in range((n + CHUNK - 1) // CHUNK):
        if interrupted(g.work.interrupt):
            return
        j0 = block * CHUNK
        j1 = min(n, j0 + CHUNK)
        n_left += _split_chunk(column, goes_left, idx + j0, j1 - j0, idx + n_left,
                               buffer_end - (j0 - n_left))
    _copy_reversed(buffer_end, n - n_left, idx + n_left)


cdef inline void _partition(Grower *g, const Node *node) noexcept nogil:
    """Stable in-place partition of the node's slice: the left child's samples, then the
    right's, each in their previous order. On a team (sized by the work, ``kk_team_for_work``), in
    one parallel region: each chunk splits its samples into its own part of the buffer (left ones
    from its start, right ones from its end) and counts its left ones; then each chunk copies its
    two sides back to their places, found from the counts before it."""
    cdef intp_t start = node.start, n = node.stop - node.start
    cdef intp_t n_chunks = (n + CHUNK - 1) // CHUNK, c, c2, j0, j1, n_left_total
    cdef intp_t *counts = g.work.chunk_counts
    cdef intp_t left_at
    cdef uint8_t goes_left[N_BINS]
    cdef const uint8_t *column = g.data.X_binned + node.split.feature * g.data.n_samples
    cdef int32_t *idx = g.work.sample_indices + start
    cdef int32_t *buffer = g.work.partition_buffer + start
    cdef int team = kk_team_for_work(0.5e-9 * PARTITION_COST * n, g.work.min_work_per_thread,
                                     g.work.n_threads)
    _left_table(g, node, goes_left)
    if team == 1:
        _partition_serial(g, node, goes_left)
        return
    with parallel(num_threads=team):
        for c in prange(n_chunks, schedule='static'):
            if interrupted(g.work.interrupt):
                continue
            j0 = c * CHUNK
            j1 = min(n, j0 + CHUNK)
            counts[c] = _split_chunk(column, goes_left, idx + j0, j1 - j0, buffer + j0,
                                     buffer + j1)
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
            j0 = c * CHUNK
            j1 = min(n, j0 + CHUNK)
            memcpy(idx + left_at, buffer + j0, counts[c] * sizeof(int32_t))
            _copy_reversed(buffer + j1, j1 - j0 - counts[c],
                           idx + n_left_total + j0 - left_at)
