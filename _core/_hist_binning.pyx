"""Binning of the features (``kernelkit.utils._binning``): a numeric value becomes the index of
its bin, ``b`` such that ``thresholds[b − 1] < x ≤ thresholds[b]``; a categorical value the index
of its category among the feature's sorted known categories; NaN, and a value that is no known
category, the missing bin."""

from cython cimport floating
from cython.parallel cimport prange
from libc.math cimport isnan

from _interrupt cimport InterruptState, interrupt_init, interrupted, raise_pending
from _types cimport intp_t, uint8_t

# Rows per parallel block: a block reads its rows and writes every feature's column of bins in
# a short sequential run.
cdef intp_t BLOCK = 4096


cdef inline uint8_t _bin(double x, const double *thresholds, intp_t n_thresholds,
                         bint categorical, uint8_t missing_bin) noexcept nogil:
    """Number of thresholds below ``x``; for a categorical feature, that count only where the
    threshold it stops at is ``x`` itself (the category's index). NaN: ``missing_bin``. The
    binary search's steps are conditional moves (no branch to mispredict on random data)."""
    cdef intp_t lo = 0, n = n_thresholds, half
    if isnan(x):
        return missing_bin
    if n > 0:
        # invariant: the answer lies in [lo, lo + n]
        while n > 1:
            half = n // 2
            lo = lo + half if thresholds[lo + half] < x else lo
            n = n - half
        lo = lo + (thresholds[lo] < x)
    if categorical and (lo == n_thresholds or thresholds[lo] != x):
        return missing_bin
    return <uint8_t> lo


def map_to_bins(
    const floating[:, :] X,             # IN (n_samples, n_features) any order
    const double[:, ::1] thresholds,    # IN (n_features, width) increasing, padded
    const intp_t[::1] n_thresholds,     # IN (n_features,) used entries of each row
    const uint8_t[::1] is_categorical,  # IN (n_features,) a row holds known categories
    uint8_t missing_bin,
    uint8_t[::1, :] X_binned,           # OUT (n_samples, n_features) Fortran order
    int n_threads,
):
    """Bin index of every value of ``X``, in parallel over blocks of rows (Ctrl-C: the signals
    are looked at before each feature of a block; ``X_binned`` is then left unfinished).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64
    thresholds : ndarray of shape (n_features, width), float64
        A numeric feature's thresholds, or a categorical feature's known categories, in
        increasing order.
    n_thresholds : ndarray of shape (n_features,), intp
    is_categorical : ndarray of shape (n_features,), uint8
    missing_bin : int
    X_binned : ndarray of shape (n_samples, n_features), uint8, Fortran order
    n_threads : int
    """
    cdef intp_t n_samples = X.shape[0], n_features = X.shape[1]
    cdef intp_t n_blocks = (n_samples + BLOCK - 1) // BLOCK, block, i, f
    cdef InterruptState interrupt
    if n_samples == 0 or n_features == 0:
        return
    interrupt_init(&interrupt)
    with nogil:
        for block in prange(n_blocks, num_threads=n_threads, schedule='static'):
            for f in range(n_features):
                if interrupted(&interrupt):
                    break
                for i in range(block * BLOCK, min(n_samples, (block + 1) * BLOCK)):
                    X_binned[i, f] = _bin(X[i, f], &thresholds[f, 0], n_thresholds[f],
                                          is_categorical[f], missing_bin)
    if interrupt.stop:
        raise_pending()
