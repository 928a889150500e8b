"""Input checks shared by the estimators, beyond scikit-learn's ``validate_data``."""

import os
import warnings
from itertools import chain
from math import inf
from operator import attrgetter

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError
from sklearn.utils import assert_all_finite
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from kernelkit._core._csr_blocks import block_diagonal_csr
from kernelkit._core._sum_of_squares import sum_of_squares

__all__ = ["MAX_INT", "available_memory", "check_class_labels", "check_distance_scale",
           "check_finite_result", "check_fit_params", "check_memory_request", "check_sparse_input",
           "kernel_cache_megabytes", "record_fit_params", "validate_distance_data",
           "warn_long_factorisation"]

# Upper bound of every integer hyper-parameter: larger Python ints pass an unbounded
# ``Interval(Integral, ...)`` and then overflow when they reach the compiled cores.
MAX_INT = int(np.iinfo(np.intp).max)

# Requests up to this size are not checked: reading the limits would cost more than the work of
# most fits, and any process that runs Python has this much to spare.
_SMALL_REQUEST = 2**24


def check_class_labels(y):
    """scikit-learn's ``check_classification_targets`` for a validated 1-d ``y``, with a fast
    path for the usual integer, boolean and integral float labels.

    The general check costs ~0.25 ms a call (it infers the target type through several array
    conversions), as much as a whole SVM fit on a 100 × 100 Gram matrix; integer, boolean and
    finite integral float labels are exactly the ones it accepts as "binary"/"multiclass".
    """
    y = np.asarray(y)
    if y.ndim == 1 and y.dtype.kind in "biu":
        return
    # integral floats within int64's range (scikit-learn compares y with y.astype(int))
    if (y.ndim == 1 and y.dtype.kind == "f" and np.all(np.abs(y) < 2.0**62)
            and np.all(y == np.round(y))):
        return
    check_classification_targets(y)


def check_distance_scale(X, name="X"):
    """Raise a ValueError when squared distances between rows of ``X`` could overflow float64.

    ``‖x − y‖² ≤ 4 · n_features · max|x|²``; finite inputs near the float64 maximum (1e154 and
    beyond) make distances, inner products and variances infinite, and the algorithms would
    return NaN or garbage silently.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite, validated.
    name : str
    """
    if X.size == 0:
        return
    # the extremes, not max(|X|): no temporary copy of X
    largest = max(abs(float(X.max())), abs(float(X.min())))
    if largest > np.sqrt(np.finfo(np.float64).max / (4.0 * X.shape[1])):
        raise ValueError(
            f"{name} has entries as large as {largest:.3g}: squared norms and distances overflow "
            "float64. Rescale the features (e.g. sklearn.preprocessing.StandardScaler)."
        )


def validate_distance_data(estimator, X, y="no_validation", **check_params):
    """scikit-learn's ``validate_data`` for samples whose Euclidean distances an estimator takes:
    ``X`` finite and of a scale :func:`check_distance_scale` accepts, both decided by one pass.

    ``X · X`` (``kernelkit._core._sum_of_squares``, one pass on the calling thread) is NaN or
    infinite when an entry is, and bounds ``max|x|²`` from above; when it is within
    ``check_distance_scale``'s bound, both checks pass. Otherwise (a non-finite entry, or a sum
    of squares beyond ``1.8e308 / (4d)``) the exact checks run and raise their usual messages.
    One pass instead of three (scikit-learn's finiteness sum, then the maximum and the minimum
    of ``check_distance_scale``).

    Parameters
    ----------
    estimator : estimator instance
    X : array-like of shape (n_samples, n_features)
        Dense.
    y : array-like, default="no_validation"
        As in ``validate_data``.
    **check_params
        ``validate_data``'s other arguments, except ``ensure_all_finite``.

    Returns
    -------
    X, or (X, y) when ``y`` is validated too, as ``validate_data``.
    """
    out = validate_data(estimator, X, y, ensure_all_finite=False, **check_params)
    no_y = y is None or (isinstance(y, str) and y == "no_validation")
    X = out if no_y else out[0]
    contiguous = X.flags.c_contiguous or X.flags.f_contiguous
    if contiguous and X.size and X.dtype in (np.float32, np.float64):
        bound = np.finfo(np.float64).max / (4.0 * max(X.shape[1], 1))
        if sum_of_squares(X.reshape(-1, order="A")) <= bound:   # a view: X is contiguous
            return out
    assert_all_finite(X, estimator_name=type(estimator).__name__, input_name="X")
    check_distance_scale(X)
    return out


def check_finite_result(values, what):
    """Raise a ValueError when a computed array (dense, or a sparse matrix's stored values)
    holds inf or NaN: finite inputs whose products overflow the float type.

    Parameters
    ----------
    values : ndarray or sparse matrix
    what : str
        What was computed, for the message (e.g. ``"X @ components_.T"``).
    """
    data = values.data if sp.issparse(values) else values
    if not np.isfinite(data).all():
        raise ValueError(
            f"{what} overflows {np.asarray(data).dtype}: the input's entries are too large "
            "for this computation. Rescale the features (e.g. "
            "sklearn.preprocessing.StandardScaler)."
        )


def check_sparse_input(X, name="X", *, canonical=False):
    """``X`` unchanged if it is not a scipy.sparse matrix or array; else ``X`` checked
    structurally and returned as CSR in the layout the compiled cores read.

    scipy reads a sparse matrix's index arrays without bounds checks (its products and format
    conversions), as do the cores, and neither scipy's constructors nor scikit-learn's
    ``validate_data`` check their contents: a column index beyond the matrix or a decreasing
    ``indptr`` reads and writes out of bounds. This check comes before any of them, so it
    reads only what the format says exists. For a compressed matrix (CSR; CSC and BSR with
    the roles of the axes or blocks swapped) with ``n_major`` rows and ``n_minor`` columns:

    * ``data``, ``indices`` and ``indptr`` are 1-d (BSR ``data`` is ``(n_blocks, R, C)``), and
      the index arrays hold integers;
    * ``len(indptr) == n_major + 1``, ``indptr[0] == 0`` and ``indptr`` never decreases;
    * ``len(indices) == len(data) >= indptr[-1]`` (entries beyond ``indptr[-1]`` are unused
      storage, which scipy allows and drops);
    * ``0 <= indices[k] < n_minor`` for every stored entry ``k < indptr[-1]``.

    A COO matrix has coordinate arrays as long as ``data``, each within its axis; LIL, DOK and
    DIA hold Python-level or range-masked structures and are checked after their conversion to
    CSR. The cost is a few passes over the index arrays, O(nnz + n_rows), no Python loop.

    The CSR result has contiguous ``data``, ``indices`` and ``indptr``, its index arrays of one
    dtype: int32 when every index and ``nnz`` fit, else int64 (scipy's own choice, so uint32,
    int64 or uint64 indices are converted; no value can overflow, the bounds above hold them
    under ``n_columns``). It shares the arrays of ``X`` where they already have that layout,
    and is a sparse array or matrix as ``X`` is. ``data`` keeps its dtype (``validate_data``
    converts it).

    Parameters
    ----------
    X : object
        Any input; only scipy.sparse ones are checked.
    name : str, default="X"
        The parameter, for messages.
    canonical : bool, default=False
        Also sum duplicate entries and sort each row's indices (a copy when needed, never in
        place), for cores that assume one entry per position.

    Returns
    -------
    X : object
        ``X`` itself, or the checked CSR matrix.

    Raises
    ------
    ValueError
        When the structure is inconsistent; the message names ``name``, the array and the entry.
    TypeError
        When an index array does not hold integers.
    """
    if not sp.issparse(X):
        return X
    if X.ndim != 2:
        raise ValueError(f"{name} is a {X.ndim}-d sparse array; a 2-d matrix is expected.")
    if X.format not in ("csr", "csc", "bsr", "coo"):
        X = X.tocsr()  # LIL, DOK, DIA: conversions that index by nothing they store
    if X.format == "coo":
        arrays = _checked_coo_arrays(X, name)
    else:
        arrays = _checked_compressed_arrays(X, name)
    if X.format != "csr" or any(new is not old for new, old in
                                zip(arrays, (X.data, X.indices, X.indptr))):
        kind = "array" if isinstance(X, sp.sparray) else "matrix"
        X = getattr(sp, f"{X.format}_{kind}")(arrays, shape=X.shape, copy=False).tocsr()
    if canonical and not X.has_canonical_format:
        X = X.copy()
        X.sum_duplicates()
    return X


def checked_csr_arrays(X, name="X"):
    """``(data, indices, indptr)`` of the sparse ``X`` as :func:`check_sparse_input` with
    ``canonical=True`` gives them, without building a new matrix when ``X`` is already a
    canonical CSR (for readers that take the arrays only, once per small matrix: a scipy
    constructor per graph cost as much as the rest of reading a graph)."""
    if X.format == "csr" and X.ndim == 2:  # (scipy has 1-d CSR arrays too)
        arrays = _checked_compressed_arrays(X, name)
        if X.has_canonical_format:   # read only after the check: the indices are in range
            return arrays
    X = check_sparse_input(X, name, canonical=True)
    return X.data, X.indices, X.indptr


def block_diagonal_csr_arrays(matrices):
    """The block-diagonal matrix of the sparse ``matrices`` as CSR arrays, each block as
    :func:`checked_csr_arrays` gives it, or None when one of them fails its checks
    (:func:`checked_csr_arrays` of each then names it and the problem).

    The checks of :func:`check_sparse_input` on every CSR matrix at once: one compiled pass
    over the concatenation of their arrays (``_core/_csr_blocks.pyx``), each index checked
    against the bound of its own matrix, instead of a dozen numpy calls per matrix (which cost
    more than the reading itself of many small matrices). A matrix in another format, or not in
    canonical form (unsorted indices, duplicates, unused storage), is converted by
    :func:`checked_csr_arrays` first.

    Parameters
    ----------
    matrices : sequence of scipy.sparse matrices or arrays
        At least one.

    Returns
    -------
    shapes : ndarray of shape (n_blocks, 2), int64
    indptr : ndarray of shape (sum of n_rows + 1,), int64
    indices : ndarray of shape (nnz,), int64
        Column indices, each block's shifted by the columns of the blocks before it.
    data : ndarray of shape (nnz,)
        The stored values, in the dtype the matrices' dtypes promote to (which keeps every
        value zero or not, finite or not).
    rows : ndarray of shape (nnz,), int64
        The row of each entry.
    """
    parts = [(X.indptr, X.indices, X.data) if type(X) in _CSR_TYPES else None
             for X in matrices]
    converted = np.zeros(len(parts), dtype=bool)
    to_convert = [i for i, arrays in enumerate(parts) if arrays is None]
    while True:
        for i in to_convert:
            parts[i] = _canonical_csr_arrays(matrices[i])
            if parts[i] is None:
                return None
        converted[to_convert] = True  # as checked_csr_arrays gives them: not checked again
        arrays = _concatenated_csr(matrices, parts, converted)
        if not isinstance(arrays, list):
            return arrays
        to_convert = arrays


_CSR_TYPES = frozenset((sp.csr_array, sp.csr_matrix))
_dtype_of = attrgetter("dtype")


def _canonical_csr_arrays(X):
    """``(indptr, indices, data)`` of :func:`checked_csr_arrays`, or None when it raises."""
    try:
        data, indices, indptr = checked_csr_arrays(X)
    except (TypeError, ValueError, IndexError):
        return None
    return indptr, indices, data


def _concatenated_csr(matrices, parts, converted):
    """:func:`block_diagonal_csr_arrays` of the CSR arrays ``parts`` of ``matrices``; None when
    one is malformed; else the list of the blocks not ``converted`` yet that need converting
    (unused storage, unsorted or duplicate indices), if any."""
    n_blocks = len(parts)
    shapes = [X.shape for X in matrices]
    indptrs, indices, data = zip(*parts)
    if set(map(len, shapes)) != {2} or not {
            dtype.kind for dtype in {*map(_dtype_of, indptrs), *map(_dtype_of, indices)}
    } <= set("iu") or not {dtype.kind for dtype in set(map(_dtype_of, data))} <= set("biufc"):
        return None
    try:
        indptr, index, values = (np.concatenate(arrays) for arrays in (indptrs, indices, data))
    except ValueError:  # arrays of different or no dimensions
        return None
    if not indptr.ndim == index.ndim == values.ndim == 1:
        return None
    # each block's rows, columns and the lengths of its three arrays
    blocks = np.fromiter(chain.from_iterable(
        (*shape, len(p), len(i), len(d)) for shape, p, i, d in zip(shapes, indptrs, indices, data)
    ), dtype=np.int64, count=5 * n_blocks).reshape(n_blocks, 5)
    # int64 values: an unsigned value beyond int64 wraps negative, and fails a check
    indptr, index = indptr.astype(np.int64, copy=False), index.astype(np.int64, copy=False)
    if len(indptr) < n_blocks:   # a block without row pointers
        return None
    # (a row pointer per row and one, when the blocks are well formed)
    row_ptr = np.empty(len(indptr) - n_blocks + 1, dtype=np.int64)
    rows, cols = np.empty(len(index), dtype=np.int64), np.empty(len(index), dtype=np.int64)
    convert = np.empty(n_blocks, dtype=np.uint8)
    verdict = block_diagonal_csr(indptr, index, blocks, converted.view(np.uint8), row_ptr, rows,
                                 cols, convert)
    if verdict == 1:
        return None
    if verdict == 2:
        return np.flatnonzero(convert).tolist()
    return blocks[:, :2], row_ptr, cols, values, rows


def _malformed(name, X, problem):
    return ValueError(
        f"{name} is a malformed {X.format.upper()} sparse matrix of shape {X.shape}: {problem}. "
        f"Build it from consistent arrays (scipy.sparse.{X.format}_array(..., shape=...)) or "
        "from a dense array.")


def _index_array(X, name, field):
    """``X.<field>`` as a 1-d integer array, or a TypeError/ValueError naming it."""
    values = np.asarray(getattr(X, field))
    if values.dtype.kind not in "iu":
        raise TypeError(f"{name} is a sparse matrix whose {field} array has dtype "
                        f"{values.dtype}: the index arrays of a sparse matrix hold integers.")
    if values.ndim != 1:
        raise _malformed(name, X, f"{field} is {values.ndim}-d, not 1-d")
    return values


def _core_index_dtype(X, n_stored):
    """int32 when every index and count of ``X`` fits, else int64 (scipy's rule)."""
    fits = max(*X.shape, n_stored) <= np.iinfo(np.int32).max
    return np.int32 if fits else np.int64


def _checked_compressed_arrays(X, name):
    """``(data, indices, indptr)`` of a checked CSR/CSC/BSR ``X``, trimmed to its stored entries,
    contiguous, with indices of the cores' dtype."""
    indptr, indices = _index_array(X, name, "indptr"), _index_array(X, name, "indices")
    data = np.asarray(X.data)
    blocks = X.blocksize if X.format == "bsr" else (1, 1)
    axes = ("row", "column") if X.format != "csc" else ("column", "row")
    n_major, n_minor = (X.shape[0] // blocks[0], X.shape[1] // blocks[1])
    if X.format == "csc":
        n_major, n_minor = n_minor, n_major
    if data.ndim != (3 if X.format == "bsr" else 1):
        raise _malformed(name, X, f"data is {data.ndim}-d")
    unit = "block " if X.format == "bsr" else ""
    if indptr.size != n_major + 1:
        raise _malformed(name, X, f"indptr has {indptr.size} entries; {n_major} {unit}"
                                  f"{axes[0]}s need {n_major + 1}")
    if indptr[0] != 0:
        raise _malformed(name, X, f"indptr[0] is {indptr[0]}, not 0")
    # a decrease is found by comparing neighbours (no np.diff: unsigned arrays would wrap)
    drops = np.flatnonzero(indptr[1:] < indptr[:-1])
    if drops.size:
        i = int(drops[0])
        raise _malformed(name, X, f"indptr decreases at {unit}{axes[0]} {i} (indptr[{i}] = "
                                  f"{indptr[i]} > indptr[{i + 1}] = {indptr[i + 1]})")
    if indices.size != data.shape[0]:
        raise _malformed(name, X, f"indices has {indices.size} entries and data "
                                  f"{data.shape[0]}; they must have the same length")
    n_stored = int(indptr[-1])
    if n_stored > indices.size:
        raise _malformed(name, X, f"indptr[-1] = {n_stored} exceeds the {indices.size} "
                                  "entries indices and data hold")
    if n_stored < indices.size:
        data, indices = data[:n_stored], indices[:n_stored]
    _check_index_range(X, name, "indices", indices, n_minor, f"{unit}{axes[1]}")
    dtype = _core_index_dtype(X, n_stored)
    return (np.ascontiguousarray(data), np.ascontiguousarray(indices, dtype=dtype),
            np.ascontiguousarray(indptr, dtype=dtype))


def _checked_coo_arrays(X, name):
    """``(data, (row, col))`` of a checked COO ``X``, contiguous, of the cores' index dtype."""
    data = np.asarray(X.data)
    coords = [_index_array(X, name, field) for field in ("row", "col")]
    if data.ndim != 1:
        raise _malformed(name, X, f"data is {data.ndim}-d")
    if not coords[0].size == coords[1].size == data.size:
        raise _malformed(name, X, f"row, col and data have {coords[0].size}, "
                                  f"{coords[1].size} and {data.size} entries; they must have "
                                  "the same length")
    for field, values, bound in zip(("row", "col"), coords, X.shape):
        _check_index_range(X, name, field, values, bound, field.replace("col", "column"))
    dtype = _core_index_dtype(X, data.size)
    return (np.ascontiguousarray(data),
            tuple(np.ascontiguousarray(values, dtype=dtype) for values in coords))


def _check_index_range(X, name, field, values, bound, axis):
    """Raise when an entry of ``values`` lies outside ``[0, bound)``."""
    if not values.size:
        return
    low, high = values.min(), values.max()
    if low < 0 or high >= bound:
        k = int(np.flatnonzero((values < 0) | (values >= bound))[0])
        raise _malformed(name, X, f"{field}[{k}] = {values[k]} is not a {axis} index in "
                                  f"[0, {bound})")


def _physical_memory():
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):     # not POSIX: assume a large machine
        return 2**40


def _read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _read_int(path):
    text = _read_text(path)
    try:
        return int(text)
    except (TypeError, ValueError):           # missing, or "max" (no limit)
        return None


def _proc_status_bytes(field):
    """A ``kB`` field of ``/proc/self/status`` (``VmSize``, ``VmData``) in bytes, or None."""
    text = _read_text("/proc/self/status") or ""
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return None


def _rlimit_headroom():
    """``[(bytes left, source), ...]`` under the soft RLIMIT_AS and RLIMIT_DATA.

    ``ulimit -v`` (RLIMIT_AS) caps the address space (``VmSize``), ``ulimit -d`` (RLIMIT_DATA)
    the private writable mappings (``VmData``, Linux ≥ 4.7); a large numpy array is such a
    mapping, so what is left is the limit minus what is already mapped. Without ``/proc`` the
    limit itself is the bound.
    """
    try:
        import resource
    except ImportError:                       # Windows
        return []
    limits = []
    for name, field, option, kind in (("RLIMIT_AS", "VmSize", "-v", "address-space"),
                                      ("RLIMIT_DATA", "VmData", "-d", "data-segment")):
        if not hasattr(resource, name):
            continue
        soft = resource.getrlimit(getattr(resource, name))[0]
        if soft == resource.RLIM_INFINITY or soft < 0:
            continue
        used = _proc_status_bytes(field) or 0
        limits.append((max(soft - used, 0),
                       f"the {kind} limit {name} (ulimit {option}) of {_format_bytes(soft)} "
                       f"minus the {_format_bytes(used)} already mapped"))
    return limits


def _cgroup_headroom(proc_cgroup="/proc/self/cgroup", mount="/sys/fs/cgroup"):
    """``[(bytes left, source)]`` under the tightest cgroup memory limit, or ``[]``.

    Linux only: the process's cgroup (``/proc/self/cgroup``) and its ancestors under the usual
    mount points, v2 (``memory.max`` − ``memory.current``) or v1 (``memory.limit_in_bytes`` −
    ``memory.usage_in_bytes``). The inactive page cache (``memory.stat``) is reclaimable, so it
    does not count as used. A limit at or above the physical memory is no limit.
    """
    text = _read_text(proc_cgroup)
    if not text:
        return []
    physical = _physical_memory()
    best = None
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            roots = (mount, os.path.join(mount, "unified"))
            files = ("memory.max", "memory.current", "inactive_file")
        elif "memory" in parts[1].split(","):
            roots = (os.path.join(mount, "memory"),)
            files = ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")
        else:
            continue
        limit_file, usage_file, inactive_key = files
        for root in roots:
            # the cgroup itself and every ancestor (a limit may be set higher up); inside a
            # container the path may be outside its namespace, so the root is tried too
            path = parts[2].strip().strip("/")
            while True:
                directory = os.path.join(root, path) if path else root
                limit = _read_int(os.path.join(directory, limit_file))
                if limit is not None and limit < physical:
                    usage = _read_int(os.path.join(directory, usage_file)) or 0
                    stat = _read_text(os.path.join(directory, "memory.stat")) or ""
                    for entry in stat.splitlines():
                        key, _, value = entry.partition(" ")
                        if key == inactive_key and value.isdigit():
                            usage -= min(int(value), usage)
                    left = max(limit - usage, 0)
                    if best is None or left < best[0]:
                        best = (left, f"the cgroup memory limit of {_format_bytes(limit)} "
                                      f"({os.path.join(directory, limit_file)}) minus the "
                                      f"{_format_bytes(usage)} in use")
                if not path:
                    break
                path = os.path.dirname(path)
    return [] if best is None else [best]


def available_memory():
    """Bytes this process can still allocate, and what limits it.

    The smallest of: the physical memory; the soft ``RLIMIT_AS`` (``ulimit -v``) and
    ``RLIMIT_DATA`` (``ulimit -d``) minus the address space and data already mapped; the
    cgroup v2/v1 memory limit (a container's ``memory.max``) minus its usage. Reads a few
    ``/proc`` and ``/sys`` files (0.1-0.3 ms); where they or :mod:`resource` do not
    exist (macOS without ``/proc``, Windows), the physical memory or the bare limits.

    Returns
    -------
    n_bytes : int
    source : str
        What sets the bound, for messages.
    """
    physical = _physical_memory()
    candidates = [(physical, f"the machine's physical memory of {_format_bytes(physical)}")]
    candidates += _rlimit_headroom() + _cgroup_headroom()
    return min(candidates, key=lambda candidate: candidate[0])


def _format_bytes(n_bytes):
    n_bytes = float(n_bytes)
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:.3g} {unit}"
    return f"{n_bytes / 2**20:.2g} MiB"


def _format_estimate(n_bytes):
    if n_bytes == inf:
        return "more than 1e308 bytes"
    if n_bytes != n_bytes:
        return "an incalculable amount (NaN)"
    return f"about {_format_bytes(n_bytes)}"


def check_memory_request(n_bytes, what, fix):
    """Refuse up front, with the estimate, a request larger than the memory this process can get.

    Absurd parameters (a mismatch ball of millions of k-mers per window, all node pairs of a
    huge graph, a billion projection rows) would otherwise swap, be killed by the OOM killer,
    fail with a ``MemoryError`` after minutes of work, or run in a loop that cannot be
    interrupted. The bound is :func:`available_memory`: physical memory, ``ulimit -v``/``-d``
    and the cgroup limit, net of what is already used.

    Parameters
    ----------
    n_bytes : int or float
        Estimated peak memory of the request (an int may exceed the float range).
    what : str
        What needs it, naming the parameters, e.g. ``"MismatchKernel(k=10, m=5) on 12
        sequences"``.
    fix : str
        What to change.

    Raises
    ------
    ValueError
        When ``n_bytes`` exceeds the available memory; the message gives the estimate, the
        bound and what sets it, and ``fix``.
    """
    try:
        n_bytes = float(n_bytes)
    except OverflowError:                     # an exact int beyond the float range
        n_bytes = inf
    if n_bytes <= _SMALL_REQUEST:
        return
    available, source = available_memory()
    if not n_bytes <= available:              # NaN estimates are refused too
        raise ValueError(
            f"{what} would need {_format_estimate(n_bytes)} of memory, more than the "
            f"{_format_bytes(available)} this process can get (limited by {source}); {fix}"
        )


def kernel_cache_megabytes(cache_size, n_rows, what):
    """The kernel-row cache, in MiB, a dual solver over ``n_rows`` variables can fill.

    The cache never holds more than every row (``8 n_rows²`` bytes), so a larger ``cache_size``
    is clamped to that (the solver behaves the same, and its ``intp`` budget cannot overflow);
    what remains must fit in memory.

    Parameters
    ----------
    cache_size : float
        Requested size in MiB.
    n_rows : int
    what : str
        The solver and problem, for the message.

    Returns
    -------
    megabytes : float
    """
    megabytes = min(float(cache_size), 8.0 * n_rows * n_rows / 2**20)
    check_memory_request(megabytes * 2**20, f"{what} with cache_size={cache_size:g} MiB",
                         "lower cache_size (in MiB).")
    return megabytes


# LAPACK factorisations (SVD, eigendecompositions, Cholesky) do not return to Python until
# they finish, so Ctrl-C waits for them; above this many floating-point operations (about a
# minute on one core) a fit says so before starting one.
LONG_FACTORISATION_FLOPS = 1e12


def warn_long_factorisation(n_flops, what, fix):
    """Warn, before it starts, of a factorisation of about ``n_flops`` operations that would
    run for minutes without answering Ctrl-C.

    Parameters
    ----------
    n_flops : float
        Estimated floating-point operations (``min(n, d)² max(n, d)`` for a thin SVD).
    what : str
        What is factorised, e.g. ``"the within-class covariance of 20000 samples x 20000
        features"``.
    fix : str
        What to change.
    """
    if n_flops > LONG_FACTORISATION_FLOPS:
        warnings.warn(
            f"{what} needs about {n_flops:.1e} floating-point operations in LAPACK, which does "
            f"not stop on Ctrl-C until it finishes; {fix}", UserWarning, stacklevel=3)


def _same_value(a, b):
    """Whether a parameter still has the value it had at ``fit`` (arrays compared by content)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays: an elementwise comparison
        try:
            return bool(np.array_equal(a, b))
        except (TypeError, ValueError):
            return False


def record_fit_params(estimator, refit_free=()):
    """The parameters the fitted state of ``estimator`` depends on, to store at ``fit``.

    Every parameter (nested ones of a kernel object included) except those in ``refit_free``,
    which the estimator reads at prediction time and whose change after ``fit`` it honours.
    :func:`check_fit_params` compares them with the current ones.
    """
    return {name: value for name, value in estimator.get_params(deep=True).items()
            if name.split("__", 1)[0] not in refit_free}


def check_fit_params(estimator, recorded):
    """Raise NotFittedError when ``set_params`` changed a parameter the fit depends on.

    ``recorded`` is what :func:`record_fit_params` returned at ``fit`` (None: nothing to check).
    The fitted state (vocabularies, feature maps, class means ...) was computed with the
    recorded values, so using it with new ones would mix two models: the estimator must be
    refitted instead.
    """
    if recorded is None:
        return
    current = estimator.get_params(deep=True)
    missing = object()
    changed = [name for name, value in recorded.items()
               if not _same_value(current.get(name, missing), value)]
    if not changed:
        return
    described = ", ".join(
        f"{name}={recorded[name]!r} at fit, now {current.get(name, '<unset>')!r}"
        for name in changed)
    raise NotFittedError(
        f"This {type(estimator).__name__} instance must be refitted after changing "
        f"{', '.join(changed)} with set_params ({described}): call 'fit' again before using it."
    )
