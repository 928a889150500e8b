"""Neighbour search shared by the k-NN estimators: Euclidean by the compiled brute-force core or
the compiled KD-tree, precomputed distances, or kernel distances ``k(x, x) + k(y, y) − 2k(x, y)``."""

import time
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit._core._knn_brute import knn_brute, knn_brute_screened, knn_select
from kernelkit.neighbors._search_index import BuiltOnFirstUse, SearchIndex
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._progress import in_blocks, report_stage
from kernelkit.utils._screening import float32_screening_applies, float32_screening_copy
from kernelkit.utils._sklearn_compat import Interval, ParameterNamesOncePerClass, StrOptions
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads
from kernelkit.utils._validation import MAX_INT, validate_distance_data

__all__ = ["NeighborsBase"]

_NEGATIVE_DISTANCES = "Negative values in data: precomputed distances must be non-negative."
# Queries per block of kernel or precomputed distances: memory O(block × n_train).
_DISTANCE_BLOCK = 1024
# Blocks of queries searched one after the other when verbose, with progress lines between them
# (each is long enough that the wait for its slowest thread costs nothing measurable).
_PROGRESS_BLOCKS = 20


class NeighborsBase(ParameterNamesOncePerClass, BaseEstimator):
    """Fit stores the training set; :meth:`kneighbors` finds neighbours (the first Euclidean
    search builds the search index); the subclasses turn the neighbours into predictions with
    :meth:`_weights`."""

    _parameter_constraints = {
        "n_neighbors": [Interval(Integral, 1, MAX_INT, closed="left")],
        "weights": [StrOptions({"uniform", "distance", "gaussian"})],
        "gamma": [Interval(Real, 0, None, closed="left")],
        "metric": [StrOptions({"euclidean", "precomputed"})],
        "kernel": KERNEL_CONSTRAINT + [None],
        "kernel_params": [dict, None],
        "algorithm": [StrOptions({"auto", "brute", "kd_tree"})],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, n_neighbors=5, *, weights="uniform", gamma=1.0, metric="euclidean",
                 kernel=None, kernel_params=None, algorithm="auto", n_jobs=None, verbose=0):
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.gamma = gamma
        self.metric = metric
        self.kernel = kernel
        self.kernel_params = kernel_params
        self.algorithm = algorithm
        self.n_jobs = n_jobs
        self.verbose = verbose

    # ------------------------------------------------------------------ fitting
    def _fit_neighbors(self, X, y, **check_params):
        """Validate and store the training set; returns the validated ``y``."""
        # the search index of this fit, built by the first Euclidean search (_search_index)
        self._index = BuiltOnFirstUse()
        if self.kernel is not None:
            if self.metric != "euclidean":
                raise ValueError("kernel= gives the kernel distance; metric must then be "
                                 f"'euclidean', got {self.metric!r}.")
            X, y = validate_kernel_data(self, X, y, **check_params)
            params = dict(self.kernel_params or {})
            self._kernel = resolve_kernel(
                self.kernel, X, gamma=params.pop("gamma", None),
                degree=params.pop("degree", 3), coef0=params.pop("coef0", 1.0),
                kernel_params=params or None, n_jobs=self.n_jobs)
            K = self._kernel.training_gram()
            self._train_diagonal = np.diag(K).copy()
            # a precomputed or structured kernel cannot recompute it (kneighbors(None) needs it)
            self._train_gram = K if self._kernel.kind in ("precomputed", "structured") else None
            self.n_samples_fit_ = len(self._train_diagonal)
            self._method = "kernel"
            return y
        if self.metric == "precomputed":
            X, y = validate_data(self, X, y, dtype=np.float64, **check_params)
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"With metric='precomputed', X must be the square matrix of "
                                 f"distances between training samples, got shape {X.shape}.")
            if np.any(X < 0):
                raise ValueError(_NEGATIVE_DISTANCES)
            self.n_samples_fit_ = X.shape[0]
            self._method = "precomputed"
            return y
        X, y = validate_distance_data(self, X, y, dtype=[np.float64, np.float32], order="C",
                                      **check_params)
        self._fit_X = X
        self.n_samples_fit_ = X.shape[0]
        self._method = "euclidean"
        # the algorithm and the k of the probe that decides "auto": those of the fit
        self._index_params = (self.algorithm, min(self.n_neighbors, X.shape[0]))
        return y

    def _search_index(self, n_threads):
        """The :class:`SearchIndex` of the training rows, built by the first search from the
        parameters of the fit, and kept until the next ``fit``."""
        return self._index.get(lambda: self._build_search_index(n_threads))

    def _build_search_index(self, n_threads):
        """A new :class:`SearchIndex` of the training rows; a line at ``verbose`` 2 (or 1, when
        it took more than two seconds)."""
        start = time.perf_counter()
        index = SearchIndex(self._fit_X, *self._index_params, n_threads)
        report_stage(type(self).__name__, self.verbose, f"search index: {index.describe()}",
                     start)
        return index

    # ------------------------------------------------------------------ search
    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        """The nearest training samples of each query, nearest first (ties: smaller training
        index first).

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features), (n_queries, n_samples_fit) distances
            for ``metric="precomputed"``, objects for a kernel object, or None
            None: the training samples, each without itself.
        n_neighbors : int, default=None
            None: ``n_neighbors`` of the constructor.
        return_distance : bool, default=True

        Returns
        -------
        distances : ndarray of shape (n_queries, n_neighbors)
            Euclidean (or kernel, or the given) distances; only if ``return_distance``.
        indices : ndarray of shape (n_queries, n_neighbors)
        """
        check_is_fitted(self)
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if not isinstance(k, (Integral, np.integer)) or k < 1:
            raise ValueError(f"n_neighbors must be a positive integer, got {k!r}.")
        if X is None:
            distances, indices = self._training_neighbors(int(k))
        else:
            self._check_k(int(k))
            distances, indices = self._search(self._validate_queries(X), int(k))
        return (distances, indices) if return_distance else indices

    def _check_k(self, k):
        if k > self.n_samples_fit_:
            raise ValueError(f"n_neighbors={k} is larger than the {self.n_samples_fit_} "
                             "training samples.")

    def _training_neighbors(self, k):
        """Neighbours of the training samples among the others: one more, then the sample
        itself removed (or the farthest, when duplicates put it further down)."""
        if k + 1 > self.n_samples_fit_:
            raise ValueError(f"n_neighbors={k} needs at least {k + 1} training samples to "
                             f"exclude each sample itself; there are {self.n_samples_fit_}.")
        if self._method == "kernel":
            queries = None
        elif self._method == "precomputed":
            raise ValueError("With metric='precomputed', pass the query distances to "
                             "kneighbors.")
        else:
            queries = self._fit_X
        distances, indices = self._search(queries, k + 1)
        is_self = indices == np.arange(len(indices))[:, None]
        drop = np.where(is_self.any(axis=1), is_self.argmax(axis=1), k)
        keep = np.ones_like(is_self)
        keep[np.arange(len(keep)), drop] = False
        return distances[keep].reshape(-1, k), indices[keep].reshape(-1, k)

    def _validate_queries(self, X):
        if self._method == "kernel":
            return validate_kernel_data(self, X, reset=False,
                                        n_samples_fit=self.n_samples_fit_)
        if self._method == "precomputed":
            X = validate_data(self, X, reset=False, dtype=np.float64)
            if np.any(X < 0):
                raise ValueError(_NEGATIVE_DISTANCES)
            return X
        return validate_distance_data(self, X, reset=False, dtype=self._fit_X.dtype, order="C")

    def _search(self, X, k):
        """``(distances, indices)`` of ``k`` neighbours of validated queries (None: the
        training samples, kernel mode), searched block by block of queries when ``verbose``,
        with progress lines between the blocks."""
        n_threads = effective_n_threads(self.n_jobs)
        n_queries = self.n_samples_fit_ if X is None else len(X)
        indices = np.empty((n_queries, k), dtype=np.intp)
        values = np.empty((n_queries, k))
        blocks = in_blocks(type(self).__name__, self.verbose, n_queries, "queries",
                           n_blocks=_PROGRESS_BLOCKS, paced=True)
        if self._method == "euclidean":
            return self._euclidean_search(X, k, n_threads, blocks, indices, values)
        for first, stop in blocks:
            for start in range(first, stop, _DISTANCE_BLOCK):
                end = min(start + _DISTANCE_BLOCK, stop)
                block = self._distance_block(X, start, end)
                knn_select(block, indices[start:end], values[start:end], n_threads)
        if self._method == "kernel":
            values = np.sqrt(values)
        return values, indices

    def _euclidean_search(self, X, k, n_threads, blocks, indices, values):
        """Fill ``indices`` and the squared ``values`` block by block of queries, by the KD-tree
        or the brute force of the search index; returns ``(distances, indices)``."""
        index = self._search_index(n_threads)
        if index.tree is not None:
            for first, stop in blocks:
                values[first:stop], indices[first:stop] = index.tree.query(X[first:stop], k,
                                                                           n_threads)
            return np.sqrt(values), indices
        # each thread calls BLAS on its own blocks: BLAS's threads would oversubscribe
        # (measured 2x slower at d = 50)
        Q32 = None if index.fit_X32 is None else float32_screening_copy(X, min_features=0)
        screen32 = index.screen32 and float32_screening_applies(X, min_features=0)
        with blas_limit(1):
            for first, stop in blocks:
                if Q32 is not None:
                    knn_brute_screened(X[first:stop], self._fit_X, Q32[first:stop],
                                       index.fit_X32, indices[first:stop], values[first:stop],
                                       n_threads)
                else:
                    knn_brute(X[first:stop], self._fit_X, indices[first:stop],
                              values[first:stop], n_threads, screen32)
        return np.sqrt(values), indices

    def _distance_block(self, X, start, stop):
        """Rows ``[start, stop)`` of the query-by-training distances (squared for kernels)."""
        if self._method == "precomputed":
            return np.ascontiguousarray(X[start:stop])
        if X is None:
            K = (self._train_gram[start:stop] if self._train_gram is not None
                 else self._kernel.gram(self._kernel.rows[start:stop], self._kernel.rows))
            diagonal = self._train_diagonal[start:stop]
        else:
            queries = X[start:stop]
            K = self._kernel.cross(queries)
            diagonal = self._kernel.query_diagonal(queries)
        with np.errstate(over="ignore", invalid="ignore"):   # checked below
            squared = diagonal[:, None] + self._train_diagonal[None, :] - 2.0 * K
        if not np.all(np.isfinite(squared)):
            # k(x, x) + k(y, y) − 2k(x, y) overflows (inf − inf) when the kernel's values are
            # near the largest double
            raise ValueError("The kernel distances k(x, x) + k(y, y) - 2 k(x, y) overflow "
                             "float64: the kernel's values are too large; rescale the kernel "
                             "or its input.")
        return np.ascontiguousarray(np.maximum(squared, 0.0))

    # ------------------------------------------------------------------ weights
    def _weights(self, distances):
        """Weight of each neighbour: 1, ``1/d`` (exact matches only, where a distance is 0) or
        ``exp(−γ d²)`` (scaled by the nearest's weight, which leaves the normalised weights
        unchanged and avoids underflow)."""
        if self.weights == "uniform":
            return np.ones_like(distances)
        if self.weights == "distance":
            exact = distances == 0
            with np.errstate(divide="ignore"):
                inverse = 1.0 / distances
            return np.where(exact.any(axis=1, keepdims=True), exact.astype(float), inverse)
        squared = distances**2
        return np.exp(-self.gamma * (squared - squared[:, :1]))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.kernel is not None:
            return kernel_input_tags(tags, self.kernel)
        tags.input_tags.pairwise = tags.input_tags.positive_only = self.metric == "precomputed"
        return tags
