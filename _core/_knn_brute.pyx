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
from libc.math cimport sqrt
from libc.stdlib cimport free, malloc

from _distances cimport (GEMM_TERMS, gemm_abt, gemm_rounding, row_squared_norms,
                         squared_distance_from_dot)
from _interrupt cimport (InterruptState, interrupt_init, interrupted, leave_team, next_item,
                        raise_pending)
from _knn_heap cimport heap_offer, heap_reset, heap_sorted
from _knn_lanes cimport any_candidate
from _types cimport floating, intp_t

cdef enum:
    QUERY_BLOCK = 256
    TRAIN_BLOCK = 1024
    # training rows per vectorised candidate test
    SCAN_CHUNK = 64


cdef struct Search:
    # A brute-force search, shared by the threads (set once in _search).
    const double *Q64           # (n_q, d) float64 originals of a float32 Q, or NULL
    const double *X64           # (n_train, d) float64 originals of a float32 X, or NULL
    const double *q_norms       # (n_q,) ‖q‖²
    const double *x_norms       # (n_train,) ‖x‖²
    const double *q_lengths     # (n_q,) ‖q‖ when screened, else NULL
    const double *x_lengths     # (n_train,) ‖x‖ when screened, else NULL
    double slack                # the screen's bound on the product term, relative to ‖q‖ ‖x‖
    intp_t n_train
    int d
    intp_t k
    intp_t *out_idx             # OUT (n_q, k)
    double *out_dist            # OUT (n_q, k)


cdef void _query_block(
    const Search *s,
    const floating *Q,          # IN (n_q, d) the queries in the GEMM's precision
    const floating *X,          # IN (n_train, d) the training rows in the GEMM's precision
    intp_t q0, intp_t q1,       # the block's queries
    floating *dots,             # scratch (QUERY_BLOCK, TRAIN_BLOCK)
    InterruptState *interrupt,
) noexcept nogil:
    """Neighbours of queries ``[q0, q1)``, heaps in ``out_dist``/``out_idx`` rows.

    Without ``X64`` (NULL), the block products of ``Q`` and ``X`` give the distances. With it
    (float32 ``Q``/``X``, their float64 originals ``Q64``/``X64``), the products only screen the
    candidates: one whose distance, less its error bound ``slack ‖q‖ ‖x‖``, cannot beat the
    current k-th best is skipped; the others get their exact distance ``Σ_j (q_j − x_j)²`` in
    double precision, the value the heap compares. Looks at the signals between training blocks
    and stops early (the rows are then unfinished) when interrupted.
    """
    cdef intp_t n_train = s.n_train, k = s.k
    cdef int d = s.d
    cdef const double *q_norms = s.q_norms
    cdef const double *x_norms = s.x_norms
    cdef const double *q_lengths = s.q_lengths
    cdef const double *x_lengths = s.x_lengths
    cdef const double *Q64 = s.Q64
    cdef const double *X64 = s.X64
    cdef double slack = s.slack
    cdef double *out_dist = s.out_dist
    cdef intp_t *out_idx = s.out_idx
    cdef int m = <int>(q1 - q0), nt
    cdef intp_t t0, t1, qi, tj, q, t, j, c0, c1
    cdef double dd, diff, bound_scale
    cdef double *row_dist
    cdef intp_t *row_idx
    for qi in range(q0, q1):
        heap_reset(out_dist + qi * k, out_idx + qi * k, k, n_train)
    t0 = 0
    while t0 < n_train:
        if interrupted(interrupt):
            return
        t1 = min(t0 + TRAIN_BLOCK, n_train)
        nt = <int>(t1 - t0)
        # dots[qi * nt + tj] = q_qi · x_tj
        gemm_abt(Q + q0 * d, m, X + t0 * d, nt, d, 1.0, 0.0, dots, nt)
        for qi in range(m):
            q = q0 + qi
            row_dist = out_dist + q * k
            row_idx = out_idx + q * k
            bound_scale = slack * q_lengths[q] if q_lengths != NULL else 0.0
            c1 = 0
            while c1 < nt:
                c0 = c1
                c1 = min(c0 + SCAN_CHUNK, nt)
                # most chunks hold no candidate once the heap is full: one vectorised test
                # (the scalar tests below, on the chunk's first k-th distance) skips them
                if not any_candidate(dots + qi * nt + c0, x_norms + t0 + c0,
                                      x_lengths + t0 + c0 if x_lengths != NULL else NULL,
                                      c1 - c0,
                                      q_norms[q], bound_scale, row_dist[0]):
                    continue
                # the two searches in two loops: a test of x_lengths inside the loop costs the
                # plain float64 search ~14 % (measured), the compiler does not unswitch it
                if x_lengths == NULL:
                    for tj in range(c0, c1):
                        dd = squared_distance_from_dot(q_norms[q], x_norms[t0 + tj],
                                                       dots[qi * nt + tj])
                        if dd <= row_dist[0]:
                            heap_offer(row_dist, row_idx, k, dd, t0 + tj)
                    continue
                for tj in range(c0, c1):
                    t = t0 + tj
                    # clamped at 0: a screened pair is skipped for the same values as unclamped
                    # (the kept distances are never negative)
                    dd = squared_distance_from_dot(q_norms[q], x_norms[t], dots[qi * nt + tj])
                    if dd - bound_scale * x_lengths[t] > row_dist[0]:
                        continue
                    dd = 0.0
                    if X64 != NULL:
                        for j in range(d):
                            diff = Q64[q * d + j] - X64[t * d + j]
                            dd += diff * diff
                    else:
                        for j in range(d):
                            diff = <double>Q[q * d + j] - <double>X[t * d + j]
                            dd += diff * diff
                    if dd <= row_dist[0]:
                        heap_offer(row_dist, row_idx, k, dd, t)
        t0 = t1
    for qi in range(q0, q1):
        heap_sorted(out_dist + qi * k, out_idx + qi * k, k)


cdef int _search(
    const floating[:, ::1] Q,   # IN (n_q, d) the queries in the GEMM's precision
    const floating[:, ::1] X,   # IN (n_train, d) the training rows in the GEMM's precision
    const double *Q64,          # IN (n_q, d) float64 originals of a float32 Q, or NULL
    const double *X64,          # IN (n_train, d) float64 originals of a float32 X, or NULL
    intp_t[:, ::1] out_idx,     # OUT (n_q, k)
    double[:, ::1] out_dist,    # OUT (n_q, k)
    int n_threads,
    bint screen,                # screen by the GEMM, decide by exact distances
) except -1:
    """Both searches: query blocks in parallel over :func:`_query_block`. With the float64
    originals (``X64`` not NULL) the squared norms are theirs, and the float32 products only
    screen the candidates (see :func:`knn_brute_screened`)."""
    cdef intp_t n_q = Q.shape[0], n_train = X.shape[0]
    cdef int d = <int>Q.shape[1]
    cdef intp_t n_blocks = (n_q + QUERY_BLOCK - 1) // QUERY_BLOCK
    cdef intp_t b, q0, i, next_block = 0, n_done = 0
    cdef bint screened = screen or X64 != NULL
    cdef Search s
    cdef InterruptState interrupt
    cdef int status = 0
    cdef int *status_ptr = &status
    cdef const floating *queries
    cdef const floating *train
    cdef floating *dots = NULL
    cdef double *q_norms
    cdef double *x_norms
    cdef double *q_lengths = NULL
    cdef double *x_lengths = NULL
    if n_q == 0:
        return 0
    queries = &Q[0, 0]
    train = &X[0, 0]
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    q_norms = <double*>malloc((2 if screened else 1) * n_q * sizeof(double))
    x_norms = <double*>malloc((2 if screened else 1) * n_train * sizeof(double))
    try:
        if q_norms == NULL or x_norms == NULL:
            raise MemoryError("could not allocate the squared norms of the k-NN search")
        interrupt_init(&interrupt)
        with nogil:
            if X64 != NULL:
                row_squared_norms(Q64, n_q, d, q_norms)
                row_squared_norms(X64, n_train, d, x_norms)
            else:
                row_squared_norms(queries, n_q, d, q_norms)
                row_squared_norms(train, n_train, d, x_norms)
            if screened:
                q_lengths = q_norms + n_q
                x_lengths = x_norms + n_train
                for i in range(n_q):
                    q_lengths[i] = sqrt(q_norms[i])
                for i in range(n_train):
                    x_lengths[i] = sqrt(x_norms[i])
            s.Q64 = Q64
            s.X64 = X64
            s.q_norms = q_norms
            s.x_norms = x_norms
            s.q_lengths = q_lengths
            s.x_lengths = x_lengths
            # twice the bound 2 (d + 4) u ‖q‖ ‖x‖ of the float32 distance's product term
            # (_distances.pxd): no true neighbour is ever skipped
            s.slack = 4.0 * gemm_rounding(d, True, GEMM_TERMS) if screened else 0.0
            s.n_train = n_train
            s.d = d
            s.k = out_idx.shape[1]
            s.out_idx = &out_idx[0, 0]
            s.out_dist = &out_dist[0, 0]
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
                    _query_block(&s, queries, train, q0, min(q0 + QUERY_BLOCK, n_q), dots,
                                 &interrupt)
                free(dots)
                leave_team(&interrupt, &n_done)
        if interrupt.stop:
            raise_pending()
        if status != 0:
            raise MemoryError("could not allocate the per-thread distance block of the k-NN search")
    finally:
        free(q_norms)
        free(x_norms)
    return 0


def knn_brute(
    const floating[:, ::1] Q,       # IN (n_queries, n_features)
    const floating[:, ::1] X,       # IN (n_train, n_features)
    intp_t[:, ::1] out_idx,         # OUT (n_queries, k) training indices, nearest first
    double[:, ::1] out_dist,        # OUT (n_queries, k) squared distances
    int n_threads,
    bint exact=False,
):
    """The ``k = out_idx.shape[1]`` nearest training rows of every query (squared Euclidean
    distances; see the module docstring). ``1 <= k <= n_train``. With ``exact``, the block
    products only screen the candidates, with the slack of :func:`knn_brute_screened`, and the
    distances compared are summed in double precision from the rows themselves (float32 rows
    read as float32): the neighbours of the direct differences. The slack holds while every
    product of two entries is a normal float32 number (the caller checks)."""
    if Q.shape[0] == 0:
        return
    _search(Q, X, NULL, NULL, out_idx, out_dist, n_threads, exact)


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
    if Q.shape[0] == 0:
        return
    _search(Q32, X32, &Q[0, 0], &X[0, 0], out_idx, out_dist, n_threads, True)


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
            heap_reset(&out_dist[q, 0], &out_idx[q, 0], k, n_train)
            for t in range(n_train):
                if D[q, t] <= out_dist[q, 0]:
                    heap_offer(&out_dist[q, 0], &out_idx[q, 0], k, D[q, t], t)
            heap_sorted(&out_dist[q, 0], &out_idx[q, 0], k)
