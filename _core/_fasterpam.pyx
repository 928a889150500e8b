"""FasterPAM: the swap phase of k-medoids, over a precomputed or an on-the-fly dissimilarity
(``_kmedoids_common.pxd``).

Sangnier, §2.2.2 "Variants of k-means" (k-medoids, k-median). E. Schubert and
P. J. Rousseeuw, "Fast and eager k-medoids clustering: O(k) runtime improvement of the PAM,
CLARA, and CLARANS algorithms", Information Systems 101, 2021 (FasterPAM); L. Kaufman and
P. J. Rousseeuw, "Clustering by means of medoids", 1987 (PAM).

FasterPAM (Schubert & Rousseeuw 2021, Algorithm 3). Each sample ``o`` keeps its nearest medoid
``n(o)`` at ``dn(o)`` and its second nearest at ``ds(o)``; the removal loss of medoid ``m`` is
``Σ_{o: n(o)=m} (ds(o) − dn(o))``. Swapping candidate ``c`` for medoid ``m`` changes the loss by
``ΔTD(m, c) = acc(c) + R_m(c)`` where one pass over the samples gives, for every ``m`` at once,

    d(o, c) < dn(o):          acc += d(o, c) − dn(o),  R_{n(o)} += dn(o) − ds(o)
    dn(o) ≤ d(o, c) < ds(o):  R_{n(o)} += d(o, c) − ds(o)

starting from ``R = removal loss`` — O(n) per candidate instead of PAM's O(nk). Swaps are eager:
candidates are visited in index order and the best swap of a candidate is made as soon as it
lowers the loss; a pass ends one full cycle after the last swap. This is the algorithm and the
arithmetic of the ``kmedoids`` package (same order of sums, same ties), so from the same medoids
it reaches the same medoids.

Parallelism without changing the result: with several threads, a window of consecutive
candidates is evaluated against the current state in parallel; the first improving candidate of
the window (in index order) is swapped and the evaluations after it are dropped, so the sequence
of swaps is exactly the sequential one. The window grows while no swap happens and shrinks after
one. Each evaluation is one thread's ordered sum, so the values do not depend on the threads.
"""

from cython.parallel cimport prange
from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from _interrupt cimport INTERRUPTED, InterruptState, interrupt_init, interrupted, raise_pending
from _kmedoids_common cimport (
    OK,
    OUT_OF_MEMORY,
    PARALLEL_MIN_SAMPLES,
    ROWS,
    Source,
    _assign,
    _assign_entry,
    _build,
    _medoid_rows,
    _n_samples,
    _row,
    _source,
)
from _types cimport floating, int32_t, intp_t

# Largest window of candidates evaluated in parallel, per thread.
cdef intp_t WINDOW_PER_THREAD = 8


cdef struct Pam:
    # A FasterPAM run: its problem, the state of every sample, and the outputs.
    intp_t n
    intp_t n_medoids
    intp_t *medoids             # INOUT (n_medoids,) the sample of each medoid slot
    int32_t *near_i             # OUT (n,) slot of the nearest medoid of each sample
    double *near_d              # OUT (n,) its dissimilarity
    int32_t *seco_i             # (n,) slot of the second nearest
    double *seco_d              # (n,) its dissimilarity
    double *history             # OUT (max_iter,) loss at the start of each pass
    intp_t max_iter
    int n_threads
    intp_t n_iter               # OUT passes run
    intp_t n_swaps              # OUT swaps made
    double loss                 # OUT Σ_o dn(o)


cdef struct Window:
    # The candidates evaluated at once, and the buffers of the swap passes.
    intp_t size                 # candidates evaluated in parallel now
    intp_t largest              # at most
    intp_t last_swap            # candidate of the last swap (n: none yet)
    double *removal             # (n_medoids,) removal loss of each medoid
    double *ploss               # (largest, n_medoids) scratch of the evaluations
    double *change              # (largest,) ΔTD of each candidate of the window
    intp_t *slots               # (largest,) medoid slot of each candidate's best swap
    double *med_buffer          # (n_medoids, n) the medoids' rows made on the fly, or NULL


def fasterpam(
    const floating[:, ::1] D,        # IN (n, n) dissimilarities, or (0, 0) with a vector metric
    const double[:, ::1] X,          # IN (n, n_features) samples (vector metric), else (0, 0)
    const double[::1] sqnorms,       # IN (n,) ‖x‖² (vector metric), else empty
    int metric,                      # a value of METRICS
    intp_t[::1] medoids,             # INOUT (n_clusters,) distinct sample indices
    int32_t[::1] labels,             # OUT (n,) slot of the nearest medoid
    double[::1] distances,           # OUT (n,) dissimilarity to it
    double[::1] history,             # OUT (max_iter,) loss at the start of each pass
    intp_t max_iter,
    int n_threads,
):
    """FasterPAM from the given medoids (eager swaps, O(k)-faster swap evaluation).

    Parameters
    ----------
    D : ndarray of shape (n, n), float32 or float64, C-contiguous
        ``D[j, o]``: dissimilarity of medoid/candidate ``j`` to sample ``o`` (row ``j`` is read).
        Shape (0, 0), float64, with a vector ``metric``.
    X : ndarray of shape (n, n_features), float64
        Samples for ``metric`` EUCLIDEAN or SQEUCLIDEAN (centred, for accuracy); (0, 0)
        otherwise.
    sqnorms : ndarray of shape (n,), float64
        Squared norms of the rows of ``X``.
    metric : int
    medoids : ndarray of shape (n_clusters,), intp
        Initial medoids in, final medoids out (slot order kept).
    labels : ndarray of shape (n,), int32
    distances : ndarray of shape (n,), float64
    history : ndarray of shape (max_iter,), float64
        Only the first ``n_iter`` entries are written.
    max_iter : int
        Passes at most.
    n_threads : int

    Returns
    -------
    loss : float
        ``Σ_o d(m(o), o)``.
    n_iter : int
        Passes run.
    n_swaps : int
    """
    cdef intp_t n = _n_samples(D, X, metric)
    cdef intp_t k = medoids.shape[0]
    cdef intp_t i
    cdef int status
    cdef Source src
    cdef Pam pam
    cdef int32_t *seco_i = NULL
    cdef double *seco_d = NULL
    if not 1 <= k <= n:
        raise ValueError(f"need 1 ≤ n_clusters ≤ n_samples, got {k} medoids for {n} samples.")
    if labels.shape[0] != n or distances.shape[0] != n or history.shape[0] < max_iter:
        raise ValueError("labels, distances or history have the wrong length.")
    # every buffer freed below is NULL until allocated, whatever raises first
    src.tile = NULL
    seco_i = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    seco_d = <double*>malloc(max(n, 1) * sizeof(double))
    try:
        if seco_i == NULL or seco_d == NULL:
            raise MemoryError()
        _source(&src, X, sqnorms, metric, n)
        pam.n = n
        pam.n_medoids = k
        pam.medoids = &medoids[0]
        pam.near_i = &labels[0]
        pam.near_d = &distances[0]
        pam.seco_i = seco_i
        pam.seco_d = seco_d
        pam.history = &history[0] if max_iter > 0 else NULL
        pam.max_iter = max_iter
        pam.n_threads = n_threads
        pam.n_iter = 0
        pam.n_swaps = 0
        pam.loss = 0.0
        with nogil:
            if k == 1:
                # the best single medoid minimises the total dissimilarity: BUILD's first step
                status = _build(&D[0, 0] if src.X == NULL else NULL, &src, n, 1, &medoids[0],
                                seco_d, n_threads)
            else:
                status = _fasterpam(&D[0, 0] if src.X == NULL else NULL, &src, &pam)
        if status == INTERRUPTED:
            raise_pending()
        if status == OUT_OF_MEMORY:
            raise MemoryError(f"FasterPAM could not allocate its buffers for {n} samples and "
                              f"{k} medoids.")
        if k == 1:
            _assign_entry(D, &src, medoids, labels, distances, seco_i, seco_d, n_threads)
            pam.loss = 0.0
            for i in range(n):
                pam.loss += distances[i]
            pam.n_iter = 1
            if max_iter > 0:
                history[0] = pam.loss
    finally:
        free(src.tile)
        free(seco_i)
        free(seco_d)
    return pam.loss, pam.n_iter, pam.n_swaps


cdef void _removal_loss(const int32_t *near_i, const double *near_d, const double *seco_d,
                        intp_t n, intp_t n_medoids, double *removal) noexcept nogil:
    cdef intp_t o, m
    for m in range(n_medoids):
        removal[m] = 0.0
    for o in range(n):
        removal[near_i[o]] += seco_d[o] - near_d[o]


cdef double _evaluate(
    const floating *row,       # IN (n,): d(c, ·) of the candidate
    const int32_t *near_i, const double *near_d, const double *seco_d,
    const double *removal, intp_t n, intp_t n_medoids,
    double *ploss,             # scratch (n_medoids,)
    intp_t *best,              # OUT: medoid slot to swap out
) noexcept nogil:
    """``min_m ΔTD(m, c)`` and its slot (the first on ties)."""
    cdef intp_t o, m
    cdef double acc = 0.0, doc, dn
    memcpy(ploss, removal, n_medoids * sizeof(double))
    for o in range(n):
        doc = row[o]
        dn = near_d[o]
        if doc < dn:
            acc += doc - dn
            ploss[near_i[o]] += dn - seco_d[o]
        elif doc < seco_d[o]:
            ploss[near_i[o]] += doc - seco_d[o]
    best[0] = 0
    for m in range(1, n_medoids):
        if ploss[m] < ploss[best[0]]:
            best[0] = m
    return ploss[best[0]] + acc


cdef void _second_nearest(const floating **med_rows, intp_t n_medoids, intp_t nearest,
                          intp_t b, intp_t o, double dob, int32_t *seco_i,
                          double *seco_d) noexcept nogil:
    """Second nearest medoid of ``o`` by a scan, starting from the new medoid ``b``."""
    cdef intp_t m
    cdef double dist
    seco_i[o] = <int32_t>b
    seco_d[o] = dob
    for m in range(n_medoids):
        if m == nearest or m == b:
            continue
        dist = med_rows[m][o]
        if dist < seco_d[o]:
            seco_i[o] = <int32_t>m
            seco_d[o] = dist


cdef double _swap(
    const floating **med_rows,   # IN: rows of the medoids, slot b already the new medoid's
    intp_t n_medoids, intp_t n, intp_t b, intp_t j,
    int32_t *near_i, double *near_d, int32_t *seco_i, double *seco_d,
) noexcept nogil:
    """Replace medoid slot ``b`` by sample ``j``: update every nearest/second nearest; return
    the new loss."""
    cdef intp_t o
    cdef double doj, loss = 0.0
    cdef const floating *row = med_rows[b]
    for o in range(n):
        if o == j:
            if near_i[o] != b:
                seco_i[o] = near_i[o]
                seco_d[o] = near_d[o]
            near_i[o] = <int32_t>b
            near_d[o] = 0.0
            continue
        doj = row[o]
        if near_i[o] == b:                       # the nearest medoid is gone
            if doj < seco_d[o]:
                near_d[o] = doj
            else:
                near_i[o] = seco_i[o]
                near_d[o] = seco_d[o]
                _second_nearest(med_rows, n_medoids, near_i[o], b, o, doj, seco_i, seco_d)
        elif doj < near_d[o]:
            seco_i[o] = near_i[o]
            seco_d[o] = near_d[o]
            near_i[o] = <int32_t>b
            near_d[o] = doj
        elif doj < seco_d[o]:
            seco_i[o] = <int32_t>b
            seco_d[o] = doj
        elif seco_i[o] == b:                     # the second nearest was replaced
            _second_nearest(med_rows, n_medoids, near_i[o], b, o, doj, seco_i, seco_d)
        loss += near_d[o]
    return loss

cdef int _fasterpam(const floating *D, Source *src, Pam *pam) noexcept nogil:
    """Assignment, then swap passes until a pass swaps nothing or does not lower the loss, or
    after ``max_iter`` passes. Returns OK, OUT_OF_MEMORY or INTERRUPTED."""
    cdef intp_t n = pam.n, n_medoids = pam.n_medoids, it, swaps_before
    cdef int n_threads = pam.n_threads
    cdef double lastloss
    cdef int status = OK
    cdef Window w
    cdef const floating **med_rows = <const floating **>malloc(n_medoids * sizeof(void*))
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    w.largest = WINDOW_PER_THREAD * n_threads if n_threads > 1 else 1
    w.size = n_threads if n_threads > 1 else 1
    w.last_swap = n
    w.removal = <double*>malloc(n_medoids * sizeof(double))
    w.ploss = <double*>malloc(w.largest * n_medoids * sizeof(double))
    w.change = <double*>malloc(w.largest * sizeof(double))
    w.slots = <intp_t*>malloc(w.largest * sizeof(intp_t))
    w.med_buffer = NULL
    if n < PARALLEL_MIN_SAMPLES:
        w.largest = w.size = 1
    if src.X != NULL:
        w.med_buffer = <double*>malloc(n_medoids * n * sizeof(double))
    if (med_rows == NULL or w.removal == NULL or w.ploss == NULL or w.change == NULL
            or w.slots == NULL or (src.X != NULL and w.med_buffer == NULL)):
        status = OUT_OF_MEMORY
    else:
        status = _medoid_rows(D, src, n, pam.medoids, n_medoids, med_rows, w.med_buffer,
                              n_threads, &interrupt)
    if status == OK:
        pam.loss = _assign(med_rows, pam.medoids, n_medoids, n, pam.near_i, pam.near_d,
                           pam.seco_i, pam.seco_d, n_threads)
        _removal_loss(pam.near_i, pam.near_d, pam.seco_d, n, n_medoids, w.removal)
        pam.n_swaps = 0
        pam.n_iter = 0
        for it in range(pam.max_iter):
            pam.history[it] = pam.loss
            pam.n_iter = it + 1
            swaps_before = pam.n_swaps
            lastloss = pam.loss
            status = _swap_pass(D, src, pam, med_rows, &w, &interrupt)
            if status == INTERRUPTED or pam.n_swaps == swaps_before or pam.loss >= lastloss:
                break
    free(med_rows)
    free(w.med_buffer)
    free(w.removal)
    free(w.ploss)
    free(w.change)
    free(w.slots)
    return status


cdef int _swap_pass(const floating *D, Source *src, Pam *pam, const floating **med_rows,
                    Window *w, InterruptState *interrupt) noexcept nogil:
    """One pass of eager swaps over the candidates in index order, a window at a time (the
    window ends at the last swap of the previous pass, where the pass stops, and within one tile
    of computed rows). Returns OK or INTERRUPTED."""
    cdef intp_t n = pam.n, n_medoids = pam.n_medoids
    cdef int n_threads = pam.n_threads
    cdef intp_t *medoids = pam.medoids
    cdef int32_t *near_i = pam.near_i
    cdef double *near_d = pam.near_d
    cdef int32_t *seco_i = pam.seco_i
    cdef double *seco_d = pam.seco_d
    cdef double *removal = w.removal
    cdef double *ploss = w.ploss
    cdef double *change = w.change
    cdef intp_t *slots = w.slots
    cdef double *med_buffer = w.med_buffer
    cdef intp_t window = w.size, max_window = w.largest, lastswap = w.last_swap
    cdef intp_t j = 0, c, p, stop, limit, found, slot
    cdef int status = OK
    while j < n and j != lastswap:
        if interrupted(interrupt):      # a window costs O(window · n)
            status = INTERRUPTED
            break
        limit = lastswap if lastswap > j else n
        stop = min(j + window, limit)
        if src.X != NULL:
            stop = min(stop, (j // ROWS + 1) * ROWS)
            _row(D, src, n, j, n_threads)        # compute the tile once, outside threads
        if stop - j == 1:
            c = j
            change[0] = INFINITY
            if medoids[near_i[c]] != c:          # a medoid is not a candidate
                change[0] = _evaluate(_row(D, src, n, c, 1), near_i, near_d, seco_d,
                                      removal, n, n_medoids, ploss, &slots[0])
        else:
            for p in prange(stop - j, schedule='static', num_threads=n_threads):
                change[p] = INFINITY
                if medoids[near_i[j + p]] != j + p:
                    change[p] = _evaluate(_row(D, src, n, j + p, 1), near_i, near_d,
                                          seco_d, removal, n, n_medoids,
                                          ploss + p * n_medoids, &slots[p])
        found = -1
        for p in range(stop - j):
            if change[p] < 0.0:
                found = p
                break
        if found < 0:
            j = stop
            window = min(2 * window, max_window)
            continue
        c = j + found
        slot = slots[found]
        medoids[slot] = c
        if src.X == NULL:
            med_rows[slot] = D + c * n
        else:
            memcpy(med_buffer + slot * n, _row(D, src, n, c, 1), n * sizeof(double))
        pam.loss = _swap(med_rows, n_medoids, n, slot, c, near_i, near_d, seco_i, seco_d)
        _removal_loss(near_i, near_d, seco_d, n, n_medoids, removal)
        pam.n_swaps += 1
        lastswap = c
        j = c + 1
        window = max(window // 2, n_threads if max_window > 1 else 1)
    w.size = window
    w.last_swap = lastswap
    return status
