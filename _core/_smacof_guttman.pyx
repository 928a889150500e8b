"""SMACOF: the Guttman transform and the stress, fused into one pass over the dissimilarities.

Sangnier, §3.2.3 (Kruskal–Shepard scaling, Property 77, Algorithm 17).

Notation: ``D`` the dissimilarities, ``W`` the symmetric non-negative weights (all ones off the
diagonal when absent), ``Z`` the configuration with rows ``z_i``, ``δ_ij = ‖z_i − z_j‖``. With
``b_ij = w_ij D_ij / δ_ij`` (0 when ``δ_ij = 0``, the course's indicator), the matrix ``B(Z)`` has
``−b_ij`` off the diagonal and the row sums on the diagonal, so row ``i`` of ``B(Z) Z`` is

    Σ_j b_ij (z_i − z_j) = (Σ_j b_ij) z_i − Σ_j b_ij z_j.

(The course's ``V'(Z)`` is ``2 B(Z)`` and its ``V`` is twice the Laplacian of ``W``; the factors 2
cancel in ``V⁺ V'(Z) Z``.)

The pass cuts the upper triangle of ``D`` into tiles ``(I, J)``, ``I ≤ J``, of ``TILE × TILE``
pairs, and computes each pair once: its distance, its stress term and its ratio ``b_ij``, which
feeds both row ``i`` (``Σ_j b_ij z_j``) and row ``j`` (``Σ_i b_ij z_i``). So the square roots and
divisions, the bulk of the work, are done once per pair, only the upper triangle of ``D`` is
read, and nothing n×n is stored: each tile writes its two small partial sums.

Determinism: tiles are processed in any order by any thread, but each writes its own partial
sums, and these are added in a fixed order (per row block, then over tiles), so the results do
not depend on the number of threads.
"""

from cython.parallel cimport parallel, prange, threadid
from libc.math cimport sqrt
from libc.stdlib cimport malloc, free

from _distances cimport dot_interleaved
from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport intp_t, kk_team_for_work

# Rows (and columns) per tile: a tile's ratios and column sums stay in L1/L2.
cdef enum:
    TILE = 128
# Serial seconds of one pair's share of a pass (its distance, square root and division, and the
# sums of the transform), measured quiet on 200-2 000 samples (x86-64): the pass reads the n × n
# dissimilarities, so it is bound by memory more than by arithmetic. The team is sized from it
# (kk_team_for_work): quiet, two threads took 0.70-0.81 of one thread's time from 200 samples.
# Only the speed depends on these, never the result.
cdef double SECONDS_PER_PAIR_TRANSFORM = 4e-9
cdef double SECONDS_PER_PAIR_STRESS = 2e-9


ctypedef struct Pass:
    # What every tile of one pass reads, filled once by _pass.
    const double *dissimilarities      # (n, n), C-contiguous
    const double *weights              # (n, n), C-contiguous, or NULL: unit weights
    const double *Zt                   # (p + 1, n): the configuration transposed, then ones
    intp_t n
    intp_t p
    bint update                        # whether the tiles sum b_ij z_j (the transform)


cdef void _tile(
    const Pass *ps,
    intp_t I,                          # the tile's row block
    intp_t J,                          # its column block, J ≥ I
    double *scratch,                   # (3 TILE,): ratios, stress slots, squared slots
    double *row_sums,                  # OUT (p + 1, TILE): Σ_j b_ij z_j, Σ_j b_ij; if update
    double *col_sums,                  # OUT (p + 1, TILE): Σ_i b_ij z_i, Σ_i b_ij; if update
    double *sums,                      # OUT (2,): Σ w (D − δ)², Σ w δ² over the tile's pairs
) noexcept nogil:
    """One tile of pairs ``i0 ≤ i < i1``, ``j0 ≤ j < j1``, ``j > i`` (the rows and columns of
    blocks I and J; the diagonal tile is cut to its upper triangle). The struct's fields are
    copied out once: the loops' stores must not make the compiler reload them."""
    cdef intp_t n = ps.n, p = ps.p
    cdef intp_t i0 = I * TILE, i1 = min((I + 1) * TILE, n)
    cdef intp_t j0 = J * TILE, j1 = min((J + 1) * TILE, n)
    cdef const double *Zt = ps.Zt
    cdef const double *dissimilarities = ps.dissimilarities
    cdef const double *weights = ps.weights
    cdef bint update = ps.update
    cdef double *ratio = scratch
    cdef double *stress_slots = scratch + TILE
    cdef double *squared_slots = scratch + 2 * TILE
    cdef intp_t i, jj, k, start, m
    cdef double t, zk, dist, d, w, e, q
    cdef const double *drow
    cdef const double *wrow
    cdef const double *col
    cdef double *out
    for jj in range(TILE):
        stress_slots[jj] = 0.0
        squared_slots[jj] = 0.0
    if update:
        for k in range((p + 1) * TILE):
            row_sums[k] = 0.0
            col_sums[k] = 0.0
    for i in range(i0, i1):
        start = j0 if j0 > i + 1 else i + 1
        if start >= j1:
            continue
        m = j1 - start
        # Squared distances by direct differences (no ‖a‖² + ‖b‖² − 2a·b cancellation).
        col = Zt + start
        zk = Zt[i]
        for jj in range(m):
            t = col[jj] - zk
            ratio[jj] = t * t
        for k in range(1, p):
            col = Zt + k * n + start
            zk = Zt[k * n + i]
            for jj in range(m):
                t = col[jj] - zk
                ratio[jj] = ratio[jj] + t * t
        # Stress terms, then the ratios b_ij = w D / δ in place; b_ij = 0 when δ = 0 (the
        # seed's indicator 1{δ_ij ≠ 0}: coincident points). Elementwise with selects, no branch
        # and no reduction (sums go to per-slot accumulators), so it vectorises, square root and
        # division included (module built with -fno-math-errno -fno-trapping-math, which change
        # no result).
        drow = dissimilarities + i * n + start
        if weights != NULL:
            wrow = weights + i * n + start
            for jj in range(m):
                q = ratio[jj]
                w = wrow[jj]
                d = drow[jj]
                dist = sqrt(q)
                e = d - dist
                stress_slots[jj] = stress_slots[jj] + w * e * e
                squared_slots[jj] = squared_slots[jj] + w * q
                ratio[jj] = (w * d if dist > 0.0 else 0.0) / (dist if dist > 0.0 else 1.0)
        else:
            for jj in range(m):
                q = ratio[jj]
                d = drow[jj]
                dist = sqrt(q)
                e = d - dist
                stress_slots[jj] = stress_slots[jj] + e * e
                squared_slots[jj] = squared_slots[jj] + q
                ratio[jj] = (d if dist > 0.0 else 0.0) / (dist if dist > 0.0 else 1.0)
        if update:
            for k in range(p + 1):
                # Row i gathers Σ_j b_ij z_j (a dot product); columns j each get b_ij z_i
                # (elementwise, vectorised).
                col = Zt + k * n + start
                row_sums[k * TILE + (i - i0)] = dot_interleaved(ratio, col, m)
                zk = Zt[k * n + i]
                out = col_sums + k * TILE + (start - j0)
                for jj in range(m):
                    out[jj] = out[jj] + ratio[jj] * zk
    sums[0] = 0.0
    sums[1] = 0.0
    for jj in range(TILE):
        sums[0] += stress_slots[jj]
        sums[1] += squared_slots[jj]


cdef inline intp_t _tile_index(intp_t I, intp_t J, intp_t n_tiles) noexcept nogil:
    """Position of tile (I, J), I ≤ J, in the row-major enumeration of the upper triangle."""
    return I * n_tiles - (I * (I - 1)) // 2 + (J - I)


cdef inline double _gather(
    const double *row_parts, const double *col_parts, intp_t R, intp_t n_tiles, intp_t part,
    intp_t offset,
) noexcept nogil:
    """Entry ``offset`` of row block R's sums over its tiles, in a fixed order: the tiles (I, R),
    I ≤ R, as columns, then (R, J), J ≥ R, as rows."""
    cdef double total = 0.0
    cdef intp_t I, J
    for I in range(R + 1):
        total = total + col_parts[_tile_index(I, R, n_tiles) * part + offset]
    for J in range(R, n_tiles):
        total = total + row_parts[_tile_index(R, J, n_tiles) * part + offset]
    return total


cdef int _pass(
    const double[:, ::1] dissimilarities,
    const double[:, ::1] weights,
    const double[:, ::1] Z,
    double[:, ::1] out,
    bint update,
    double scale,
    int n_threads,
    double min_work_per_thread,
    double *stress,
    double *squared_distances,
) except -1:
    cdef intp_t n = Z.shape[0]
    cdef intp_t p = Z.shape[1]
    cdef intp_t n_tiles = (n + TILE - 1) // TILE
    cdef intp_t n_pairs = n_tiles * (n_tiles + 1) // 2
    cdef intp_t part = (p + 1) * TILE  # one tile's row (or column) sums
    cdef intp_t stride = 3 * TILE      # one thread's scratch
    cdef intp_t t, I, J, R, i, k, idx
    cdef double *scratch = NULL    # set per thread inside the parallel block
    cdef double total
    cdef intp_t *tile_I = NULL
    cdef intp_t *tile_J = NULL
    cdef double *tile_sums = NULL
    cdef double *row_parts = NULL
    cdef double *col_parts = NULL
    cdef double *Zt = NULL
    cdef double *thread_scratch = NULL
    cdef Pass ps
    cdef InterruptState interrupt
    interrupt_init(&interrupt)
    stress[0] = 0.0
    squared_distances[0] = 0.0
    if n == 0 or p == 0:
        return 0
    n_threads = kk_team_for_work(
        0.5 * n * (n - 1) * (SECONDS_PER_PAIR_TRANSFORM if update else SECONDS_PER_PAIR_STRESS),
        min_work_per_thread, n_threads)
    if n_threads > n_pairs:
        n_threads = <int>n_pairs
    try:
        # Everything allocated here, so that a failed allocation raises (not inside nogil).
        # The partial sums take 2 (p + 1) TILE doubles per tile: O(n² (p + 1) / TILE), under
        # 2 % of the n×n input for p ≤ 3.
        tile_I = <intp_t*>malloc(n_pairs * sizeof(intp_t))
        tile_J = <intp_t*>malloc(n_pairs * sizeof(intp_t))
        tile_sums = <double*>malloc(2 * n_pairs * sizeof(double))
        Zt = <double*>malloc(n * (p + 1) * sizeof(double))
        thread_scratch = <double*>malloc(n_threads * stride * sizeof(double))
        if update:
            row_parts = <double*>malloc(n_pairs * part * sizeof(double))
            col_parts = <double*>malloc(n_pairs * part * sizeof(double))
        if (tile_I == NULL or tile_J == NULL or tile_sums == NULL or Zt == NULL
                or thread_scratch == NULL or (update and (row_parts == NULL or col_parts == NULL))):
            raise MemoryError()
        ps.dissimilarities = &dissimilarities[0, 0]
        ps.weights = &weights[0, 0] if weights is not None else NULL
        ps.Zt = Zt
        ps.n = n
        ps.p = p
        ps.update = update
        with nogil:
            idx = 0
            for I in range(n_tiles):
                for J in range(I, n_tiles):
                    tile_I[idx] = I
                    tile_J[idx] = J
                    idx = idx + 1
            # Transposed so that the column loops run over contiguous memory; the extra row of
            # ones turns Σ_j b_ij into one more dot product.
            for i in range(n):
                for k in range(p):
                    Zt[k * n + i] = Z[i, k]
                Zt[p * n + i] = 1.0
            with parallel(num_threads=n_threads):
                scratch = thread_scratch + threadid() * stride
                # Dynamic: tiles differ in cost (diagonal ones are half), and on a busy machine
                # a descheduled thread's tiles go to the others. The result does not depend on
                # which thread runs a tile.
                for t in prange(n_pairs, schedule='dynamic'):
                    # one pass reads the n × n dissimilarities: seconds for large n
                    if interrupted(&interrupt):
                        continue
                    _tile(&ps, tile_I[t], tile_J[t], scratch,
                          row_parts + t * part if update else NULL,
                          col_parts + t * part if update else NULL,
                          tile_sums + 2 * t)
                # Same parallel region (one wake-up of the threads): the loop above ends with a
                # barrier, so every tile's sums are in place.
                if update and not interrupt.stop:
                    # Row i of B(Z) Z = (Σ_j b_ij) z_i − Σ_j b_ij z_j, gathered from the tiles
                    # of its row block in a fixed order (see _gather).
                    for R in prange(n_tiles, schedule='dynamic'):
                        for i in range(R * TILE, min((R + 1) * TILE, n)):
                            total = _gather(row_parts, col_parts, R, n_tiles, part,
                                            p * TILE + i - R * TILE)
                            for k in range(p):
                                out[i, k] = scale * (total * Z[i, k] - _gather(
                                    row_parts, col_parts, R, n_tiles, part,
                                    k * TILE + i - R * TILE))
            # Ordered reduction of the stress over tiles; each pair was counted once.
            for t in range(n_pairs if not interrupt.stop else 0):
                stress[0] += tile_sums[2 * t]
                squared_distances[0] += tile_sums[2 * t + 1]
        if interrupt.stop:
            raise_pending()
    finally:
        free(tile_I)
        free(tile_J)
        free(tile_sums)
        free(Zt)
        free(thread_scratch)
        free(row_parts)
        free(col_parts)
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
    double min_work_per_thread=0.0,
):
    """One fused SMACOF pass: ``out = scale · B(Z) Z`` and the stress of ``Z``.

    For unit weights the Guttman transform is ``scale = 1/n_samples`` (Sangnier, Algorithm 17
    with ``V⁺ = (1/(2n))(I − 11ᵀ/n)`` and ``1ᵀB(Z) = 0``); with weights, ``scale = 1`` and the
    caller applies ``V⁺``.

    Parameters
    ----------
    dissimilarities : ndarray of shape (n_samples, n_samples), float64, C-contiguous
        Non-negative; only the strict upper triangle is read (the matrix is taken to be
        symmetric, which the caller checks).
    weights : ndarray of shape (n_samples, n_samples), float64, C-contiguous, or None
        Non-negative weights, strict upper triangle read; None means 1 for every pair.
    Z : ndarray of shape (n_samples, n_components), float64, C-contiguous
        Current configuration.
    out : ndarray of shape (n_samples, n_components), float64, C-contiguous
        Output, must not alias ``Z``.
    scale : float
        Factor applied to ``B(Z) Z``.
    n_threads : int
        OpenMP threads, at most.
    min_work_per_thread : float
        Seconds of serial work a thread must get (``min_work_per_thread`` of
        ``kernelkit.utils._threads``): a short pass runs on fewer threads; 0: on ``n_threads``.

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
    _pass(dissimilarities, weights, Z, out, True, scale, n_threads, min_work_per_thread, &stress,
          &squared_distances)
    return stress, squared_distances


def stress(
    const double[:, ::1] dissimilarities,   # IN (n_samples, n_samples)
    const double[:, ::1] weights,           # IN (n_samples, n_samples) or None
    const double[:, ::1] Z,                 # IN (n_samples, n_components)
    int n_threads=1,
    double min_work_per_thread=0.0,
):
    """The stress of ``Z``: the same pass without the transform.

    Parameters
    ----------
    dissimilarities, weights, Z, n_threads, min_work_per_thread
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
    _pass(dissimilarities, weights, Z, None, False, 1.0, n_threads, min_work_per_thread, &value,
          &squared_distances)
    return value, squared_distances
