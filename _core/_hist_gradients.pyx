"""Gradients and Hessians of the losses of histogram gradient boosting, in float32 (what the
histograms read), in parallel over the samples.

``raw`` holds the raw scores ``f`` (n_samples, n_columns); the derivatives are taken with
respect to ``f`` of scikit-learn's "half" losses (``kernelkit.ensemble._losses``), each
multiplied by the sample's weight ``w`` when weights are given (``sample_weight`` None: 1; the
product is taken in float64, then rounded):

- squared error ``½(f − y)²``: ``g = f − y``, Hessian 1 (written only with weights: ``w``);
- absolute error ``|f − y|``: ``g = sign(f − y)``, likewise;
- Poisson ``e^f − y f``: ``g = e^f − y``, ``h = e^f``;
- logistic ``log(1 + e^f) − y f``: ``g = p − y``, ``h = p (1 − p)`` with ``p = σ(f)``;
- multinomial ``log Σ_k e^{f_k} − f_y``: ``g_k = p_k − [y = k]``, ``h_k = p_k (1 − p_k)``.

And the values of the logistic loss, which early stopping watches every round, bit for bit those
of NumPy's ``np.logaddexp(0, f) - y * f`` (the same libm calls in the same order, no fused
multiply-add), on the fit's threads: NumPy's ``logaddexp`` takes some 21 ns a value.

The samples run in blocks of about ``CHECK_WORK`` derivatives, between which the signals are
looked at (Ctrl-C, ``_interrupt.pxd``; an interrupted call leaves the outputs unfinished); the
blocks are a multiple of the threads, so that the static schedule shares them evenly.
"""

from cython.parallel cimport prange
from libc.math cimport exp, log1p

from _interrupt cimport (InterruptState, interrupt_init, interrupted, raise_pending,
                         steps_per_check)
from _types cimport intp_t

# Below this many samples one thread does the work.
cdef intp_t MIN_PARALLEL_SAMPLES = 16384


cdef struct Blocks:
    # The samples cut into blocks for the parallel loop.
    intp_t n_samples
    intp_t size          # samples per block (the last one may hold fewer)
    intp_t count
    int n_threads


cdef inline void _blocks_init(Blocks *blocks, intp_t n_samples, int n_threads,
                              intp_t n_columns) noexcept nogil:
    """Blocks of about CHECK_WORK derivatives (``n_columns`` per sample), their number a multiple
    of the threads."""
    cdef intp_t count
    blocks.n_threads = n_threads if n_samples >= MIN_PARALLEL_SAMPLES else 1
    count = (n_samples // steps_per_check(n_columns) // blocks.n_threads + 1) * blocks.n_threads
    blocks.n_samples = n_samples
    blocks.size = (n_samples + count - 1) // count if n_samples > 0 else 1
    blocks.count = (n_samples + blocks.size - 1) // blocks.size


cdef inline intp_t _block_stop(const Blocks *blocks, intp_t b) noexcept nogil:
    return min(blocks.n_samples, (b + 1) * blocks.size)


cdef inline const double *_weights(const double[::1] sample_weight) noexcept:
    """The first weight, or NULL for None (or no sample): every weight is then 1."""
    if sample_weight is None or sample_weight.shape[0] == 0:
        return NULL
    return &sample_weight[0]


cdef inline double _weight(const double *weights, intp_t i) noexcept nogil:
    return weights[i] if weights != NULL else 1.0


def residual_gradients(
    const double[::1] y,           # IN (n_samples,)
    const double[:, ::1] raw,      # IN (n_samples, 1)
    const double[::1] sample_weight,   # IN (n_samples,) or None
    float[:, ::1] gradients,       # OUT (1, n_samples)
    float[:, ::1] hessians,        # OUT (1, n_samples) with weights (untouched without)
    bint sign,
    int n_threads,
):
    """``g = w (f − y)`` (squared error), or ``w sign(f − y)`` (absolute error; 0 where they
    are equal); ``h = w`` with weights."""
    cdef intp_t b, i
    cdef double w
    cdef const double *weights = _weights(sample_weight)
    cdef Blocks blocks
    cdef InterruptState interrupt
    _blocks_init(&blocks, y.shape[0], n_threads, 1)
    interrupt_init(&interrupt)
    for b in prange(blocks.count, nogil=True, num_threads=blocks.n_threads, schedule='static'):
        if interrupted(&interrupt):
            continue
        for i in range(b * blocks.size, _block_stop(&blocks, b)):
            w = _weight(weights, i)
            if sign:
                gradients[0, i] = <float> (w * ((raw[i, 0] > y[i]) - (raw[i, 0] < y[i])))
            else:
                gradients[0, i] = <float> (w * (raw[i, 0] - y[i]))
            if weights != NULL:
                hessians[0, i] = <float> w
    if interrupt.stop:
        raise_pending()


def poisson_gradients(
    const double[::1] y,           # IN (n_samples,)
    const double[:, ::1] raw,      # IN (n_samples, 1)
    const double[::1] sample_weight,   # IN (n_samples,) or None
    float[:, ::1] gradients,       # OUT (1, n_samples)
    float[:, ::1] hessians,        # OUT (1, n_samples)
    int n_threads,
):
    """``g = w (e^f − y)``, ``h = w e^f``."""
    cdef intp_t b, i
    cdef double mean, w
    cdef const double *weights = _weights(sample_weight)
    cdef Blocks blocks
    cdef InterruptState interrupt
    _blocks_init(&blocks, y.shape[0], n_threads, 1)
    interrupt_init(&interrupt)
    for b in prange(blocks.count, nogil=True, num_threads=blocks.n_threads, schedule='static'):
        if interrupted(&interrupt):
            continue
        for i in range(b * blocks.size, _block_stop(&blocks, b)):
            mean = exp(raw[i, 0])
            w = _weight(weights, i)
            gradients[0, i] = <float> (w * (mean - y[i]))
            hessians[0, i] = <float> (w * mean)
    if interrupt.stop:
        raise_pending()


def binary_log_loss_gradients(
    const double[::1] y,           # IN (n_samples,) labels 0/1
    const double[:, ::1] raw,      # IN (n_samples, 1)
    const double[::1] sample_weight,   # IN (n_samples,) or None
    float[:, ::1] gradients,       # OUT (1, n_samples)
    float[:, ::1] hessians,        # OUT (1, n_samples)
    int n_threads,
):
    """``g = w (p − y)``, ``h = w p (1 − p)``, ``p = σ(f)``."""
    cdef intp_t b, i
    cdef double p, w
    cdef const double *weights = _weights(sample_weight)
    cdef Blocks blocks
    cdef InterruptState interrupt
    _blocks_init(&blocks, y.shape[0], n_threads, 1)
    interrupt_init(&interrupt)
    for b in prange(blocks.count, nogil=True, num_threads=blocks.n_threads, schedule='static'):
        if interrupted(&interrupt):
            continue
        for i in range(b * blocks.size, _block_stop(&blocks, b)):
            # σ(f) = 1/(1 + e^{−f}): e^{−f} overflows to inf for f ≪ 0 and p is then 0, exactly
            p = 1.0 / (1.0 + exp(-raw[i, 0]))
            w = _weight(weights, i)
            gradients[0, i] = <float> (w * (p - y[i]))
            hessians[0, i] = <float> (w * (p * (1.0 - p)))
    if interrupt.stop:
        raise_pending()


def multinomial_gradients(
    const double[::1] y,           # IN (n_samples,) class codes 0..K−1
    const double[:, ::1] raw,      # IN (n_samples, K)
    const double[::1] sample_weight,   # IN (n_samples,) or None
    float[:, ::1] gradients,       # OUT (K, n_samples)
    float[:, ::1] hessians,        # OUT (K, n_samples)
    int n_threads,
):
    """Softmax ``p`` of each row (shifted by its largest score, so no ``e^f`` overflows), then
    ``g_k = w (p_k − [y = k])``, ``h_k = w p_k (1 − p_k)``."""
    cdef intp_t K = raw.shape[1], b, i, k
    cdef double largest, total, p, w
    cdef const double *weights = _weights(sample_weight)
    cdef Blocks blocks
    cdef InterruptState interrupt
    _blocks_init(&blocks, y.shape[0], n_threads, K)
    interrupt_init(&interrupt)
    for b in prange(blocks.count, nogil=True, num_threads=blocks.n_threads, schedule='static'):
        if interrupted(&interrupt):
            continue
        for i in range(b * blocks.size, _block_stop(&blocks, b)):
            largest = raw[i, 0]
            for k in range(1, K):
                if raw[i, k] > largest:
                    largest = raw[i, k]
            total = 0.0
            for k in range(K):
                total = total + exp(raw[i, k] - largest)
            w = _weight(weights, i)
            for k in range(K):
                p = exp(raw[i, k] - largest) / total
                gradients[k, i] = <float> (w * (p - (k == <intp_t> y[i])))
                hessians[k, i] = <float> (w * (p * (1.0 - p)))
    if interrupt.stop:
        raise_pending()


cdef inline double _log_one_plus_exp(double f) noexcept nogil:
    """NumPy's ``logaddexp(0, f)``, step by step (``npy_logaddexp``)."""
    if f == 0.0:
        return 0.693147180559945309417232121458176568   # log 2
    if -f > 0.0:
        return 0.0 + log1p(exp(f))
    if -f <= 0.0:
        return f + log1p(exp(-f))
    return -f   # NaN


def binary_log_loss_values(
    const double[::1] y,           # IN (n_samples,) labels 0/1
    const double[:, ::1] raw,      # IN (n_samples, 1)
    double[::1] out,               # OUT (n_samples,)
    int n_threads,
):
    """``log(1 + e^f) − y f`` of every sample."""
    cdef intp_t b, i
    cdef Blocks blocks
    cdef InterruptState interrupt
    _blocks_init(&blocks, y.shape[0], n_threads, 1)
    interrupt_init(&interrupt)
    for b in prange(blocks.count, nogil=True, num_threads=blocks.n_threads, schedule='static'):
        if interrupted(&interrupt):
            continue
        for i in range(b * blocks.size, _block_stop(&blocks, b)):
            out[i] = _log_one_plus_exp(raw[i, 0]) - y[i] * raw[i, 0]
    if interrupt.stop:
        raise_pending()
