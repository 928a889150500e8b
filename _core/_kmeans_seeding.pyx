"""k-means++ seeding's distance update: one pass over the candidates' GEMM products.

Sangnier, Algorithm 10; D. Arthur and S. Vassilvitskii, "k-means++", SODA 2007.

Each seeding step draws a few candidates ``a_t`` and needs, for every sample, its squared
distance to its nearest centre should ``a_t`` join the centres:
``min(D_i, max(‖a_t‖² − 2 a_t·x_i + ‖x_i‖², 0))``. The estimator computes the products
``a_t·x_i`` by one GEMM; :func:`update_candidate_distances` turns them into those distances in
place, in one pass (four NumPy passes over an array that does not fit in cache cost more than
the GEMM itself). Every value is the one the NumPy expression
``np.minimum(D, np.maximum(a_norms[:, None] - 2 * P + x_norms, 0))`` gives, in the data's type:
the same roundings in the same order.
"""

from _types cimport floating, intp_t


def update_candidate_distances(
    floating[:, ::1] products,                # INOUT (n_candidates, n_samples)
    const floating[::1] candidate_norms,      # IN (n_candidates,) ‖a_t‖²
    const floating[::1] x_squared_norms,      # IN (n_samples,) ‖x_i‖²
    const floating[::1] closest,              # IN (n_samples,) D_i
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
    """
    cdef intp_t n_candidates = products.shape[0], n_samples = products.shape[1], t, i
    cdef floating a, p, v, c
    if (candidate_norms.shape[0] != n_candidates or x_squared_norms.shape[0] != n_samples
            or closest.shape[0] != n_samples):
        raise ValueError("update_candidate_distances: shapes do not match.")
    with nogil:
        for t in range(n_candidates):
            a = candidate_norms[t]
            for i in range(n_samples):
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
