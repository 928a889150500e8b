# Absolute error of the CART builder: Fenwick trees over node-local ranks of y give the weighted
# median of a growing set of samples and their absolute deviation from it, in O(log n) per sample
# added. A node's impurity ``Σ w |y − median| / Σ w`` (_node_absolute_error) and the scans'
# prefix and suffix deviations (_tree_splitter_exact) are built on them. Inline pieces cimported
# by _tree_builder (through _tree_splitter_exact too).
from libc.string cimport memset

from _tree cimport Problem, RowScratch, Workspace, _sample_at, index_t
from _types cimport int32_t, intp_t


cdef inline void _fenwick_add(double *fw, double *fwy, intp_t n, intp_t rank, double w,
                              double wy) noexcept nogil:
    cdef intp_t i = rank + 1
    while i <= n:
        fw[i] += w
        fwy[i] += wy
        i += i & (-i)


cdef inline intp_t _fenwick_find(const double *fw, const double *fwy, intp_t n, double target,
                                 bint inclusive, double *w_before,
                                 double *wy_before) noexcept nogil:
    """Smallest rank whose cumulative weight exceeds ``target`` (reaches it if ``inclusive``);
    the weight and weighted sum of the ranks below it."""
    cdef intp_t pos = 0, step = 1, nxt
    cdef double sw = 0.0, swy = 0.0
    while step * 2 <= n:
        step *= 2
    while step > 0:
        nxt = pos + step
        if nxt <= n and ((sw + fw[nxt] < target) if inclusive else (sw + fw[nxt] <= target)):
            pos = nxt
            sw += fw[nxt]
            swy += fwy[nxt]
        step //= 2
    w_before[0] = sw
    wy_before[0] = swy
    return pos


cdef inline double _absolute_deviation(const double *fw, const double *fwy, intp_t n,
                                       double total_w, double total_wy, const double *sorted_y,
                                       double *median) noexcept nogil:
    """``Σ w |y − m|`` of the activated samples, m their weighted median (the midpoint of the two
    middle values when the cumulative weight hits half exactly, as scikit-learn)."""
    cdef double half = 0.5 * total_w
    cdef double w_left, wy_left, w_unused, wy_unused, m
    cdef intp_t r = _fenwick_find(fw, fwy, n, half, False, &w_left, &wy_left)
    cdef intp_t r_prev
    if w_left == half and r > 0:
        r_prev = _fenwick_find(fw, fwy, n, half, True, &w_unused, &wy_unused)
        m = (sorted_y[r_prev] + sorted_y[r]) / 2
    else:
        m = sorted_y[r]
    median[0] = m
    # pinball identity: Σ_{y ≥ m} w (y − m) + Σ_{y < m} w (m − y)
    return ((total_wy - wy_left) - m * (total_w - w_left)) + (m * w_left - wy_left)


# ------------------------------------------------------------------------------------------
# A node's absolute error

cdef inline void _node_ranks(const Problem *pb, Workspace *ws, intp_t start, intp_t end,
                             const index_t *rows) noexcept nogil:
    """Node-local ranks of y from the node's slice of the y-order row (absolute error)."""
    cdef const index_t *e = rows + pb.n_features * ws.of.rows.stride
    cdef intp_t p
    cdef int32_t s
    for p in range(start, end):
        s = e[p]
        ws.of.rows.rank[s] = <int32_t>(p - start)
        ws.of.rows.sorted_y[p - start] = pb.y[s]


cdef inline double _node_absolute_error(const Problem *pb, Workspace *ws, intp_t row,
                                        intp_t start, intp_t end, double *median,
                                        const index_t *rows) noexcept nogil:
    """``Σ w |y − median|`` of a node whose ranks are in ``ws.of.rows.rank``."""
    cdef intp_t n = end - start, p
    cdef int32_t s
    cdef double w, total_w = 0.0, total_wy = 0.0
    cdef RowScratch *fenwick = &ws.scratch[0].of.rows
    memset(fenwick.fen_w, 0, (n + 1) * sizeof(double))
    memset(fenwick.fen_wy, 0, (n + 1) * sizeof(double))
    for p in range(start, end):
        s = _sample_at(pb, ws, row, p, rows)
        w = ws.weight[s]
        _fenwick_add(fenwick.fen_w, fenwick.fen_wy, n, ws.of.rows.rank[s], w, w * pb.y[s])
        total_w += w
        total_wy += w * pb.y[s]
    return _absolute_deviation(fenwick.fen_w, fenwick.fen_wy, n, total_w, total_wy,
                               ws.of.rows.sorted_y, median)
