# Exact splitter of the CART builder: scans of presorted rows and their stable partition.
#
# X (float32, stored feature by feature) is presorted once per fit (``presort``: a parallel LSD
# radix sort, stable). A tree keeps, for every feature, the ids of its samples in increasing
# order of that feature (values are read from X), and every node owns the slice ``[start, end)``
# of every such row: a split partitions each row stably in place (left samples first, order
# kept), so no node ever re-sorts. Scanning a row accumulates class counts / sums in float64 and
# evaluates the proxy between distinct consecutive values (closer than 1e-7 counts as equal, as
# in scikit-learn); the threshold is the midpoint ``v_k/2 + v_{k+1}/2``.
#
# One scan loop serves every criterion: it is specialised per criterion at compile time (the
# fused type ``row_scan`` of the criterion's running sums), so each criterion gets its own
# loop with nothing but its own arithmetic inside. Inline pieces cimported by _tree_builder,
# where the compiler inlines them into the split search.
from cython.parallel cimport parallel, prange, threadid
from libc.math cimport INFINITY
from libc.string cimport memcpy, memset

from _tree cimport (FEATURE_THRESHOLD, PARALLEL_MIN_WORK, Candidate, NodeStats, Problem,
                    RowScratch, Scratch, Split, Workspace, index_t, kk_prefetch)
from _tree_absolute_error cimport _absolute_deviation, _fenwick_add
from _tree_criterion cimport (ABSOLUTE_ERROR, GINI, _classification_proxy, _gini_may_win,
                              _regression_may_win, _regression_proxy)
from _types cimport int32_t, intp_t

cdef enum:
    # Entries between a prefetch and the use of its address in the split scans.
    PREFETCH_DISTANCE = 16
    # Cut positions along a row
    SKIP = 0        # not a candidate position
    EVALUATE = 1
    STOP = 2        # no later position is a candidate


# ------------------------------------------------------------------------------------------
# Running sums of the samples left of the cut, one struct per criterion

cdef struct ClassScan:
    double *left         # (n_classes,) class weights
    double w_left
    bint gini

cdef struct RegressionScan:
    double v_left        # Σ v and Σ h
    double h_left
    double l2
    int criterion

cdef struct AbsoluteErrorScan:
    # absolute deviations of every prefix and suffix of the row's slice (filled before the scan)
    double *ae_left      # ae_left[k]: of the first k + 1 samples
    double *ae_right     # ae_right[k]: of the samples from k on
    double w_left

ctypedef fused row_scan:
    ClassScan
    RegressionScan
    AbsoluteErrorScan


cdef inline void _scan_add(row_scan *acc, const Workspace *ws, int32_t s) noexcept nogil:
    """Move sample ``s`` to the left of the cut."""
    if row_scan is ClassScan:
        acc.left[<intp_t>ws.stat[s].v] += ws.stat[s].h
        acc.w_left += ws.stat[s].h
    elif row_scan is RegressionScan:
        acc.v_left += ws.stat[s].v
        acc.h_left += ws.stat[s].h
    else:
        acc.w_left += ws.weight[s]


cdef inline bint _scan_may_win(const row_scan *acc, const Problem *pb, const Workspace *ws,
                               const NodeStats *st, double best) noexcept nogil:
    """Whether the cut is admissible (minimum weight on both sides; Newton: a defined step on
    both sides) and may beat the best proxy so far (the division-free screen)."""
    cdef double w_right
    if row_scan is ClassScan:
        w_right = st.weight - acc.w_left
        if acc.w_left < ws.min_weight_leaf or w_right < ws.min_weight_leaf:
            return False
        # the exact proxy (two divisions) is only computed for contenders
        return not (acc.gini and best > -INFINITY and not _gini_may_win(
            pb, acc.left, ws.node_counts, acc.w_left, w_right, best))
    elif row_scan is RegressionScan:
        w_right = st.sum_h - acc.h_left
        if acc.h_left < ws.min_weight_leaf or w_right < ws.min_weight_leaf:
            return False
        if acc.h_left + acc.l2 <= 0.0 or w_right + acc.l2 <= 0.0:
            return False    # Newton with zero hessian on a side: no defined step
        return not (best > -INFINITY and not _regression_may_win(
            acc.criterion, acc.v_left, st.sum_v - acc.v_left, acc.h_left, w_right, acc.l2,
            best))
    else:
        w_right = st.weight - acc.w_left
        return acc.w_left >= ws.min_weight_leaf and w_right >= ws.min_weight_leaf


cdef inline double _scan_proxy(const row_scan *acc, const Problem *pb, const Workspace *ws,
                               const NodeStats *st, intp_t k) noexcept nogil:
    """Proxy of the cut after the ``k + 1``-th sample of the slice."""
    cdef double w_right
    if row_scan is ClassScan:
        return _classification_proxy(pb, acc.left, ws.node_counts, acc.w_left,
                                     st.weight - acc.w_left)
    elif row_scan is RegressionScan:
        return _regression_proxy(acc.criterion, acc.v_left, st.sum_v - acc.v_left, acc.h_left,
                                 st.sum_h - acc.h_left, acc.l2)
    else:
        w_right = st.weight - acc.w_left
        return (-w_right * (acc.ae_right[k + 1] / w_right)
                - acc.w_left * (acc.ae_left[k] / acc.w_left))


cdef inline int _position(float value, float next_value, intp_t n_left, intp_t n_right,
                          intp_t min_leaf) noexcept nogil:
    """Whether the cut between two consecutive samples of a row is a candidate split: between
    two distinct values (closer than 1e-7 counts as equal), leaving ``min_leaf`` samples on
    each side (the right side only shrinks along the row)."""
    if next_value <= value + FEATURE_THRESHOLD:
        return SKIP
    if n_left < min_leaf:
        return SKIP
    if n_right < min_leaf:
        return STOP
    return EVALUATE


cdef inline void _scan_row(row_scan *acc, const Problem *pb, const Workspace *ws,
                           const index_t *e, const float *x, intp_t start, intp_t end,
                           const NodeStats *st, Candidate *best) noexcept nogil:
    """Best cut of the slice ``e[start:end]`` of a presorted row (``x``: the feature's values):
    the first strict maximum of the proxy along the row; the threshold is the midpoint."""
    cdef intp_t p, min_leaf = pb.min_samples_leaf
    cdef int position
    cdef float value, next_value = x[e[start]]
    cdef double proxy
    best.proxy = -INFINITY
    best.pos = end
    for p in range(start, end - 1):
        if p + PREFETCH_DISTANCE < end:
            kk_prefetch(&x[e[p + PREFETCH_DISTANCE]])
            kk_prefetch(&ws.stat[e[p + PREFETCH_DISTANCE]])
        _scan_add(acc, ws, e[p])
        value = next_value
        next_value = x[e[p + 1]]
        position = _position(value, next_value, p + 1 - start, end - p - 1, min_leaf)
        if position == SKIP:
            continue
        if position == STOP:
            break
        if not _scan_may_win(acc, pb, ws, st, best.proxy):
            continue
        proxy = _scan_proxy(acc, pb, ws, st, p - start)
        if proxy > best.proxy:
            best.proxy = proxy
            best.pos = p + 1
            best.threshold = value / 2.0 + next_value / 2.0
            if row_scan is AbsoluteErrorScan:
                best.ae_left = acc.ae_left[p - start]
                best.ae_right = acc.ae_right[p + 1 - start]


cdef inline void _running_deviations(const Problem *pb, const Workspace *ws,
                                     const index_t *e, intp_t n, intp_t first, intp_t step,
                                     RowScratch *sc, double *out) noexcept nogil:
    """``out[k]``: the absolute deviation from their weighted median of the samples ``e[first]``
    to ``e[k]``, for k from ``first`` by ``step`` (±1) over the ``n`` samples (Fenwick trees
    over the node-local ranks of y)."""
    cdef intp_t i, k = first
    cdef int32_t s
    cdef double w, total_w = 0.0, total_wy = 0.0, median
    memset(sc.fen_w, 0, (n + 1) * sizeof(double))
    memset(sc.fen_wy, 0, (n + 1) * sizeof(double))
    for i in range(n):
        s = e[k]
        w = ws.weight[s]
        _fenwick_add(sc.fen_w, sc.fen_wy, n, ws.of.rows.rank[s], w, w * pb.y[s])
        total_w += w
        total_wy += w * pb.y[s]
        out[k] = _absolute_deviation(sc.fen_w, sc.fen_wy, n, total_w, total_wy,
                                     ws.of.rows.sorted_y, &median)
        k += step


cdef inline void _exact_evaluate(const Problem *pb, const Workspace *ws, intp_t f,
                                 intp_t start, intp_t end, const NodeStats *st, Scratch *sc,
                                 Candidate *best, const index_t *rows) noexcept nogil:
    """Best cut of feature ``f`` at the node ``[start, end)``, with the criterion's scan."""
    cdef const index_t *e = rows + f * ws.of.rows.stride
    cdef const float *x = pb.data.rows.X_T + f * pb.n_samples
    cdef ClassScan by_class
    cdef RegressionScan by_sums
    cdef AbsoluteErrorScan by_deviation
    if pb.criterion == ABSOLUTE_ERROR:
        # deviations of every prefix and every suffix of the slice
        _running_deviations(pb, ws, e + start, end - start, 0, 1, &sc.of.rows,
                            sc.of.rows.ae_left)
        _running_deviations(pb, ws, e + start, end - start, end - start - 1, -1, &sc.of.rows,
                            sc.of.rows.ae_right)
        by_deviation.ae_left = sc.of.rows.ae_left
        by_deviation.ae_right = sc.of.rows.ae_right
        by_deviation.w_left = 0.0
        _scan_row(&by_deviation, pb, ws, e, x, start, end, st, best)
    elif pb.classification:
        memset(sc.counts, 0, pb.n_classes * sizeof(double))
        by_class.left = sc.counts
        by_class.w_left = 0.0
        by_class.gini = pb.criterion == GINI
        _scan_row(&by_class, pb, ws, e, x, start, end, st, best)
    else:
        by_sums.v_left = 0.0
        by_sums.h_left = 0.0
        by_sums.l2 = pb.l2_regularization
        by_sums.criterion = pb.criterion
        _scan_row(&by_sums, pb, ws, e, x, start, end, st, best)


cdef inline bint _exact_is_constant(const Problem *pb, const Workspace *ws, intp_t f,
                                    intp_t start, intp_t end,
                                    const index_t *rows) noexcept nogil:
    """Whether feature ``f`` takes one value on the node ``[start, end)``."""
    cdef const index_t *e = rows + f * ws.of.rows.stride
    cdef const float *x = pb.data.rows.X_T + f * pb.n_samples
    return x[e[end - 1]] <= x[e[start]] + FEATURE_THRESHOLD


# ------------------------------------------------------------------------------------------
# Partition of the rows

cdef inline void _partition_row(Workspace *ws, intp_t r, intp_t start, intp_t end,
                                Scratch *sc, index_t *rows) noexcept nogil:
    """Stable in-place partition of a presorted row's slice by ``ws.of.rows.goes_left``."""
    cdef index_t *e = rows + r * ws.of.rows.stride
    cdef index_t *tmp = <index_t *>sc.of.rows.tmp_entries
    cdef intp_t p, w = start, n_right = 0, left
    cdef index_t s
    # branch-free: the side is a coin flip the predictor cannot learn; every entry is written
    # to both places and only one cursor advances (w <= p, so e[w] is already read)
    for p in range(start, end):
        s = e[p]
        left = ws.of.rows.goes_left[s]
        e[w] = s
        tmp[n_right] = s
        w += left
        n_right += 1 - left
    memcpy(e + w, tmp, n_right * sizeof(index_t))


cdef inline void _exact_apply_split(const Problem *pb, Workspace *ws, intp_t start, intp_t end,
                                    const Split *split, intp_t n_skip, bint need_children,
                                    index_t *rows) noexcept nogil:
    """Partition every row except the split feature's (already in order) and the ``n_skip``
    features of ``ws.constant_features`` (never read again). ``need_children`` False (both
    children are certain leaves): only what the leaves need."""
    cdef intp_t p, r, n_rows = pb.data.rows.n_rows
    cdef int n_threads = ws.n_threads
    cdef const index_t *e = rows + split.feature * ws.of.rows.stride
    for p in range(start, split.pos):
        ws.of.rows.goes_left[e[p]] = 1
    for p in range(split.pos, end):
        ws.of.rows.goes_left[e[p]] = 0
    if not need_children:
        # the leaves read their samples from the split feature's row, which is in order, and
        # (absolute error) their medians from the y-order row
        if pb.criterion == ABSOLUTE_ERROR:
            _partition_row(ws, pb.n_features, start, end, &ws.scratch[0], rows)
        return
    for p in range(n_skip):
        ws.of.rows.skip_row[ws.constant_features[p]] = 1
    ws.of.rows.skip_row[split.feature] = 1
    if n_threads > 1 and (end - start) * n_rows >= PARALLEL_MIN_WORK:
        with parallel(num_threads=n_threads):
            for r in prange(n_rows, schedule='dynamic'):
                if not ws.of.rows.skip_row[r]:
                    _partition_row(ws, r, start, end, &ws.scratch[threadid()], rows)
    else:
        for r in range(n_rows):
            if not ws.of.rows.skip_row[r]:
                _partition_row(ws, r, start, end, &ws.scratch[0], rows)
    for p in range(n_skip):
        ws.of.rows.skip_row[ws.constant_features[p]] = 0
    ws.of.rows.skip_row[split.feature] = 0
