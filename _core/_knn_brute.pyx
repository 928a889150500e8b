"""k nearest neighbours by brute force: blocked GEMM distances fused with a bounded heap per query.

Squared distances ``‖q‖² + ‖x‖² − 2 q·x`` are computed for a block of queries against a block of
training rows by one GEMM (scipy's BLAS), and each is offered at once to its query's heap of the
``k`` best so far (a max-heap on ``(distance, index)``: the worst kept neighbour at the root, so
a candidate costs one comparison unless it enters). Memory is ``QUERY_BLOCK × TRAIN_BLOCK``
floats per thread, whatever the data size; no distance matrix is ever stored. Neighbours are
ordered by distance, then by training index: the order, hence every result, does not depend on
the thread count (each query is handled by exactly one thread). Distances below 0 from rounding
are clipped to 0.

Sangnier, *Introduction to machine learning*, §1.6.1; Peyré, *Mathematical Foundations of Data
Sciences*, ch. 16, §16.4.1 ("fast nearest neighbor search methods may replace sorting").
"""

from cython.parallel cimport parallel, prange
from libc.math cimport INFINITY, sqrt
from libc.stdlib cimport free, malloc
from scipy.linalg.cython_blas cimport dgemm, sgemm

from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _types cimport floating, intp_t

cdef enum:
    QUERY_BLOCK = 256
    TRAIN_BLOCK = 1024


cdef inline bint _after(double da, intp_t ia, double db, intp_t ib) noexcept nogil:
    """``(da, ia)`` ranks after ``(db, ib)``: farther, or as far with a larger index."""
    return da > db or (da == db and ia > ib)


cdef inline void _sift_down(double *dist, intp_t *idx, intp_t pos, intp_t size) noexcept nogil:
    cdef intp_t child
    cdef double d = dist[pos]
    cdef intp_t i = idx[pos]
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and _after(dist[child + 1], idx[child + 1], dist[child], idx[child]):
            child += 1
        if not _after(dist[child], idx[child], d, i):
            break
        dist[pos] = dist[child]
        idx[pos] = idx[child]
        pos = child
    dist[pos] = d
    idx[pos] = i


cdef inline void _offer(double *dist, intp_t *idx, intp_t k, double d, intp_t i) noexcept nogil:
    """Keep ``(d, i)`` among the ``k`` best if it beats the worst kept (the root)."""
    if _after(dist[0], idx[0], d, i):
        dist[0] = d
        idx[0] = i
        _sift_down(dist, idx, 0, k)


cdef inline void _sorted(double *dist, intp_t *idx, intp_t k) noexcept nogil:
    """Heap sort of a max-heap in place: ascending ``(distance, index)``."""
    cdef intp_t end
    cdef double d
    cdef intp_t i
    for end in range(k - 1, 0, -1):
        d = dist[0]
        i = idx[0]
        dist[0] = dist[end]
        idx[0] = idx[end]
        dist[end] = d
        idx[end] = i
        _sift_down(dist, idx, 0, end)


cdef inline void _reset(double *dist, intp_t *idx, intp_t k, intp_t sentinel) noexcept nogil:
    cdef intp_t j
    for j in range(k):
        dist[j] = INFINITY
        idx[j] = sentinel


cdef void _squared_norms(const floating *X, intp_t n, intp_t d, double *out) noexcept nogil:
    cdef intp_t i, j
    cdef double s
    for i in range(n):
        s = 0.0
        for j in range(d):
            s += <double>X[i * d + j] * X[i * d + j]
        out[i] = s


cdef void _query_block(
    const floating *Q, const floating *X, const double *q_norms, const double *x_norms,
    intp_t q0, intp_t q1, intp_t n_train, int d, intp_t k,
    floating *dots, double *out_dist, intp_t *out_idx,
    const double *Q64, const double *X64, const double *q_lengths, const double *x_lengths,
    double slack, InterruptState *interrupt,
) noexcept nogil:
    """Neighbours of queries ``[q0, q1)``, heaps in ``out_dist``/``out_idx`` rows.

    Without ``X64`` (NULL), the block products of ``Q`` and ``X`` give the distances. With it
    (float32 ``Q``/``X``, their float64 originals ``Q64``/``X64``), the products only screen the
    candidates: one whose distance, less its error bound ``slack ‖q‖ ‖x‖``, cannot beat the
    current k-th best is skipped; the others get their exact distance ``Σ_j (q_j − x_j)²`` in
    double precision, the value the heap compares. Looks at the signals between training blocks
    and stops early (the rows are then unfinished) when interrupted.
    """
    cdef char trans = b'T'
    cdef char no_trans = b'N'
    cdef floating one = 1.0
    cdef floating zero = 0.0
    cdef int m = <int>(q1 - q0), nt
    cdef intp_t t0, t1, qi, tj, q, t, j
    cdef double dd, diff
    cdef double *row_dist
    cdef intp_t *row_idx
    for qi in range(q0, q1):
        _reset(out_dist + qi * k, out_idx + qi * k, k, n_train)
    t0 = 0
    while t0 < n_train:
        if interrupted(interrupt):
            return
        t1 = min(t0 + TRAIN_BLOCK, n_train)
        nt = <int>(t1 - t0)
        # dots[qi * nt + tj] = q_qi · x_tj (column-major dotsᵀ = X_block · Q_blockᵀ)
        if floating is float:
            sgemm(&trans, &no_trans, &nt, &m, &d, &one, <float*>(X + t0 * d), &d,
                  <float*>(Q + q0 * d), &d, &zero, <float*>dots, &nt)
        else:
            dgemm(&trans, &no_trans, &nt, &m, &d, &one, <double*>(X + t0 * d), &d,
                  <double*>(Q + q0 * d), &d, &zero, <double*>dots, &nt)
        for qi in range(m):
            q = q0 + qi
            row_dist = out_dist + q * k
            row_idx = out_idx + q * k
            for tj in range(nt):
                t = t0 + tj
                dd = q_norms[q] + x_norms[t] - 2.0 * dots[qi * nt + tj]
                if X64 != NULL:
                    if dd - slack * q_lengths[q] * x_lengths[t] > row_dist[0]:
                        continue
                    dd = 0.0
                    for j in range(d):
                        diff = Q64[q * d + j] - X64[t * d + j]
                        dd += diff * diff
                elif dd < 0.0:
                    dd = 0.0
                if dd <= row_dist[0]:
                    _offer(row_dist, row_idx, k, dd, t)
        t0 = t1
    for qi in range(q0, q1):
        _sorted(out_dist + qi * k, out_idx + qi * k, k)


def knn_brute(
    const floating[:, ::1] Q,       # IN (n_queries, n_features)
    const floating[:, ::1] X,       # IN (n_train, n_features)
    intp_t[:, ::1] out_idx,         # OUT (n_queries, k) training indices, nearest first
    double[:, ::1] out_dist,        # OUT (n_queries, k) squared distances
    int n_threads,
):
    """The ``k = out_idx.shape[1]`` nearest training rows of every query (squared Euclidean
    distances; see the module docstring). ``1 <= k <= n_train``."""
    cdef intp_t n_q = Q.shape[0], n_train = X.shape[0], k = out_idx.shape[1]
    cdef int d = <int>Q.shape[1]
    cdef intp_t n_blocks = (n_q + QUERY_BLOCK - 1) // QUERY_BLOCK
    cdef intp_t b, q0, next_block = 0, n_done = 0
    cdef InterruptState interrupt
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef floating *dots = NULL
    cdef double *q_norms
    cdef double *x_norms
    if n_q == 0:
        return
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    q_norms = <double*>malloc(n_q * sizeof(double))
    x_norms = <double*>malloc(n_train * sizeof(double))
    try:
        if q_norms == NULL or x_norms == NULL:
            raise MemoryError("could not allocate the squared norms of the k-NN search")
        interrupt_init(&interrupt)
        with nogil:
            _squared_norms(&Q[0, 0], n_q, d, q_norms)
            _squared_norms(&X[0, 0], n_train, d, x_norms)
            with parallel(num_threads=n_threads):
                dots = <floating*>malloc(QUERY_BLOCK * TRAIN_BLOCK * sizeof(floating))
                if dots == NULL:
                    status_ptr[0] = -1
                # query blocks taken by hand (not prange): a thread out of blocks waits in
                # leave_team, where the first thread keeps looking at the signals
                while dots != NULL:
                    b = next_item(&next_block)
                    if b >= n_blocks or interrupt.stop:
                        break
                    q0 = b * QUERY_BLOCK
                    _query_block(&Q[0, 0], &X[0, 0], q_norms, x_norms, q0,
                                 min(q0 + QUERY_BLOCK, n_q), n_train, d, k, dots,
                                 &out_dist[0, 0], &out_idx[0, 0], NULL, NULL, NULL, NULL,
                                 0.0, &interrupt)
                free(dots)
                leave_team(&interrupt, &n_done)
        if interrupt.stop:
            raise_pending()
        if status != 0:
            raise MemoryError("could not allocate the per-thread distance block of the k-NN search")
    finally:
        free(q_norms)
        free(x_norms)


def knn_brute_screened(
    const double[:, ::1] Q,         # IN (n_queries, n_features)
    const double[:, ::1] X,         # IN (n_train, n_features)
    const float[:, ::1] Q32,        # IN Q rounded to float32
    const float[:, ::1] X32,        # IN X rounded to float32
    intp_t[:, ::1] out_idx,         # OUT (n_queries, k)
    double[:, ::1] out_dist,        # OUT (n_queries, k) exact squared distances
    int n_threads,
):
    """The exact neighbours of :func:`knn_brute` for float64 data, with float32 block products
    as a filter. The float32 distance of ``q`` and ``x`` is within ``2 (d + 4) u ‖q‖ ‖x‖`` of
    the true one (``u = 2⁻²⁴``: rounding of the inputs and of a length-``d`` dot product, in any
    summation order; Higham, *Accuracy and Stability of Numerical Algorithms*, §3.1); twice that
    is the slack, so no true neighbour is ever skipped, and every distance compared is computed
    exactly. The neighbours are those of the direct differences, ordered by distance then
    index."""
    cdef intp_t n_q = Q.shape[0], n_train = X.shape[0], k = out_idx.shape[1]
    cdef int d = <int>Q.shape[1]
    cdef intp_t n_blocks = (n_q + QUERY_BLOCK - 1) // QUERY_BLOCK
    cdef intp_t b, q0, i, next_block = 0, n_done = 0
    cdef InterruptState interrupt
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef float *dots = NULL
    cdef double slack = 4.0 * (d + 4) * 5.960464477539063e-08
    cdef double *q_norms
    cdef double *x_norms
    cdef double *q_lengths
    cdef double *x_lengths
    if n_q == 0:
        return
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    q_norms = <double*>malloc(2 * n_q * sizeof(double))
    x_norms = <double*>malloc(2 * n_train * sizeof(double))
    try:
        if q_norms == NULL or x_norms == NULL:
            raise MemoryError("could not allocate the squared norms of the k-NN search")
        q_lengths = q_norms + n_q
        x_lengths = x_norms + n_train
        interrupt_init(&interrupt)
        with nogil:
            _squared_norms(&Q[0, 0], n_q, d, q_norms)
            _squared_norms(&X[0, 0], n_train, d, x_norms)
            for i in range(n_q):
                q_lengths[i] = sqrt(q_norms[i])
            for i in range(n_train):
                x_lengths[i] = sqrt(x_norms[i])
            with parallel(num_threads=n_threads):
                dots = <float*>malloc(QUERY_BLOCK * TRAIN_BLOCK * sizeof(float))
                if dots == NULL:
                    status_ptr[0] = -1
                # query blocks taken by hand (not prange): a thread out of blocks waits in
                # leave_team, where the first thread keeps looking at the signals
                while dots != NULL:
                    b = next_item(&next_block)
                    if b >= n_blocks or interrupt.stop:
                        break
                    q0 = b * QUERY_BLOCK
                    _query_block(&Q32[0, 0], &X32[0, 0], q_norms, x_norms, q0,
                                 min(q0 + QUERY_BLOCK, n_q), n_train, d, k, dots,
                                 &out_dist[0, 0], &out_idx[0, 0], &Q[0, 0], &X[0, 0],
                                 q_lengths, x_lengths, slack, &interrupt)
                free(dots)
                leave_team(&interrupt, &n_done)
        if interrupt.stop:
            raise_pending()
        if status != 0:
            raise MemoryError("could not allocate the per-thread distance block of the k-NN search")
    finally:
        free(q_norms)
        free(x_norms)


def knn_select(
    const double[:, ::1] D,         # IN (n_queries, n_train) squared distances (or any scores)
    intp_t[:, ::1] out_idx,         # OUT (n_queries, k), smallest first
    double[:, ::1] out_dist,        # OUT (n_queries, k)
    int n_threads,
):
    """The ``k = out_idx.shape[1]`` smallest entries of every row of ``D`` with their column
    indices, ordered by value then index (the heap of :func:`knn_brute` on given distances)."""
    cdef intp_t n_q = D.shape[0], n_train = D.shape[1], k = out_idx.shape[1]
    cdef intp_t q, t
    with nogil:
        for q in prange(n_q, schedule='dynamic', chunksize=16, num_threads=n_threads):
            _reset(&out_dist[q, 0], &out_idx[q, 0], k, n_train)
            for t in range(n_train):
                if D[q, t] <= out_dist[q, 0]:
                    _offer(&out_dist[q, 0], &out_idx[q, 0], k, D[q, t], t)
            _sorted(&out_dist[q, 0], &out_idx[q, 0], k)
