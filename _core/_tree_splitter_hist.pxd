# Histogram splitter of the CART builder: per-node histograms, their scans and the partition of
# the node's samples.
#
# X is binned once into ≤ 255 bins per feature (uint8 codes, built in
# ``kernelkit.tree._binning``). A node owns a slice of one partitioned array of sample ids. Its
# histograms hold (class weights, count) or (Σ v, Σ h, count) per bin, and are of one of two
# kinds, chosen by a cost model (_keep_histograms):
#
# - every feature's, owned by the node: the smaller child's are built from its samples, the
#   larger one's by subtracting them from the parent's (O(n_small × n_features) plus a pass over
#   every bin of every feature, a fixed cost that only large nodes amortise);
# - none: each feature drawn at the node is histogrammed from the node's samples when it is
#   evaluated, in a per-thread buffer scanned over the bins the node occupies only and zeroed
#   again (O(n_node × max_features), no per-node allocation). Forests (a few features drawn per
#   node) and every small node take this kind.
#
# Both kinds sum a bin's statistics in the order of the node's samples, the first-hand sums are
# the same; a subtracted histogram may differ from them in the last bit. Thresholds are
# midpoints between the largest training value of the last left bin and the smallest of the
# first right bin, so with one bin per distinct value the tree is the exact one. Inline pieces
# cimported by _tree_builder, where the compiler inlines them into the split search and the
# growth.
from cython.parallel cimport prange
from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from _tree cimport (MAX_BINS, PARALLEL_MIN_WORK, Candidate, NodeRecord, NodeStats, Problem,
                    Scratch, Split, Stat, Workspace)
from _tree_criterion cimport _add_sample_stats, _classification_proxy, _regression_proxy
from _types cimport int32_t, intp_t, uint8_t


cdef inline bint _keep_histograms(const Problem *pb, intp_t n_small,
                                  intp_t n_node) noexcept nogil:
    """Whether the children of a node of ``n_node`` samples whose smaller child has ``n_small``
    get histograms of every feature (by subtraction) rather than none: the former costs the
    smaller child's samples × every feature plus a pass over every bin (weighed half: a
    vectorised memset and subtraction), the latter both children's samples × the features drawn
    at each."""
    return (n_small * pb.n_features + pb.data.bins.total * pb.data.bins.n_stats // 2
            < n_node * pb.max_features)


cdef inline void _scan_bins(const Problem *pb, const Workspace *ws, const double *h, intp_t f,
                            intp_t first_bin, intp_t last_bin, const NodeRecord *rec,
                            const NodeStats *st, double *left, Candidate *best) noexcept nogil:
    """Bin-by-bin scan of feature ``f``'s histogram ``h`` (bin b at ``h + b × n_stats``) over the
    bins ``first_bin..last_bin``, which hold all the samples of the node ``rec``; candidates lie
    between non-empty bins."""
    cdef intp_t start = rec.start, end = rec.end
    cdef intp_t S = pb.data.bins.n_stats, K = pb.n_classes, b, c, prev = -1
    cdef intp_t n_left = 0, n_node = end - start, min_leaf = pb.min_samples_leaf
    cdef double w_left = 0.0, w_right, v_left = 0.0, proxy, count, w_bin
    cdef double min_weight = ws.min_weight_leaf, l2 = pb.l2_regularization
    cdef const float *lower = pb.data.bins.lower + f * MAX_BINS
    cdef const float *upper = pb.data.bins.upper + f * MAX_BINS
    if pb.classification:
        memset(left, 0, K * sizeof(double))
    best.proxy = -INFINITY
    best.pos = end
    for b in range(first_bin, last_bin + 1):
        count = h[b * S + S - 1]
        if count == 0:
            continue
        if prev >= 0 and n_left >= min_leaf and n_node - n_left >= min_leaf:
            if pb.classification:
                w_right = st.weight - w_left
                if w_left >= min_weight and w_right >= min_weight:
                    proxy = _classification_proxy(pb, left, ws.node_counts, w_left, w_right)
                    if proxy > best.proxy:
                        best.proxy = proxy
                        best.pos = start + n_left
                        best.bin = prev
                        best.threshold = upper[prev] / 2.0 + lower[b] / 2.0
            else:
                w_right = st.sum_h - w_left
                if (w_left >= min_weight and w_right >= min_weight
                        and w_left + l2 > 0.0 and w_right + l2 > 0.0):
                    proxy = _regression_proxy(pb.criterion, v_left, st.sum_v - v_left, w_left,
                                              w_right, l2)
                    if proxy > best.proxy:
                        best.proxy = proxy
                        best.pos = start + n_left
                        best.bin = prev
                        best.threshold = upper[prev] / 2.0 + lower[b] / 2.0
        if pb.classification:
            w_bin = 0.0
            for c in range(K):
                left[c] += h[b * S + c]
                w_bin += h[b * S + c]
            w_left += w_bin
        else:
            v_left += h[b * S]
            w_left += h[b * S + 1]
        n_left += <intp_t>count
        prev = b


cdef inline void _scan_histogram(const Problem *pb, const Workspace *ws, const NodeRecord *rec,
                                 intp_t f, const NodeStats *st, double *left,
                                 Candidate *best) noexcept nogil:
    """Scan of feature ``f`` in the node's histograms of every feature ``rec.hist``."""
    _scan_bins(pb, ws, rec.hist + pb.data.bins.offset[f] * pb.data.bins.n_stats, f, 0,
               pb.data.bins.n_bins[f] - 1, rec, st, left, best)


cdef inline void _scan_node_feature(const Problem *pb, const Workspace *ws,
                                    const NodeRecord *rec, intp_t f, const NodeStats *st,
                                    Scratch *sc, Candidate *best) noexcept nogil:
    """Scan of feature ``f`` at a node without histograms: its histogram over the samples
    ``ws.of.bins.samples[rec.start:rec.end]`` in the thread's zeroed buffer, scanned between the
    smallest and the largest bin met, which alone are zeroed again."""
    cdef intp_t start = rec.start, end = rec.end
    cdef intp_t S = pb.data.bins.n_stats, K = pb.n_classes, p, b, low = MAX_BINS, high = 0
    cdef double *h = sc.of.bins.hist
    cdef const uint8_t *codes = pb.data.bins.codes + f * pb.n_samples
    cdef const int32_t *samples = ws.of.bins.samples
    cdef const Stat *stat = ws.stat
    cdef int32_t s
    cdef intp_t code
    for p in range(start, end):
        s = samples[p]
        code = codes[s]
        low = code if code < low else low
        high = code if code > high else high
        b = code * S
        if pb.classification:
            h[b + <intp_t>stat[s].v] += stat[s].h
            h[b + K] += 1.0
        else:
            h[b] += stat[s].v
            h[b + 1] += stat[s].h
            h[b + 2] += 1.0
    _scan_bins(pb, ws, h, f, low, high, rec, st, sc.counts, best)
    memset(h + low * S, 0, (high - low + 1) * S * sizeof(double))


cdef inline void _fill_histogram(const Problem *pb, const Workspace *ws, intp_t f,
                                 intp_t start, intp_t end, double *hist) noexcept nogil:
    """Histogram of feature ``f`` over the samples ``ws.of.bins.samples[start:end]`` (whose
    statistics are in ``ws.of.bins.ordered[0:end-start]``)."""
    cdef intp_t S = pb.data.bins.n_stats, K = pb.n_classes, k, b
    cdef double *h = hist + pb.data.bins.offset[f] * S
    cdef const uint8_t *codes = pb.data.bins.codes + f * pb.n_samples
    cdef const int32_t *samples = ws.of.bins.samples + start
    cdef const Stat *ordered = ws.of.bins.ordered
    memset(h, 0, pb.data.bins.n_bins[f] * S * sizeof(double))
    if pb.classification:
        for k in range(end - start):
            b = codes[samples[k]] * S
            h[b + <intp_t>ordered[k].v] += ordered[k].h
            h[b + K] += 1.0
    else:
        for k in range(end - start):
            b = codes[samples[k]] * 3
            h[b] += ordered[k].v
            h[b + 1] += ordered[k].h
            h[b + 2] += 1.0


cdef inline double *_build_histograms(const Problem *pb, Workspace *ws, intp_t start,
                                      intp_t end) noexcept nogil:
    """New histograms of every feature for the samples ``ws.of.bins.samples[start:end]`` (NULL
    when out of memory). Features are filled in parallel; each by one thread, in sample order."""
    cdef double *hist = <double *>malloc(pb.data.bins.total * pb.data.bins.n_stats * sizeof(double))
    cdef intp_t k, f
    cdef int n_threads = ws.n_threads
    if hist == NULL:
        return NULL
    for k in range(end - start):
        ws.of.bins.ordered[k] = ws.stat[ws.of.bins.samples[start + k]]
    if n_threads > 1 and (end - start) * pb.n_features >= PARALLEL_MIN_WORK:
        # dynamic: on a shared machine a descheduled thread then holds back one feature only
        for f in prange(pb.n_features, num_threads=n_threads, schedule='dynamic'):
            _fill_histogram(pb, ws, f, start, end, hist)
    else:
        for f in range(pb.n_features):
            _fill_histogram(pb, ws, f, start, end, hist)
    return hist


cdef inline void _partition_samples(const Problem *pb, Workspace *ws, intp_t start,
                                    intp_t end, intp_t f,
                                    intp_t last_left_bin) noexcept nogil:
    """Stable partition of ``ws.of.bins.samples[start:end]``: codes ≤ ``last_left_bin`` first."""
    cdef const uint8_t *codes = pb.data.bins.codes + f * pb.n_samples
    cdef int32_t *tmp = ws.scratch[0].of.bins.tmp_samples
    cdef intp_t p, w = start, n_right = 0
    cdef int32_t s
    for p in range(start, end):
        s = ws.of.bins.samples[p]
        if codes[s] <= last_left_bin:
            ws.of.bins.samples[w] = s
            w += 1
        else:
            tmp[n_right] = s
            n_right += 1
    memcpy(ws.of.bins.samples + w, tmp, n_right * sizeof(int32_t))



cdef inline bint _hist_is_constant(const Problem *pb, const Workspace *ws,
                                   const NodeRecord *rec, intp_t f) noexcept nogil:
    """Whether feature ``f`` takes one value on the node: one non-empty bin (without
    histograms: one bin code among the node's samples)."""
    cdef const double *h
    cdef const uint8_t *codes = pb.data.bins.codes + f * pb.n_samples
    cdef intp_t b, p, nonempty = 0, count_col = pb.data.bins.n_stats - 1
    cdef uint8_t first
    if rec.hist == NULL:
        first = codes[ws.of.bins.samples[rec.start]]
        for p in range(rec.start + 1, rec.end):
            if codes[ws.of.bins.samples[p]] != first:
                return False
        return True
    h = rec.hist + pb.data.bins.offset[f] * pb.data.bins.n_stats
    for b in range(pb.data.bins.n_bins[f]):
        if h[b * pb.data.bins.n_stats + count_col] > 0:
            nonempty += 1
            if nonempty > 1:
                return False
    return True


cdef inline void _hist_children_stats(const Problem *pb, Workspace *ws, const NodeRecord *rec,
                                      const Split *split, NodeStats *left, NodeStats *right,
                                      double *left_counts,
                                      double *right_counts) noexcept nogil:
    """Sums of both children of a split that is not applied yet, in one pass: the sample slice
    is not partitioned, so a child's samples are those on its side of the split bin. Each sum
    runs in the order of the node's samples, as the child's own sums will."""
    cdef intp_t p
    cdef int32_t s
    cdef const uint8_t *codes = pb.data.bins.codes + split.feature * pb.n_samples
    memset(left, 0, sizeof(NodeStats))
    memset(right, 0, sizeof(NodeStats))
    if pb.classification:
        memset(left_counts, 0, pb.n_classes * sizeof(double))
        memset(right_counts, 0, pb.n_classes * sizeof(double))
    for p in range(rec.start, rec.end):
        s = ws.of.bins.samples[p]
        if codes[s] <= split.bin:
            _add_sample_stats(pb, ws, s, left, left_counts)
        else:
            _add_sample_stats(pb, ws, s, right, right_counts)
    if pb.classification:
        left.sum_h = left.weight
        right.sum_h = right.weight


cdef inline int _hist_apply_split(const Problem *pb, Workspace *ws, NodeRecord *rec,
                                  const Split *split, bint need_children, double **hist_left,
                                  double **hist_right) noexcept nogil:
    """Partition the node's sample slice, then, if the node has histograms of every feature and
    the cost model keeps them, the children's (the smaller from its samples, the larger by
    subtraction, in the parent's buffer). Histograms the children do not take are freed
    (``rec.hist`` is NULL on return). ``need_children`` False (both children are certain
    leaves): the partition only. Returns -1 when out of memory."""
    cdef intp_t p, total, start = rec.start, end = rec.end
    cdef double *small
    cdef bint left_smaller
    _partition_samples(pb, ws, start, end, split.feature, split.bin)
    left_smaller = split.pos - start <= end - split.pos
    if (not need_children or rec.hist == NULL
            or not _keep_histograms(pb, split.pos - start if left_smaller else end - split.pos,
                                    end - start)):
        free(rec.hist)
        rec.hist = NULL
        return 0
    if left_smaller:
        small = _build_histograms(pb, ws, start, split.pos)
    else:
        small = _build_histograms(pb, ws, split.pos, end)
    if small == NULL:
        return -1
    total = pb.data.bins.total * pb.data.bins.n_stats
    for p in range(total):
        rec.hist[p] -= small[p]
    if left_smaller:
        hist_left[0] = small
        hist_right[0] = rec.hist
    else:
        hist_left[0] = rec.hist
        hist_right[0] = small
    rec.hist = NULL     # ownership passed to a child
    return 0
