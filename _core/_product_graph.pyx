"""Kernels on the label-matched product graph, computed without materialising it.

Mairal & Vert, "Product graph" and "Walk kernel and product graph": the product ``G1 × G2`` has the
vertex pairs ``(u, v)`` with ``label(u) = label(v)`` and an edge ``(u, v) — (u', v')`` when
``u — u'`` and ``v — v'`` are edges (here also with equal edge labels, an addition to
the slides). A vector on its vertices is stored as a dense ``n1 × n2`` array that is zero at
unmatched pairs; then the product-graph mat-vec is

    y[u, v] = [label(u) = label(v)] Σ_{u' ∈ N(u)} Σ_{v' ∈ N(v), elabel(v, v') = elabel(u, u')} x[u', v']

(no test on ``(u', v')`` is needed because ``x`` vanishes off the product graph), at cost
``Σ_{(u, v) matched} deg(u) deg(v) ≤ n1 n2 d1 d2`` — the Kronecker identity of Vishwanathan et
al. (2010) restricted to the label-matched pairs, and the cost the course gives for the n-th order
walk kernel. Every kernel here is a function of one pair of graphs, computed through the pair
driver of ``_pair_gram.pxd`` (tiles of pairs over threads, each value computed by one thread in a
fixed order), so the Gram matrix does not depend on the thread count.
"""

from libc.math cimport INFINITY
from libc.string cimport memset

from _pair_gram cimport fill_diagonal, fill_gram_rows
from _interrupt cimport INTERRUPTED, InterruptState, interrupted, raise_pending, steps_per_check
from _types cimport intp_t, int32_t

# Status codes of a pair (0: ok).
cdef int NOT_CONVERGED = 1


cdef struct Batch:
    # a batch of graphs (block-diagonal CSR, global node ids; see product_graph_gram)
    const intp_t *node_ptr          # (n_graphs + 1,)
    const intp_t *indptr            # (n_nodes + 1,)
    const int32_t *indices          # NULL when the batch has no edge
    const int32_t *labels           # NULL when the batch has no node
    const int32_t *edge_labels      # NULL when the batch has no edge
    intp_t max_nodes                # of a graph


cdef struct Pair:
    # two graphs, nodes f1 .. f1 + n1 - 1 of batch a and f2 .. f2 + n2 - 1 of batch b; a vector
    # on their product is an n1 × n2 row-major array
    const Batch *a
    const Batch *b
    intp_t f1
    intp_t n1
    intp_t f2
    intp_t n2


cdef struct Params:
    intp_t n_steps        # walk length (edges) or subtree depth
    double lambda_        # decay / branching weight
    double p_stop         # random walk: stopping probability
    double tol            # PCG: relative residual
    intp_t max_iter       # PCG: iterations
    bint matchings        # subtree: matchings (True) or subsets (False)
    intp_t max_small_degree   # subtree matchings: sizes the table of neighbour subsets


# A product-graph kernel of one pair; it looks at the signals between its mat-vecs (or CG
# iterations, subtree levels) and returns early, with any value, when interrupted.
ctypedef int (*PairKernel)(const Pair *pr, const Params *p, double *work, double *value,
                           InterruptState *interrupt) noexcept nogil


cdef inline bint _matched(const Batch *a, intp_t u, const Batch *b, intp_t v) noexcept nogil:
    return a.labels[u] == b.labels[v]


cdef void _product_matvec(const Pair *pr, const double *x, double *y,
                          InterruptState *interrupt) noexcept nogil:
    """``y = A× x`` on the product graph (see the module docstring); ``x`` vanishes off it.
    One product of two large graphs may take seconds: it looks at the signals every few rows
    of ``u`` and stops early (``y`` unfinished) when interrupted."""
    cdef const Batch *a = pr.a
    cdef const Batch *b = pr.b
    cdef intp_t f1 = pr.f1, n1 = pr.n1, f2 = pr.f2, n2 = pr.n2
    cdef intp_t u, v, ka, kb
    cdef int32_t edge_label
    cdef const double *row
    cdef double s
    # work of a row u: n2 label tests, deg(u) · deg(v) edge pairs for every matched v
    cdef intp_t rows_per_check = steps_per_check(
        n2 + (a.indptr[f1 + n1] - a.indptr[f1]) // max(n1, 1)
        * (b.indptr[f2 + n2] - b.indptr[f2]))
    for u in range(n1):
        if u % rows_per_check == 0 and interrupted(interrupt):
            return
        for v in range(n2):
            s = 0.0
            if _matched(a, f1 + u, b, f2 + v):
                for ka in range(a.indptr[f1 + u], a.indptr[f1 + u + 1]):
                    row = x + (a.indices[ka] - f1) * n2
                    edge_label = a.edge_labels[ka]
                    for kb in range(b.indptr[f2 + v], b.indptr[f2 + v + 1]):
                        if b.edge_labels[kb] == edge_label:
                            s += row[b.indices[kb] - f2]
            y[u * n2 + v] = s


cdef intp_t _match_indicator(const Pair *pr, double *x) noexcept nogil:
    """``x = 1`` on the product graph's vertices, 0 elsewhere; returns their number."""
    cdef const Batch *a = pr.a
    cdef const Batch *b = pr.b
    cdef intp_t f1 = pr.f1, n1 = pr.n1, f2 = pr.f2, n2 = pr.n2
    cdef intp_t u, v, n_matched = 0
    for u in range(n1):
        for v in range(n2):
            x[u * n2 + v] = 1.0 if _matched(a, f1 + u, b, f2 + v) else 0.0
            n_matched += _matched(a, f1 + u, b, f2 + v)
    return n_matched


cdef int _walk_pair(const Pair *pr, const Params *p, double *work, double *value,
                    InterruptState *interrupt) noexcept nogil:
    """n-th order walk kernel ``1ᵀ A×ⁿ 1`` by n mat-vecs (Mairal & Vert, "Computation of the nth-order
    walk kernel").

    The product graph's adjacency ``A×`` is a symmetric 0/1 matrix, so its walk counts either
    vanish (no edge), or overflow (spectral radius at least √2), or repeat with period 2 (radius
    1: every component a single edge, ``A×² x = x``). The counts are compared with those of two
    steps before, so an absurd ``n`` ends early in every case."""
    cdef intp_t n1 = pr.n1, n2 = pr.n2
    cdef intp_t step, k, dim = n1 * n2
    cdef double *x = work               # counts after `step` steps
    cdef double *y = work + dim         # after step + 1
    cdef double *z = work + 2 * dim     # after step − 1
    cdef double *swap
    cdef double total = 0.0
    _match_indicator(pr, x)
    for step in range(p.n_steps):
        if interrupted(interrupt):
            break
        _product_matvec(pr, x, y, interrupt)
        if step >= 1 and _same_counts(y, z, dim):
            # from step − 1 on, the counts alternate between z and x
            if (p.n_steps - step + 1) % 2 == 1:
                z = x
            for k in range(dim):
                total += z[k]
            value[0] = total
            return 0
        swap = z
        z = x
        x = y
        y = swap
        if step % 32 == 31:
            # the counts are non-negative: all zero stays zero, and an overflow stays infinite
            # (refused by the wrapper)
            total = 0.0
            for k in range(dim):
                total += x[k]
            if total == 0.0 or total == INFINITY:
                value[0] = total
                return 0
    total = 0.0
    for k in range(dim):
        total += x[k]
    value[0] = total
    return 0


cdef inline bint _same_counts(const double *u, const double *v, intp_t dim) noexcept nogil:
    cdef intp_t k
    for k in range(dim):
        if u[k] != v[k]:
            return False
    return True


cdef int _pcg(const Pair *pr, const Params *p, double lambda_, const double *diag,
              const double *rhs, double *x, double *work,
              InterruptState *interrupt) noexcept nogil:
    """Solve ``(diag(c) − λ A×) x = rhs`` by Jacobi-preconditioned conjugate gradients, to
    the relative residual ``p.tol`` within ``p.max_iter`` iterations.

    The matrix is symmetric positive definite whenever the callers' bounds hold (geometric:
    ``λ ρ(A×) < 1`` with ``c = 1``; random walk: strict diagonal dominance), so CG applies
    (Vishwanathan et al. 2010, §4.2). ``rhs`` vanishes off the product graph, hence so do all
    iterates. ``work`` holds 3 vectors of length ``n1 n2``.
    """
    cdef intp_t dim = pr.n1 * pr.n2, k, it
    cdef double tol = p.tol
    cdef double *r = work
    cdef double *d = work + dim
    cdef double *q = work + 2 * dim
    cdef double rz = 0.0, rz_new, dq, alpha, beta, rr, bb = 0.0
    for k in range(dim):
        x[k] = 0.0
        r[k] = rhs[k]
        d[k] = rhs[k] / diag[k]
        rz += r[k] * d[k]
        bb += rhs[k] * rhs[k]
    if bb == 0.0:
        return 0
    for it in range(p.max_iter):
        if interrupted(interrupt):
            return 0        # any value: the driver reports INTERRUPTED
        _product_matvec(pr, d, q, interrupt)
        dq = 0.0
        for k in range(dim):
            q[k] = diag[k] * d[k] - lambda_ * q[k]
            dq += d[k] * q[k]
        if not dq > 0.0:
            # exact solution reached (r = 0) or, out of the callers' bounds, no descent: stop
            return 0 if rz == 0.0 else NOT_CONVERGED
        alpha = rz / dq
        rr = 0.0
        for k in range(dim):
            x[k] += alpha * d[k]
            r[k] -= alpha * q[k]
            rr += r[k] * r[k]
        if rr <= tol * tol * bb or rr == 0.0:
            # (tol below rounding, e.g. 1e-300: an exactly zero residual still stops)
            return 0
        rz_new = 0.0
        for k in range(dim):
            rz_new += r[k] * r[k] / diag[k]
        beta = rz_new / rz
        rz = rz_new
        for k in range(dim):
            d[k] = r[k] / diag[k] + beta * d[k]
    return NOT_CONVERGED


cdef int _geometric_pair(const Pair *pr, const Params *p, double *work, double *value,
                         InterruptState *interrupt) noexcept nogil:
    """Geometric walk kernel ``1ᵀ (I − λ A×)⁻¹ 1`` (Gärtner et al. 2003)."""
    cdef intp_t n1 = pr.n1, n2 = pr.n2
    cdef intp_t dim = n1 * n2, k
    cdef double *diag = work
    cdef double *rhs = work + dim
    cdef double *x = work + 2 * dim
    cdef double total = 0.0
    cdef int status
    _match_indicator(pr, rhs)
    for k in range(dim):
        diag[k] = 1.0
    status = _pcg(pr, p, p.lambda_, diag, rhs, x, work + 3 * dim, interrupt)
    for k in range(dim):
        total += x[k]
    value[0] = total
    return status


cdef int _random_walk_pair(const Pair *pr, const Params *p, double *work, double *value,
                           InterruptState *interrupt) noexcept nogil:
    """Marginalised random-walk kernel (Kashima et al. 2003).

    Walks start uniformly, stop at each vertex with probability ``q`` (always at an isolated
    vertex) and otherwise move to a uniform neighbour: ``t(u) = (1 − q)/deg(u)``. With
    ``T = diag(t ⊗ t)``, ``K = (1/(n1 n2)) 1ᵀ (I − T A×)⁻¹ s⊗s``. Where ``T > 0``,
    ``(I − T A×) x = s⊗s`` is ``(T⁻¹ − A×) x = T⁻¹ s⊗s``, symmetric and strictly diagonally
    dominant (a row of ``A×`` sums to at most ``deg u deg v < T⁻¹``), so PCG applies; where
    ``T = 0`` the pair has no product edge and ``x = s⊗s``.
    """
    cdef const Batch *a = pr.a
    cdef const Batch *b = pr.b
    cdef intp_t f1 = pr.f1, n1 = pr.n1, f2 = pr.f2, n2 = pr.n2
    cdef intp_t dim = n1 * n2, u, v, k, d1, d2
    cdef double *diag = work
    cdef double *rhs = work + dim
    cdef double *x = work + 2 * dim
    cdef double q = p.p_stop, total = 0.0, s1, s2
    cdef int status
    for u in range(n1):
        d1 = a.indptr[f1 + u + 1] - a.indptr[f1 + u]
        s1 = q if d1 > 0 else 1.0
        for v in range(n2):
            d2 = b.indptr[f2 + v + 1] - b.indptr[f2 + v]
            s2 = q if d2 > 0 else 1.0
            k = u * n2 + v
            diag[k] = 1.0
            if d1 > 0 and d2 > 0:
                diag[k] = <double>(d1 * d2) / ((1.0 - q) * (1.0 - q))
            rhs[k] = diag[k] * s1 * s2 if _matched(a, f1 + u, b, f2 + v) else 0.0
    status = _pcg(pr, p, 1.0, diag, rhs, x, work + 3 * dim, interrupt)
    for k in range(dim):
        total += x[k]
    value[0] = total / (<double>n1 * n2)
    return status


cdef double _matching_sum(const Pair *pr, intp_t u, intp_t v, const double *t_prev,
                          double lambda_, double *subsets) noexcept nogil:
    """``Σ_{matchings R of N(u), N(v)} Π_{(u', v') ∈ R} λ T(u', v')``, the empty matching too
    (``u``, ``v``: nodes of the pair's graphs, ``T``: ``t_prev``).

    Dynamic programming over the subsets of the smaller neighbour list (bitmask of its members
    already matched) while the larger list is scanned once; masks are visited in decreasing order
    so each list member is matched at most once. Cost ``d_large · 2^d_small · d_small``.
    """
    cdef const Batch *a = pr.a
    cdef const Batch *b = pr.b
    cdef intp_t f1 = pr.f1, f2 = pr.f2, n2 = pr.n2
    cdef intp_t ka0 = a.indptr[f1 + u], ka1 = a.indptr[f1 + u + 1]
    cdef intp_t kb0 = b.indptr[f2 + v], kb1 = b.indptr[f2 + v + 1]
    cdef intp_t d1 = ka1 - ka0, d2 = kb1 - kb0
    cdef bint small_is_a = d1 <= d2
    cdef intp_t n_small = d1 if small_is_a else d2
    cdef intp_t n_large = d2 if small_is_a else d1
    cdef intp_t n_masks = (<intp_t>1) << n_small
    cdef intp_t l, s, mask, ka, kb
    cdef double w, f, total = 0.0
    memset(subsets, 0, n_masks * sizeof(double))
    subsets[0] = 1.0
    for l in range(n_large):
        mask = n_masks - 1
        while mask >= 0:
            f = subsets[mask]
            if f != 0.0:
                for s in range(n_small):
                    if mask & ((<intp_t>1) << s):
                        continue
                    if small_is_a:
                        ka, kb = ka0 + s, kb0 + l
                    else:
                        ka, kb = ka0 + l, kb0 + s
                    if a.edge_labels[ka] != b.edge_labels[kb]:
                        continue
                    # zero when the neighbours' labels differ: T vanishes off the product graph
                    w = t_prev[(a.indices[ka] - f1) * n2 + b.indices[kb] - f2]
                    if w != 0.0:
                        subsets[mask | ((<intp_t>1) << s)] += f * lambda_ * w
            mask -= 1
    for mask in range(n_masks):
        total += subsets[mask]
    return total


cdef int _subtree_pair(const Pair *pr, const Params *p, double *work, double *value,
                       InterruptState *interrupt) noexcept nogil:
    """Tree-pattern kernel ``Σ_{(u, v)} T(u, v, depth)`` (Mairal & Vert, "Extension: branching walks").

    ``T(·, 1) = 1`` on the product graph. Subsets (the slides' recursion in its product form): ``T(u, v, h + 1) = Π_{(u', v') ∈ N×(u, v)} (1 + λ T(u', v', h))``.
    Matchings (Ramon & Gärtner 2003, Mahé & Vert 2009): ``T(u, v, h + 1)`` is the sum over the
    one-to-one matchings ``R`` of ``N(u)`` with ``N(v)`` of ``Π_{(u', v') ∈ R} λ T(u', v', h)``.
    """
    cdef const Batch *a = pr.a
    cdef const Batch *b = pr.b
    cdef intp_t f1 = pr.f1, n1 = pr.n1, f2 = pr.f2, n2 = pr.n2
    cdef intp_t dim = n1 * n2, u, v, k, ka, kb, step
    cdef double *t_prev = work
    cdef double *t_next = work + dim
    cdef double *subsets = work + 2 * dim
    cdef double *swap
    cdef double prod, total = 0.0
    _match_indicator(pr, t_prev)
    for step in range(p.n_steps - 1):
        if interrupted(interrupt):
            break
        for u in range(n1):
            for v in range(n2):
                k = u * n2 + v
                if not _matched(a, f1 + u, b, f2 + v):
                    t_next[k] = 0.0
                elif p.matchings:
                    t_next[k] = _matching_sum(pr, u, v, t_prev, p.lambda_, subsets)
                else:
                    prod = 1.0
                    for ka in range(a.indptr[f1 + u], a.indptr[f1 + u + 1]):
                        for kb in range(b.indptr[f2 + v], b.indptr[f2 + v + 1]):
                            if a.edge_labels[ka] == b.edge_labels[kb]:
                                prod *= 1.0 + p.lambda_ * t_prev[
                                    (a.indices[ka] - f1) * n2 + b.indices[kb] - f2]
                    t_next[k] = prod
        swap = t_prev
        t_prev = t_next
        t_next = swap
        if _settled(t_prev, t_next, dim):
            break
    for k in range(dim):
        total += t_prev[k]
    value[0] = total
    return 0


cdef bint _settled(const double *t, const double *t_before, intp_t dim) noexcept nogil:
    """Whether a depth step left the table unchanged (a fixed point: no edges, or a small λ
    whose recursion has converged) or overflowed (refused by the wrapper): every further level
    gives the same, so the recursion stops there. (Counts that grow polynomially, as along a
    single product edge with λ = 1, do neither: depth remains a repetition count.)"""
    cdef intp_t k
    cdef bint same = True
    for k in range(dim):
        if t[k] == INFINITY:
            return True
        same = same and t[k] == t_before[k]
    return same


# Pair kernels by code, also module attributes (``_product_graph.WALK``, ...: a kernel class
# names its own), and the scratch each needs: vectors of length max n1 · max n2, plus a few
# doubles.
cpdef enum:
    WALK = 0
    GEOMETRIC = 1
    RANDOM_WALK = 2
    SUBTREE = 3

# The codes by name, for the twin (kernelkit.reference.PRODUCT_GRAPH_KERNELS: a test checks
# that they agree).
PRODUCT_GRAPH_KERNELS = {"walk": WALK, "geometric": GEOMETRIC, "random_walk": RANDOM_WALK,
                         "subtree": SUBTREE}


cdef struct Context:
    Batch a
    Batch b
    Params params
    PairKernel kernel


cdef int _context_pair(const void *ctx, intp_t i, intp_t j, double *work,
                       double *value, InterruptState *interrupt) noexcept nogil:
    """The pair driver's signature around a product-graph kernel: graph ``i`` of batch ``a``
    against graph ``j`` of batch ``b``."""
    cdef const Context *c = <const Context *>ctx
    cdef Pair pr
    pr.a = &c.a
    pr.b = &c.b
    pr.f1 = c.a.node_ptr[i]
    pr.n1 = c.a.node_ptr[i + 1] - pr.f1
    pr.f2 = c.b.node_ptr[j]
    pr.n2 = c.b.node_ptr[j + 1] - pr.f2
    return c.kernel(&pr, &c.params, work, value, interrupt)


cdef Batch _batch(tuple arrays):
    """The struct of one batch's arrays ``(node_ptr, indptr, indices, labels, edge_labels)``,
    which the tuple keeps alive."""
    cdef const intp_t[::1] node_ptr, indptr
    cdef const int32_t[::1] indices, labels, edge_labels
    cdef Batch batch
    node_ptr, indptr, indices, labels, edge_labels = arrays
    batch.node_ptr = &node_ptr[0]
    batch.indptr = &indptr[0]
    # graphs without edges: the neighbour loops never read these
    batch.indices = &indices[0] if indices.shape[0] > 0 else NULL
    batch.edge_labels = &edge_labels[0] if edge_labels.shape[0] > 0 else NULL
    batch.labels = &labels[0] if labels.shape[0] > 0 else NULL
    batch.max_nodes = _max_nodes(node_ptr)
    return batch


cdef intp_t _max_nodes(const intp_t[::1] node_ptr):
    cdef intp_t g, m = 0
    for g in range(node_ptr.shape[0] - 1):
        m = max(m, node_ptr[g + 1] - node_ptr[g])
    return m


cdef intp_t _work_size(int kernel, intp_t max_a, intp_t max_b, const Params *params):
    """Doubles of scratch per thread for a pair of graphs of at most max_a and max_b nodes."""
    if kernel == WALK:
        return 3 * max_a * max_b
    if kernel == SUBTREE:
        return 2 * max_a * max_b + (((<intp_t>1) << params.max_small_degree)
                                    if params.matchings else 0)
    return 6 * max_a * max_b      # CG: diagonal, rhs, x and three work vectors


# The options of the pair kernels, with the values of those a kernel does not give.
_OPTIONS = {"n_steps": 0, "lambda_": 0.0, "p_stop": 0.0, "tol": 0.0, "max_iter": 0,
            "matchings": True, "max_small_degree": 0}


cdef void _set_context(Context *ctx, int kernel, dict options) except *:
    """The pair kernel of code ``kernel`` and its parameters (see product_graph_gram)."""
    if kernel == WALK:
        ctx.kernel = _walk_pair
    elif kernel == GEOMETRIC:
        ctx.kernel = _geometric_pair
    elif kernel == RANDOM_WALK:
        ctx.kernel = _random_walk_pair
    elif kernel == SUBTREE:
        ctx.kernel = _subtree_pair
    else:
        raise ValueError(f"unknown product-graph kernel code {kernel}")
    unknown = options.keys() - _OPTIONS.keys()
    if unknown:
        raise TypeError(f"unknown product-graph kernel options {sorted(unknown)}")
    given = {**_OPTIONS, **options}
    ctx.params.n_steps = given["n_steps"]
    ctx.params.lambda_ = given["lambda_"]
    ctx.params.p_stop = given["p_stop"]
    ctx.params.tol = given["tol"]
    ctx.params.max_iter = given["max_iter"]
    ctx.params.matchings = given["matchings"]
    ctx.params.max_small_degree = given["max_small_degree"]


def product_graph_gram(
    int kernel,                          # WALK, GEOMETRIC, RANDOM_WALK or SUBTREE
    tuple graphs_a,                      # IN batch A (below)
    tuple graphs_b,                      # IN batch B, the same; ignored when symmetric
    bint symmetric,                      # B is A: each pair once, mirrored
    dict options,                        # IN the kernel's parameters (below)
    double[:, ::1] out,                  # OUT (n_a, n_b): rows [row_start, row_stop)
    intp_t row_start,
    intp_t row_stop,
    int n_threads=1,
):
    """Rows ``[row_start, row_stop)`` of a product-graph kernel's Gram matrix ``K(A, B)``.

    Parameters
    ----------
    kernel : int
        ``WALK`` (``1ᵀ A×ⁿ 1``, ``n = n_steps``), ``GEOMETRIC``
        (``1ᵀ (I − λ A×)⁻¹ 1`` by CG; the caller guarantees ``λ ρ(A×) < 1``), ``RANDOM_WALK``
        (Kashima et al. with stopping probability ``p_stop``, by PCG) or ``SUBTREE``
        (``Σ_{(u, v)} T(u, v, n_steps)`` with branching weight ``lambda_``, one-to-one
        ``matchings`` of neighbours or the course's subsets; ``max_small_degree`` =
        ``min(max degree of A, max degree of B)`` sizes the matching table, ``2**`` of it).
    graphs_a, graphs_b : tuple of ndarrays
        Each batch as ``(node_ptr, indptr, indices, labels, edge_labels)``: the CSR graph batch
        (``GraphBatch`` of ``kernelkit.kernels._graphs._encoding``; ``batch_arrays`` of
        ``kernelkit.kernels._graphs._bases``): ``node_ptr`` (n + 1,) and ``indptr``
        (n_nodes + 1,), intp; ``indices`` and ``edge_labels`` (n_directed_edges,) and
        ``labels`` (n_nodes,), int32.
    symmetric : bool
    options : dict
        The kernel's parameters, those it does not use left out: ``n_steps``, ``lambda_``,
        ``p_stop``, ``tol``, ``max_iter``, ``matchings``, ``max_small_degree`` (CG: relative
        residual ``tol`` within ``max_iter`` iterations); the default of a missing one is 0
        (``matchings``: True).
    out : ndarray of shape (n_a, n_b), float64
    row_start, row_stop : int
    n_threads : int

    Returns
    -------
    n_not_converged : int
        Pairs whose conjugate gradients did not reach ``tol`` (iterative kernels).
    """
    cdef Context ctx
    cdef intp_t n_marked
    cdef int status
    _set_context(&ctx, kernel, options)
    ctx.a = _batch(graphs_a)
    ctx.b = ctx.a if symmetric else _batch(graphs_b)
    cdef intp_t work_size = _work_size(kernel, ctx.a.max_nodes, ctx.b.max_nodes, &ctx.params)
    with nogil:
        status = fill_gram_rows(_context_pair, &ctx, out, row_start, row_stop, symmetric,
                                work_size, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError(f"could not allocate {work_size} doubles of scratch per thread")
    return n_marked


def product_graph_diagonal(
    int kernel,                          # as product_graph_gram's
    tuple graphs,                        # IN the batch, as graphs_a of product_graph_gram
    dict options,                        # IN as product_graph_gram's
    double[::1] out,                     # OUT (n,): k(G_i, G_i)
    int n_threads=1,
):
    """Self-similarities ``k(G_i, G_i)`` (arguments as :func:`product_graph_gram`).

    Returns
    -------
    n_not_converged : int
    """
    cdef Context ctx
    cdef intp_t n_marked
    cdef int status
    _set_context(&ctx, kernel, options)
    ctx.a = _batch(graphs)
    ctx.b = ctx.a
    cdef intp_t work_size = _work_size(kernel, ctx.a.max_nodes, ctx.a.max_nodes, &ctx.params)
    with nogil:
        status = fill_diagonal(_context_pair, &ctx, out, work_size, n_threads, &n_marked)
    if status == INTERRUPTED:
        raise_pending()
    if status != 0:
        raise MemoryError(f"could not allocate {work_size} doubles of scratch per thread")
    return n_marked
