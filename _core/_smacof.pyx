"""SMACOF: the Guttman transform and the stress, fused into one pass over the dissimilarities.

Seed 003 §3.2.3 (Kruskal–Shepard scaling, Property 77, Algorithm 17); seed-methods.md C6–C8.

Notation: ``D`` the dissimilarities, ``W`` the symmetric non-negative weights (all ones off the
diagonal when absent), ``Z`` the configuration with rows ``z_i``, ``δ_ij = ‖z_i − z_j‖``. With
``b_ij = w_ij D_ij / δ_ij`` (0 when ``δ_ij = 0``, the seed's indicator), the matrix ``B(Z)`` has
``−b_ij`` off the diagonal and the row sums on the diagonal, so row ``i`` of ``B(Z) Z`` is

    Σ_j b_ij (z_i − z_j) = (Σ_j b_ij) z_i − Σ_j b_ij z_j,

which needs only row ``i`` of ``D`` and ``W``: the pass walks the rows in fixed blocks, computes the
distances, the ratios, the row of the product and the stress of each pair as it goes, and never
stores an n×n matrix. (The seed's ``V'(Z)`` is ``2 B(Z)`` and its ``V`` is twice the Laplacian of
``W``; the factors 2 cancel in ``V⁺ V'(Z) Z``.)

Determinism: each output row is summed by one thread in column order, and the per-block partial
stresses are added block by block in order, so results do not depend on the number of threads.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.math cimport sqrt
from libc.stdlib cimport malloc, free

from _types cimport intp_t

# Rows per block: the unit of work of a thread and of the ordered stress reduction. Fixed, so the
# reduction order is a function of n only.
cdef intp_t ROWS = 32
# Columns per chunk: the chunk's distances and ratios stay in L1 between the passes below.
cdef enum:
    COLS = 256
# Pairs per thread at least: starting (and, on a busy machine, waking) a thread costs more than a
# smaller share of the pass. Only the speed depends on this, never the result.
cdef intp_t MIN_PAIRS_PER_THREAD = 1 << 17


cdef inline double _dot(const double *x, const double *y, intp_t m) noexcept nogil:
    """``Σ x_j y_j`` with four interleaved accumulators: vectorisable and always summed in the
    same order (no -ffast-math needed, no dependence on threads)."""
    cdef double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0
    cdef intp_t j = 0
    while j + 3 < m:
        a0 = a0 + x[j] * y[j]
        a1 = a1 + x[j + 1] * y[j + 1]
        a2 = a2 + x[j + 2] * y[j + 2]
        a3 = a3 + x[j + 3] * y[j + 3]
        j = j + 4
    while j < m:
        a0 = a0 + x[j] * y[j]
        j = j + 1
    return (a0 + a1) + (a2 + a3)


cdef void _row(
    const double *dissimilarity_row,   # (n,)
    const double *weight_row,          # (n,) or NULL for unit weights
    const double *Zt,                  # (p + 1, n): the configuration transposed, then ones
    const double *zi,                  # (p,): the row's own point
    intp_t n, intp_t p,
    bint update,
    double *buf,                       # scratch (COLS,)
    double *stress_cols,               # INOUT (COLS,): Σ w (D − δ)², by column slot
    double *squared_cols,              # INOUT (COLS,): Σ w δ², by column slot
    double *acc,                       # OUT (p + 1,): Σ_j b_ij z_j, then Σ_j b_ij
) noexcept nogil:
    cdef intp_t j0, jj, k, m
    cdef double t, zk, dist, d, w, e
    cdef const double *col
    cdef const double *drow
    cdef const double *wrow
    for k in range(p + 1):
        acc[k] = 0.0
    j0 = 0
    while j0 < n:
        m = min(COLS, n - j0)
        drow = dissimilarity_row + j0
        # Squared distances by direct differences (no ‖a‖² + ‖b‖² − 2a·b cancellation).
        col = Zt + j0
        zk = zi[0]
        for jj in range(m):
            t = col[jj] - zk
            buf[jj] = t * t
        for k in range(1, p):
            col = Zt + k * n + j0
            zk = zi[k]
            for jj in range(m):
                t = col[jj] - zk
                buf[jj] = buf[jj] + t * t
        # Stress terms, then the ratios b_ij = w D / δ in place; b_ij = 0 when δ = 0 (the
        # seed's indicator 1{δ_ij ≠ 0}: the diagonal and coincident points). Elementwise with
        # selects, no branch and no reduction (the sums go to per-slot accumulators), so it
        # vectorises, square root and division included (module built with -fno-math-errno
        # -fno-trapping-math, which change no result).
        if weight_row == NULL:
            for jj in range(m):
                d = drow[jj]
                dist = sqrt(buf[jj])
                e = d - dist
                stress_cols[jj] = stress_cols[jj] + e * e
                squared_cols[jj] = squared_cols[jj] + buf[jj]
                buf[jj] = (d if dist > 0.0 else 0.0) / (dist if dist > 0.0 else 1.0)
        else:
            wrow = weight_row + j0
            for jj in range(m):
                w = wrow[jj]
                d = drow[jj]
                dist = sqrt(buf[jj])
                e = d - dist
                stress_cols[jj] = stress_cols[jj] + w * e * e
                squared_cols[jj] = squared_cols[jj] + w * buf[jj]
                buf[jj] = (w * d if dist > 0.0 else 0.0) / (dist if dist > 0.0 else 1.0)
        if update:
            for k in range(p + 1):
                acc[k] = acc[k] + _dot(buf, Zt + k * n + j0, m)
        j0 = j0 + COLS


cdef int _pass(
    const double[:, ::1] dissimilarities,
    const double[:, ::1] weights,
    const double[:, ::1] Z,
    double[:, ::1] out,
    bint update,
    double scale,
    int n_threads,
    double *stress,
    double *squared_distances,
) except -1:
    cdef intp_t n = Z.shape[0]
    cdef intp_t p = Z.shape[1]
    cdef intp_t n_blocks = (n + ROWS - 1) // ROWS
    cdef intp_t b, i, k, jj
    cdef bint weighted = weights is not None
    cdef double *scratch
    cdef double *buf
    cdef double *stress_cols
    cdef double *squared_cols
    cdef double *acc
    cdef double block_stress, block_squared
    cdef double *partial
    cdef double *Zt
    cdef double *thread_scratch
    cdef intp_t stride
    stress[0] = 0.0
    squared_distances[0] = 0.0
    if n == 0 or p == 0:
        return 0
    if n_threads > n_blocks:
        n_threads = <int>n_blocks
    if n_threads > (n * n) // MIN_PAIRS_PER_THREAD:
        n_threads = <int>max((n * n) // MIN_PAIRS_PER_THREAD, 1)
    if n_threads < 1:
        n_threads = 1
    # Per-thread scratch, allocated here so that a failed allocation raises (not in nogil):
    # the chunk buffer, two slot accumulators, and Σ_j b_ij z_j with Σ_j b_ij.
    stride = 3 * COLS + p + 1
    partial = <double*>malloc(2 * n_blocks * sizeof(double))
    Zt = <double*>malloc(n * (p + 1) * sizeof(double))
    thread_scratch = <double*>malloc(n_threads * stride * sizeof(double))
    try:
        if partial == NULL or Zt == NULL or thread_scratch == NULL:
            raise MemoryError()
        with nogil:
            # Transposed so that the column loops run over contiguous memory; the extra row of
            # ones turns Σ_j b_ij into one more dot product.
            for i in range(n):
                for k in range(p):
                    Zt[k * n + i] = Z[i, k]
                Zt[p * n + i] = 1.0
            with parallel(num_threads=n_threads):
                scratch = thread_scratch + threadid() * stride
                buf = scratch
                stress_cols = scratch + COLS
                squared_cols = scratch + 2 * COLS
                acc = scratch + 3 * COLS
                # Dynamic: on a busy machine a descheduled thread's blocks go to the other
                # threads. Still deterministic: every block writes its own partial sums, and
                # those are added in block order below.
                for b in prange(n_blocks, schedule='dynamic'):
                    for jj in range(COLS):
                        stress_cols[jj] = 0.0
                        squared_cols[jj] = 0.0
                    for i in range(b * ROWS, min((b + 1) * ROWS, n)):
                        _row(&dissimilarities[i, 0], &weights[i, 0] if weighted else NULL,
                             Zt, &Z[i, 0], n, p, update, buf, stress_cols, squared_cols, acc)
                        if update:
                            # Row i of B(Z) Z = (Σ_j b_ij) z_i − Σ_j b_ij z_j.
                            for k in range(p):
                                out[i, k] = scale * (acc[p] * Z[i, k] - acc[k])
                    block_stress = 0.0
                    block_squared = 0.0
                    for jj in range(COLS):
                        block_stress = block_stress + stress_cols[jj]
                        block_squared = block_squared + squared_cols[jj]
                    partial[2 * b] = block_stress
                    partial[2 * b + 1] = block_squared
            # Ordered reduction; every pair was visited as (i, j) and (j, i): halve.
            for b in range(n_blocks):
                stress[0] += partial[2 * b]
                squared_distances[0] += partial[2 * b + 1]
            stress[0] *= 0.5
            squared_distances[0] *= 0.5
    finally:
        free(partial)
        free(Zt)
        free(thread_scratch)
    return 0


def _check_shapes(dissimilarities, weights, Z, out):
    n = Z.shape[0]
    if dissimilarities.shape[0] != n or dissimilarities.shape[1] != n:
        raise ValueError(f"dissimilarities must have shape ({n}, {n}), got "
                         f"{tuple(dissimilarities.shape)[:2]}.")
    if weights is not None and (weights.shape[0] != n or weights.shape[1] != n):
        raise ValueError(f"weights must have shape ({n}, {n}), got {tuple(weights.shape)[:2]}.")
    if out is not None and (out.shape[0] != n or out.shape[1] != Z.shape[1]):
        raise ValueError(f"out must have shape {tuple(Z.shape)[:2]}, got {tuple(out.shape)[:2]}.")


def guttman_transform(
    const double[:, ::1] dissimilarities,   # IN (n_samples, n_samples)
    const double[:, ::1] weights,           # IN (n_samples, n_samples) or None
    const double[:, ::1] Z,                 # IN (n_samples, n_components)
    double[:, ::1] out,                     # OUT (n_samples, n_components)
    double scale=1.0,
    int n_threads=1,
):
    """One fused SMACOF pass: ``out = scale · B(Z) Z`` and the stress of ``Z``.

    For unit weights the Guttman transform is ``scale = 1/n_samples`` (seed 003, Algorithm 17
    with ``V⁺ = (1/(2n))(I − 11ᵀ/n)`` and ``1ᵀB(Z) = 0``); with weights, ``scale = 1`` and the
    caller applies ``V⁺``.

    Parameters
    ----------
    dissimilarities : ndarray of shape (n_samples, n_samples), float64, C-contiguous
        Symmetric, non-negative, zero diagonal (not checked here).
    weights : ndarray of shape (n_samples, n_samples), float64, C-contiguous, or None
        Symmetric non-negative weights; None means 1 for every pair.
    Z : ndarray of shape (n_samples, n_components), float64, C-contiguous
        Current configuration.
    out : ndarray of shape (n_samples, n_components), float64, C-contiguous
        Output, must not alias ``Z``.
    scale : float
        Factor applied to ``B(Z) Z``.
    n_threads : int
        OpenMP threads.

    Returns
    -------
    stress : float
        ``Σ_{i<j} w_ij (D_ij − ‖z_i − z_j‖)²`` at the input ``Z`` (each pair once: half of the
        seed's ``S_KS``, the same convention as scikit-learn's raw stress).
    squared_distances : float
        ``Σ_{i<j} w_ij ‖z_i − z_j‖²`` at the input ``Z`` (the denominator of Kruskal's stress-1).
    """
    cdef double stress, squared_distances
    _check_shapes(dissimilarities, weights, Z, out)
    if out is None:
        raise ValueError("out must be an array of shape (n_samples, n_components).")
    if Z.shape[0] == 0 or Z.shape[1] == 0:
        return 0.0, 0.0
    if &out[0, 0] == &Z[0, 0]:
        raise ValueError("out must not be the same array as Z.")
    _pass(dissimilarities, weights, Z, out, True, scale, n_threads, &stress, &squared_distances)
    return stress, squared_distances


def stress(
    const double[:, ::1] dissimilarities,   # IN (n_samples, n_samples)
    const double[:, ::1] weights,           # IN (n_samples, n_samples) or None
    const double[:, ::1] Z,                 # IN (n_samples, n_components)
    int n_threads=1,
):
    """The stress of ``Z``, without the transform (same pass, about half the work).

    Parameters
    ----------
    dissimilarities, weights, Z, n_threads
        As in :func:`guttman_transform`.

    Returns
    -------
    stress : float
        ``Σ_{i<j} w_ij (D_ij − ‖z_i − z_j‖)²``.
    squared_distances : float
        ``Σ_{i<j} w_ij ‖z_i − z_j‖²``.
    """
    cdef double value, squared_distances
    _check_shapes(dissimilarities, weights, Z, None)
    _pass(dissimilarities, weights, Z, None, False, 1.0, n_threads, &value, &squared_distances)
    return value, squared_distances
