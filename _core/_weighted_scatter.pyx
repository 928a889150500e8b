"""Weighted scatter matrices ``Σ_i w_i a_i a_iᵀ`` by blocked symmetric rank-k updates.

The Newton Hessian of the logistic regressions, ``Aᵀ diag(w) A`` (Sangnier, §1.2.1; Peyré,
§16.4.2), with ``a_i = x_i`` or ``(x_i, 1)`` (a model with an intercept), and the weighted
covariances of a Gaussian mixture's M step (Sangnier, Algorithm 8), with ``a_i = x_i − c_j`` and
weights ``w_ij`` for each component ``j`` (a set of weights and a centre). The samples are cut
into blocks of ``block_rows`` rows and the blocks into consecutive slots; each slot, taken by
one OpenMP thread at a time, shifts each block by every set's centre and scales it by the set's
``√w_ij`` into the thread's buffer (with the column of ones after the features) while the block
is in cache, and adds each by one BLAS ``syrk`` (the data are read once for all the sets)
to its own total, in block order. The caller adds the slots' totals in slot order, so the
result depends on the number of rows only, not on the threads. Each ``syrk`` reads the same
buffer values as one of the NumPy twin (:func:`kernelkit.utils._scatter.scatter_matrix_twin`),
so the two give the same bits.
"""

from cython.parallel cimport parallel, prange
from libc.stdlib cimport free, malloc
from scipy.linalg.cython_blas cimport dsyrk, ssyrk

import numpy as np

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport floating, intp_t


cdef void _scale_block(const floating[:, :] X, const floating[::1] root,
                       const floating[::1] centre, bint ones_column, intp_t start, intp_t stop,
                       floating *buffer) noexcept nogil:
    """Rows ``start:stop`` of ``[X − 1cᵀ, 1]`` (or ``X − 1cᵀ``; ``centre`` empty: ``c = 0``)
    times ``√w_i`` (``root`` empty: 1), row-major, into ``buffer``."""
    cdef intp_t i, j, n_features = X.shape[1]
    cdef intp_t width = n_features + ones_column
    cdef bint weighted = root.shape[0] > 0, centred = centre.shape[0] > 0
    cdef floating r
    cdef floating *out
    for i in range(start, stop):
        out = buffer + (i - start) * width
        r = root[i] if weighted else 1
        if centred:
            for j in range(n_features):
                out[j] = (X[i, j] - centre[j]) * r
        elif weighted:
            for j in range(n_features):
                out[j] = X[i, j] * r
        else:
            for j in range(n_features):
                out[j] = X[i, j]
        if ones_column:
            out[n_features] = r


cdef void _rank_k_update(const floating *rows, int n_rows, int width,
                         floating *total) noexcept nogil:
    """``total += rowsᵀ rows`` on the upper triangle of the column-major ``total``: the
    row-major ``(n_rows, width)`` block is the column-major ``(width, n_rows)`` matrix ``A``,
    and ``syrk('U', 'N')`` adds ``A Aᵀ``."""
    cdef char upper = b'U', no_trans = b'N'
    cdef floating one = 1
    if floating is float:
        ssyrk(&upper, &no_trans, &width, &n_rows, &one, <float*>rows, &width, &one, total,
              &width)
    else:
        dsyrk(&upper, &no_trans, &width, &n_rows, &one, <double*>rows, &width, &one, total,
              &width)


def weighted_scatter_slots(
    const floating[:, :] X,            # IN (n_samples, n_features), any strides
    const floating[:, ::1] roots,      # IN (n_sets, n_samples) √w_ij, or (n_sets, 0): w = 1
    const floating[:, ::1] centres,    # IN (n_sets, n_features) c_j, or (n_sets, 0): c = 0
    bint ones_column,                  # IN append a column of ones to X
    intp_t block_rows,                 # IN rows per block
    const intp_t[::1] cuts,            # IN (n_slots + 1,) slot s has blocks cuts[s]..cuts[s+1]
    floating[:, :, :, ::1] totals,     # OUT (n_sets, n_slots, width, width) column-major uppers
    int n_threads,
):
    """Each set's and slot's ``Σ_i w_ij a_i a_iᵀ`` over the slot's blocks (upper triangle,
    column-major: the transpose of ``totals[j, s]`` holds it in its upper triangle); call with
    BLAS on one thread.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64
    roots : ndarray of shape (n_sets, n_samples) or (n_sets, 0), same dtype
    centres : ndarray of shape (n_sets, n_features) or (n_sets, 0), same dtype
    ones_column : bool
    block_rows : int
    cuts : ndarray of shape (n_slots + 1,), intp
    totals : ndarray of shape (n_sets, n_slots, width, width), same dtype, zeros
        ``width = n_features + ones_column``.
    n_threads : int
    """
    cdef intp_t n_samples = X.shape[0], n_slots = cuts.shape[0] - 1, n_sets = roots.shape[0]
    cdef int width = <int>(X.shape[1] + ones_column)
    # the blocks go to BLAS as they are when X is C-contiguous and not scaled or widened
    cdef bint contiguous = (X.strides[1] == sizeof(floating)
                            and X.strides[0] == X.shape[1] * sizeof(floating))
    cdef bint copy = (roots.shape[1] > 0 or ones_column or centres.shape[1] > 0
                      or not contiguous)
    cdef intp_t s, block, start, stop, j
    cdef floating *buffer = NULL
    cdef int[::1] failed = np.zeros(1, dtype=np.intc)   # written by any thread
    cdef InterruptState interrupt
    if roots.shape[1] not in (0, n_samples) or centres.shape[1] not in (0, X.shape[1]) \
            or centres.shape[0] != n_sets or block_rows < 1 or n_slots < 1 \
            or totals.shape[0] != n_sets or totals.shape[1] != n_slots \
            or totals.shape[2] != width or totals.shape[3] != width \
            or cuts[n_slots] * block_rows < n_samples:
        raise ValueError("weighted_scatter_slots: shapes do not match.")
    if width == 0 or n_samples == 0 or n_sets == 0:
        return
    interrupt_init(&interrupt)
    with nogil, parallel(num_threads=max(1, min(n_threads, n_slots))):
        buffer = NULL
        if copy:
            buffer = <floating*>malloc(block_rows * width * sizeof(floating))
            if buffer == NULL:
                failed[0] = 1
        for s in prange(n_slots, schedule="dynamic"):
            if copy and buffer == NULL:
                continue
            for block in range(cuts[s], cuts[s + 1]):
                if interrupted(&interrupt):     # a block is about 0.1 ms of work
                    break
                start = block * block_rows
                stop = min(start + block_rows, n_samples)
                for j in range(n_sets):   # the block stays in cache across the sets
                    if copy:
                        _scale_block(X, roots[j], centres[j], ones_column, start, stop, buffer)
                        _rank_k_update(buffer, <int>(stop - start), width,
                                       &totals[j, s, 0, 0])
                    else:
                        _rank_k_update(&X[start, 0], <int>(stop - start), width,
                                       &totals[j, s, 0, 0])
        free(buffer)
    if interrupt.stop:
        raise_pending()
    if failed[0]:
        raise MemoryError("could not allocate the scatter matrix's block buffer")
