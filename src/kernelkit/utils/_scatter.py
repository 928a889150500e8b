"""Products of tall data by row blocks: scatter matrices by blocked rank-k updates, centred
``Σ_i (x_i − μ)(x_i − μ)ᵀ`` with the mean in the same pass (PCA's covariance) and weighted
``Σ_i w_i (x_i − c)(x_i − c)ᵀ`` (the logistic regressions' Newton Hessian ``Aᵀ diag(w) A``, a
Gaussian mixture's covariances), and products ``(X − 1cᵀ) M`` with a narrow ``M`` (PCA's
scores)."""

import functools

import numpy as np

from kernelkit._core._weighted_scatter import weighted_scatter_slots
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._threads import fold_row_blocks, slot_cuts

__all__ = ["mean_and_scatter", "row_block_product", "scatter_matrices", "scatter_matrix"]

# Elements of one block buffer: 512 KiB of float64, which stays in the cache between the scaling
# or centring and the rank-k update that reads it back (a 60 000 x 41 weighted scatter matrix on
# one thread: 14 ms with these blocks, 15-21 ms with 2 MiB ones, measured loaded) ...
_BLOCK_ELEMENTS = 2**16
# ... and at least this many rows, so that each update's d x d result, read and written once per
# block, is reused by enough rows when the features are many
_MIN_BLOCK_ROWS = 256
# row_block_product's blocks, which keep no buffer: they only share the rows among the threads
_PRODUCT_BLOCK_ELEMENTS = 2**18


def _block_rows(n_samples, n_features):
    """The rows of a block of ``n_features`` columns that stays in the cache (at most
    ``n_samples``: the block buffers of short data are no larger than the data)."""
    rows = min(max(_BLOCK_ELEMENTS // max(n_features, 1), _MIN_BLOCK_ROWS), n_samples)
    return max(1, rows)


def _from_upper(total):
    """The symmetric matrices whose upper triangles are those of ``total`` (a matrix or a stack
    of them): one masked copy (5.5 µs at d = 20 and 0.56 ms at d = 500, measured loaded,
    against 15 µs and 4.1 ms for ``triu(S) + triu(S, 1)ᵀ``, which builds three d × d
    temporaries)."""
    symmetric = np.array(total, order="C")
    np.copyto(symmetric, total.swapaxes(-1, -2), where=_below_diagonal(total.shape[-1]))
    return symmetric


@functools.lru_cache(maxsize=16)
def _below_diagonal(n):
    """The read-only mask of the entries below the diagonal of an ``n × n`` matrix."""
    mask = np.tri(n, k=-1, dtype=bool)
    mask.flags.writeable = False
    return mask


def scatter_matrix(X, *, weights=None, centre=None, n_threads=1, ones_column=False):
    r"""The scatter matrix :math:`S = \sum_i w_i (x_i - c)(x_i - c)^\top` of the rows of ``X``.

    Row blocks, shifted by :math:`c` and scaled by :math:`\sqrt{w_i}` in a buffer that stays
    in the cache, are added by a symmetric rank-k update (BLAS ``syrk``, half the products of
    a general ``Xᵀ X``), in fixed slots of consecutive blocks on ``n_threads`` OpenMP threads
    (``kernelkit._core._weighted_scatter``); the slots are added in order, so the result does
    not depend on ``n_threads``. The differences to :math:`c` are taken before the products: no
    cancellation of :math:`\sum_i w_i x_i x_i^\top - (\sum_i w_i) c c^\top` when :math:`c` is
    the weighted mean and far from the origin. For the scatter around the mean of ``X``, found in
    the same pass, see :func:`mean_and_scatter`; for several weights and centres at once,
    :func:`scatter_matrices`. With ``ones_column``, the rows are :math:`(x_i - c, 1)` — the
    design ``[X, 1]`` of a model with an intercept — written into the block buffer only: the
    same blocks, products and result as for a stacked copy of ``[X, 1]``, without the copy.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        float64 or float32 (the products run in that precision), C-contiguous.
    weights : ndarray of shape (n_samples,), default=None
        Non-negative weights :math:`w_i`; None for 1.
    centre : ndarray of shape (n_features,), default=None
        :math:`c`; None for 0.
    n_threads : int, default=1
    ones_column : bool, default=False
        Append a column of ones to ``X``.

    Returns
    -------
    S : ndarray of shape (n_features + ones_column, n_features + ones_column)
        Symmetric, of ``X``'s dtype.
    """
    return scatter_matrices(X, weights=None if weights is None else weights[:, None],
                            centres=None if centre is None else np.asarray(centre)[None],
                            n_threads=n_threads, ones_column=ones_column)[0]


def scatter_matrices(X, *, weights=None, centres=None, n_threads=1, ones_column=False):
    r"""The scatter matrices :math:`S_j = \sum_i w_{ij} (x_i - c_j)(x_i - c_j)^\top` of the
    rows of ``X``, one per column of ``weights`` and row of ``centres`` (a Gaussian mixture's
    covariances, Sangnier, Algorithm 8): :func:`scatter_matrix` of each, in one pass over ``X``
    (each block, in cache, goes through every set before the next block).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        float64 or float32, C-contiguous.
    weights : ndarray of shape (n_samples, n_sets), default=None
        Non-negative weights; None for 1.
    centres : ndarray of shape (n_sets, n_features), default=None
        None for 0.
    n_threads : int, default=1
    ones_column : bool, default=False

    Returns
    -------
    S : ndarray of shape (n_sets, n_features + ones_column, n_features + ones_column)
        Symmetric matrices, of ``X``'s dtype; ``n_sets`` is 1 without weights and centres.
    """
    n_samples, n_columns = X.shape
    n_features = n_columns + bool(ones_column)
    dtype = X.dtype
    n_sets = max(1 if weights is None else weights.shape[1],
                 1 if centres is None else centres.shape[0])
    if n_samples == 0:
        return np.zeros((n_sets, n_features, n_features), dtype=dtype)
    block_rows = _block_rows(n_samples, n_features)
    cuts = slot_cuts(-(-n_samples // block_rows))
    # each set's √w and centre, contiguous (empty: none)
    roots = (np.empty((n_sets, 0), dtype=dtype) if weights is None
             else np.ascontiguousarray(np.sqrt(weights.T), dtype=dtype))
    centres = (np.empty((n_sets, 0), dtype=dtype) if centres is None
               else np.ascontiguousarray(centres, dtype=dtype))
    totals = np.zeros((n_sets, len(cuts) - 1, n_features, n_features), dtype=dtype)
    with blas_limit(1):   # the OpenMP threads make the BLAS calls
        weighted_scatter_slots(X, roots, centres, bool(ones_column), block_rows, cuts, totals,
                               n_threads)
    # each slot's total is column-major: its transpose holds the upper triangle
    slots = totals.swapaxes(2, 3)
    total = slots[:, 0].copy()
    for s in range(1, slots.shape[1]):
        total += slots[:, s]
    return _from_upper(total)


def mean_and_scatter(X, *, n_threads=1):
    r"""The mean :math:`\mu` and the centred scatter matrix
    :math:`S = \sum_i (x_i - \mu)(x_i - \mu)^\top` of the rows of ``X``, in one pass over ``X``.

    Each block, shifted by a provisional centre (the first block's mean), is centred on its own
    mean while it is in the cache and added by a symmetric rank-k update; blocks, then the slots
    of :func:`~kernelkit.utils._threads.fold_row_blocks`, are merged by the pairwise update of
    Chan, Golub & LeVeque ("Algorithms for computing the sample variance", Am. Stat. 37, 1983):

    .. math::

        S_{AB} = S_A + S_B + \frac{n_A n_B}{n_A + n_B} \delta\delta^\top, \quad
        \mu_{AB} = \mu_A + \frac{n_B}{n_A + n_B}\delta, \quad \delta = \mu_B - \mu_A.

    Every product is of centred rows and every difference of means is on the scale of the
    spread, so the accuracy is that of a centred copy of ``X`` (no cancellation of
    :math:`X^\top X - n\mu\mu^\top`, which loses about :math:`\log_{10}(\mu^2/\sigma^2)`
    digits), without the copy and without a separate pass for the mean. The merge order depends only on ``n_samples``, so the result does not
    depend on ``n_threads``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        float64 or float32 (the products run in that precision), C-contiguous, n_samples ≥ 1.
    n_threads : int, default=1

    Returns
    -------
    mean : ndarray of shape (n_features,)
    S : ndarray of shape (n_features, n_features)
        Symmetric, of ``X``'s dtype.
    """
    n_samples, n_features = X.shape
    dtype = X.dtype
    block_rows = _block_rows(n_samples, n_features)
    # column means as products with a vector of ones (BLAS gemv): NumPy's mean over axis 0
    # costs as much as the rank-k update on narrow data
    ones = np.ones(block_rows, dtype=dtype)   # block_rows <= n_samples (_block_rows)
    # a provisional centre near the data (the first block's mean): the blocks' means and their
    # differences are then taken on the scale of the spread, not of the mean itself
    centre = (ones @ X[:block_rows]) / block_rows

    def fold(state, start, stop):
        n_block = stop - start
        if state is None:
            state = (0, None, np.zeros((n_features, n_features), dtype=dtype),
                     np.empty((block_rows, n_features), dtype=dtype))
        count, mean, total, buffer = state
        block = np.subtract(X[start:stop], centre, out=buffer[:n_block])
        block_mean = (ones[:n_block] @ block) / n_block
        if count:
            count, mean, total = _merge_means((count, mean, total), n_block, block_mean)
        else:
            count, mean = n_block, block_mean
        if start:
            block -= block_mean
        # NumPy's blockᵀ block is a symmetric rank-k update (``syrk``) of NumPy's BLAS, whose
        # kernels for narrow blocks are faster than those behind scipy.linalg's (100 000 x 20 on
        # one thread: 3.8 ms against 6.2 ms for the whole product, quiet)
        total += block.T @ block
        if not start:
            # the first block is centred on its own mean, up to that mean's rounding: the
            # correction −n δδᵀ is exact and saves a pass over the block
            total -= n_block * np.outer(block_mean, block_mean)
        return count, mean, total, buffer

    states = fold_row_blocks(fold, n_samples, block_rows, n_threads)
    count, mean, total = states[0][:3]
    for other in states[1:]:
        total += other[2]
        count, mean, total = _merge_means((count, mean, total), other[0], other[1])
    # symmetric: every term is a product NumPy mirrors or an outer product δδᵀ
    return centre + mean, total


def _merge_means(left, n_right, mean_right):
    """``(n, μ, S)`` of the rows of ``left = (n_A, μ_A, S)`` and of ``n_right`` rows of mean
    ``mean_right``: ``S`` gains the update term of the two means, in place."""
    n_left, mean_left, total = left
    n = n_left + n_right
    delta = mean_right - mean_left
    total += (n_left * n_right / n) * np.outer(delta, delta)
    return n, mean_left + (n_right / n) * delta, total


def row_block_product(X, M, *, shift=None, n_threads=1):
    """``(X − 1cᵀ) M``, computed as ``X M − 1 (cᵀ M)`` row block by row block.

    Each block's product is one BLAS call on one thread, the blocks shared by ``n_threads``
    threads (:func:`~kernelkit.utils._threads.fold_row_blocks`), which writes the rows of the
    result in place: no team of BLAS threads to stall when another process keeps a core busy.
    The result does not depend on ``n_threads``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    M : ndarray of shape (n_features, n_columns)
    shift : ndarray of shape (n_features,), default=None
        The centre :math:`c`; None for 0.
    n_threads : int, default=1

    Returns
    -------
    product : ndarray of shape (n_samples, n_columns)
    """
    M = np.asarray(M, dtype=X.dtype)
    product = np.empty((X.shape[0], M.shape[1]), dtype=X.dtype)
    offset = None if shift is None else shift @ M

    def fold(state, start, stop):
        rows = product[start:stop]
        np.matmul(X[start:stop], M, out=rows)
        if offset is not None:
            rows -= offset
        return state

    fold_row_blocks(fold, X.shape[0], max(1, _PRODUCT_BLOCK_ELEMENTS // max(X.shape[1], 1)),
                    n_threads)
    return product
