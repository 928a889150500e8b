"""Kernels on the label-matched product graph, computed without materialising it.

Seed 004, "Product graph" and "Walk kernel and product graph": the product ``G1 × G2`` has the
vertex pairs ``(u, v)`` with ``label(u) = label(v)`` and an edge ``(u, v) — (u', v')`` when
``u — u'`` and ``v — v'`` are edges (here also with equal edge labels, the [ADD] of
seed-methods D15). A vector on its vertices is stored as a dense ``n1 × n2`` array that is zero at
unmatched pairs; then the product-graph mat-vec is

    y[u, v] = [label(u) = label(v)] Σ_{u' ∈ N(u)} Σ_{v' ∈ N(v), elabel(v, v') = elabel(u, u')} x[u', v']

(no test on ``(u', v')`` is needed because ``x`` vanishes off the product graph), at cost
``Σ_{(u, v) matched} deg(u) deg(v) ≤ n1 n2 d1 d2`` — the Kronecker identity of Vishwanathan et
al. (2010) restricted to the label-matched pairs, and the cost the seed gives for the n-th order
walk kernel. Every kernel here is a function of one pair of graphs; the pairs are spread over
threads (dynamic schedule) and each value is computed by one thread in a fixed order, so the
Gram matrix does not depend on the thread count.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport sqrt
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from _types cimport intp_t, int32_t

# Status codes of a pair (0: ok).
cdef int NOT_CONVERGED = 1


cdef struct Batch:
    const intp_t *node_ptr
    const intp_t *indptr
    const int32_t *indices
    const int32_t *labels
    const int32_t *edge_labels


cdef struct Params:
    intp_t n_steps        # walk length (edges) or subtree depth
    double lambda_        # decay / branching weight
    double p_stop         # random walk: stopping probability
    double tol            # PCG: relative residual
    intp_t max_iter       # PCG: iterations
    bint matchings        # subtree: matchings (True) or subsets (False)


ctypedef int (*PairKernel)(const Batch *a, intp_t i, const Batch *b, intp_t j,
                           const Params *p, double *work, double *value) noexcept nogil


cdef inline bint _matched(const Batch *a, intp_t u, const Batch *b, intp_t v) noexcept nogil:
    return a.labels[u] == b.labels[v]


cdef void _product_matvec(
    const Batch *a, intp_t f1, intp_t n1, const Batch *b, intp_t f2, intp_t n2,
    const double *x, double *y,
) noexcept nogil:
    """``y = A× x`` on the product graph (see the module docstring); ``x`` vanishes off it."""
    cdef intp_t u, v, ka, kb
    cdef int32_t edge_label
    cdef const double *row
    cdef double s
    for u in range(n1):
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


cdef intp_t _match_indicator(
    const Batch *a, intp_t f1, intp_t n1, const Batch *b, intp_t f2, intp_t n2, double *x,
) noexcept nogil:
    """``x = 1`` on the product graph's vertices, 0 elsewhere; returns their number."""
    cdef intp_t u, v, n_matched = 0
    for u in range(n1):
        for v in range(n2):
            x[u * n2 + v] = 1.0 if _matched(a, f1 + u, b, f2 + v) else 0.0
            n_matched += _matched(a, f1 + u, b, f2 + v)
    return n_matched


cdef int _walk_pair(const Batch *a, intp_t i, const Batch *b, intp_t j,
                    const Params *p, double *work, double *value) noexcept nogil:
    """n-th order walk kernel ``1ᵀ A×ⁿ 1`` by n mat-vecs (seed 004, "Computation of the nth-order
    walk kernel")."""
    cdef intp_t f1 = a.node_ptr[i], n1 = a.node_ptr[i + 1] - f1
    cdef intp_t f2 = b.node_ptr[j], n2 = b.node_ptr[j + 1] - f2
    cdef intp_t step, k
    cdef double *x = work
    cdef double *y = work + n1 * n2
    cdef double *swap
    cdef double total = 0.0
    _match_indicator(a, f1, n1, b, f2, n2, x)
    for step in range(p.n_steps):
        _product_matvec(a, f1, n1, b, f2, n2, x, y)
        swap = x
        x = y
        y = swap
    for k in range(n1 * n2):
        total += x[k]
    value[0] = total
    return 0


cdef int _pcg(
    const Batch *a, intp_t f1, intp_t n1, const Batch *b, intp_t f2, intp_t n2,
    const double *diag, const double *rhs, double lambda_, double tol, intp_t max_iter,
    double *x, double *work,
) noexcept nogil:
    """Solve ``(diag(c) − λ A×) x = rhs`` by Jacobi-preconditioned conjugate gradients.

    The matrix is symmetric positive definite whenever the callers' bounds hold (geometric:
    ``λ ρ(A×) < 1`` with ``c = 1``; random walk: strict diagonal dominance), so CG applies
    (Vishwanathan et al. 2010, §4.2). ``rhs`` vanishes off the product graph, hence so do all
    iterates. ``work`` holds 3 vectors of length ``n1 n2``.
    """
    cdef intp_t dim = n1 * n2, k, it
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
    for it in range(max_iter):
        _product_matvec(a, f1, n1, b, f2, n2, d, q)
        dq = 0.0
        for k in range(dim):
            q[k] = diag[k] * d[k] - lambda_ * q[k]
            dq += d[k] * q[k]
        alpha = rz / dq
        rr = 0.0
        for k in range(dim):
            x[k] += alpha * d[k]
            r[k] -= alpha * q[k]
            rr += r[k] * r[k]
        if rr <= tol * tol * bb:
            return 0
        rz_new = 0.0
        for k in range(dim):
            rz_new += r[k] * r[k] / diag[k]
        beta = rz_new / rz
        rz = rz_new
        for k in range(dim):
            d[k] = r[k] / diag[k] + beta * d[k]
    return NOT_CONVERGED


cdef int _geometric_pair(const Batch *a, intp_t i, const Batch *b, intp_t j,
                         const Params *p, double *work, double *value) noexcept nogil:
    """Geometric walk kernel ``1ᵀ (I − λ A×)⁻¹ 1`` (Gärtner et al. 2003; seed-methods D17)."""
    cdef intp_t f1 = a.node_ptr[i], n1 = a.node_ptr[i + 1] - f1
    cdef intp_t f2 = b.node_ptr[j], n2 = b.node_ptr[j + 1] - f2
    cdef intp_t dim = n1 * n2, k
    cdef double *diag = work
    cdef double *rhs = work + dim
    cdef double *x = work + 2 * dim
    cdef double total = 0.0
    cdef int status
    _match_indicator(a, f1, n1, b, f2, n2, rhs)
    for k in range(dim):
        diag[k] = 1.0
    status = _pcg(a, f1, n1, b, f2, n2, diag, rhs, p.lambda_, p.tol, p.max_iter, x,
                  work + 3 * dim)
    for k in range(dim):
        total += x[k]
    value[0] = total
    return status


cdef int _random_walk_pair(const Batch *a, intp_t i, const Batch *b, intp_t j,
                           const Params *p, double *work, double *value) noexcept nogil:
    """Marginalised random-walk kernel (Kashima et al. 2003; seed-methods D16 [ADD]).

    Walks start uniformly, stop at each vertex with probability ``q`` (always at an isolated
    vertex) and otherwise move to a uniform neighbour: ``t(u) = (1 − q)/deg(u)``. With
    ``T = diag(t ⊗ t)``, ``K = (1/(n1 n2)) 1ᵀ (I − T A×)⁻¹ s⊗s``. Where ``T > 0``,
    ``(I − T A×) x = s⊗s`` is ``(T⁻¹ − A×) x = T⁻¹ s⊗s``, symmetric and strictly diagonally
    dominant (a row of ``A×`` sums to at most ``deg u deg v < T⁻¹``), so PCG applies; where
    ``T = 0`` the pair has no product edge and ``x = s⊗s``.
    """
    cdef intp_t f1 = a.node_ptr[i], n1 = a.node_ptr[i + 1] - f1
    cdef intp_t f2 = b.node_ptr[j], n2 = b.node_ptr[j + 1] - f2
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
    status = _pcg(a, f1, n1, b, f2, n2, diag, rhs, 1.0, p.tol, p.max_iter, x, work + 3 * dim)
    for k in range(dim):
        total += x[k]
    value[0] = total / (<double>n1 * n2)
    return status


cdef double _matching_sum(
    const Batch *a, intp_t ka0, intp_t ka1, intp_t f1,
    const Batch *b, intp_t kb0, intp_t kb1, intp_t f2, intp_t n2,
    const double *t_prev, double lambda_, double *subsets,
) noexcept nogil:
    """``Σ_{matchings R of N(u), N(v)} Π_{(u', v') ∈ R} λ T(u', v')``, the empty matching too.

    Dynamic programming over the subsets of the smaller neighbour list (bitmask of its members
    already matched) while the larger list is scanned once; masks are visited in decreasing order
    so each list member is matched at most once. Cost ``d_large · 2^d_small · d_small``.
    """
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


cdef int _subtree_pair(const Batch *a, intp_t i, const Batch *b, intp_t j,
                       const Params *p, double *work, double *value) noexcept nogil:
    """Tree-pattern kernel ``Σ_{(u, v)} T(u, v, depth)`` (seed 004, "Extension: branching walks").

    ``T(·, 1) = 1`` on the product graph. Subsets (the seed's recursion in its product form,
    seed-methods D18): ``T(u, v, h + 1) = Π_{(u', v') ∈ N×(u, v)} (1 + λ T(u', v', h))``.
    Matchings (Ramon & Gärtner 2003, Mahé & Vert 2009): ``T(u, v, h + 1)`` is the sum over the
    one-to-one matchings ``R`` of ``N(u)`` with ``N(v)`` of ``Π_{(u', v') ∈ R} λ T(u', v', h)``.
    """
    cdef intp_t f1 = a.node_ptr[i], n1 = a.node_ptr[i + 1] - f1
    cdef intp_t f2 = b.node_ptr[j], n2 = b.node_ptr[j + 1] - f2
    cdef intp_t dim = n1 * n2, u, v, k, ka, kb, step
    cdef double *t_prev = work
    cdef double *t_next = work + dim
    cdef double *subsets = work + 2 * dim
    cdef double *swap
    cdef double prod, total = 0.0
    _match_indicator(a, f1, n1, b, f2, n2, t_prev)
    for step in range(p.n_steps - 1):
        for u in range(n1):
            for v in range(n2):
                k = u * n2 + v
                if not _matched(a, f1 + u, b, f2 + v):
                    t_next[k] = 0.0
                elif p.matchings:
                    t_next[k] = _matching_sum(
                        a, a.indptr[f1 + u], a.indptr[f1 + u + 1], f1,
                        b, b.indptr[f2 + v], b.indptr[f2 + v + 1], f2, n2,
                        t_prev, p.lambda_, subsets)
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
    for k in range(dim):
        total += t_prev[k]
    value[0] = total
    return 0


cdef Batch _batch(tuple graphs):
    cdef const intp_t[::1] node_ptr = graphs[0]
    cdef const intp_t[::1] indptr = graphs[1]
    cdef const int32_t[::1] indices = graphs[2]
    cdef const int32_t[::1] labels = graphs[3]
    cdef const int32_t[::1] edge_labels = graphs[4]
    cdef Batch batch
    batch.node_ptr = &node_ptr[0]
    batch.indptr = &indptr[0]
    # graphs without edges: the neighbour loops never read these
    batch.indices = &indices[0] if indices.shape[0] > 0 else NULL
    batch.edge_labels = &edge_labels[0] if edge_labels.shape[0] > 0 else NULL
    batch.labels = &labels[0]
    return batch


cdef intp_t _max_nodes(const intp_t[::1] node_ptr):
    cdef intp_t g, m = 0
    for g in range(node_ptr.shape[0] - 1):
        m = max(m, node_ptr[g + 1] - node_ptr[g])
    return m


cdef intp_t _pairwise(
    tuple graphs_a, object graphs_b, PairKernel kernel, const Params *params,
    intp_t work_vectors, intp_t work_extra, double[:, ::1] out, int n_threads,
) except -1:
    """Fill ``out`` with kernel values; returns the number of pairs whose solver did not converge.

    ``graphs_b`` a batch: ``out[i, j] = k(a_i, b_j)``; None: the symmetric ``K(a, a)``, upper
    triangle computed and mirrored; the string ``"diagonal"``: ``out[i, 0] = k(a_i, a_i)``.
    Each thread gets ``work_vectors`` vectors of length ``max n1 · max n2`` plus ``work_extra``
    doubles.
    """
    cdef bint diagonal = isinstance(graphs_b, str)
    cdef bint symmetric = graphs_b is None
    cdef Batch a = _batch(graphs_a)
    cdef Batch b = a if (symmetric or diagonal) else _batch(graphs_b)
    cdef intp_t n_a = out.shape[0], n_b = out.shape[1]
    cdef intp_t max_b = _max_nodes(graphs_a[0] if (symmetric or diagonal) else graphs_b[0])
    cdef intp_t work_size = work_vectors * _max_nodes(graphs_a[0]) * max_b + work_extra
    cdef double *work
    cdef double *thread_work
    cdef intp_t i, j, failures = 0
    cdef int status
    if diagonal and graphs_b != "diagonal":
        raise ValueError(f"graphs_b must be a batch, None or 'diagonal', got {graphs_b!r}.")
    n_threads = max(1, min(n_threads, n_a))
    work = <double*>malloc(n_threads * work_size * sizeof(double))
    if work == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in prange(n_a, schedule='dynamic', num_threads=n_threads):
                thread_work = work + threadid() * work_size
                if diagonal:
                    failures += kernel(&a, i, &a, i, params, thread_work, &out[i, 0]) != 0
                    continue
                for j in range(i if symmetric else 0, n_b):
                    status = kernel(&a, i, &b, j, params, thread_work, &out[i, j])
                    if symmetric:
                        out[j, i] = out[i, j]
                    failures += status != 0
    finally:
        free(work)
    return failures


def walk_gram(tuple graphs_a, object graphs_b, intp_t n_steps, double[:, ::1] out, int n_threads=1):
    """n-th order walk kernel Gram matrix ``out[i, j] = 1ᵀ A×(a_i, b_j)ⁿ 1``.

    Parameters
    ----------
    graphs_a : tuple of ndarrays
        ``(node_ptr, indptr, indices, node_labels, edge_labels)`` of a graph batch.
    graphs_b : tuple of ndarrays, None or "diagonal"
        Second batch; None computes the symmetric ``K(a, a)`` (each pair once); "diagonal"
        computes ``k(a_i, a_i)`` into ``out[:, 0]``.
    n_steps : int
        Walk length ``n``, counted in edges.
    out : ndarray of shape (n_a, n_b) (or (n_a, 1) for "diagonal"), float64
        Output Gram matrix.
    n_threads : int
    """
    cdef Params p
    p.n_steps = n_steps
    _pairwise(graphs_a, graphs_b, _walk_pair, &p, 2, 0, out, n_threads)


def geometric_gram(tuple graphs_a, graphs_b, double lambda_, double tol, intp_t max_iter,
                   double[:, ::1] out, int n_threads=1):
    """Geometric walk kernel Gram matrix ``out[i, j] = 1ᵀ (I − λ A×)⁻¹ 1`` by CG.

    Parameters
    ----------
    graphs_a, graphs_b : see :func:`walk_gram`
    lambda_ : float
        Decay; the caller guarantees ``λ ρ(A×) < 1``.
    tol : float
        Relative residual at which CG stops.
    max_iter : int
        CG iterations per pair.
    out : ndarray of shape (n_a, n_b), float64
    n_threads : int

    Returns
    -------
    n_not_converged : int
        Pairs whose CG did not reach ``tol`` within ``max_iter`` iterations.
    """
    cdef Params p
    p.lambda_ = lambda_
    p.tol = tol
    p.max_iter = max_iter
    return _pairwise(graphs_a, graphs_b, _geometric_pair, &p, 6, 0, out, n_threads)


def random_walk_gram(tuple graphs_a, graphs_b, double p_stop, double tol, intp_t max_iter,
                     double[:, ::1] out, int n_threads=1):
    """Marginalised random-walk kernel Gram matrix (Kashima et al. 2003) by PCG.

    Parameters
    ----------
    graphs_a, graphs_b : see :func:`walk_gram`
    p_stop : float
        Stopping probability ``q`` in (0, 1).
    tol, max_iter, out, n_threads : see :func:`geometric_gram`

    Returns
    -------
    n_not_converged : int
    """
    cdef Params p
    p.p_stop = p_stop
    p.tol = tol
    p.max_iter = max_iter
    return _pairwise(graphs_a, graphs_b, _random_walk_pair, &p, 6, 0, out, n_threads)


def subtree_gram(tuple graphs_a, graphs_b, intp_t depth, double lambda_, bint matchings,
                 intp_t max_small_degree, double[:, ::1] out, int n_threads=1):
    """Tree-pattern (subtree) kernel Gram matrix, ``Σ_{(u, v)} T(u, v, depth)``.

    Parameters
    ----------
    graphs_a, graphs_b : see :func:`walk_gram`
    depth : int
        Tree depth, counted in vertices (``depth=1``: matched vertex pairs).
    lambda_ : float
        Weight of every child in a pattern.
    matchings : bool
        One-to-one matchings of neighbours (Ramon–Gärtner) or subsets of product-graph
        neighbours (the seed's recursion).
    max_small_degree : int
        ``min(max degree of a, max degree of b)``; sizes the matching table (``2**`` of it).
    out : ndarray of shape (n_a, n_b), float64
    n_threads : int
    """
    cdef Params p
    p.n_steps = depth
    p.lambda_ = lambda_
    p.matchings = matchings
    _pairwise(graphs_a, graphs_b, _subtree_pair, &p, 2,
              ((<intp_t>1) << max_small_degree) if matchings else 0, out, n_threads)
