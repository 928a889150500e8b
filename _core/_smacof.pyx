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

from cython.parallel cimport parallel, prange
from libc.math cimport sqrt
from libc.stdlib cimport malloc, free

from _types cimport intp_t

# Rows per block: the unit of work of a thread and of the ordered stress reduction. Fixed, so the
# reduction order is a function of n only.
cdef intp_t ROWS = 32


cdef void _block(
    const double[:, ::1] dissimilarities,
    const double[:, ::1] weights,
    bint weighted,
    const double[:, ::1] Z,
    double[:, ::1] out,
    bint update,
    double scale,
    intp_t start, intp_t stop,
    double *acc,                       # scratch (n_components,)
    double *stress,                    # OUT: Σ_{i in block, j} w_ij (D_ij − δ_ij)²
    double *squared_distances,         # OUT: Σ_{i in block, j} w_ij δ_ij²
) noexcept nogil:
    cdef intp_t n = Z.shape[0]
    cdef intp_t p = Z.shape[1]
    cdef intp_t i, j, k
    cdef double w, d2, dist, diff, ratio, ratio_sum, s, s2
    s = 0.0
    s2 = 0.0
    for i in range(start, stop):
        ratio_sum = 0.0
        for k in range(p):
            acc[k] = 0.0
        for j in range(n):
            w = weights[i, j] if weighted else 1.0
            d2 = 0.0
            for k in range(p):
                diff = Z[i, k] - Z[j, k]
                d2 = d2 + diff * diff
            dist = sqrt(d2)
            diff = dissimilarities[i, j] - dist
            s = s + w * diff * diff
            s2 = s2 + w * d2
            # δ_ij = 0 (the diagonal, or coincident points): the pair adds nothing to B(Z)
            # (seed 003, indicator 1{δ_ij ≠ 0}); the majorisation bound still holds.
            if update and dist > 0.0:
                ratio = w * dissimilarities[i, j] / dist
                ratio_sum = ratio_sum + ratio
                for k in range(p):
                    acc[k] = acc[k] + ratio * Z[j, k]
        if update:
            for k in range(p):
                out[i, k] = scale * (ratio_sum * Z[i, k] - acc[k])
    stress[0] = s
    squared_distances[0] = s2


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
    cdef intp_t b
    cdef bint weighted = weights is not None
    cdef double *acc
    cdef double *partial = <double*>malloc(2 * (n_blocks if n_blocks > 0 else 1) * sizeof(double))
    if partial == NULL:
        raise MemoryError()
    if n_threads > n_blocks:
        n_threads = <int>(n_blocks if n_blocks > 0 else 1)
    try:
        with nogil, parallel(num_threads=n_threads):
            acc = <double*>malloc((p if p > 0 else 1) * sizeof(double))
            for b in prange(n_blocks, schedule='static'):
                _block(dissimilarities, weights, weighted, Z, out, update, scale,
                       b * ROWS, min((b + 1) * ROWS, n), acc, partial + 2 * b,
                       partial + 2 * b + 1)
            free(acc)
        # Ordered reduction; every pair was visited as (i, j) and (j, i): halve.
        stress[0] = 0.0
        squared_distances[0] = 0.0
        for b in range(n_blocks):
            stress[0] += partial[2 * b]
            squared_distances[0] += partial[2 * b + 1]
        stress[0] *= 0.5
        squared_distances[0] *= 0.5
    finally:
        free(partial)
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
