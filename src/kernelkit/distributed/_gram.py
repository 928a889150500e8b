"""Tiled Gram matrices of string and graph kernels: one Dask task per tile.

The kernel's data-dependent state (alphabet, label codes, WL signature tables, the rescaling
threshold of local alignment) is fitted once, on the client, on all the objects; every tile is
then ``kernel._block(rows, cols)`` of that fitted kernel (see
:meth:`kernelkit.kernels.StructuredKernel._block`), which equals the same entries of the
in-process Gram bit for bit. Objects travel as packed arrays
(:class:`kernelkit.kernels.PackedSequences`, :class:`kernelkit.kernels.PackedGraphs`), one
block per row or column range, so that a tile task receives two blocks and a kernel without its
training representation.
"""

import copy
import math
import os
import time
from numbers import Integral, Real

import dask
import dask.array as da
import numpy as np
import zarr
from dask.sizeof import sizeof
from sklearn.base import clone
from sklearn.utils import get_tags

from kernelkit.kernels import PackedGraphs, PackedSequences, StructuredKernel
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._sklearn_compat import Interval, validate_params
from kernelkit.utils._threads import effective_n_threads
from kernelkit.utils._validation import check_memory_request

__all__ = ["gram", "plan_tile"]

# A tile of float64 stays below this size (a task's result or write).
_MAX_TILE_BYTES = 128 << 20
# At least this many tiles per worker thread, so that the last wave of tasks is short.
_MIN_TILES_PER_THREAD = 4
_MAX_TASKS = 100_000
_PILOT_SIZE = 64


# exact sizes for the scheduler's memory accounting (sys.getsizeof adds the GC header);
# tokens come from the classes' __dask_tokenize__
@sizeof.register((PackedSequences, PackedGraphs))
def _sizeof_packed(packed):
    return packed.__sizeof__()


def _pack(kernel, X):
    if isinstance(X, (PackedSequences, PackedGraphs)):
        return X
    if get_tags(kernel).input_tags.string:
        return PackedSequences.from_sequences(X)
    return PackedGraphs.from_graphs(X, node_label=getattr(kernel, "node_label", "label"),
                                    edge_label=getattr(kernel, "edge_label", None))


def _fit(kernel, X, Y, inner_threads):
    """The kernel fitted as the in-process computation fits it, and the diagonals it divides
    by under ``normalize`` (None otherwise)."""
    params = {"n_jobs": inner_threads}
    if "verbose" in kernel.get_params():
        params["verbose"] = 0
    fitted = clone(kernel).set_params(**params)
    if Y is None:
        fitted.fit(X)
        diag_rows = diag_cols = getattr(fitted, "diag_fit_", None)
    else:
        fitted = fitted._for_pair(X, Y).fit(Y)
        fitted._cover(X)
        diag_cols = getattr(fitted, "diag_fit_", None)
        diag_rows = fitted._block_diagonal(X) if fitted.normalize else None
    return fitted, diag_rows, diag_cols


def _slice(values, start, stop):
    return None if values is None else values[start:stop]


def _compute_tile(kernel, rows, cols, diag_rows, diag_cols, dtype, where):
    """One tile (``cols`` None: a symmetric diagonal tile), validated."""
    with blas_limit(effective_n_threads(kernel.n_jobs)):
        K = kernel._block(rows, cols, diag_rows, diag_cols)
    if not np.all(np.isfinite(K)):
        raise ValueError(f"The Gram tile {where} of {type(kernel).__name__} has NaN or infinite "
                         "values; check the kernel's parameters (overflow) and the input.")
    if cols is None and not np.array_equal(K, K.T):
        raise ValueError(f"The diagonal Gram tile {where} of {type(kernel).__name__} is not "
                         "symmetric.")
    return K.astype(dtype, copy=False)


def _write_tile(array, kernel, rows, cols, diag_rows, diag_cols, region, mirror):
    """Compute one tile into a Zarr array, unless it (and its mirror) is already there."""
    done = np.all(np.isfinite(array[region]))
    if done and mirror is not None:
        done = np.all(np.isfinite(array[mirror]))
    if done:
        return False
    K = _compute_tile(kernel, rows, cols, diag_rows, diag_cols, array.dtype, region)
    array[region] = K
    if mirror is not None:
        array[mirror] = K.T
    return True


def _n_threads(client):
    if client is not None:
        return max(1, sum(client.nthreads().values()))
    return os.cpu_count() or 1


_POSITIVE_INTEGER = [Interval(Integral, 1, None, closed="left")]
_POSITIVE_SECONDS = [Interval(Real, 0, math.inf, closed="neither")]   # NaN and inf refused


@validate_params(
    {"n_rows": _POSITIVE_INTEGER, "n_cols": _POSITIVE_INTEGER,
     "seconds_per_pair": [Interval(Real, 0, math.inf, closed="left")],
     "symmetric": ["boolean"], "n_threads": _POSITIVE_INTEGER,
     "target_seconds": _POSITIVE_SECONDS, "itemsize": _POSITIVE_INTEGER},
    prefer_skip_nested_validation=True,
)
def plan_tile(n_rows, n_cols, seconds_per_pair, *, symmetric, n_threads, target_seconds=10.0,
              itemsize=8):
    """Side of the square tiles: about ``target_seconds`` of work each, within the limits.

    Parameters
    ----------
    n_rows, n_cols : int
    seconds_per_pair : float
        Measured cost of one kernel value (a pilot tile's time over its pairs).
    symmetric : bool
        Only the upper tiles are computed.
    n_threads : int
        Worker threads of the cluster.
    target_seconds : float
    itemsize : int

    Returns
    -------
    int
        Tiles are at most 128 MiB, at least 4 per worker thread when the matrix allows it, and
        at most 10⁵ tasks (which wins over the others).
    """
    side = math.sqrt(target_seconds / max(seconds_per_pair, 1e-12))
    side = min(side, math.sqrt(_MAX_TILE_BYTES / itemsize))
    pairs = n_rows * n_cols / (2.0 if symmetric else 1.0)
    side = min(side, math.sqrt(pairs / (_MIN_TILES_PER_THREAD * n_threads)))
    side = max(side, math.sqrt(pairs / _MAX_TASKS))
    return int(max(1, min(round(side), max(n_rows, n_cols))))


def _pilot(fitted, X, Y, diag_rows, diag_cols):
    """Seconds per kernel value, measured on the first objects."""
    p = min(_PILOT_SIZE, len(X))
    q = p if Y is None else min(_PILOT_SIZE, len(Y))
    start = time.perf_counter()
    if Y is None:
        fitted._block(X[:p], None, _slice(diag_rows, 0, p))
    else:
        fitted._block(X[:p], Y[:q], _slice(diag_rows, 0, p), _slice(diag_cols, 0, q))
    return (time.perf_counter() - start) / (p * q)


def _bounds(n, side):
    return list(range(0, n, side)) + [n]


def _open_store(store, shape, tile, dtype, symmetric):
    if isinstance(store, zarr.Array):
        array = store
        if array.shape != shape:
            raise ValueError(f"store has shape {array.shape}; the Gram matrix is {shape}.")
        if symmetric and array.chunks[0] != array.chunks[1]:
            raise ValueError(f"a symmetric Gram needs square Zarr chunks, got {array.chunks}.")
        return array, array.chunks[0]
    array = zarr.open_array(os.fspath(store), mode="a", shape=shape, chunks=(tile, tile),
                            dtype=dtype, fill_value=np.nan)
    if array.shape != shape or array.dtype != np.dtype(dtype):
        raise ValueError(f"the Zarr store {store!r} holds a {array.shape} {array.dtype} array; "
                         f"this Gram matrix is {shape} {np.dtype(dtype)}: use another path.")
    return array, array.chunks[0]


def gram(kernel, X, Y=None, *, client=None, tile="auto", target_seconds=10, store=None,
         dtype="float64", retries=2, inner_threads=1):
    """Gram matrix ``K(X, Y)`` of a string or graph kernel, computed tile by tile with Dask.

    Each tile is one task: ``kernel`` fitted once here on all the objects (``Y`` if given, as
    ``kernel.fit(Y).transform(X)``), then ``K[rows, cols]`` computed on a worker, equal bit for
    bit to the same entries of the in-process Gram (``kernel.fit_transform(X)``, or
    ``pairwise_structured_kernel(kernel, X, Y)``). Symmetric case (``Y`` None): only the upper
    tiles are computed, the lower ones are their transposes. With ``normalize=True`` the
    diagonals are computed first and each tile gets its two slices.

    Parameters
    ----------
    kernel : StructuredKernel
        A string or graph kernel of :mod:`kernelkit.kernels` (unfitted; it is cloned).
    X, Y : sequence of objects, PackedSequences or PackedGraphs
        Other sequences are packed first.
    client : distributed.Client, default=None
        Where to run (its threads size the tiles); None uses Dask's current scheduler.
    tile : "auto" or int, default="auto"
        Side of the square tiles. "auto" times a pilot tile and aims at ``target_seconds`` per
        tile, within 128 MiB per tile, at least 4 tiles per worker thread and at most 10⁵
        tasks (:func:`plan_tile`). With a Zarr array as ``store``, its chunks are the tiles.
        A tile (in float64, and its copy in ``dtype``) must fit in memory.
    target_seconds : float, default=10
    store : str, path or zarr.Array, default=None
        None returns a lazy ``dask.array`` whose chunks are the tiles. Otherwise the workers
        write the tiles straight into this Zarr array (created with NaN fill if it is a path),
        nothing passes through the client, and ``dask.array.from_zarr`` of it is returned.
        Rerunning on the same store computes only the tiles not yet written (resume).
    dtype : str, default="float64"
        Of the result (tiles are computed in float64).
    retries : int, default=2
        Retries of a failed tile task (e.g. a lost worker).
    inner_threads : int, default=1
        Threads of each tile's compiled core (and BLAS): the cluster's parallelism comes from
        its workers, so one thread per task avoids oversubscription. At most the usable CPUs.

    Returns
    -------
    dask.array.Array of shape (len(X), len(Y or X))

    Examples
    --------
    >>> from kernelkit.distributed import gram
    >>> from kernelkit.kernels import SpectrumKernel
    >>> K = gram(SpectrumKernel(k=2), ["ACGT", "GATTACA", "CAT"], tile=2)
    >>> K.chunks
    ((2, 1), (2, 1))
    >>> K.compute(scheduler="sync")[1]
    array([1., 6., 2.])
    """
    if not isinstance(kernel, StructuredKernel):
        raise TypeError(f"kernel must be a string or graph kernel of kernelkit.kernels, got "
                        f"{type(kernel).__name__}.")
    if not (tile == "auto" or isinstance(tile, (int, np.integer)) and tile >= 1):
        raise ValueError(f"tile must be 'auto' or a positive integer, got {tile!r}.")
    if isinstance(retries, bool) or not isinstance(retries, (int, np.integer)) or retries < 0:
        raise ValueError(f"retries must be a non-negative integer, got {retries!r}.")
    if not isinstance(inner_threads, (int, np.integer)) or inner_threads < 1:
        raise ValueError(f"inner_threads must be a positive integer, got {inner_threads!r}.")
    # more threads than CPUs would only ask the runtimes for threads they cannot create
    inner_threads = effective_n_threads(int(inner_threads))
    if (isinstance(target_seconds, bool) or not isinstance(target_seconds, Real)
            or not 0 < target_seconds < math.inf):
        raise ValueError(f"target_seconds must be a positive number of seconds, got "
                         f"{target_seconds!r}.")
    dtype = np.dtype(dtype)
    X = _pack(kernel, X)
    Y = None if Y is None else _pack(kernel, Y)
    symmetric = Y is None
    cols_data = X if symmetric else Y
    shape = (len(X), len(cols_data))
    fitted, diag_rows, diag_cols = _fit(kernel, X, Y, inner_threads)
    if isinstance(store, zarr.Array):
        side = store.chunks[0]
    elif tile == "auto":
        side = plan_tile(*shape, _pilot(fitted, X, Y, diag_rows, diag_cols),
                         symmetric=symmetric, n_threads=_n_threads(client),
                         target_seconds=target_seconds, itemsize=8)
    else:
        # a tile larger than the matrix is the whole matrix (and a Zarr chunk that large
        # would be allocated in full on the first write)
        side = min(int(tile), max(shape))
    # what the tasks need: the fitted state without the training representation
    light = copy.copy(fitted)
    light.X_fit_ = None
    if hasattr(light, "diag_fit_"):
        light.diag_fit_ = None
    row_bounds, col_bounds = _bounds(shape[0], side), _bounds(shape[1], side)
    if store is not None:
        array, side = _open_store(store, shape, side, dtype, symmetric)
        row_bounds, col_bounds = _bounds(shape[0], side), _bounds(shape[1], side)
    # one tile in float64 and its copy in dtype (a Zarr write holds the whole chunk)
    check_memory_request((8.0 + dtype.itemsize) * min(side, shape[0]) * min(side, shape[1]),
                         f"gram(tile={tile!r}) with tiles of side {side} of a "
                         f"{shape[0]} × {shape[1]} Gram matrix",
                         "pass a smaller tile (or tile='auto'), or a Zarr store with smaller "
                         "chunks.")
    with dask.annotate(retries=retries):
        kernel_d = dask.delayed(light, pure=True)
        row_blocks = [dask.delayed(X[a:b], pure=True)
                      for a, b in zip(row_bounds[:-1], row_bounds[1:])]
        col_blocks = row_blocks if symmetric else [
            dask.delayed(Y[a:b], pure=True) for a, b in zip(col_bounds[:-1], col_bounds[1:])]
        if store is not None:
            return _to_store(array, kernel_d, row_blocks, col_blocks, row_bounds, col_bounds,
                             diag_rows, diag_cols, symmetric, client, retries)
        return _lazy(kernel_d, row_blocks, col_blocks, row_bounds, col_bounds, diag_rows,
                     diag_cols, symmetric, dtype)


def _tile_arguments(i, j, row_bounds, col_bounds, row_blocks, col_blocks, diag_rows, diag_cols,
                    symmetric):
    a, b = row_bounds[i], row_bounds[i + 1]
    c, d = col_bounds[j], col_bounds[j + 1]
    on_diagonal = symmetric and i == j
    return (row_blocks[i], None if on_diagonal else col_blocks[j], _slice(diag_rows, a, b),
            None if on_diagonal else _slice(diag_cols, c, d))


def _lazy(kernel_d, row_blocks, col_blocks, row_bounds, col_bounds, diag_rows, diag_cols,
          symmetric, dtype):
    compute = dask.delayed(_compute_tile, pure=True)
    tiles = {}
    rows = []
    for i in range(len(row_bounds) - 1):
        row = []
        for j in range(len(col_bounds) - 1):
            shape = (row_bounds[i + 1] - row_bounds[i], col_bounds[j + 1] - col_bounds[j])
            if symmetric and j < i:
                row.append(tiles[j, i].T)
                continue
            args = _tile_arguments(i, j, row_bounds, col_bounds, row_blocks, col_blocks,
                                   diag_rows, diag_cols, symmetric)
            tiles[i, j] = da.from_delayed(compute(kernel_d, *args, dtype, (i, j)), shape,
                                          dtype=dtype)
            row.append(tiles[i, j])
        rows.append(row)
    return da.block(rows)


def _to_store(array, kernel_d, row_blocks, col_blocks, row_bounds, col_bounds, diag_rows,
              diag_cols, symmetric, client, retries):
    write = dask.delayed(_write_tile, pure=False)
    writes = []
    for i in range(len(row_bounds) - 1):
        for j in range(i if symmetric else 0, len(col_bounds) - 1):
            region = (slice(row_bounds[i], row_bounds[i + 1]),
                      slice(col_bounds[j], col_bounds[j + 1]))
            mirror = region[::-1] if symmetric and j > i else None
            args = _tile_arguments(i, j, row_bounds, col_bounds, row_blocks, col_blocks,
                                   diag_rows, diag_cols, symmetric)
            writes.append(write(array, kernel_d, *args, region, mirror))
    if client is not None:
        client.gather(client.compute(writes, retries=retries))
    else:
        dask.compute(*writes)
    return da.from_zarr(array)
