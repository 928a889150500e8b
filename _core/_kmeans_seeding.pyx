"""k-means++ seeding's distance update: one pass over the candidates' GEMM products.

Sangnier, Algorithm 10; D. Arthur and S. Vassilvitskii, "k-means++", SODA 2007.

Each seeding step draws a few candidates ``a_t`` and needs, for every sample, its squared
distance to its nearest centre should ``a_t`` join the centres:
``min(D_i, max(‖a_t‖² − 2 a_t·x_i + ‖x_i‖², 0))``. The estimator computes the products
``a_t·x_i`` by one GEMM; :func:`update_candidate_distances` turns them into those distances in
place, in one pass (four NumPy passes over an array that does not fit in cache cost more than
the GEMM itself). Every value is the one the NumPy expression
``np.minimum(D, np.maximum(a_norms[:, None] - 2 * P + x_norms, 0))`` gives, in the data's type:
the same roundings in the same order. The pass is cut into blocks of samples shared by a team
sized by the work (``kk_team_for_work``): each value is computed alike on any team.

The next step's draw needs the running sum of ``w_i D_i``: :func:`weighted_cumsum` gives the
values of ``np.cumsum(w * D)`` (the product rounded in the data's type, then summed in order)
in one pass, without the product's temporary.
"""

from cython.parallel cimport prange

from _types cimport floating, intp_t, kk_team_for_work

cdef enum:
    BLOCK = 4096   # samples per block of the parallel pass


def update_candidate_distances(
    floating[:, ::1] products,                # INOUT (n_candidates, n_samples)
    const floating[::1] candidate_norms,      # IN (n_candidates,) ‖a_t‖²
    const floating[::1] x_squared_norms,      # IN (n_samples,) ‖x_i‖²
    const floating[::1] closest,              # IN (n_samples,) D_i
    int n_threads=1,
    double min_work_per_thread=0.0,
):
    """Overwrite ``products[t, i] = a_t·x_i`` with
    ``min(closest[i], max((‖a_t‖² − 2 a_t·x_i) + ‖x_i‖², 0))``.

    Parameters
    ----------
    products : ndarray of shape (n_candidates, n_samples), float32 or float64, C-contiguous
        Input: the GEMM products ``a_t·x_i``; output: the squared distances above.
    candidate_norms : ndarray of shape (n_candidates,), same dtype
    x_squared_norms : ndarray of shape (n_samples,), same dtype
    closest : ndarray of shape (n_samples,), same dtype
        Each sample's squared distance to its nearest centre so far (``inf`` before the first).
    n_threads : int, default=1
        The most OpenMP threads the pass may use.
    min_work_per_thread : float, default=0.0
        Seconds of work a thread must get (``kernelkit.utils._threads.min_work_per_thread``).
    """
    cdef intp_t n_candidates = products.shape[0], n_samples = products.shape[1]
    cdef intp_t n_blocks = (n_samples + BLOCK - 1) // BLOCK, b
    cdef int team
    if (candidate_norms.shape[0] != n_candidates or x_squared_norms.shape[0] != n_samples
            or closest.shape[0] != n_samples):
        raise ValueError("update_candidate_distances: shapes do not match.")
    if n_blocks == 0 or n_candidates == 0:
        return
    # ~1 ns a value
    team = kk_team_for_work(1e-9 * n_candidates * n_samples, min_work_per_thread, n_threads)
    with nogil:
        if team == 1:
            for b in range(n_blocks):
                _update_block(products, candidate_norms, x_squared_norms, closest, b)
        else:
            for b in prange(n_blocks, num_threads=team, schedule='static'):
                _update_block(products, candidate_norms, x_squared_norms, closest, b)


cdef void _update_block(floating[:, ::1] products, const floating[::1] candidate_norms,
                        const floating[::1] x_squared_norms, const floating[::1] closest,
                        intp_t b) noexcept nogil:
    """The distances of block ``b`` of the samples, for every candidate."""
    cdef intp_t t, i, i1 = min(products.shape[1], (b + 1) * BLOCK)
    cdef floating a, p, v, c
    for t in range(products.shape[0]):
        a = candidate_norms[t]
        for i in range(b * BLOCK, i1):
            p = products[t, i]
            # a − 2p then + ‖x‖², each rounded in the data's type (p + p is 2p exactly)
            v = (a - (p + p)) + x_squared_norms[i]
            # np.maximum(v, 0) and np.minimum(c, v): a NaN propagates
            if v < 0:
                v = 0
            c = closest[i]
            if c <= v or c != c:
                v = c
            products[t, i] = v


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
