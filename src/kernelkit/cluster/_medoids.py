"""k-medoids, alternate and PAM/FasterPAM (Sangnier, §2.2.2, "Variants of k-means").

The compiled cores are ``kernelkit._core._kmedoids`` (BUILD, assignment, distance matrix,
the alternate update), ``kernelkit._core._fasterpam`` (the swap phase) and
``kernelkit._core._dissimilarity_check``; the Voronoi assignment of vectors is the k-means
core's (``kernelkit._core._kmeans_lloyd.lloyd_iter``).
"""

import time
import warnings
from numbers import Integral

import numpy as np
from sklearn import get_config
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    ClusterMixin,
    TransformerMixin,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import euclidean_distances
from sklearn.utils import check_random_state
from sklearn.utils.extmath import row_norms
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from kernelkit._core._dissimilarity_check import dissimilarity_range
from kernelkit._core._fasterpam import fasterpam
from kernelkit._core._kmeans_lloyd import lloyd_iter
from kernelkit._core._kmedoids import (
    METRICS,
    assign_medoids,
    build_medoids,
    distance_matrix,
    in_cluster_costs,
)
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._progress import iteration_callback, report, stage
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads
from kernelkit.utils._validation import MAX_INT, check_memory_request, validate_distance_data

__all__ = ["KMedoids"]

_EMPTY_MATRIX = np.empty((0, 0))
_EMPTY_VECTOR = np.empty(0)


def _plusplus(rows, n_samples, n_clusters, random_state):
    """D-sampling seeding in the objective's own dissimilarity (Arthur & Vassilvitskii 2007):
    the first centre uniform, each next one a sample drawn with probability proportional to its
    dissimilarity to the nearest centre so far. ``rows(i)`` is ``d(x_i, ·)``.

    For the squared Euclidean dissimilarity this is k-means++'s D² sampling (Sangnier, Algorithm
    10); for a distance, D¹ sampling (the k-median variant of the same analysis).
    """
    chosen = [int(random_state.randint(n_samples))]
    nearest = np.asarray(rows(chosen[0]), dtype=np.float64).copy()
    for _ in range(1, n_clusters):
        total = nearest.sum()
        if not total > 0:
            # every sample coincides with a chosen centre: take the first unchosen ones
            remaining = np.setdiff1d(np.arange(n_samples), chosen)
            chosen.extend(remaining[: n_clusters - len(chosen)].tolist())
            break
        # side="right": a draw never lands on a sample at dissimilarity 0 (a chosen centre)
        cumulative = np.cumsum(nearest)
        pick = int(np.searchsorted(cumulative, random_state.uniform() * cumulative[-1],
                                   side="right"))
        pick = min(pick, n_samples - 1)
        chosen.append(pick)
        np.minimum(nearest, rows(pick), out=nearest)
    return np.asarray(chosen, dtype=np.intp)


def _group(labels, n_clusters, active=None):
    """Samples grouped by cluster, each group in increasing index: ``(order, offsets)``; with
    ``active`` (a mask of clusters), the samples of the other clusters are left out (their
    groups are empty)."""
    order = np.argsort(labels, kind="stable").astype(np.intp)
    if active is not None:
        order = order[active[labels[order]]]
    offsets = np.concatenate([[0], np.cumsum(np.bincount(labels[order], minlength=n_clusters))])
    return order, offsets.astype(np.intp)


def _group_argmin(values, order, offsets, current):
    """Per cluster, the member of smallest ``values`` (grouped positions; first on ties); an
    empty cluster keeps ``current``."""
    chosen = np.array(current, dtype=np.intp, copy=True)
    for c in range(len(offsets) - 1):
        if offsets[c + 1] > offsets[c]:
            chosen[c] = order[offsets[c] + int(np.argmin(values[offsets[c]:offsets[c + 1]]))]
    return chosen


class KMedoids(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ClusterMixin,
               ParameterNamesOncePerClass, BaseEstimator):
    """k-medoids clustering: the centres are samples (Sangnier, §2.2.2).

    Minimises :math:`\\sum_i d(x_i, m(x_i))` over sets of ``n_clusters`` medoids drawn from the
    samples, :math:`m(x)` the nearest medoid. With ``metric="sqeuclidean"`` this is the course's
    k-medoids objective (:math:`d = \\|\\cdot\\|^2`), with ``metric="euclidean"`` the course's
    "k-median" objective (:math:`d = \\|\\cdot\\|`; the course prints :math:`\\|X - \\mu\\|` for
    :math:`\\|X_i - \\mu\\|`, a typo), and with ``metric="precomputed"`` any dissimilarity
    matrix, for example the distance induced by a kernel on strings or graphs,
    :math:`d(x, y)^2 = k(x, x) + k(y, y) - 2 k(x, y)` (see
    :func:`kernelkit.kernels.kernel_distances` and the example below).

    Methods:

    * ``"alternate"``: Lloyd-like block minimisation: assign every sample to
      its nearest medoid, then move each medoid to the member of its cluster with the smallest
      total dissimilarity to the cluster; repeat until the medoids stop moving. The objective
      never increases. The course's update takes the argmin over **all** n samples
      (:math:`t \\in \\operatorname{argmin}_{\\ell \\in [n]}`); we search the cluster's **members**,
      as the usual alternate
      method (Park & Jun 2009, scikit-learn-extra) does: over all samples two clusters can pick
      the same point (one of them then empties), and the search costs :math:`k n^2` instead of
      :math:`\\sum_j |C_j|^2`. The course's global choice is what PAM optimises, since any
      sample can be swapped in.
    * ``"pam"``: PAM's swap phase with the FasterPAM improvements (Schubert & Rousseeuw 2021):
      every candidate sample is evaluated against all medoids at once in O(n) (O(k) fewer
      dissimilarity reads than PAM), and the best swap of a candidate is made as soon as it lowers
      the objective. Same algorithm and arithmetic as the ``kmedoids`` package. Slower per run
      than "alternate" but reaches lower objectives.

    The compiled core reads a precomputed matrix in place (float32 or float64), or computes the
    Euclidean distances of vectors tile by tile on the fly (GEMM). For ``"pam"`` on vectors the
    whole matrix is precomputed when it fits in scikit-learn's ``working_memory`` (default 1 GiB,
    ``sklearn.config_context(working_memory=...)``), otherwise rows are recomputed in every pass.
    Results do not depend on ``n_jobs``.

    Parameters
    ----------
    n_clusters : int, default=8
    metric : {"euclidean", "sqeuclidean", "precomputed"}, default="euclidean"
        "precomputed": ``X`` is the ``(n_samples, n_samples)`` dissimilarity matrix (row ``j`` is
        read as the dissimilarities of sample ``j`` as a medoid, so it should be symmetric).
    method : {"alternate", "pam"}, default="alternate"
    init : {"k-medoids++", "build", "random"} or array-like of shape (n_clusters,), \
default="k-medoids++"
        "k-medoids++": the first medoid uniform, each next one drawn with probability
        proportional to its dissimilarity to the nearest medoid so far (for "sqeuclidean", the
        D² sampling of k-means++, Sangnier, Algorithm 10); "build": PAM's greedy BUILD (O(k n²)
        dissimilarities); "random": distinct uniform samples; an array: the initial medoid
        indices.
    max_iter : int, default=300
        Iterations ("alternate") or passes over the candidates ("pam") at most.
    random_state : int, RandomState instance or None, default=None
        Seed of the initialisation.
    n_jobs : int, default=None
        OpenMP threads of the core (None: all allowed).
    verbose : int, default=0
        Progress on stderr: 1, a line per stage (distance matrix, initialisation, the
        FasterPAM passes or the alternating iterations: loss, swaps, time), and lines every
        two seconds during long alternating iterations; 2, a line per alternating iteration.

    Attributes
    ----------
    medoid_indices_ : ndarray of shape (n_clusters,)
        Indices of the medoids in the training data.
    cluster_centers_ : ndarray of shape (n_clusters, n_features) or None
        The medoids' rows (None with ``metric="precomputed"``).
    labels_ : ndarray of shape (n_samples,)
        Index of each sample's nearest medoid.
    inertia_ : float
        :math:`\\sum_i d(x_i, m(x_i))`.
    n_iter_ : int
    inertia_history_ : ndarray of shape (n_iter_,)
        Objective of each assignment step ("alternate") or at the start of each pass ("pam"):
        non-increasing.
    n_swaps_ : int
        Medoid replacements made (swaps for "pam", medoid moves for "alternate").
    n_features_in_ : int

    See Also
    --------
    KMeans : centres anywhere, squared Euclidean distance.
    KMedians : centres anywhere, ℓ1 distance, coordinate-wise medians.
    kernelkit.reference.fasterpam : the pure-NumPy twin of the swap phase.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.2.2 "Variants of k-means" (k-medoids and
    k-median objectives).
    L. Kaufman and P. J. Rousseeuw, "Clustering by means of medoids", 1987 (PAM, BUILD).
    H.-S. Park and C.-H. Jun, "A simple and fast algorithm for K-medoids clustering", Expert
    Systems with Applications 36, 2009 (the alternate method).
    E. Schubert and P. J. Rousseeuw, "Fast and eager k-medoids clustering: O(k) runtime
    improvement of the PAM, CLARA, and CLARANS algorithms", Information Systems 101, 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import KMedoids
    >>> X = np.array([[1, 2], [1, 4], [1, 0], [10, 2], [10, 4], [10, 0], [10, 3], [10, 5]])
    >>> km = KMedoids(n_clusters=2, method="pam", random_state=0).fit(X)
    >>> X[np.sort(km.medoid_indices_)]
    array([[ 1,  2],
           [10,  3]])

    Any kernel of kernelkit gives a distance: cluster the MUTAG molecules with the
    Weisfeiler–Lehman kernel through ``metric="precomputed"``:

    >>> from kernelkit.datasets import load_mutag
    >>> from kernelkit.kernels import WeisfeilerLehmanKernel, kernel_distances
    >>> graphs = load_mutag().graphs
    >>> K = WeisfeilerLehmanKernel(n_iter=3, normalize=True).fit_transform(graphs)
    >>> model = KMedoids(2, metric="precomputed", method="pam", random_state=0)
    >>> model.fit(kernel_distances(K)).medoid_indices_.shape
    (2,)
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, MAX_INT, closed="left")],
        "metric": [StrOptions(set(METRICS))],
        "method": [StrOptions({"alternate", "pam"})],
        "init": [StrOptions({"k-medoids++", "build", "random"}), "array-like"],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, n_clusters=8, *, metric="euclidean", method="alternate",
                 init="k-medoids++", max_iter=300, random_state=None, n_jobs=None, verbose=0):
        self.n_clusters = n_clusters
        self.metric = metric
        self.method = method
        self.init = init
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    # ------------------------------------------------------------------------------- fitting
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Find the medoids.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or the dissimilarity matrix when ``metric="precomputed"`` (float32 is kept).
        y : None
            Ignored.

        Returns
        -------
        self : KMedoids
        """
        data = self._fit_data(X)
        if data.n_samples < self.n_clusters:
            raise ValueError(f"n_samples={data.n_samples} should be >= "
                             f"n_clusters={self.n_clusters}.")
        n_threads = effective_n_threads(self.n_jobs)
        # the cores call BLAS from OpenMP threads: BLAS itself stays single-threaded
        label = type(self).__name__
        with blas_limit(1):
            if self.method == "pam" or (isinstance(self.init, str) and self.init == "build"):
                start = time.perf_counter()
                if data.precompute_if_it_fits(n_threads) and self.verbose:
                    report(label, f"distance matrix {data.n_samples} x {data.n_samples}", start)
            init = self.init if isinstance(self.init, str) else "given"
            with stage(label, self.verbose, f"initial medoids ({init})"):
                medoids = self._initial_medoids(data, check_random_state(self.random_state),
                                                n_threads)
            passes = "FasterPAM passes" if self.method == "pam" else "iterations"
            with stage(label, self.verbose, lambda: f"{n_iter} {passes}, {n_swaps} swaps, "
                                                    f"inertia {inertia:.10g}"):
                fit = self._pam if self.method == "pam" else self._alternate
                medoids, labels, inertia, n_iter, history, n_swaps = fit(data, medoids,
                                                                         n_threads)
        if np.unique(labels).size < self.n_clusters:
            warnings.warn(f"Only {np.unique(labels).size} of the {self.n_clusters} medoids have "
                          "samples assigned (duplicate samples or dissimilarities 0).",
                          ConvergenceWarning, stacklevel=2)
        self.medoid_indices_ = medoids
        self.cluster_centers_ = None if data.X_raw is None else data.X_raw[medoids]
        self.labels_ = labels.astype(np.intp)
        self.inertia_ = float(inertia)
        self.n_iter_ = int(n_iter)
        self.inertia_history_ = np.asarray(history, dtype=np.float64)
        self.n_swaps_ = int(n_swaps)
        self._n_features_out = self.n_clusters
        return self

    def _fit_data(self, X):
        if self.metric == "precomputed":
            D = validate_data(self, X, dtype=[np.float64, np.float32], order="C",
                              ensure_min_samples=1)
            if D.shape[0] != D.shape[1]:
                raise ValueError(f"metric='precomputed' needs a square dissimilarity matrix, got "
                                 f"shape {D.shape}.")
            low, finite = dissimilarity_range(D, effective_n_threads(self.n_jobs))
            if not finite:
                raise ValueError("The precomputed dissimilarity matrix has NaN or infinite "
                                 "entries.")
            if low < 0:
                raise ValueError("Negative values in data passed to KMedoids(metric="
                                 f"'precomputed') (minimum {low:.3g}): dissimilarities must be "
                                 ">= 0.")
            return _Data(D=D)
        X = validate_distance_data(self, X, dtype=np.float64, order="C")
        # centred: the expansion ‖x‖² + ‖y‖² − 2x·y loses precision far from the origin
        centred = np.ascontiguousarray(X - X.mean(axis=0))
        return _Data(X=centred, X_raw=X, sqnorms=row_norms(centred, squared=True),
                     metric=METRICS[self.metric])

    def _initial_medoids(self, data, random_state, n_threads):
        n, k = data.n_samples, self.n_clusters
        if not isinstance(self.init, str):
            medoids = check_array(self.init, ensure_2d=False, dtype=np.intp, input_name="init")
            if (medoids.shape != (k,) or np.unique(medoids).size != k or medoids.min() < 0
                    or medoids.max() >= n):
                raise ValueError(f"init must hold {k} distinct sample indices in [0, {n}), got "
                                 f"{medoids!r}.")
            return np.array(medoids, dtype=np.intp)
        if self.init == "random":
            return random_state.choice(n, size=k, replace=False).astype(np.intp)
        if self.init == "build":
            medoids = np.empty(k, dtype=np.intp)
            build_medoids(*data.dissimilarities(), medoids, n_threads)
            return medoids
        return _plusplus(data.row, n, k, random_state)

    def _pam(self, data, medoids, n_threads):
        n = data.n_samples
        labels = np.empty(n, dtype=np.int32)
        distances = np.empty(n)
        # the loss after each swap pass
        check_memory_request(8.0 * self.max_iter, f"KMedoids(max_iter={self.max_iter}) loss "
                             "history", "lower max_iter.")
        history = np.empty(self.max_iter)
        medoids = np.array(medoids, dtype=np.intp, copy=True)
        inertia, n_iter, n_swaps = fasterpam(*data.dissimilarities(), medoids, labels, distances,
                                             history, self.max_iter, n_threads)
        return medoids, labels, inertia, n_iter, history[:n_iter], n_swaps

    def _alternate(self, data, medoids, n_threads):
        k = self.n_clusters
        history, n_swaps, n_iter = [], 0, 0
        previous = None
        progress = iteration_callback(
            type(self).__name__, self.verbose, 1,
            lambda n_iter, loss, moved: f"iteration {n_iter}: loss {loss:.10g}, {moved} "
                                        "medoids moved")
        for n_iter in range(1, self.max_iter + 1):
            labels, distances, center_sums, weights = self._assign(data, medoids, n_threads)
            history.append(float(distances.sum()))
            # a cluster whose members did not change keeps its medoid: update the others only
            active = np.ones(k, dtype=bool)
            if previous is not None:
                moved = labels != previous
                active[:] = False
                active[labels[moved]] = True
                active[previous[moved]] = True
            previous = labels
            order, offsets = _group(labels, k, active)
            if data.metric == METRICS["sqeuclidean"]:
                # Σ_{i∈C} ‖x_i − x_l‖² = Σ_{i∈C} ‖x_i − x̄‖² + |C| ‖x_l − x̄‖² (Huygens, Sangnier
                # Prop 57): the best member is the one nearest the cluster's mean
                means = center_sums / np.maximum(weights, 1.0)[:, None]
                values = row_norms(data.X[order] - means[labels[order]], squared=True)
            else:
                values = np.empty(order.size)
                if data.X is None:
                    in_cluster_costs(data.D, _EMPTY_MATRIX, order, offsets, data.metric, values,
                                     n_threads)
                else:
                    in_cluster_costs(_EMPTY_MATRIX, np.ascontiguousarray(data.X[order]), order,
                                     offsets, data.metric, values, n_threads)
            updated = _group_argmin(values, order, offsets, medoids)
            moved = int(np.sum(updated != medoids))
            if progress is not None:
                progress(n_iter, history[-1], moved)
            if moved == 0:
                break
            n_swaps += moved
            medoids = updated
        labels, distances, _, _ = self._assign(data, medoids, n_threads)
        return medoids, labels, float(distances.sum()), n_iter, history, n_swaps

    def _assign(self, data, medoids, n_threads):
        """Nearest medoid of every sample: the k-means core's Voronoi assignment for vectors
        (with the cluster sums, which the squared metric's update uses), the medoid rows of the
        matrix otherwise. Returns ``(labels, distances, center_sums, weights)``."""
        n, k = data.n_samples, len(medoids)
        labels = np.empty(n, dtype=np.int32)
        if data.X is None:
            distances = np.empty(n)
            assign_medoids(data.D, _EMPTY_MATRIX, _EMPTY_VECTOR, data.metric, medoids, labels,
                           distances, n_threads)
            return labels, distances, None, None
        center_sums = np.zeros((k, data.X.shape[1]))
        weights = np.zeros(k)
        lloyd_iter(data.X, np.ones(n), np.ascontiguousarray(data.X[medoids]), labels,
                   {"center_sums": center_sums, "weight_in_clusters": weights},
                   n_threads=n_threads)
        distances = row_norms(data.X - data.X[medoids[labels]], squared=True)
        if data.metric == METRICS["euclidean"]:
            np.sqrt(distances, out=distances)
        return labels, distances, center_sums, weights

    # ------------------------------------------------------------------------------- using it
    def _check_test_data(self, X):
        check_is_fitted(self)
        if self.metric == "precomputed":
            X = validate_data(self, X, dtype=[np.float64, np.float32], reset=False)
            if X.shape[1] != self.labels_.shape[0]:
                raise ValueError(f"With metric='precomputed', X must hold the dissimilarities to "
                                 f"the {self.labels_.shape[0]} training samples; got "
                                 f"{X.shape[1]} columns.")
            return X
        return validate_data(self, X, dtype=np.float64, reset=False)

    def transform(self, X):
        """Dissimilarity of each sample to every medoid.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples_fit)
            Samples, or their dissimilarities to the training samples (``"precomputed"``).

        Returns
        -------
        distances : ndarray of shape (n_samples, n_clusters)
        """
        X = self._check_test_data(X)
        if self.metric == "precomputed":
            return np.asarray(X[:, self.medoid_indices_], dtype=np.float64)
        return euclidean_distances(X, self.cluster_centers_,
                                   squared=self.metric == "sqeuclidean")

    def predict(self, X):
        """Index of the nearest medoid (lowest index on ties).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples_fit)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        X = self._check_test_data(X)
        if self.metric == "precomputed":
            return np.argmin(X[:, self.medoid_indices_], axis=1)
        labels = np.empty(X.shape[0], dtype=np.int32)
        with blas_limit(1):
            lloyd_iter(np.ascontiguousarray(X), np.ones(X.shape[0]),
                       np.ascontiguousarray(self.cluster_centers_, dtype=np.float64), labels,
                       n_threads=effective_n_threads(self.n_jobs))
        return labels.astype(np.intp)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.metric == "precomputed"
        tags.input_tags.positive_only = self.metric == "precomputed"
        return tags


class _Data:
    """The training input of :class:`KMedoids`: a dissimilarity matrix, centred vectors, or
    both (vectors whose distance matrix was precomputed for PAM or BUILD)."""

    def __init__(self, *, D=None, X=None, X_raw=None, sqnorms=None, metric=METRICS["precomputed"]):
        self.D = D
        self.X = X
        self.X_raw = X_raw
        self.sqnorms = sqnorms
        self.metric = metric
        self.n_samples = D.shape[0] if D is not None else X.shape[0]

    def precompute_if_it_fits(self, n_threads):
        """Compute the whole distance matrix of vectors when it fits in scikit-learn's
        ``working_memory``: PAM and BUILD then read it instead of recomputing rows every pass
        (the numbers are the same, see ``_core/_kmedoids_common.pxd``). Returns whether it did."""
        n = self.n_samples
        if self.D is None and n * n * 8 <= get_config()["working_memory"] * 2**20:
            self.D = np.empty((n, n))
            distance_matrix(self.X, self.sqnorms, self.metric, self.D, n_threads)
            return True
        return False

    def dissimilarities(self):
        """``(D, X, sqnorms, metric)`` arguments of the core: the matrix if there is one."""
        if self.D is not None:
            return self.D, _EMPTY_MATRIX, _EMPTY_VECTOR, METRICS["precomputed"]
        return _EMPTY_MATRIX, self.X, self.sqnorms, self.metric

    def row(self, i):
        """``d(x_i, ·)``, for the seeding."""
        if self.X is None:
            return self.D[i]
        squared = np.maximum(self.sqnorms[i] + self.sqnorms - 2.0 * (self.X @ self.X[i]), 0.0)
        squared[i] = 0.0
        return squared if self.metric == METRICS["sqeuclidean"] else np.sqrt(squared)
