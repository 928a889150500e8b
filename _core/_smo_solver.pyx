"""Sequential minimal optimisation for the SVM duals (C-SVC and ε-SVR share one solver).

The problem, over ``l`` variables with signs ``y_t ∈ {+1, −1}``::

    min_α ½ αᵀQα + pᵀα   s.t.   yᵀα = 0,   0 ≤ α_t ≤ C_t,     Q_ts = y_t y_s K(x_t, x_s).

* C-SVC (Sangnier, §1.4.6 (P11), written as a minimisation — the printed ``+½αᵀQα`` is a sign typo,
  the objective is ``−½αᵀQα + 1ᵀα`` maximised): ``l = n``, ``p = −1``, ``y`` the labels.
* ε-SVR (Sangnier, §1.5.3 (P16)): ``l = 2n``, ``α = (α⁺, α⁻)``, ``y = (+1, −1)``,
  ``p = (ε − y_reg, ε + y_reg)``; variables ``t`` and ``t + n`` share sample ``t``.

Algorithm (Sangnier, Algorithm 4 made exact and fast, as in libsvm):

* Working set by second-order information (WSS2, Fan, Chen & Lin 2005): ``i`` is the maximal
  violator, ``j`` maximises the decrease ``(G_i-side gap)² / (K_ii + K_jj − 2K_ij)`` of the exact
  two-variable step; stop when the maximal violating pair gap ``m(α) − M(α) < tol``.
* Two-variable step solved in closed form and clipped to the box (Platt 1998).
* Shrinking (Joachims 1999, libsvm's rule): bounded variables that cannot move are removed from
  the active set every ``min(l, 1000)`` iterations; the gradient of removed variables is rebuilt
  from ``Ḡ = Σ_{α_s = C_s} C_s Q_{:s}`` before the final optimality re-check on all variables.
* Kernel rows come from an LRU cache of **double** rows bounded by ``cache_size`` (libsvm caches
  floats, so its gradients drift from the exact ``Qα + p`` and it can oscillate near ``tol``).
  Rows are computed on demand, only over the active prefix in classification: the variables are
  kept permuted so the active ones come first, and the copy of the data is permuted with them.
  A row is cut into fixed chunks of ``ROW_CHUNK`` samples (``kernel_row`` of
  _vector_kernels.pxd), each one GEMV (dot-product kernels, with
  ``‖x − x'‖² = ‖x‖² + ‖x'‖² − 2x·x'`` for the RBF); chunks run in parallel when the row is
  long. The chunking depends on the row only, so the values — and the whole optimisation path —
  do not depend on the thread count. A precomputed Gram matrix is read in place: its rows
  need no cache.

The cache stores kernel values ``K`` and not ``Q``: the sign products are applied in the loops,
which lets classification and regression (where two variables share a kernel row) use one cache.

Progress: given a callback, the loop takes the GIL every ``report_every`` steps to call it with
the step count, the current gap and the active set size. Without one, the only cost is one
integer comparison per step (the step itself reads a kernel row and scans the active set).
"""

from libc.math cimport INFINITY, fabs
from libc.stdlib cimport calloc, free, realloc

import numpy as np

from _interrupt cimport (INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending,
                        steps_per_check)
from _sort cimport swap
from _types cimport intp_t, int32_t
from _vector_kernels cimport VectorKernel, kernel_row

# Kernel code of a precomputed Gram matrix, read in place; the vector kernels use the codes of
# _vector_kernels.pxd (``kernelkit._core._gram.VECTOR_KERNELS``), which are non-negative.
cdef enum:
    PRECOMPUTED = -1
PRECOMPUTED_KERNEL = PRECOMPUTED

# Status codes returned to Python (raised there, never in nogil code); INTERRUPTED (-2) too.
cdef enum:
    CONVERGED = 0
    MAX_ITER_REACHED = 1
    OUT_OF_MEMORY = -1
    CALLBACK_RAISED = -3
    NEGATIVE_CURVATURE = -4

cdef enum:  # position of α_t in its box
    AT_LOWER = 0
    AT_UPPER = 1
    FREE = 2

# Curvature used when K_ii + K_jj − 2K_ij ≤ 0 (identical points, or i, j the two copies of one
# sample in ε-SVR): the step is then bounded by the box only (libsvm's TAU).
cdef double TAU = 1e-12
# With check_curvature, a pair whose K_ii + K_jj − 2K_ij is below −CURVATURE_RTOL (K_ii + K_jj)
# proves the Gram matrix indefinite (its 2×2 principal minor is not p.s.d.): the solver stops.
cdef double CURVATURE_RTOL = 1e-8


ctypedef struct Options:
    # what steers the SMO steps, filled once by _SMOSolver._load
    double tol
    long max_iter
    bint shrinking


cdef class _SMOSolver:
    """State of one SMO run; all arrays are indexed by the current (permuted) variable position."""

    cdef intp_t l, n, n_features, active_size, budget, sentinel, bad_i, bad_j
    cdef bint regression, unshrink, contiguous, check_curvature
    cdef int kernel, n_threads
    cdef double gamma, coef0, degree, min_work_per_thread
    # Data: private copy of the subproblem's rows (permuted with the variables in
    # classification) and their squared norms, or the precomputed Gram matrix.
    cdef double[:, ::1] X
    cdef double[::1] x_sqnorm
    cdef const double[:, ::1] gram
    # Per variable. Kernel rows are indexed by variable position when `contiguous`
    # (classification, built-in kernel); otherwise through `col`: the sample position in
    # regression, the row/column of the Gram matrix for a precomputed kernel.
    cdef intp_t[::1] col
    cdef intp_t[::1] perm        # original variable index
    cdef int32_t[::1] y, status
    cdef double[::1] p, C, QD, alpha, G, G_bar
    # Progress callback, called every `report_every` steps (None: never), and what it raised.
    cdef object progress, error
    cdef long report_every
    cdef char *cancel            # NULL, or set by another thread to stop (_interrupt.pxd)
    cdef InterruptState interrupt
    # LRU cache of kernel rows, one slot per sample position; slot `sentinel` heads the list.
    cdef double **rows
    cdef intp_t[::1] row_len, lru_prev, lru_next

    def __cinit__(self):
        self.rows = NULL

    def __dealloc__(self):
        cdef intp_t s
        if self.rows != NULL:
            for s in range(self.n):
                free(self.rows[s])
            free(self.rows)

    cdef int _load(self, dict problem, dict options, double[::1] alpha, Options *opt) except -1:
        """Check the arguments of :func:`smo_solve` and fill the solver and ``opt``: the
        variables' arrays are the solver's own copies, which it permutes."""
        cdef double[:, ::1] X = problem["X"]
        cdef double[::1] x_sqnorm = problem["x_sqnorm"]
        cdef const intp_t[::1] col = problem["col"]
        cdef const int32_t[::1] y = problem["y"]
        cdef const double[::1] p = problem["p"]
        cdef const double[::1] upper_bound = problem["upper_bound"]
        cdef const double[::1] diagonal = problem["diagonal"]
        cdef bint regression = problem["regression"]
        cdef int kernel = problem["kernel"]
        cdef long max_iter = options["max_iter"]
        cdef double cache_size = options["cache_size"]
        cdef int n_threads = options["n_threads"]
        cdef object progress = options.get("progress")
        cdef long report_every = options.get("report_every", 0)
        cdef signed char[::1] cancel = options.get("cancel")
        cdef intp_t l = y.shape[0]
        cdef intp_t n = l // 2 if regression else l
        cdef intp_t s
        cdef bint feasible = True
        cdef double dot = 0.0, total = 0.0
        if l != (2 * n if regression else n) or col.shape[0] != l:
            raise ValueError(f"{l} variables and {col.shape[0]} columns for a "
                             f"{'regression' if regression else 'classification'} problem.")
        if not p.shape[0] == upper_bound.shape[0] == diagonal.shape[0] == alpha.shape[0] == l:
            raise ValueError(f"p, upper_bound, diagonal and alpha must have {l} entries (one "
                             "per variable).")
        if kernel != PRECOMPUTED and (X.shape[0] != n or x_sqnorm.shape[0] != n):
            raise ValueError(f"X has {X.shape[0]} rows and x_sqnorm {x_sqnorm.shape[0]} "
                             f"entries; expected {n} samples.")
        if n < 1 or max_iter < 1:
            raise ValueError("smo_solve needs at least one sample and max_iter >= 1.")
        if progress is not None and report_every < 1:
            raise ValueError(f"report_every must be >= 1 with a progress callback, got "
                             f"{report_every}.")
        self.l, self.n = l, n
        self.regression = regression
        self.check_curvature = options["check_curvature"]
        self.kernel = kernel
        self.gamma, self.coef0, self.degree = problem["gamma"], problem["coef0"], problem["degree"]
        self.n_threads = max(1, n_threads)
        self.min_work_per_thread = options.get("min_work_per_thread", 0.0)
        self.progress = progress
        self.cancel = <char *>&cancel[0] if cancel is not None else NULL
        self.report_every = report_every if progress is not None else 0
        self.active_size = l
        self.unshrink = False
        self.sentinel = n
        self.gram = problem["gram"]
        self.contiguous = kernel != PRECOMPUTED and not regression
        self.n_features = X.shape[1]
        self.X = X
        self.x_sqnorm = x_sqnorm
        # the solver's own arrays: one allocation each (packed into one, 2-4 % slower steps)
        self.p, self.C, self.QD, self.alpha, self.G, self.G_bar = [np.empty(l) for _ in range(6)]
        self.col, self.perm = [np.empty(l, dtype=np.intp) for _ in range(2)]
        self.row_len, self.lru_prev, self.lru_next = [np.empty(n + 1, dtype=np.intp)
                                                      for _ in range(3)]
        self.y, self.status = [np.empty(l, dtype=np.int32) for _ in range(2)]
        for s in range(l):
            # a feasible start: 0 <= α <= C (not NaN) and |yᵀα| <= 1e-9 max(1, ΣC), tested below
            feasible = feasible and alpha[s] >= 0.0 and alpha[s] <= upper_bound[s]
            dot += alpha[s] * y[s]
            total += upper_bound[s]
            self.p[s] = p[s]
            self.C[s] = upper_bound[s]
            self.QD[s] = diagonal[s]
            self.alpha[s] = alpha[s]
            self.G[s] = p[s]     # G = Qα + p, completed by _warm_start
            self.G_bar[s] = 0.0
            self.col[s] = col[s]
            self.perm[s] = s
            self.y[s] = y[s]
            self.status[s] = AT_LOWER
        for s in range(n + 1):
            self.row_len[s], self.lru_prev[s], self.lru_next[s] = 0, n, n
        if not feasible or fabs(dot) > 1e-9 * max(1.0, total):
            raise ValueError("The starting alpha must be feasible: 0 <= alpha <= C and "
                             "y'alpha = 0.")
        # Budget in doubles; at least two full rows (see _cache_reserve).
        self.budget = max(<intp_t>(cache_size * (1 << 20) / sizeof(double)), 2 * n)
        self.rows = <double**>calloc(n, sizeof(double*))   # every row NULL: not cached
        if self.rows == NULL:
            raise MemoryError()
        opt.tol = options["tol"]
        opt.shrinking = options["shrinking"]
        opt.max_iter = max_iter
        return 0

    # ------------------------------------------------------------------ cache
    cdef inline void _lru_unlink(self, intp_t s) noexcept nogil:
        self.lru_next[self.lru_prev[s]] = self.lru_next[s]
        self.lru_prev[self.lru_next[s]] = self.lru_prev[s]

    cdef inline void _lru_append(self, intp_t s) noexcept nogil:
        """Insert ``s`` as the most recently used row."""
        self.lru_next[s] = self.sentinel
        self.lru_prev[s] = self.lru_prev[self.sentinel]
        self.lru_next[self.lru_prev[s]] = s
        self.lru_prev[self.sentinel] = s

    cdef inline void _drop_row(self, intp_t s) noexcept nogil:
        self._lru_unlink(s)
        free(self.rows[s])
        self.rows[s] = NULL
        self.budget += self.row_len[s]
        self.row_len[s] = 0

    cdef intp_t _cache_reserve(self, intp_t s, intp_t length) noexcept nogil:
        """Make row ``s`` hold ``length`` values; return how many were already there (-1: no memory).

        Least recently used rows are evicted first. The budget holds at least two full rows, and
        the row fetched just before is the most recent, so fetching a second row never evicts
        the first one (the SMO step needs both).
        """
        cdef intp_t have = self.row_len[s]
        cdef double *grown
        if have > 0:
            self._lru_unlink(s)
        if length > have:
            while self.budget < length - have:
                if self.lru_next[self.sentinel] == self.sentinel:
                    return -1
                self._drop_row(self.lru_next[self.sentinel])
            grown = <double*>realloc(self.rows[s], length * sizeof(double))
            if grown == NULL:
                if have > 0:
                    self._lru_append(s)
                return -1
            self.rows[s] = grown
            self.budget -= length - have
            self.row_len[s] = length
        self._lru_append(s)
        return have

    cdef void _kernel_row(self, intp_t s, intp_t start, intp_t stop) noexcept nogil:
        """Fill ``rows[s][start:stop]`` with ``K(x_s, x_j)``."""
        cdef VectorKernel vk = VectorKernel(self.kernel, self.gamma, self.coef0, self.degree)
        kernel_row(&self.X[0, 0], self.n_features, &self.x_sqnorm[0], s, &vk, start, stop,
                   self.rows[s], self.n_threads, self.min_work_per_thread)

    cdef const double* _row(self, intp_t t, intp_t length) noexcept nogil:
        """Kernel row of variable ``t`` (NULL: no memory).

        Classification with a built-in kernel: the cached row over variable positions
        ``< length``. Regression: the cached full row of the sample (samples are not permuted).
        Precomputed: the row of the Gram matrix itself — it is already in memory, so it is
        read in place, without cache or copy. The last two are indexed through ``col``.
        """
        cdef intp_t s = t
        cdef intp_t have
        if self.kernel == PRECOMPUTED:
            return &self.gram[self.col[t], 0]
        if self.regression:
            s = self.col[t]
            length = self.n
        have = self._cache_reserve(s, length)
        if have < 0:
            return NULL
        if have < length:
            self._kernel_row(s, have, length)
        return self.rows[s]

    # ------------------------------------------------------------------ helpers
    cdef inline double _k(self, const double *row, intp_t t) noexcept nogil:
        """Entry of a kernel row for variable ``t``."""
        if self.contiguous:
            return row[t]
        return row[self.col[t]]

    cdef inline void _update_status(self, intp_t t) noexcept nogil:
        if self.alpha[t] >= self.C[t]:
            self.status[t] = AT_UPPER
        elif self.alpha[t] <= 0.0:
            self.status[t] = AT_LOWER
        else:
            self.status[t] = FREE

    cdef void _swap_variables(self, intp_t i, intp_t j) noexcept nogil:
        """Exchange positions ``i`` and ``j`` (and, when rows are indexed by position, the
        samples and the cache)."""
        cdef intp_t k, h, nxt, lo, hi
        cdef double *row
        cdef int32_t ti
        ti = self.y[i]; self.y[i] = self.y[j]; self.y[j] = ti
        ti = self.status[i]; self.status[i] = self.status[j]; self.status[j] = ti
        swap(&self.p[0], i, j)
        swap(&self.C[0], i, j)
        swap(&self.QD[0], i, j)
        swap(&self.alpha[0], i, j)
        swap(&self.G[0], i, j)
        swap(&self.G_bar[0], i, j)
        swap(&self.perm[0], i, j)
        if not self.contiguous:
            swap(&self.col[0], i, j)
            return
        # Rows indexed by position: permute the data and the cache with the variables.
        for k in range(self.n_features):
            swap(&self.X[0, 0], i * self.n_features + k, j * self.n_features + k)
        swap(&self.x_sqnorm[0], i, j)
        if self.row_len[i] > 0:
            self._lru_unlink(i)
        if self.row_len[j] > 0:
            self._lru_unlink(j)
        row = self.rows[i]; self.rows[i] = self.rows[j]; self.rows[j] = row
        swap(&self.row_len[0], i, j)
        if self.row_len[i] > 0:
            self._lru_append(i)
        if self.row_len[j] > 0:
            self._lru_append(j)
        lo = i if i < j else j
        hi = j if i < j else i
        h = self.lru_next[self.sentinel]
        while h != self.sentinel:
            nxt = self.lru_next[h]
            if self.row_len[h] > lo:
                if self.row_len[h] > hi:
                    swap(self.rows[h], lo, hi)
                else:
                    # The row covers lo but not hi: it cannot be kept consistent; recompute later.
                    self._drop_row(h)
            h = nxt

    # ------------------------------------------------------------------ SMO pieces
    cdef bint _be_shrunk(self, intp_t t, double gmax1, double gmax2) noexcept nogil:
        if self.status[t] == AT_UPPER:
            return -self.G[t] > (gmax1 if self.y[t] == 1 else gmax2)
        if self.status[t] == AT_LOWER:
            return self.G[t] > (gmax2 if self.y[t] == 1 else gmax1)
        return False

    cdef bint _interrupted(self, intp_t *until_check, intp_t work) noexcept nogil:
        """Whether a signal arrived, looked at every ``steps_per_check(work)`` calls in a pass
        over the variables whose steps (a kernel row each) cost ``work``."""
        until_check[0] -= 1
        if until_check[0] > 0:
            return False
        until_check[0] = steps_per_check(work)
        return interrupted(&self.interrupt)

    cdef int _reconstruct_gradient(self) noexcept nogil:
        """``G_t = Ḡ_t + p_t + Σ_{s free} α_s Q_ts`` for the inactive ``t`` (0, OUT_OF_MEMORY or
        INTERRUPTED)."""
        cdef intp_t t, s, n_free = 0, until_check = 1
        cdef const double *row
        cdef double a
        if self.active_size == self.l:
            return 0
        for t in range(self.active_size, self.l):
            self.G[t] = self.G_bar[t] + self.p[t]
        for s in range(self.active_size):
            if self.status[s] == FREE:
                n_free += 1
        # Pick the cheaper of the two loop orders (libsvm's rule): rows of inactive variables
        # over the active prefix, or full rows of the free variables.
        if n_free * self.l > 2 * self.active_size * (self.l - self.active_size):
            for t in range(self.active_size, self.l):
                if self._interrupted(&until_check, self.active_size):
                    return INTERRUPTED
                row = self._row(t, self.active_size)
                if row == NULL:
                    return OUT_OF_MEMORY
                a = 0.0
                for s in range(self.active_size):
                    if self.status[s] == FREE:
                        a += self.alpha[s] * self.y[s] * self._k(row, s)
                self.G[t] += self.y[t] * a
        else:
            for s in range(self.active_size):
                if self.status[s] == FREE:
                    if self._interrupted(&until_check, self.l):
                        return INTERRUPTED
                    row = self._row(s, self.l)
                    if row == NULL:
                        return OUT_OF_MEMORY
                    a = self.alpha[s] * self.y[s]
                    for t in range(self.active_size, self.l):
                        self.G[t] += a * self.y[t] * self._k(row, t)
        return 0

    cdef void _max_violations(self, double *out_gmax1, double *out_gmax2) noexcept nogil:
        """``max_{I_up} −y_tG_t`` and ``max_{I_low} y_tG_t`` over the active set: their sum is
        the maximal violating pair gap."""
        cdef intp_t t
        cdef double gmax1 = -INFINITY   # max -y_t G_t over I_up
        cdef double gmax2 = -INFINITY   # max  y_t G_t over I_low
        for t in range(self.active_size):
            if self.y[t] == 1:
                if self.status[t] != AT_UPPER and -self.G[t] > gmax1:
                    gmax1 = -self.G[t]
                if self.status[t] != AT_LOWER and self.G[t] > gmax2:
                    gmax2 = self.G[t]
            else:
                if self.status[t] != AT_UPPER and -self.G[t] > gmax2:
                    gmax2 = -self.G[t]
                if self.status[t] != AT_LOWER and self.G[t] > gmax1:
                    gmax1 = self.G[t]
        out_gmax1[0] = gmax1
        out_gmax2[0] = gmax2

    cdef void _shrink(self, double tol) noexcept nogil:
        cdef intp_t t
        cdef double gmax1, gmax2
        self._max_violations(&gmax1, &gmax2)
        if not self.unshrink and gmax1 + gmax2 <= 10.0 * tol:
            # Close to the end: bring every variable back once so that the final active set is
            # chosen with exact gradients.
            self.unshrink = True
            if self._reconstruct_gradient() < 0:
                return
            self.active_size = self.l
        t = 0
        while t < self.active_size:
            if self._be_shrunk(t, gmax1, gmax2):
                self.active_size -= 1
                while self.active_size > t:
                    if not self._be_shrunk(self.active_size, gmax1, gmax2):
                        self._swap_variables(t, self.active_size)
                        break
                    self.active_size -= 1
            t += 1

    cdef double _rho(self) noexcept nogil:
        """Offset ``ρ = −b``: mean of ``y_t G_t`` over free variables, else the middle of the
        feasible interval (Sangnier, Property 40, last two items)."""
        cdef intp_t t, n_free = 0
        cdef double yg, ub = INFINITY, lb = -INFINITY, sum_free = 0.0
        for t in range(self.active_size):
            yg = self.y[t] * self.G[t]
            if self.status[t] == AT_UPPER:
                if self.y[t] == -1:
                    ub = min(ub, yg)
                else:
                    lb = max(lb, yg)
            elif self.status[t] == AT_LOWER:
                if self.y[t] == 1:
                    ub = min(ub, yg)
                else:
                    lb = max(lb, yg)
            else:
                n_free += 1
                sum_free += yg
        if n_free > 0:
            return sum_free / n_free
        return 0.5 * (ub + lb)

    cdef int _wss(self, double tol, intp_t *out_i, intp_t *out_j) noexcept nogil:
        """WSS2 of Fan, Chen & Lin (2005) over the active set.

        Return 1 if the maximal violating pair gap is below ``tol`` (optimal), 0 if a pair was
        chosen, -1 when out of memory, -2 when a candidate pair has negative curvature (with
        ``check_curvature``; the pair is kept in ``bad_i``, ``bad_j``).
        """
        cdef intp_t t, i = -1, j = -1
        cdef double gmax = -INFINITY, gmax2 = -INFINITY, obj_min = INFINITY
        cdef double grad_diff, quad, obj, qd_i
        cdef const double *row
        for t in range(self.active_size):
            if self.y[t] == 1:
                if self.status[t] != AT_UPPER and -self.G[t] >= gmax:
                    gmax = -self.G[t]
                    i = t
            else:
                if self.status[t] != AT_LOWER and self.G[t] >= gmax:
                    gmax = self.G[t]
                    i = t
        if i == -1:
            return 1
        row = self._row(i, self.active_size)
        if row == NULL:
            return -1
        qd_i = self.QD[i]
        for t in range(self.active_size):
            if self.y[t] == 1:
                if self.status[t] == AT_LOWER:
                    continue
                grad_diff = gmax + self.G[t]
                if self.G[t] >= gmax2:
                    gmax2 = self.G[t]
            else:
                if self.status[t] == AT_UPPER:
                    continue
                grad_diff = gmax - self.G[t]
                if -self.G[t] >= gmax2:
                    gmax2 = -self.G[t]
            if grad_diff > 0.0:
                # Curvature along the pair direction: K_ii + K_tt − 2K_it whatever the signs.
                quad = qd_i + self.QD[t] - 2.0 * self._k(row, t)
                if self.check_curvature and quad < -CURVATURE_RTOL * (qd_i + self.QD[t]):
                    self.bad_i = self.perm[i]
                    self.bad_j = self.perm[t]
                    return -2
                obj = -(grad_diff * grad_diff) / (quad if quad > 0.0 else TAU)
                if obj <= obj_min:
                    j = t
                    obj_min = obj
        if gmax + gmax2 < tol or j == -1:
            return 1
        out_i[0] = i
        out_j[0] = j
        return 0

    cdef int _step(self, intp_t i, intp_t j) noexcept nogil:
        """Exact minimisation over ``(α_i, α_j)``, clipped to the box; update ``G``, ``Ḡ``."""
        cdef const double *row_i
        cdef const double *row_j
        cdef const double *row
        cdef intp_t k
        cdef double C_i = self.C[i], C_j = self.C[j]
        cdef double old_i = self.alpha[i], old_j = self.alpha[j]
        cdef double quad, delta, diff, total, a_i, a_j
        cdef bint upper_i = self.status[i] == AT_UPPER
        cdef bint upper_j = self.status[j] == AT_UPPER
        row_i = self._row(i, self.active_size)
        if row_i == NULL:
            return -1
        row_j = self._row(j, self.active_size)
        if row_j == NULL:
            return -1
        quad = self.QD[i] + self.QD[j] - 2.0 * self._k(row_i, j)
        if quad <= 0.0:
            quad = TAU
        if self.y[i] != self.y[j]:
            # α_i − α_j is conserved.
            delta = (-self.G[i] - self.G[j]) / quad
            diff = old_i - old_j
            self.alpha[i] = old_i + delta
            self.alpha[j] = old_j + delta
            if diff > 0.0:
                if self.alpha[j] < 0.0:
                    self.alpha[j] = 0.0
                    self.alpha[i] = diff
            elif self.alpha[i] < 0.0:
                self.alpha[i] = 0.0
                self.alpha[j] = -diff
            if diff > C_i - C_j:
                if self.alpha[i] > C_i:
                    self.alpha[i] = C_i
                    self.alpha[j] = C_i - diff
            elif self.alpha[j] > C_j:
                self.alpha[j] = C_j
                self.alpha[i] = C_j + diff
        else:
            # α_i + α_j is conserved.
            delta = (self.G[i] - self.G[j]) / quad
            total = old_i + old_j
            self.alpha[i] = old_i - delta
            self.alpha[j] = old_j + delta
            if total > C_i:
                if self.alpha[i] > C_i:
                    self.alpha[i] = C_i
                    self.alpha[j] = total - C_i
            elif self.alpha[j] < 0.0:
                self.alpha[j] = 0.0
                self.alpha[i] = total
            if total > C_j:
                if self.alpha[j] > C_j:
                    self.alpha[j] = C_j
                    self.alpha[i] = total - C_j
            elif self.alpha[i] < 0.0:
                self.alpha[i] = 0.0
                self.alpha[j] = total
        # G_k += Q_ki Δα_i + Q_kj Δα_j with Q_ks = y_k y_s K_ks.
        a_i = self.y[i] * (self.alpha[i] - old_i)
        a_j = self.y[j] * (self.alpha[j] - old_j)
        if not self.contiguous:
            for k in range(self.active_size):
                self.G[k] += self.y[k] * (a_i * row_i[self.col[k]] + a_j * row_j[self.col[k]])
        else:
            for k in range(self.active_size):
                self.G[k] += self.y[k] * (a_i * row_i[k] + a_j * row_j[k])
        self._update_status(i)
        self._update_status(j)
        # Ḡ = Σ_{α_s = C_s} C_s Q_{:s} over all variables, shrunk ones included.
        if upper_i != (self.status[i] == AT_UPPER):
            row = self._row(i, self.l)
            if row == NULL:
                return -1
            a_i = C_i * self.y[i] * (-1.0 if upper_i else 1.0)
            for k in range(self.l):
                self.G_bar[k] += a_i * self.y[k] * self._k(row, k)
        if upper_j != (self.status[j] == AT_UPPER):
            row = self._row(j, self.l)
            if row == NULL:
                return -1
            a_j = C_j * self.y[j] * (-1.0 if upper_j else 1.0)
            for k in range(self.l):
                self.G_bar[k] += a_j * self.y[k] * self._k(row, k)
        return 0

    cdef int _warm_start(self) noexcept nogil:
        """Gradients of a non-zero starting ``α`` (0, OUT_OF_MEMORY or INTERRUPTED).

        ``G = p + Σ_{α_s > 0} α_s Q_{:s}`` and ``Ḡ = Σ_{α_s = C_s} C_s Q_{:s}``, from the full
        kernel rows of the variables that start above zero (as libsvm's initialisation).
        """
        cdef intp_t s, t, until_check = 1
        cdef const double *row
        cdef double a, c
        for s in range(self.l):
            self._update_status(s)
            if self.alpha[s] <= 0.0:
                continue
            if self._interrupted(&until_check, self.l):
                return INTERRUPTED
            row = self._row(s, self.l)
            if row == NULL:
                return OUT_OF_MEMORY
            a = self.alpha[s] * self.y[s]
            c = self.C[s] * self.y[s] if self.status[s] == AT_UPPER else 0.0
            for t in range(self.l):
                self.G[t] += self.y[t] * a * self._k(row, t)
                self.G_bar[t] += self.y[t] * c * self._k(row, t)
        return 0

    cdef int _report(self, long it) noexcept nogil:
        """Call ``progress(it, gap, active_size)`` with the GIL (0, or -1 if it raised: the
        exception is kept in ``error``)."""
        cdef double gmax1, gmax2
        self._max_violations(&gmax1, &gmax2)
        with gil:
            try:
                self.progress(it, gmax1 + gmax2, self.active_size)
            except BaseException as error:
                self.error = error
                return -1
        return 0

    cdef int _solve(self, const Options *opt, long *n_iter) noexcept nogil:
        """Run SMO from the current ``α``; return a status code."""
        cdef double tol = opt.tol
        cdef bint shrinking = opt.shrinking
        cdef long max_iter = opt.max_iter
        cdef intp_t i = 0, j = 0
        cdef long it = 0
        cdef intp_t counter = min(self.l, 1000) + 1
        # -1: never equal to a step count (no callback)
        cdef long next_report = self.report_every if self.report_every > 0 else -1
        cdef int found, status
        cdef intp_t until_check = 1
        interrupt_init(&self.interrupt)
        self.interrupt.cancel = self.cancel
        status = self._warm_start()
        if status < 0:
            return status
        while it < max_iter:
            # up to 1e7 steps of O(active_size) each: look at the signals every ~CHECK_WORK
            # units of work (a clock read per step of a small problem would cost ~4 %)
            until_check -= 1
            if until_check == 0:
                until_check = steps_per_check(self.active_size)
                if interrupted(&self.interrupt):
                    n_iter[0] = it
                    return INTERRUPTED
            if it == next_report:
                next_report += self.report_every
                if self._report(it) < 0:
                    n_iter[0] = it
                    return CALLBACK_RAISED
            counter -= 1
            if counter == 0:
                counter = min(self.l, 1000)
                if shrinking:
                    self._shrink(tol)
            found = self._wss(tol, &i, &j)
            if found < 0:
                return OUT_OF_MEMORY if found == -1 else NEGATIVE_CURVATURE
            if found == 1:
                # Optimal on the active set: re-check on all variables with exact gradients.
                status = self._reconstruct_gradient()
                if status < 0:
                    return status
                self.active_size = self.l
                found = self._wss(tol, &i, &j)
                if found < 0:
                    return OUT_OF_MEMORY if found == -1 else NEGATIVE_CURVATURE
                if found == 1:
                    n_iter[0] = it
                    return CONVERGED
                counter = 1  # shrink again at the next iteration
            it += 1
            if self._step(i, j) < 0:
                return OUT_OF_MEMORY
        n_iter[0] = it
        status = self._reconstruct_gradient()
        if status < 0:
            return status
        self.active_size = self.l
        return MAX_ITER_REACHED

    cdef tuple _finish(self, int status, long n_iter, double[::1] alpha):
        """Raise the error of a failed run, or write the solution into ``alpha`` (in the
        caller's order of the variables) and return ``(rho, objective, n_iter, status)``."""
        cdef intp_t t
        cdef double objective = 0.0
        cdef double rho
        if status == INTERRUPTED:
            raise_pending()
        if status == CALLBACK_RAISED:
            raise self.error
        if status == OUT_OF_MEMORY:
            raise MemoryError(f"SMO could not allocate a kernel row of {self.n} doubles.")
        if status == NEGATIVE_CURVATURE:
            raise ValueError(
                "The Gram matrix is not positive semi-definite: K_ii + K_jj - 2 K_ij < 0 for the "
                f"samples i={self.col[self.bad_i]}, j={self.col[self.bad_j]}; SVMs need a "
                "p.d. kernel (kernelkit.kernels.shift_to_psd can repair an indefinite "
                "similarity).")
        rho = self._rho()
        for t in range(self.l):
            objective += self.alpha[t] * (self.G[t] + self.p[t])
            alpha[self.perm[t]] = self.alpha[t]
        return rho, 0.5 * objective, n_iter, status


def smo_solve(
    dict problem,                        # IN the variables, their kernel and box, see below
    dict options,                        # IN tol, max_iter, cache, shrinking, threads, progress
    double[::1] alpha,                   # INOUT (n_variables,)
):
    """Solve ``min ½αᵀQα + pᵀα`` s.t. ``yᵀα = 0``, ``0 ≤ α ≤ C`` by SMO.

    The caller prepares the subproblem (``kernelkit.svm._base``). Arrays are float64 and
    C-contiguous unless said otherwise; ``n_variables`` is ``n_samples`` (classification) or
    ``2 * n_samples`` (regression: variables ``t`` and ``t + n_samples`` belong to sample ``t``).

    Parameters
    ----------
    problem : dict
        ``X`` (n_samples, n_features): a private copy of the subproblem's samples for the vector
        kernels (the solver permutes its rows), shape (0, 0) for ``kernel=PRECOMPUTED_KERNEL``;
        ``x_sqnorm`` (n_samples,): their ``‖x_s‖²`` (permuted with them), empty for a Gram;
        ``gram`` (n_rows, n_rows): the precomputed Gram matrix, read in place (else (0, 0));
        ``col`` (n_variables,), intp: the row of ``gram`` of each variable's sample, or its
        position in ``X`` (``t mod n_samples``); ``y`` (n_variables,), int32: signs ±1; ``p``,
        ``upper_bound`` (``C_t > 0``), ``diagonal`` (``K(x_t, x_t)``), each (n_variables,);
        ``regression`` (bool): the variables are ``α⁺`` then ``α⁻`` of an ε-SVR; ``kernel``
        (int): a code of ``kernelkit._core._gram.VECTOR_KERNELS``, or ``PRECOMPUTED_KERNEL``;
        ``gamma``, ``coef0``, ``degree`` (float).
    options : dict
        ``tol`` (float): stop when the maximal violating pair gap ``max_{I_up} −y_tG_t −
        min_{I_low} −y_tG_t`` is below it; ``shrinking`` (bool); ``cache_size`` (float): kernel
        cache in MiB (at least two full rows; unused for a Gram, read in place); ``max_iter``
        (int): maximum number of SMO steps (positive); ``n_threads`` (int): OpenMP threads for
        the kernel rows (call with BLAS limited to one thread); ``check_curvature`` (bool):
        raise ``ValueError`` when a pair the solver considers has ``K_ii + K_jj − 2K_ij < 0``,
        a free proof that the Gram matrix is not p.s.d. (off for kernels indefinite on purpose,
        sigmoid). Optional: ``progress`` (callable): ``progress(n_iter, gap, active_size)``,
        called with the GIL every ``report_every`` (int, then positive) steps with the steps
        taken, the gap and size of the active set; what it raises stops the solver and is
        raised here; ``cancel`` (ndarray of shape (1,), int8): a flag another thread sets to 1
        to stop the solver, which raises KeyboardInterrupt (thread pools cannot see Ctrl-C);
        ``min_work_per_thread`` (float, default 0): seconds of work per thread of a kernel row.
    alpha : ndarray of shape (n_variables,), float64
        In: a feasible start (``0 ≤ α ≤ C``, ``yᵀα = 0``): zeros, or a previous solution to
        warm-start (e.g. over the iterations of multiple kernel learning). Out: the solution.

    Returns
    -------
    rho : float
        Offset: the decision function is ``Σ_t y_t α_t K(x_t, x) − rho``.
    objective : float
        ``½αᵀQα + pᵀα`` at the solution.
    n_iter : int
        SMO steps taken.
    status : int
        0 converged, 1 ``max_iter`` reached.
    """
    cdef long n_iter = 0
    cdef int status
    cdef Options opt
    cdef _SMOSolver solver = _SMOSolver()
    solver._load(problem, options, alpha, &opt)
    with nogil:
        status = solver._solve(&opt, &n_iter)
    return solver._finish(status, n_iter, alpha)
