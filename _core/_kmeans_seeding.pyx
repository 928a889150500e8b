"""k-means++ seeding's candidate step: the candidates' distances and potentials in one pass.

Sangnier, Algorithm 10; D. Arthur and S. Vassilvitskii, "k-means++", SODA 2007.

Each seeding step draws a few candidates ``a_t`` and needs, for every sample, its squared
distance to its nearest centre should ``a_t`` join the centres,
``D_ti = min(D_i, max(‖a_t‖² − 2 a_t·x_i + ‖x_i‖², 0))``, and each candidate's potential
``Σ_i w_i D_ti``. :func:`candidate_distances` takes the samples by chunks of ``CHUNK`` rows,
chunks in parallel: the chunk's products ``a_t·x_i`` by one GEMM, written where the distances
go, then turned into the distances and summed while they are in cache. One pass over ``X``
and over the distances (the GEMM of all samples, then NumPy's passes for the update, the clamp
and the potentials, each over an array that does not fit in cache, cost twice as much).
Every distance is the one the NumPy expression
``np.minimum(D, np.maximum(a_norms[:, None] - 2 * P + x_norms, 0))`` gives, in the data's type:
the same roundings in the same order. The potentials are summed in float64, chunk by chunk in
a fixed order, so they do not depend on the thread count.
"""

from cython.parallel cimport prange

import numpy as np

from _distances cimport gemm_abt
from _types cimport floating, intp_t

cdef enum:
    # Samples per chunk: the chunk's distances to a few candidates stay in L2.
    CHUNK = 2048


cdef void _chunk(const floating[:, ::1] X, const floating[:, ::1] candidates,
                 const floating[::1] candidate_norms, const floating[::1] x_squared_norms,
                 const floating[::1] closest, const floating[::1] sample_weight,
                 floating[:, ::1] out, intp_t start, intp_t stop,
                 double *potentials) noexcept nogil:
    """The distances of samples ``start:stop`` into ``out[:, start:stop]`` and their weighted
    sums into ``potentials`` (one per candidate)."""
    cdef intp_t t, i, n_candidates = candidates.shape[0], n_samples = X.shape[0]
    cdef int n_features = <int>X.shape[1]
    cdef floating a, p, v, c
    cdef floating *row
    cdef double total
    gemm_abt(&candidates[0, 0], <int>n_candidates, &X[start, 0], <int>(stop - start),
             n_features, 1, 0, &out[0, start], <int>n_samples)
    for t in range(n_candidates):
        a = candidate_norms[t]
        row = &out[t, 0]
        total = 0.0
        for i in range(start, stop):
            p = row[i]
            # a − 2p then + ‖x‖², each rounded in the data's type (p + p is 2p exactly)
            v = (a - (p + p)) + x_squared_norms[i]
            # np.maximum(v, 0) and np.minimum(c, v): a NaN propagates
            if v < 0:
                v = 0
            c = closest[i]
            if c <= v or c != c:
                v = c
            row[i] = v
            total += <double>sample_weight[i] * v
        potentials[t] = total


def candidate_distances(
    const floating[:, ::1] X,                 # IN (n_samples, n_features)
    const floating[:, ::1] candidates,        # IN (n_candidates, n_features)
    const floating[::1] candidate_norms,      # IN (n_candidates,) ‖a_t‖²
    const floating[::1] x_squared_norms,      # IN (n_samples,) ‖x_i‖²
    const floating[::1] closest,              # IN (n_samples,) D_i
    const floating[::1] sample_weight,        # IN (n_samples,) w_i
    floating[:, ::1] out,                     # OUT (n_candidates, n_samples) D_ti
    int n_threads,
):
    """``out[t, i] = min(closest[i], max((‖a_t‖² − 2 a_t·x_i) + ‖x_i‖², 0))`` and the
    potentials ``Σ_i w_i out[t, i]``.

    Call with BLAS on one thread (the chunks' GEMMs run on the OpenMP threads).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    candidates : ndarray of shape (n_candidates, n_features), same dtype
    candidate_norms : ndarray of shape (n_candidates,), same dtype
    x_squared_norms : ndarray of shape (n_samples,), same dtype
    closest : ndarray of shape (n_samples,), same dtype
        Each sample's squared distance to its nearest centre so far (``inf`` before the first).
    sample_weight : ndarray of shape (n_samples,), same dtype
    out : ndarray of shape (n_candidates, n_samples), same dtype
    n_threads : int

    Returns
    -------
    potentials : ndarray of shape (n_candidates,), float64
    """
    cdef intp_t n_samples = X.shape[0], n_candidates = candidates.shape[0]
    cdef intp_t n_chunks = (n_samples + CHUNK - 1) // CHUNK
    cdef intp_t k, start
    cdef double[:, ::1] partial = np.zeros((max(n_chunks, 1), n_candidates))
    if (candidates.shape[1] != X.shape[1] or candidate_norms.shape[0] != n_candidates
            or x_squared_norms.shape[0] != n_samples or closest.shape[0] != n_samples
            or sample_weight.shape[0] != n_samples or out.shape[0] != n_candidates
            or out.shape[1] != n_samples):
        raise ValueError("candidate_distances: shapes do not match.")
    if n_samples == 0 or n_candidates == 0:
        return np.zeros(n_candidates)
    with nogil:
        for k in prange(n_chunks, schedule="static", num_threads=max(1, n_threads)):
            start = k * CHUNK
            _chunk(X, candidates, candidate_norms, x_squared_norms, closest, sample_weight, out,
                   start, min(start + CHUNK, n_samples), &partial[k, 0])
    return np.asarray(partial).sum(axis=0) if n_chunks > 1 else np.array(partial[0])
