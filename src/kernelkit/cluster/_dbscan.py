"""DBSCAN: density-based clustering with a compiled, streamed expansion in linear memory.

Sangnier, §2.4 and Algorithm 14, with two fixes (see ``_core/_dbscan_expansion.pyx``).
"""

import time
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.metrics.pairwise import pairwise_distances_chunked
from sklearn.utils.validation import validate_data

from kernelkit._core._dbscan_expansion import (
    STAGES,
    dbscan_dense,
    dbscan_precomputed_dense,
    dbscan_precomputed_sparse,
)
from kernelkit._core._dbscan_gemm import dbscan_gemm, uses_gemm
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._progress import report, stages_callback
from kernelkit.utils._screening import float32_screening_copy
from kernelkit.utils._sklearn_compat import (
    _VALID_METRICS,
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads
from kernelkit.utils._validation import MAX_INT, check_sparse_input, validate_distance_data

__all__ = ["DBSCAN"]

# Metrics searched by the compiled grid / KD-tree, with their aliases.
_INDEXED_METRICS = {
    "euclidean": "euclidean", "l2": "euclidean",
    "manhattan": "manhattan", "l1": "manhattan", "cityblock": "manhattan",
    "chebyshev": "chebyshev",
}


class DBSCAN(ClusterMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Density-based spatial clustering of applications with noise (DBSCAN).

    A point is a *core point* when its ε-neighbourhood (:math:`d(x, y) \le \varepsilon`) holds
    at least
    ``min_samples`` points, itself included. Clusters are the connected groups of core points
    (two core points within ``eps`` of each other are connected) together with the non-core points
    within ``eps`` of one of them (*border points*); everything else is noise (Sangnier, §2.4).

    The course's Algorithm 14 has two slips: it tests :math:`|N| > m` for the first
    point of a cluster but :math:`|N'| \ge m` afterwards, and it never removes a non-core point
    from the set ``T`` of unvisited points, so the loop does not terminate. This implementation
    uses :math:`\ge m` throughout and visits every point once.

    Memory is linear in ``n_samples`` for ``metric`` in {"euclidean", "manhattan", "chebyshev"}:
    neighbourhoods are streamed from a uniform grid (``n_features ≤ 3``) or a KD-tree, one at a
    time, instead of being materialised all at once. Core points are counted in parallel and
    each count stops at ``min_samples``; clusters are then grown from core points in sample order,
    so a border point reachable from several clusters joins the first one, deterministically.
    Core and noise sets do not depend on the order of the samples (only border assignment can).

    Parameters
    ----------
    eps : float, default=0.5
        Neighbourhood radius, ``> 0``.
    min_samples : int, default=5
        Neighbours (the point itself included) that make a core point, ``≥ 1``. The course advises
        about ``2 × n_features``.
    metric : str or callable, default="euclidean"
        "euclidean", "manhattan" (aliases "l1", "cityblock") or "chebyshev" use the compiled
        streamed search. "precomputed": ``X`` is a square distance matrix, dense, or sparse as a
        radius-neighbours graph (only stored entries can be neighbours), e.g. from
        ``sklearn.neighbors.radius_neighbors_graph(X, radius, mode="distance")``, so that ``eps``
        can be swept up to ``radius`` without recomputing neighbours. Any other metric accepted
        by ``sklearn.metrics.pairwise_distances`` is evaluated in row blocks into such a graph
        (memory proportional to the number of neighbour pairs).
    algorithm : {"auto", "grid", "kd_tree", "brute"}, default="auto"
        Neighbour search for the compiled metrics: "auto" takes the grid when ``n_features ≤ 3``
        (unless ``eps`` is so small against the data's extent that the grid would have more than
        2^26 cells a side), blocked GEMM distances ("brute") for the Euclidean metric with at
        least 16 features, the KD-tree otherwise. "brute" (Euclidean only) computes
        :math:`\|x\|^2 + \|y\|^2 - 2 x \cdot y` for blocks of rows against all samples (memory
        ``O(n_samples × block)``, block ≤ 256 rows and ≤ 2^21 distances), recomputes the pairs
        within rounding of ``eps`` by direct differences, and finds the clusters as components
        of core points (plus a copy of the core points: memory linear in n for fixed d).
        Results do not depend on it.
    n_jobs : int, default=None
        Threads of the core-counting pass (None: all allowed). Results do not depend on it.
    verbose : int, default=0
        1: one line on stderr at the end of ``fit`` (clusters, core samples, noise, time), one
        when the neighbourhood graph of a metric without a compiled index is built, and
        progress lines during the neighbour counting and the growth of the clusters when they
        last more than a few seconds (one every 2 s); 2: a progress line after every twentieth
        of each pass. Results do not depend on it.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each sample, ``-1`` for noise. Clusters are numbered in the order in which
        they are found, i.e. by their lowest-index core point.
    core_sample_indices_ : ndarray of shape (n_core_samples,)
        Indices of the core points, increasing.
    components_ : ndarray of shape (n_core_samples, n_features)
        The core points (rows of ``X``; rows of the distance matrix for "precomputed").
    n_features_in_ : int
        Number of columns of ``X``.

    See Also
    --------
    AgglomerativeClustering : with ``linkage="single"`` and ``min_samples=2`` DBSCAN gives the
        single-linkage clusters cut at height ``eps`` (Sangnier, Remark 2.4.1).
    sklearn.cluster.DBSCAN : same clustering; stores every neighbourhood at once.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.4, Algorithm 14 and Remark 2.4.1.
    M. Ester, H.-P. Kriegel, J. Sander and X. Xu, "A density-based algorithm for discovering
    clusters in large spatial databases with noise", KDD 1996.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import DBSCAN
    >>> X = np.array([[1.0, 2.0], [2.0, 2.0], [2.0, 3.0], [8.0, 7.0], [8.0, 8.0], [25.0, 80.0]])
    >>> model = DBSCAN(eps=3, min_samples=2).fit(X)
    >>> model.labels_
    array([ 0,  0,  0,  1,  1, -1])
    >>> model.core_sample_indices_
    array([0, 1, 2, 3, 4])
    """

    _parameter_constraints = {
        "eps": [Interval(Real, 0.0, None, closed="neither")],
        "min_samples": [Interval(Integral, 1, MAX_INT, closed="left")],
        "metric": [StrOptions(set(_VALID_METRICS) | {"precomputed"}), callable],
        "algorithm": [StrOptions({"auto", "grid", "kd_tree", "brute"})],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, eps=0.5, *, min_samples=5, metric="euclidean", algorithm="auto",
                 n_jobs=None, verbose=0):
        self.eps = eps
        self.min_samples = min_samples
        self.metric = metric
        self.algorithm = algorithm
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Cluster ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or distances when ``metric="precomputed"`` (sparse only then).
        y : None
            Ignored.

        Returns
        -------
        self : DBSCAN
        """
        precomputed = self.metric == "precomputed"
        if precomputed:
            X = check_sparse_input(X)
            X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, order="C")
        else:
            X = validate_distance_data(self, X, dtype=np.float64, order="C")
        start = time.perf_counter()
        n_threads = effective_n_threads(self.n_jobs)
        n_samples = X.shape[0]
        labels = np.empty(n_samples, dtype=np.intp)
        is_core = np.empty(n_samples, dtype=np.uint8)
        progress = stages_callback(type(self).__name__, self.verbose, STAGES)
        if precomputed:
            self._fit_precomputed(X, labels, is_core, n_threads, progress)
        elif isinstance(self.metric, str) and self.metric in _INDEXED_METRICS:
            self._fit_indexed(X, _INDEXED_METRICS[self.metric], labels, is_core, n_threads,
                              progress)
        else:
            graph = _radius_graph(X, self.eps, self.metric)
            if self.verbose:
                report(type(self).__name__, f"neighbourhood graph, {graph.nnz} pairs within eps",
                       start)
            _run_sparse(graph, self.eps, self.min_samples, labels, is_core, n_threads, progress)
        self.labels_ = labels
        self.core_sample_indices_ = np.flatnonzero(is_core)
        if self.verbose:
            report(type(self).__name__,
                   f"{labels.max(initial=-1) + 1} clusters, {self.core_sample_indices_.size} core "
                   f"samples, {np.count_nonzero(labels < 0)} noise", start)
        if sp.issparse(X):
            self.components_ = X[self.core_sample_indices_].toarray()
        else:
            self.components_ = X[self.core_sample_indices_].copy()
        return self

    def _fit_indexed(self, X, metric, labels, is_core, n_threads, progress):
        """The compiled metrics: blocked GEMM distances (Euclidean, "brute" or many features)
        or streamed neighbourhoods (grid, KD-tree); the same labels."""
        if self.algorithm == "brute" and metric != "euclidean":
            raise ValueError(f"algorithm='brute' is for the Euclidean metric, got {metric!r}.")
        if not uses_gemm(metric, self.algorithm, X.shape[1]):
            dbscan_dense(X, float(self.eps), self.min_samples, labels, is_core, metric=metric,
                         algorithm=self.algorithm, n_threads=n_threads, progress=progress)
            return
        # pairs screened in float32 where that is exact enough
        X32 = float32_screening_copy(X, min_features=0)
        # BLAS is called from every OpenMP thread: keep it single-threaded
        with blas_limit(1):
            dbscan_gemm(X, float(self.eps), self.min_samples, labels, is_core,
                        n_threads=n_threads, X32=X32, progress=progress)

    def _fit_precomputed(self, X, labels, is_core, n_threads, progress):
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                f"metric='precomputed' needs a square distance matrix, got shape {X.shape}.")
        values = X.data if sp.issparse(X) else X
        if values.size and values.min() < 0:
            raise ValueError("Negative values in data passed with metric='precomputed': "
                             "distances must be non-negative.")
        if sp.issparse(X):
            _run_sparse(X, self.eps, self.min_samples, labels, is_core, n_threads, progress)
        else:
            dbscan_precomputed_dense(X, float(self.eps), self.min_samples, labels, is_core,
                                     n_threads, progress)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.metric == "precomputed"
        tags.input_tags.sparse = self.metric == "precomputed"
        tags.input_tags.positive_only = self.metric == "precomputed"
        return tags


def _run_sparse(graph, eps, min_samples, labels, is_core, n_threads, progress):
    graph = sp.csr_matrix(graph)
    if not graph.has_canonical_format:
        # entries stored twice are summed, as everywhere in scipy.sparse; never in place
        graph = graph.copy()
        graph.sum_duplicates()
    dbscan_precomputed_sparse(
        np.ascontiguousarray(graph.data, dtype=np.float64),
        graph.indices.astype(np.intp, copy=False),
        graph.indptr.astype(np.intp, copy=False),
        float(eps), min_samples, labels, is_core, n_threads, progress)


def _radius_graph(X, eps, metric):
    """CSR graph of the pairs within ``eps`` for a metric without a compiled index.

    Distances are computed in row blocks of bounded working memory; only the pairs within
    ``eps`` are kept (zero distances as explicit entries).
    """
    n_samples = X.shape[0]
    indices, indptr, data = [], [0], []
    for block in pairwise_distances_chunked(X, metric=metric):
        for row in block:
            close = np.flatnonzero(row <= eps)
            indices.append(close)
            data.append(row[close])
            indptr.append(indptr[-1] + close.size)
    return sp.csr_matrix((np.concatenate(data), np.concatenate(indices), np.asarray(indptr)),
                         shape=(n_samples, n_samples))
