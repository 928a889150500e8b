# Workspaces of the CART builder (_tree_builder): the buffers one thread needs to grow trees,
# allocated once and reused for each of its trees (the exact splitter's rows, the histogram
# splitter's samples, per-thread scratch of the node-level parallel loops), and the set-up of
# one tree in them: the samples' statistics under the tree's weights and the tree's samples in
# every presorted row. Inline pieces cimported by _tree_builder.
from libc.stdint cimport uint32_t
from libc.stdlib cimport calloc, free, malloc, realloc

from _tree cimport (MAX_BINS, Candidate, NodeRecord, Problem, RowScratch, RowState, Scratch,
                    Stat, Workspace, index_t)
from _tree_criterion cimport ABSOLUTE_ERROR, NEWTON
from _types cimport int32_t, intp_t, uint8_t


cdef inline void _workspace_free(const Problem *pb, Workspace *ws) noexcept nogil:
    cdef intp_t t
    cdef RowState *rows
    cdef RowScratch *row_scratch
    if ws == NULL:
        return
    free(ws.stat)
    free(ws.weight)
    free(ws.features)
    free(ws.constant_features)
    free(ws.to_eval)
    free(ws.cand)
    free(ws.node_counts)
    free(ws.child_counts)
    free(ws.right_counts)
    free(ws.value_buf)
    free(ws.records)
    if pb.hist:
        free(ws.of.bins.samples)
        free(ws.of.bins.ordered)
    else:
        rows = &ws.of.rows
        free(rows.entries)
        free(rows.goes_left)
        free(rows.skip_row)
        free(rows.rank)
        free(rows.sorted_y)
    if ws.scratch != NULL:
        for t in range(ws.n_threads):
            free(ws.scratch[t].counts)
            if pb.hist:
                free(ws.scratch[t].of.bins.tmp_samples)
                free(ws.scratch[t].of.bins.hist)
            else:
                row_scratch = &ws.scratch[t].of.rows
                free(row_scratch.tmp_entries)
                free(row_scratch.fen_w)
                free(row_scratch.fen_wy)
                free(row_scratch.ae_left)
                free(row_scratch.ae_right)
        free(ws.scratch)
    free(ws)


cdef inline bint _row_state_new(const Problem *pb, Workspace *ws) noexcept nogil:
    """The exact splitter's buffers (the presorted rows themselves are sized per tree in
    _prepare_tree: a bootstrap keeps ~63 %); False when out of memory."""
    cdef intp_t n = pb.n_samples, t
    cdef RowState *rows = &ws.of.rows
    cdef RowScratch *sc
    cdef bint ok
    rows.goes_left = <uint8_t *>malloc(n * sizeof(uint8_t))
    rows.skip_row = <uint8_t *>calloc(pb.data.rows.n_rows + 1, sizeof(uint8_t))
    ok = rows.goes_left != NULL and rows.skip_row != NULL
    if pb.criterion == ABSOLUTE_ERROR:
        rows.rank = <int32_t *>malloc(n * sizeof(int32_t))
        rows.sorted_y = <double *>malloc(n * sizeof(double))
        ok = ok and rows.rank != NULL and rows.sorted_y != NULL
    for t in range(ws.n_threads):
        sc = &ws.scratch[t].of.rows
        sc.tmp_entries = malloc(n * sizeof(int32_t))
        ok = ok and sc.tmp_entries != NULL
        if pb.criterion == ABSOLUTE_ERROR:
            sc.fen_w = <double *>malloc((n + 1) * sizeof(double))
            sc.fen_wy = <double *>malloc((n + 1) * sizeof(double))
            sc.ae_left = <double *>malloc(n * sizeof(double))
            sc.ae_right = <double *>malloc(n * sizeof(double))
            ok = (ok and sc.fen_w != NULL and sc.fen_wy != NULL and sc.ae_left != NULL
                  and sc.ae_right != NULL)
    return ok


cdef inline bint _bin_state_new(const Problem *pb, Workspace *ws) noexcept nogil:
    """The histogram splitter's buffers; False when out of memory."""
    cdef intp_t n = pb.n_samples, t
    cdef bint ok
    ws.of.bins.samples = <int32_t *>malloc(n * sizeof(int32_t))
    ws.of.bins.ordered = <Stat *>malloc(n * sizeof(Stat))
    # the samples are partitioned by the first thread only
    ws.scratch[0].of.bins.tmp_samples = <int32_t *>malloc(n * sizeof(int32_t))
    ok = (ws.of.bins.samples != NULL and ws.of.bins.ordered != NULL
          and ws.scratch[0].of.bins.tmp_samples != NULL)
    for t in range(ws.n_threads):
        ws.scratch[t].of.bins.hist = <double *>calloc(MAX_BINS * pb.data.bins.n_stats,
                                                      sizeof(double))
        ok = ok and ws.scratch[t].of.bins.hist != NULL
    return ok


cdef inline Workspace *_workspace_new(const Problem *pb, int n_threads) noexcept nogil:
    """A workspace for trees of ``pb`` with ``n_threads`` threads per node (NULL: no memory)."""
    cdef Workspace *ws = <Workspace *>calloc(1, sizeof(Workspace))
    cdef intp_t n = pb.n_samples, d = pb.n_features, K = pb.n_classes + 1, t
    cdef bint ok
    if ws == NULL:
        return NULL
    ws.n_threads = n_threads
    ws.stat = <Stat *>malloc(n * sizeof(Stat))
    ws.weight = <double *>malloc(n * sizeof(double))
    ws.features = <intp_t *>malloc(d * sizeof(intp_t))
    ws.constant_features = <intp_t *>malloc(d * sizeof(intp_t))
    ws.to_eval = <intp_t *>malloc(d * sizeof(intp_t))
    ws.cand = <Candidate *>malloc(d * sizeof(Candidate))
    ws.node_counts = <double *>malloc(K * sizeof(double))
    ws.child_counts = <double *>malloc(K * sizeof(double))
    ws.right_counts = <double *>malloc(K * sizeof(double))
    ws.value_buf = <double *>malloc(K * sizeof(double))
    ws.records_capacity = 64
    ws.records = <NodeRecord *>malloc(ws.records_capacity * sizeof(NodeRecord))
    ws.scratch = <Scratch *>calloc(n_threads, sizeof(Scratch))
    ok = (ws.stat != NULL and ws.weight != NULL and ws.features != NULL
          and ws.constant_features != NULL and ws.to_eval != NULL and ws.cand != NULL
          and ws.node_counts != NULL and ws.child_counts != NULL and ws.right_counts != NULL
          and ws.value_buf != NULL
          and ws.records != NULL and ws.scratch != NULL)
    if ok:
        for t in range(n_threads):
            ws.scratch[t].counts = <double *>malloc(K * sizeof(double))
            ok = ok and ws.scratch[t].counts != NULL
        ok = ok and (_bin_state_new(pb, ws) if pb.hist else _row_state_new(pb, ws))
    if not ok:
        _workspace_free(pb, ws)
        return NULL
    return ws


cdef inline int _prepare_tree(const Problem *pb, Workspace *ws, const double *weights,
                              const uint8_t *counts, uint32_t seed,
                              const index_t *sorted_samples) noexcept nogil:
    """Per-sample statistics (weight ``weights[s] × counts[s]``, counts optional) and the tree's
    samples (positive weight) in every row; -1 when out of memory."""
    cdef intp_t n = pb.n_samples, s, r, p, k = 0, n_active = 0
    cdef double w, h_total = 0.0, w_total = 0.0
    cdef const index_t *order
    cdef index_t *e
    cdef void *grown
    for s in range(n):
        w = weights[s] if counts == NULL else weights[s] * <double>counts[s]
        ws.weight[s] = w
        if pb.classification:
            ws.stat[s].h = w
            ws.stat[s].v = pb.y[s]
        elif pb.criterion == NEWTON:
            ws.stat[s].h = w * pb.hessian[s]
            ws.stat[s].v = -(w * pb.y[s])
        else:
            ws.stat[s].h = w
            ws.stat[s].v = w * pb.y[s]
        h_total += ws.stat[s].h
        w_total += w
        if w > 0.0:
            n_active += 1
    ws.h_total = h_total
    # scikit-learn: min_weight_fraction_leaf × total weight (Newton: × total hessian)
    ws.min_weight_leaf = pb.min_weight_fraction_leaf * (
        h_total if pb.criterion == NEWTON else w_total)
    ws.n_active = n_active
    if pb.hist:
        for s in range(n):
            if ws.weight[s] > 0.0:
                ws.of.bins.samples[k] = <int32_t>s
                k += 1
    else:
        if pb.data.rows.n_rows * n_active > ws.of.rows.entries_capacity:
            grown = realloc(ws.of.rows.entries, pb.data.rows.n_rows * n_active * sizeof(index_t))
            if grown == NULL:
                return -1
            ws.of.rows.entries = grown
            ws.of.rows.entries_capacity = pb.data.rows.n_rows * n_active
        ws.of.rows.stride = n_active
        for r in range(pb.data.rows.n_rows):
            e = <index_t *>ws.of.rows.entries + r * n_active
            order = (sorted_samples + r * n if r < pb.n_features
                     else <const index_t *>pb.data.rows.y_order)
            k = 0
            for p in range(n):
                # branch-free filter (a bootstrap keeps a sample with probability ~0.63); the
                # bound keeps the write after the last kept sample inside the row
                s = order[p]
                if k < n_active:
                    e[k] = <index_t>s
                k += ws.weight[s] > 0.0
    for s in range(pb.n_features):
        ws.features[s] = s
    ws.rand_state = seed
    return 0
