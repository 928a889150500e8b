"""Gradients and Hessians of the losses of histogram gradient boosting, in float32 (what the
histograms read), in parallel over the samples.

``raw`` holds the raw scores ``f`` (n_samples, n_columns); the derivatives are taken with
respect to ``f`` of scikit-learn's "half" losses:

- squared error ``½(f − y)²``: ``g = f − y`` (Hessian 1, not written);
- absolute error ``|f − y|``: ``g = sign(f − y)`` (Hessian 1, not written);
- Poisson ``e^f − y f``: ``g = e^f − y``, ``h = e^f``;
- logistic ``log(1 + e^f) − y f``: ``g = p − y``, ``h = p (1 − p)`` with ``p = σ(f)``;
- multinomial ``log Σ_k e^{f_k} − f_y``: ``g_k = p_k − [y = k]``, ``h_k = p_k (1 − p_k)``.
"""

from cython.parallel cimport prange
from libc.math cimport exp

from _types cimport intp_t

# Below this many samples one thread does the work.
cdef intp_t MIN_PARALLEL_SAMPLES = 16384


cdef inline int _threads(intp_t n_samples, int n_threads) noexcept nogil:
    return n_threads if n_samples >= MIN_PARALLEL_SAMPLES else 1


def residual_gradients(
    const double[::1] y,           # IN (n_samples,)
    const double[:, ::1] raw,      # IN (n_samples, 1)
    float[:, ::1] gradients,       # OUT (1, n_samples)
    bint sign,
    int n_threads,
):
    """``g = f − y`` (squared error), or its sign ``sign(f − y)`` (absolute error; 0 where
    they are equal)."""
    cdef intp_t n = y.shape[0], i
    for i in prange(n, nogil=True, num_threads=_threads(n, n_threads), schedule='static'):
        if sign:
            gradients[0, i] = (raw[i, 0] > y[i]) - (raw[i, 0] < y[i])
        else:
            gradients[0, i] = <float> (raw[i, 0] - y[i])


def poisson_gradients(
    const double[::1] y,           # IN (n_samples,)
    const double[:, ::1] raw,      # IN (n_samples, 1)
    float[:, ::1] gradients,       # OUT (1, n_samples)
    float[:, ::1] hessians,        # OUT (1, n_samples)
    int n_threads,
):
    """``g = e^f − y``, ``h = e^f``."""
    cdef intp_t n = y.shape[0], i
    cdef double mean
    for i in prange(n, nogil=True, num_threads=_threads(n, n_threads), schedule='static'):
        mean = exp(raw[i, 0])
        gradients[0, i] = <float> (mean - y[i])
        hessians[0, i] = <float> mean


def binary_log_loss_gradients(
    const double[::1] y,           # IN (n_samples,) labels 0/1
    const double[:, ::1] raw,      # IN (n_samples, 1)
    float[:, ::1] gradients,       # OUT (1, n_samples)
    float[:, ::1] hessians,        # OUT (1, n_samples)
    int n_threads,
):
    """``g = p − y``, ``h = p (1 − p)``, ``p = σ(f)``."""
    cdef intp_t n = y.shape[0], i
    cdef double p
    for i in prange(n, nogil=True, num_threads=_threads(n, n_threads), schedule='static'):
        # σ(f) = 1/(1 + e^{−f}): e^{−f} overflows to inf for f ≪ 0 and p is then 0, exactly
        p = 1.0 / (1.0 + exp(-raw[i, 0]))
        gradients[0, i] = <float> (p - y[i])
        hessians[0, i] = <float> (p * (1.0 - p))


def multinomial_gradients(
    const double[::1] y,           # IN (n_samples,) class codes 0..K−1
    const double[:, ::1] raw,      # IN (n_samples, K)
    float[:, ::1] gradients,       # OUT (K, n_samples)
    float[:, ::1] hessians,        # OUT (K, n_samples)
    int n_threads,
):
    """Softmax ``p`` of each row (shifted by its largest score, so no ``e^f`` overflows), then
    ``g_k = p_k − [y = k]``, ``h_k = p_k (1 − p_k)``."""
    cdef intp_t n = y.shape[0], K = raw.shape[1], i, k
    cdef double largest, total, p
    for i in prange(n, nogil=True, num_threads=_threads(n, n_threads), schedule='static'):
        largest = raw[i, 0]
        for k in range(1, K):
            if raw[i, k] > largest:
                largest = raw[i, k]
        total = 0.0
        for k in range(K):
            total = total + exp(raw[i, k] - largest)
        for k in range(K):
            p = exp(raw[i, k] - largest) / total
            gradients[k, i] = <float> (p - (k == <intp_t> y[i]))
            hessians[k, i] = <float> (p * (1.0 - p))
