"""k-means++ seeding's distances: each block of samples' GEMM products and their update, on a
team of OpenMP threads.

Sangnier, Algorithm 10; D. Arthur and S. Vassilvitskii, "k-means++", SODA 2007.

Each seeding step draws a few candidates ``a_t`` and needs, for every sample, its squared
distance to its nearest centre should ``a_t`` join the centres:
``min(D_i, max(‖a_t‖² − 2 a_t·x_i + ‖x_i‖², 0))``. :func:`candidate_distances` cuts the samples
into blocks shared by a team sized by the work (``kk_team_for_work``); for each block, one
single-threaded GEMM of SciPy's BLAS gives the products ``a_t·x_i`` (the product
``A Xᵀ`` of the whole, block by block: GEMM's calls of one shape on every team), then one pass
turns them into those distances while they are in cache. Every value is the one the NumPy
expression ``np.minimum(D, np.maximum(a_norms[:, None] - 2 * P + x_norms, 0))`` gives on those
products, in the data's type: the same roundings in the same order. (A GEMM of NumPy's BLAS
on a team of its own threads, then a pass, took as long and left those threads spinning on the
cores for ~0.1 s, which slowed the first Lloyd steps that follow by 1.4×.)

The next step's draw needs the running sum of ``w_i D_i``: :func:`weighted_cumsum` gives the
values of ``np.cumsum(w * D)`` (the product rounded in the data's type, then summed in order)
in one pass, without the product's temporary.
"""

from cython.parallel cimport prange
from libc.limits cimport INT_MAX

from _distances cimport gemm_abt
from _types cimport floating, intp_t, kk_team_for_work

cdef enum:
    BLOCK = 4096   # samples per block of the parallel pass


def candidate_distances(
    const floating[:, ::1] X,                 # IN (n_samples, n_features)
    const floating[:, ::1] candidates,        # IN (n_candidates, n_features) the a_t
    const floating[::1] candidate_norms,      # IN (n_candidates,) ‖a_t‖²
    const floating[::1] x_squared_norms,      # IN (n_samples,) ‖x_i‖²
    const floating[::1] closest,              # IN (n_samples,) D_i
    floating[:, ::1] out,                     # OUT (n_candidates, n_samples)
    int n_threads=1,
    double min_work_per_thread=0.0,
):
    """``out[t, i] = min(closest[i], max((‖a_t‖² − 2 a_t·x_i) + ‖x_i‖², 0))``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    candidates : ndarray of shape (n_candidates, n_features), same dtype
    candidate_norms : ndarray of shape (n_candidates,), same dtype
    x_squared_norms : ndarray of shape (n_samples,), same dtype
    closest : ndarray of shape (n_samples,), same dtype
        Each sample's squared distance to its nearest centre so far (``inf`` before the first).
    out : ndarray of shape (n_candidates, n_samples), same dtype, C-contiguous
    n_threads : int, default=1
        The most OpenMP threads the pass may use (BLAS must run on one thread each: the caller
        limits it).
    min_work_per_thread : float, default=0.0
        Seconds of work a thread must get (``kernelkit.utils._threads.min_work_per_thread``).
    """
    cdef intp_t n_candidates = out.shape[0], n_samples = out.shape[1]
    cdef intp_t n_blocks = (n_samples + BLOCK - 1) // BLOCK, b
    cdef int team
    if (X.shape[0] != n_samples or candidates.shape[0] != n_candidates
            or candidates.shape[1] != X.shape[1] or candidate_norms.shape[0] != n_candidates
            or x_squared_norms.shape[0] != n_samples or closest.shape[0] != n_samples):
        raise ValueError("candidate_distances: shapes do not match.")
    if n_samples > INT_MAX or X.shape[1] > INT_MAX:
        raise ValueError("candidate_distances: more samples or features than BLAS indexes.")
    if n_blocks == 0 or n_candidates == 0:
        return
    # 0.16-0.19 ns a value and a feature on one thread (2 000 to 50 000 samples x 12, 4
    # candidates, quiet; 1 ns, assumed before, gave a second thread 40-90 µs passes)
    team = kk_team_for_work(0.2e-9 * n_candidates * n_samples * (X.shape[1] + 1),
                            min_work_per_thread, n_threads)
    if team > n_blocks:
        team = <int>n_blocks
    with nogil:
        if team == 1:
            for b in range(n_blocks):
                _block_distances(X, candidates, candidate_norms, x_squared_norms, closest, out,
                                 b)
        else:
            for b in prange(n_blocks, num_threads=team, schedule='static'):
                _block_distances(X, candidates, candidate_norms, x_squared_norms, closest, out,
                                 b)


cdef void _block_distances(const floating[:, ::1] X, const floating[:, ::1] candidates,
                           const floating[::1] candidate_norms,
                           const floating[::1] x_squared_norms, const floating[::1] closest,
                           floating[:, ::1] out, intp_t b) noexcept nogil:
    """The products of block ``b`` of the samples with every candidate (one GEMM), then their
    distances, in place."""
    cdef intp_t n_samples = out.shape[1], t, i, i0 = b * BLOCK, i1 = min(n_samples, i0 + BLOCK)
    cdef floating a, p, v, c
    gemm_abt(&candidates[0, 0], <int>out.shape[0], &X[i0, 0], <int>(i1 - i0), <int>X.shape[1],
             1.0, 0.0, &out[0, i0], <int>n_samples)
    for t in range(out.shape[0]):
        a = candidate_norms[t]
        for i in range(i0, i1):
            p = out[t, i]
            # a − 2p then + ‖x‖², each rounded in the data's type (p + p is 2p exactly)
            v = (a - (p + p)) + x_squared_norms[i]
            # np.maximum(v, 0) and np.minimum(c, v): a NaN propagates
            if v < 0:
                v = 0
            c = closest[i]
            if c <= v or c != c:
                v = c
            out[t, i] = v


def weighted_cumsum(
    const floating[::1] weights,              # IN (n_samples,) w_i
    const floating[::1] values,               # IN (n_samples,) D_i
    floating[::1] out,                        # OUT (n_samples,)
):
    """``out = np.cumsum(weights * values)``, bit for bit: each product rounded in the data's
    type, then added in order."""
    cdef intp_t i, n = out.shape[0]
    cdef floating total = 0
    if weights.shape[0] != n or values.shape[0] != n:
        raise ValueError("weighted_cumsum: shapes do not match.")
    with nogil:
        for i in range(n):
            total = total + weights[i] * values[i]
            out[i] = total
