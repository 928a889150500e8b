"""Dual coordinate descent for the linear SVM with the hinge or the squared hinge loss.

liblinear's ``solve_l2r_l1l2_svc`` (Hsieh, Chang, Lin, Keerthi & Sundararajan, "A dual
coordinate descent method for large-scale linear SVM", ICML 2008, Algorithm 1 with the
shrinking of §3.3 and the projected-gradient stopping rule of §3.1). For labels ``y_i = ±1`` and
per-sample costs ``C_i`` the primal is

    min_w  ½‖w‖² + Σ_i C_i ξ(w; x_i, y_i),   ξ = max(0, 1 − y_i wᵀx_i) (hinge) or its square,

and the dual

    min_α  D(α) = ½ αᵀ(Q + diag(D_ii))α − 1ᵀα,   0 ≤ α_i ≤ U_i,   Q_ij = y_i y_j x_iᵀx_j,

with ``U_i = C_i, D_ii = 0`` (hinge) and ``U_i = ∞, D_ii = 1/(2C_i)`` (squared hinge). The
solver keeps ``w = Σ_i y_i α_i x_i``, so the gradient of one variable,
``G_i = y_i wᵀx_i − 1 + D_ii α_i``, and the update ``w ← w + (α_i^new − α_i) y_i x_i`` each cost
the row's number of non-zeros: an epoch costs the nnz of the matrix, never ``n²``.

The intercept is liblinear's: a constant feature of value ``bias`` appended to every row (its
weight ``w[n_features]`` is regularised like the others); ``bias = 0`` means no intercept.

Each epoch visits the active variables in a random order (a splitmix64 stream of _random.pxd
per problem, the same in the Python twin ``kernelkit.reference.linear_dual_cd``). A variable at a
bound whose gradient points out of the box by more than the previous epoch's largest projected
gradient leaves the epochs (shrinking); when the active ones satisfy
``max PG − min PG ≤ tol``, all variables come back for a last epoch, and the solve stops when
that holds over all of them. Samples of cost 0 take no part (their ``α_i`` stays 0).

Several problems (one-vs-rest) share the rows and run in parallel, one problem per thread, each
with its own seed, so the result does not depend on the thread count.
"""

from cython.parallel cimport parallel, prange
from libc.math cimport INFINITY, fabs
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _random cimport shuffle_intp
from _types cimport intp_t

# Status codes of one problem (turned into exceptions and warnings by the estimator), besides
# _interrupt.pxd's INTERRUPTED (-2).
cdef enum:
    CONVERGED = 0
    MAX_ITER_REACHED = 1
    OUT_OF_MEMORY = -1

# Layout of the rows.
cdef enum:
    DENSE = 0
    CSR_INT32 = 1
    CSR_INT64 = 2

# rows visited between two looks at the signals (an epoch over a million rows takes ~0.1 s)
cdef enum:
    ROWS_PER_CHECK = 4096


ctypedef struct Rows:
    int layout
    intp_t n_features
    const double *dense      # (n_samples, n_features), C order
    const double *data       # CSR
    const int32_t *indices32
    const int32_t *indptr32
    const int64_t *indices64
    const int64_t *indptr64


cdef inline double _row_dot(const Rows *X, intp_t i, const double *w) noexcept nogil:
    """``x_iᵀ w`` over the stored entries of row ``i``."""
    cdef double total = 0.0
    cdef intp_t j
    cdef int64_t k
    if X.layout == DENSE:
        for j in range(X.n_features):
            total += X.dense[i * X.n_features + j] * w[j]
    elif X.layout == CSR_INT32:
        for k in range(X.indptr32[i], X.indptr32[i + 1]):
            total += X.data[k] * w[X.indices32[k]]
    else:
        for k in range(X.indptr64[i], X.indptr64[i + 1]):
            total += X.data[k] * w[X.indices64[k]]
    return total


cdef inline void _row_axpy(const Rows *X, intp_t i, double step, double *w) noexcept nogil:
    """``w ← w + step · x_i`` over the stored entries of row ``i``."""
    cdef intp_t j
    cdef int64_t k
    if X.layout == DENSE:
        for j in range(X.n_features):
            w[j] += step * X.dense[i * X.n_features + j]
    elif X.layout == CSR_INT32:
        for k in range(X.indptr32[i], X.indptr32[i + 1]):
            w[X.indices32[k]] += step * X.data[k]
    else:
        for k in range(X.indptr64[i], X.indptr64[i + 1]):
            w[X.indices64[k]] += step * X.data[k]


ctypedef struct Problem:
    # what every binary problem shares, and the rows of all of them
    Rows rows
    intp_t n_samples
    const double *sqnorm     # (n_samples,) ‖x_i‖²
    const double *y          # (n_problems, n_samples) labels ±1, C order
    const double *cost       # (n_problems, n_samples) C_i ≥ 0, C order
    bint squared_hinge
    double bias


ctypedef struct Options:
    double tol
    int64_t max_iter
    const uint64_t *seeds    # (n_problems,) seed of each problem's random order


cdef int _solve_one(const Problem *pb, const Options *opt, intp_t p, double *w, double *alpha,
                    int64_t *n_iter, InterruptState *interrupt) noexcept nogil:
    """Binary problem ``p``; ``w`` (n_features + 1) and ``alpha`` (n_samples) start at 0."""
    # the problem's pieces in locals, as the loops read them
    cdef const Rows *X = &pb.rows
    cdef intp_t n_samples = pb.n_samples
    cdef const double *sqnorm = pb.sqnorm
    cdef const double *y = pb.y + p * n_samples
    cdef const double *cost = pb.cost + p * n_samples
    cdef bint squared_hinge = pb.squared_hinge
    cdef double bias = pb.bias
    cdef double tol = opt.tol
    cdef int64_t max_iter = opt.max_iter
    cdef intp_t *index = <intp_t *>malloc(max(n_samples, 1) * sizeof(intp_t))
    cdef double *curvature = <double *>malloc(max(n_samples, 1) * sizeof(double))
    cdef double *diagonal = <double *>malloc(max(n_samples, 1) * sizeof(double))
    cdef double *upper = <double *>malloc(max(n_samples, 1) * sizeof(double))
    cdef intp_t i, s, n_active = 0, n_variables, tmp
    cdef double G, PG, old, step
    cdef double PG_max_old = INFINITY, PG_min_old = -INFINITY, PG_max_new, PG_min_new
    cdef uint64_t state = opt.seeds[p]
    cdef int64_t epoch = 0
    cdef int status = MAX_ITER_REACHED
    if index == NULL or curvature == NULL or diagonal == NULL or upper == NULL:
        free(index)
        free(curvature)
        free(diagonal)
        free(upper)
        return OUT_OF_MEMORY
    for i in range(n_samples):
        if cost[i] > 0.0:
            index[n_active] = i
            n_active += 1
            if squared_hinge:
                diagonal[i] = 0.5 / cost[i]
                upper[i] = INFINITY
            else:
                diagonal[i] = 0.0
                upper[i] = cost[i]
            # Q_ii + D_ii, the exact step's denominator (the bias feature included)
            curvature[i] = sqnorm[i] + bias * bias + diagonal[i]
    n_variables = n_active
    while epoch < max_iter:
        if interrupted(interrupt):
            status = INTERRUPTED
            break
        PG_max_new = -INFINITY
        PG_min_new = INFINITY
        shuffle_intp(index, n_active, &state)
        s = 0
        while s < n_active:
            if (s % ROWS_PER_CHECK) == ROWS_PER_CHECK - 1 and interrupted(interrupt):
                break
            i = index[s]
            G = y[i] * (_row_dot(X, i, w) + w[X.n_features] * bias) - 1.0 + diagonal[i] * alpha[i]
            PG = 0.0
            if alpha[i] == 0.0:
                if G > PG_max_old:
                    # at the lower bound and pushed further out: shrink (swap with the last)
                    n_active -= 1
                    tmp = index[s]
                    index[s] = index[n_active]
                    index[n_active] = tmp
                    continue
                if G < 0.0:
                    PG = G
            elif alpha[i] == upper[i]:
                if G < PG_min_old:
                    n_active -= 1
                    tmp = index[s]
                    index[s] = index[n_active]
                    index[n_active] = tmp
                    continue
                if G > 0.0:
                    PG = G
            else:
                PG = G
            if PG > PG_max_new:
                PG_max_new = PG
            if PG < PG_min_new:
                PG_min_new = PG
            # liblinear's guard: a step below 1e-12 would only add rounding
            if fabs(PG) > 1e-12:
                old = alpha[i]
                alpha[i] = min(max(old - G / curvature[i], 0.0), upper[i])
                step = (alpha[i] - old) * y[i]
                _row_axpy(X, i, step, w)
                w[X.n_features] += step * bias
            s += 1
        if interrupt.stop:
            status = INTERRUPTED
            break
        epoch += 1
        if PG_max_new - PG_min_new <= tol:
            if n_active == n_variables:
                status = CONVERGED
                break
            # optimal on the active set: bring every variable back for a full check
            n_active = n_variables
            PG_max_old = INFINITY
            PG_min_old = -INFINITY
            continue
        PG_max_old = PG_max_new if PG_max_new > 0.0 else INFINITY
        PG_min_old = PG_min_new if PG_min_new < 0.0 else -INFINITY
    n_iter[0] = epoch
    free(index)
    free(curvature)
    free(diagonal)
    free(upper)
    return status


cdef void _squared_norms(const Rows *X, intp_t n_samples, double *sqnorm) noexcept nogil:
    """``sqnorm[i] = ‖x_i‖²``."""
    cdef intp_t i, j
    cdef int64_t k
    cdef double total, value
    for i in range(n_samples):
        total = 0.0
        if X.layout == DENSE:
            for j in range(X.n_features):
                value = X.dense[i * X.n_features + j]
                total += value * value
        elif X.layout == CSR_INT32:
            for k in range(X.indptr32[i], X.indptr32[i + 1]):
                total += X.data[k] * X.data[k]
        else:
            for k in range(X.indptr64[i], X.indptr64[i + 1]):
                total += X.data[k] * X.data[k]
        sqnorm[i] = total


cdef Rows _rows(object X, intp_t n_features) except *:
    """Point a Rows at a C-ordered float64 array or at the arrays of a float64 CSR matrix."""
    cdef Rows rows
    cdef const double[:, ::1] dense
    cdef const double[::1] data
    cdef const int32_t[::1] indices32, indptr32
    cdef const int64_t[::1] indices64, indptr64
    memset(&rows, 0, sizeof(Rows))
    rows.n_features = n_features
    if not isinstance(X, tuple):
        dense = X
        rows.layout = DENSE
        rows.dense = &dense[0, 0] if dense.shape[0] > 0 and dense.shape[1] > 0 else NULL
        return rows
    data = X[0]
    rows.data = &data[0] if data.shape[0] > 0 else NULL
    if X[1].dtype.itemsize == 4:
        indices32, indptr32 = X[1], X[2]
        rows.layout = CSR_INT32
        rows.indptr32 = &indptr32[0]
        rows.indices32 = &indices32[0] if indices32.shape[0] > 0 else NULL
    else:
        indices64, indptr64 = X[1], X[2]
        rows.layout = CSR_INT64
        rows.indptr64 = &indptr64[0]
        rows.indices64 = &indices64[0] if indices64.shape[0] > 0 else NULL
    return rows


def linear_dual_cd_solve(
    dict problem,                  # IN  the rows, labels, costs and loss, see below
    dict options,                  # IN  tol, max_iter, seeds, n_threads
    double[:, ::1] w,              # OUT (n_problems, n_features + 1), zero on entry
    double[:, ::1] alpha,          # OUT (n_problems, n_samples), zero on entry
    int64_t[::1] n_iter,           # OUT (n_problems,)
    int[::1] status,               # OUT (n_problems,)
):
    """Solve ``n_problems`` linear SVM duals on the same rows.

    Parameters
    ----------
    problem : dict
        ``X``: the rows, an ndarray of shape (n_samples, n_features), float64, C order, or the
        ``(data, indices, indptr)`` arrays of a CSR matrix (float64 data; int32 or int64
        indices and indptr of one dtype), read in place; ``n_features`` (int); ``y``, ndarray of
        shape (n_problems, n_samples), float64: labels ``±1`` of each problem; ``cost``, same
        shape: ``C_i ≥ 0`` of each sample in each problem (class weight times sample weight
        times C); ``squared_hinge`` (bool): squared hinge (``U_i = ∞``, ``D_ii = 1/(2C_i)``) or
        hinge (``U_i = C_i``, ``D_ii = 0``); ``bias`` (float): value of the appended constant
        feature, 0 for no intercept.
    options : dict
        ``tol`` (float): stop when ``max PG − min PG ≤ tol`` over all variables in one epoch;
        ``max_iter`` (int): maximum number of epochs per problem; ``seeds``, ndarray of shape
        (n_problems,), uint64: seed of each problem's random order; ``n_threads`` (int):
        threads over the problems (one problem per thread at a time).
    w : ndarray of shape (n_problems, n_features + 1), float64
        Out: the primal weights, the bias feature's last.
    alpha : ndarray of shape (n_problems, n_samples), float64
        Out: the dual variables.
    n_iter : ndarray of shape (n_problems,), int64
        Out: epochs of each problem.
    status : ndarray of shape (n_problems,), int32
        Out: 0 converged, 1 ``max_iter`` reached.

    Raises
    ------
    MemoryError
        When a problem's buffers cannot be allocated.
    KeyboardInterrupt
        When a signal handler raised during the solve.
    """
    cdef const double[:, ::1] y = problem["y"]
    cdef const double[:, ::1] cost = problem["cost"]
    cdef const uint64_t[::1] seeds = options["seeds"]
    cdef int n_threads = options["n_threads"]
    cdef intp_t n_samples = y.shape[1], n_problems = y.shape[0], p
    cdef Problem pb
    cdef Options opt
    cdef InterruptState interrupt
    cdef double *sqnorm
    pb.rows = _rows(problem["X"], problem["n_features"])
    if n_samples == 0 or n_problems == 0:
        return
    pb.n_samples = n_samples
    pb.y = &y[0, 0]
    pb.cost = &cost[0, 0]
    pb.squared_hinge = problem["squared_hinge"]
    pb.bias = problem["bias"]
    opt.tol = options["tol"]
    opt.max_iter = options["max_iter"]
    opt.seeds = &seeds[0]
    sqnorm = <double *>malloc(n_samples * sizeof(double))
    if sqnorm == NULL:
        raise MemoryError(f"could not allocate the squared norms of {n_samples} rows")
    pb.sqnorm = sqnorm
    interrupt_init(&interrupt)
    try:
        with nogil:
            _squared_norms(&pb.rows, n_samples, sqnorm)
        with nogil, parallel(num_threads=min(n_threads, n_problems)):
            for p in prange(n_problems, schedule='dynamic', chunksize=1):
                status[p] = _solve_one(&pb, &opt, p, &w[p, 0], &alpha[p, 0], &n_iter[p],
                                       &interrupt)
    finally:
        free(sqnorm)
    for p in range(n_problems):
        if status[p] == INTERRUPTED:
            raise_pending()
        if status[p] == OUT_OF_MEMORY:
            raise MemoryError(f"could not allocate the dual coordinate descent's buffers for "
                              f"{n_samples} samples")
