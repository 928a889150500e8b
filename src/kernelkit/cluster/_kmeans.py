"""k-means by Lloyd's algorithm with k-means++ seeding.

Sangnier, §2.2 (Algorithm 9, k-means; Algorithm 10, k-means++; Property 55, Prop 56-57) and Peyré,
*Mathematical Foundations of Data Sciences*, ch. 16, §16.1.2. Peyré's k-means++ squares an
already squared distance (D⁴ weighting, a typo); we implement the standard D² sampling of
Sangnier, Algorithm 10 and Arthur & Vassilvitskii (2007).
"""

import time
import warnings
from numbers import Integral, Real

import numpy as np
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

from kernelkit._core._kmeans_elkan import center_geometry, elkan_iter
from kernelkit._core._kmeans_hamerly import hamerly_iter
from kernelkit._core._kmeans_lloyd import inertia as _inertia
from kernelkit._core._kmeans_lloyd import lloyd_iter
from kernelkit._core._kmeans_seeding import candidate_distances, weighted_cumsum
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._progress import report
from kernelkit.utils._screening import float32_screening_copy
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _check_sample_weight,
    _fit_context,
    validate_params,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads, min_work_per_thread
from kernelkit.utils._validation import MAX_INT, check_memory_request, validate_distance_data

__all__ = ["KMeans", "kmeans_lloyd", "kmeans_plusplus"]


# ----------------------------------------------------------------------------------------------
# Seeding


@validate_params(
    {
        "X": ["array-like"],
        "n_clusters": [Interval(Integral, 1, MAX_INT, closed="left")],
        "sample_weight": ["array-like", None],
        "random_state": ["random_state"],
        "n_local_trials": [Interval(Integral, 1, MAX_INT, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def kmeans_plusplus(X, n_clusters, *, sample_weight=None, random_state=None, n_local_trials=None):
    r"""Choose initial k-means centres by D² sampling (k-means++).

    The first centre is drawn with probability proportional to ``w_i``; each next one is drawn
    with probability :math:`w_i D_i^2 / \sum_j w_j D_j^2`, where :math:`D_i` is the distance of
    :math:`x_i` to its
    nearest centre so far (Sangnier, Algorithm 10). With ``n_local_trials > 1`` (greedy
    k-means++), that many candidates are drawn and the one that lowers the potential most is kept.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Data to pick the centres from.
    n_clusters : int
        Number of centres.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; None means all ones.
    random_state : int, RandomState instance or None, default=None
        Seed of the draws.
    n_local_trials : int, default=None
        Candidates per centre. None means ``2 + int(log(n_clusters))`` (greedy, as
        scikit-learn); 1 is the plain algorithm of the course.

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
        The chosen centres, rows of ``X``.
    indices : ndarray of shape (n_clusters,)
        Their row indices in ``X``.

    References
    ----------
    Sangnier, §2.2.2, Algorithm 10. D. Arthur and S. Vassilvitskii, "k-means++: the advantages of
    careful seeding", SODA 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import kmeans_plusplus
    >>> X = np.array([[0.0, 0.0], [0.1, 0.0], [10.0, 10.0], [10.1, 10.0]])
    >>> centers, indices = kmeans_plusplus(X, 2, random_state=0)
    >>> sorted(int(i) // 2 for i in indices)
    [0, 1]
    """
    X = check_array(X, dtype=[np.float64, np.float32], order="C", input_name="X")
    sample_weight = _checked_weights(sample_weight, X)
    if n_clusters > X.shape[0]:
        raise ValueError(
            f"n_samples={X.shape[0]} should be >= n_clusters={n_clusters}."
        )
    random_state = check_random_state(random_state)
    return _kmeans_plusplus(X, n_clusters, row_norms(X, squared=True), sample_weight,
                            random_state, n_local_trials, effective_n_threads())


def _kmeans_plusplus(X, n_clusters, x_squared_norms, sample_weight, random_state, n_local_trials,
                     n_threads):
    n_samples, n_features = X.shape
    if n_local_trials is None:
        n_local_trials = 2 + int(np.log(n_clusters))
    # each step: the candidates' rows and their squared distances to every sample (with the
    # temporaries of the distance computation)
    check_memory_request(8.0 * n_local_trials * (3.0 * n_samples + n_features),
                         f"kmeans_plusplus(n_local_trials={n_local_trials}) on {n_samples} "
                         "samples", "lower n_local_trials (2 + log(n_clusters) is the usual).")
    centers = np.empty((n_clusters, n_features), dtype=X.dtype)
    indices = np.empty(n_clusters, dtype=np.intp)
    # two (n_local_trials, n_samples) buffers, taken in turn: the chosen row of one step is the
    # next step's closest_sq
    buffers = [np.empty((n_local_trials, n_samples), dtype=X.dtype) for _ in range(2)]
    cumulative = np.empty(n_samples, dtype=X.dtype)
    threads = (n_threads, min_work_per_thread(n_threads))

    # the cores' GEMMs and the potentials' products on one BLAS thread each: a team of BLAS
    # threads would spin on the cores the next OpenMP loops need
    with blas_limit(1):
        first = random_state.choice(n_samples, p=sample_weight / sample_weight.sum())
        centers[0], indices[0] = X[first], first
        closest_sq = _candidate_distances(X[[first]], X, x_squared_norms,
                                          np.full(n_samples, np.inf, dtype=X.dtype),
                                          buffers[1][:1], threads)[0]
        for c in range(1, n_clusters):
            # side="right": a draw always lands on a point of positive probability, never on an
            # already chosen centre (D_i = 0).
            weighted_cumsum(sample_weight, closest_sq, cumulative)   # np.cumsum(w * D)
            draws = random_state.uniform(size=n_local_trials) * cumulative[-1]
            candidates = np.minimum(np.searchsorted(cumulative, draws, side="right"),
                                    n_samples - 1)
            cand_sq = _candidate_distances(X[candidates], X, x_squared_norms, closest_sq,
                                           buffers[(c - 1) % 2], threads)
            cand_potential = cand_sq @ sample_weight
            best = int(np.argmin(cand_potential))
            closest_sq = cand_sq[best]
            centers[c], indices[c] = X[candidates[best]], candidates[best]
    return centers, indices


def _candidate_distances(A, X, x_squared_norms, closest_sq, out, threads):
    """``min(closest_sq, ‖a − x‖²)`` for every row pair, ``‖a − x‖²`` by
    ``‖a‖² − 2a·x + ‖x‖²`` clamped at 0 (rounding can make it slightly negative), into ``out``:
    a GEMM and a pass per block of samples, on up to ``threads = (n_threads,
    min_work_per_thread)`` OpenMP threads."""
    candidate_distances(X, A, row_norms(A, squared=True), x_squared_norms, closest_sq, out,
                        *threads)
    return out


# ----------------------------------------------------------------------------------------------
# Lloyd iterations


def kmeans_lloyd(X, centers_init, max_iter=300, tol=1e-4, sample_weight=None, n_threads=None,
                 verbose=0, algorithm="lloyd", x_squared_norms=None):
    """Lloyd's algorithm from given centres (Sangnier, Algorithm 9), compiled.

    Each iteration assigns every sample to its nearest centre (lowest index on ties) and moves
    each centre to the weighted mean of its cluster. A cluster left empty takes the sample
    farthest from its own centre (which may raise the objective). Stops when the labels no
    longer change, when the summed squared centre shift is at most ``tol``, or after
    ``max_iter`` iterations; the labels returned are those of the returned centres.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float32 or float64, C-contiguous
    centers_init : ndarray of shape (n_clusters, n_features), same dtype
    max_iter : int, default=300
    tol : float, default=1e-4
        Absolute tolerance on ``Σ_l ‖c_l^new − c_l^old‖²``.
    sample_weight : ndarray of shape (n_samples,), default=None
    n_threads : int, default=None
        OpenMP threads, as resolved by ``effective_n_threads`` (None: all allowed).
    verbose : int, default=0
        When positive, one line on stderr per iteration (objective, centre shift, time).
    algorithm : {"lloyd", "elkan", "hamerly"}, default="lloyd"
        How each assignment step is computed: a GEMM of all samples against all centres, or
        after the first step Elkan's bounds (one float32 lower bound per sample and centre) or
        Hamerly's (two per sample, unsettled samples re-assigned by the GEMM). All apply the
        same exact assignment rule (see ``kernelkit._core._kmeans_lloyd``), so they return the
        same labels, bit-identical centres and the same ``n_iter``.
    x_squared_norms : ndarray of shape (n_samples,), default=None
        ``row_norms(X, squared=True)``, if the caller has it (None: computed here).

    Returns
    -------
    centers : ndarray of shape (n_clusters, n_features)
    labels : ndarray of shape (n_samples,), int32
    inertia : float
        ``Σ_i w_i ‖x_i − c_{label_i}‖²``.
    n_iter : int
        Lloyd iterations run.
    objective_history : ndarray of shape (n_iter,)
        Objective of each assignment step, ``E(labels_t, centers_{t−1})``: non-increasing
        while no cluster empties (Sangnier, Prop 56). Computed from the cluster sums, so it
        carries rounding of order ``ε Σ w‖x‖²``.
    """
    dtype = X.dtype
    n_samples = X.shape[0]
    if n_threads is None:
        n_threads = effective_n_threads()
    if sample_weight is None:
        sample_weight = np.ones(n_samples, dtype=dtype)
    sample_weight = np.ascontiguousarray(sample_weight, dtype=dtype)
    centers = np.array(centers_init, dtype=dtype, order="C", copy=True)
    n_clusters = centers.shape[0]
    if x_squared_norms is None:
        x_squared_norms = row_norms(X, squared=True)

    labels = np.full(n_samples, -1, dtype=np.int32)
    labels_old = labels.copy()
    center_sums = np.zeros((n_clusters, X.shape[1]), dtype=np.float64)
    weights = np.zeros(n_clusters, dtype=np.float64)
    sums = {"center_sums": center_sums, "weight_in_clusters": weights}
    X_screen = float32_screening_copy(X)
    step = (None if algorithm == "lloyd"
            else _BoundedStep(algorithm, n_samples, n_clusters, X_screen))
    history = []
    converged_strictly = False
    n_iter = 0
    start = time.perf_counter()
    old_centers = centers
    # The cores call BLAS from every OpenMP thread: keep BLAS itself single-threaded (and the
    # dot product below: a team of BLAS threads woken there would spin on the cores the first
    # steps need).
    with blas_limit(1):
        # Σ w‖x‖²: with the cluster sums S_l = Σ_{y_i=l} w_i x_i and weights W_l, the objective
        # of an assignment step is Σ w‖x‖² − 2 Σ_l c_l·S_l + Σ_l W_l‖c_l‖², so no per-sample work.
        weighted_square_sum = float(sample_weight @ x_squared_norms)
        for n_iter in range(1, max_iter + 1):
            if step is None:
                lloyd_iter(X, sample_weight, centers, labels, sums, X_screen=X_screen,
                           n_threads=n_threads)
            else:
                step(X, sample_weight, centers, old_centers, labels, sums, n_threads)
            c64 = centers.astype(np.float64, copy=False)
            history.append(weighted_square_sum - 2.0 * float(np.vdot(c64, center_sums))
                           + float(weights @ row_norms(c64, squared=True)))
            _relocate_empty_clusters(X, sample_weight, centers, labels, center_sums, weights)
            new_centers = (center_sums / weights[:, None]).astype(dtype, copy=False)
            shift = float(((new_centers - centers) ** 2).sum())
            old_centers, centers = centers, np.ascontiguousarray(new_centers)
            if verbose:
                report("KMeans", f"iteration {n_iter}: objective {history[-1]:.10g}, centre "
                                 f"shift {shift:.3g}", start)
            if np.array_equal(labels, labels_old):
                converged_strictly = True
                break
            if shift <= tol:
                break
            labels_old[:] = labels
        if not converged_strictly:
            # The centres moved after the last assignment: re-assign so labels match centres.
            if step is None:
                lloyd_iter(X, sample_weight, centers, labels, X_screen=X_screen,
                           n_threads=n_threads)
            else:
                step(X, sample_weight, centers, old_centers, labels, None, n_threads)
    value = _inertia(X, sample_weight, centers, labels, n_threads,
                     min_work_per_thread(n_threads))
    return centers, labels, value, n_iter, np.asarray(history)


class _BoundedStep:
    """Elkan's or Hamerly's state across the steps of one run: bounds and centre geometry.

    The first call is a Lloyd step that also initialises the bounds from its GEMM values; the
    next ones are bounded steps from the centres of the previous call.
    """

    def __init__(self, algorithm, n_samples, n_clusters, X_screen):
        self.elkan = algorithm == "elkan"
        self.X_screen = X_screen
        self.bounds = {"upper": np.empty(n_samples)}
        if self.elkan:
            self.bounds["lower"] = np.empty((n_samples, n_clusters), dtype=np.float32)
        else:
            self.bounds["second"] = np.empty(n_samples)
        self.geometry = {"half_distances": np.empty((n_clusters, n_clusters)),
                         "next_half": np.empty(n_clusters), "shifts": np.empty(n_clusters)}
        self.started = False

    def __call__(self, X, sample_weight, centers, old_centers, labels, sums, n_threads):
        """One step; ``sums`` is the cores' group of cluster sums, or None to assign only."""
        if not self.started:
            self.started = True
            lloyd_iter(X, sample_weight, centers, labels, sums, self.bounds, self.X_screen,
                       n_threads)
            return
        center_geometry(centers, old_centers, self.geometry)
        if self.elkan:
            elkan_iter(X, sample_weight, centers, self.geometry, labels, self.bounds, sums,
                       n_threads)
        else:
            hamerly_iter(X, sample_weight, centers, self.geometry, labels, self.bounds, sums,
                         self.X_screen, n_threads)


def _relocate_empty_clusters(X, sample_weight, centers, labels, center_sums, weights):
    """Give each empty cluster the sample farthest from its centre (in place on sums/weights).

    The far samples are ranked once, by decreasing distance to the centre they were assigned
    to, ties by index; the donor cluster loses the sample's weight and contribution.
    """
    empty = np.flatnonzero(weights == 0)
    if empty.size == 0:
        return
    dist_sq = ((X - centers[labels]) ** 2).sum(axis=1)
    far = np.argsort(-dist_sq, kind="stable")[: empty.size]
    for cluster, i in zip(empty, far):
        w = float(sample_weight[i])
        donor = labels[i]
        center_sums[donor] -= w * X[i]
        weights[donor] -= w
        center_sums[cluster] = w * X[i]
        weights[cluster] = w


def _checked_weights(sample_weight, X):
    sample_weight = _check_sample_weight(sample_weight, X, dtype=X.dtype,
                                         ensure_non_negative=True)
    if not sample_weight.sum() > 0:
        raise ValueError("sample_weight must have a positive sum.")
    return sample_weight


# ----------------------------------------------------------------------------------------------
# Estimator


class KMeans(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ClusterMixin,
             ParameterNamesOncePerClass, BaseEstimator):
    """k-means clustering by Lloyd's algorithm, compiled and parallel.

    Minimises the within-cluster sum of squares
    :math:`E = \\sum_l \\sum_{i: y_i = l} w_i \\|x_i - c_l\\|^2` by
    alternating exact block minimisations (Sangnier, Algorithm 9): assign each sample to its
    nearest centre, then move each centre to the mean of its cluster. :math:`E` never increases
    (Sangnier, Prop 56), except when an empty cluster is re-seeded with the farthest sample.

    The assignment step is one GEMM per chunk of samples
    (:math:`\\|x - c\\|^2 = \\|x\\|^2 - 2 x \\cdot c + \\|c\\|^2`)
    fused with the accumulation of the new centres, in OpenMP threads; the result does not
    depend on the number of threads.

    Parameters
    ----------
    n_clusters : int, default=8
        Number of clusters.
    init : {"k-means++", "random"} or array-like of shape (n_clusters, n_features), \
            default="k-means++"
        "k-means++": greedy D² sampling (:func:`kmeans_plusplus`); "random": ``n_clusters``
        distinct samples drawn with probability proportional to their weight; an array: the
        initial centres.
    n_init : "auto" or int, default="auto"
        Runs from different seeds; the one of lowest inertia is kept. "auto" (scikit-learn's
        meaning): 1 run for ``init="k-means++"`` or given centres, 10 for ``init="random"``.
    max_iter : int, default=300
        Maximum Lloyd iterations per run.
    tol : float, default=1e-4
        Relative tolerance: a run stops when :math:`\\sum_l \\|\\Delta c_l\\|^2` is at most ``tol``
        times the mean
        per-feature variance of ``X`` (scikit-learn's convention), or when labels are stable.
    random_state : int, RandomState instance or None, default=None
        Seed of the initialisation.
    n_jobs : int, default=None
        OpenMP threads; None uses all the runtime allows, -1 all CPUs.
    verbose : int, default=0
        Progress on stderr. 1: one line per initialisation run (inertia, iterations, time);
        2: also one line per Lloyd iteration (objective, centre shift).
    algorithm : {"lloyd", "elkan", "hamerly", "auto"}, default="auto"
        How the assignment steps are computed (scikit-learn's names, plus Hamerly's). "lloyd": a
        GEMM of the samples against all centres per step (in float32 for float64 data with at
        least 16 features, near ties then decided in double precision). "elkan": Elkan's
        triangle-inequality bounds (an extra ``n_samples × n_clusters`` float32 table) skip most
        distances after the first step. "hamerly": one upper and one lower bound per sample;
        the samples they cannot settle are re-assigned together by Lloyd's GEMM kernel. All
        three give the same labels, bit-identical centres and the same ``n_iter_`` from the same
        start. "auto" is "hamerly", the fastest fit to convergence in every case measured
        (``bench/results/kmeans.md``).

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
        Centres of the best run.
    labels_ : ndarray of shape (n_samples,)
        Label of each training sample.
    inertia_ : float
        Weighted within-cluster sum of squared distances.
    n_iter_ : int
        Iterations of the best run.
    inertia_history_ : ndarray of shape (n_iter_,)
        Objective after each assignment step of the best run.
    n_features_in_ : int
        Number of features seen in `fit`.

    See Also
    --------
    kmeans_plusplus : The seeding on its own.
    elbow_curve : Inertia against the number of clusters.
    kernelkit.reference.kmeans_lloyd : The pure-NumPy twin of the Lloyd iterations.

    References
    ----------
    Sangnier, §2.2 (Algorithms 9 and 10, Prop 56-57); Peyré, §16.1.2.
    S. Lloyd, "Least squares quantization in PCM", IEEE Trans. Inf. Theory 28(2), 1982.
    D. Arthur and S. Vassilvitskii, "k-means++", SODA 2007.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import KMeans
    >>> X = np.array([[1, 2], [1, 4], [1, 0], [10, 2], [10, 4], [10, 0]])
    >>> km = KMeans(n_clusters=2, random_state=0).fit(X)
    >>> km.cluster_centers_[np.argsort(km.cluster_centers_[:, 0])]
    array([[ 1.,  2.],
           [10.,  2.]])
    >>> float(km.inertia_)
    16.0
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, MAX_INT, closed="left")],
        "init": [StrOptions({"k-means++", "random"}), "array-like"],
        "n_init": [StrOptions({"auto"}), Interval(Integral, 1, MAX_INT, closed="left")],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
        "algorithm": [StrOptions({"lloyd", "elkan", "hamerly", "auto"})],
    }

    def __init__(self, n_clusters=8, *, init="k-means++", n_init="auto", max_iter=300, tol=1e-4,
                 random_state=None, n_jobs=None, verbose=0, algorithm="auto"):
        self.n_clusters = n_clusters
        self.init = init
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.algorithm = algorithm

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, sample_weight=None):
        """Compute k-means clustering.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; float32 stays float32, other types become float64.
        y : Ignored
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the samples.

        Returns
        -------
        self : KMeans
        """
        X = validate_distance_data(self, X, dtype=[np.float64, np.float32], order="C", copy=True)
        sample_weight = _checked_weights(sample_weight, X)
        if X.shape[0] < self.n_clusters:
            raise ValueError(
                f"n_samples={X.shape[0]} should be >= n_clusters={self.n_clusters}."
            )
        n_weighted = int(np.count_nonzero(sample_weight))
        if n_weighted < self.n_clusters:
            # an empty cluster would be re-seeded with a weightless sample: a 0/0 centre
            raise ValueError(
                f"Only {n_weighted} samples have a positive weight, fewer than "
                f"n_clusters={self.n_clusters}.")
        init = self.init
        explicit_init = not isinstance(init, str)
        if explicit_init:
            init = check_array(init, dtype=X.dtype, order="C", copy=True, input_name="init")
            if init.shape != (self.n_clusters, X.shape[1]):
                raise ValueError(
                    f"init should be of shape ({self.n_clusters}, {X.shape[1]}) "
                    f"(n_clusters, n_features), got {init.shape}."
                )
            if self.n_init not in ("auto", 1):
                warnings.warn(
                    f"Explicit initial centres given: n_init={self.n_init} is ignored, one run "
                    "is made.", RuntimeWarning, stacklevel=2,
                )
        random_state = check_random_state(self.random_state)
        n_threads = effective_n_threads(self.n_jobs)

        # Centre the data: the expansion ‖x‖² − 2x·c + ‖c‖² loses precision far from the origin.
        X_mean = X.mean(axis=0)
        X -= X_mean
        if explicit_init:
            init -= X_mean
        x_squared_norms = row_norms(X, squared=True)
        # X is centred: the mean of the features' variances is Σ‖x‖² / (n d) (one strided
        # np.var pass cost as much as a Lloyd step on small data)
        tol = self.tol * float(x_squared_norms.sum()) / X.size if self.tol else 0.0

        n_init = self.n_init
        if n_init == "auto":
            n_init = 10 if isinstance(self.init, str) and self.init == "random" else 1
        best = None
        n_runs = 1 if explicit_init else n_init
        for run_index in range(n_runs):
            start = time.perf_counter()
            if explicit_init:
                centers_init = init
            else:
                centers_init = self._initial_centers(X, x_squared_norms, sample_weight,
                                                     random_state, n_threads)
            run = kmeans_lloyd(X, centers_init, self.max_iter, tol, sample_weight, n_threads,
                               max(0, self.verbose - 1),
                               "hamerly" if self.algorithm == "auto" else self.algorithm,
                               x_squared_norms)
            if self.verbose:
                report("KMeans", f"init {run_index + 1} of {n_runs}: inertia {run[2]:.10g}, "
                                 f"{run[3]} iterations", start)
            if best is None or run[2] < best[2]:
                best = run
        centers, labels, inertia, n_iter, history = best

        n_distinct = np.count_nonzero(np.bincount(labels, minlength=self.n_clusters))
        if n_distinct < self.n_clusters:
            warnings.warn(
                f"Number of distinct clusters ({n_distinct}) found smaller than n_clusters "
                f"({self.n_clusters}). Possibly due to duplicate points in X.",
                ConvergenceWarning, stacklevel=2,
            )
        self.cluster_centers_ = centers + X_mean
        self.labels_ = labels
        self.inertia_ = float(inertia)
        self.n_iter_ = int(n_iter)
        self.inertia_history_ = history
        self._n_features_out = self.n_clusters
        return self

    def _initial_centers(self, X, x_squared_norms, sample_weight, random_state, n_threads):
        if self.init == "k-means++":
            return _kmeans_plusplus(X, self.n_clusters, x_squared_norms, sample_weight,
                                    random_state, None, n_threads)[0]
        indices = random_state.choice(X.shape[0], size=self.n_clusters, replace=False,
                                      p=sample_weight / sample_weight.sum())
        return X[indices]

    def _check_test_data(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=[np.float64, np.float32], order="C", reset=False)

    def predict(self, X):
        """Index of the nearest centre for each sample (lowest index on ties).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        X = self._check_test_data(X)
        return self._assign(X)[0]

    def _assign(self, X, sample_weight=None):
        sample_weight = _check_sample_weight(sample_weight, X, dtype=X.dtype,
                                             ensure_non_negative=True)
        centers = np.ascontiguousarray(self.cluster_centers_, dtype=X.dtype)
        labels = np.empty(X.shape[0], dtype=np.int32)
        n_threads = effective_n_threads(self.n_jobs)
        with blas_limit(1):
            lloyd_iter(X, sample_weight, centers, labels, X_screen=float32_screening_copy(X),
                       n_threads=n_threads)
        return labels, sample_weight, centers, n_threads

    def transform(self, X):
        """Distances of each sample to every centre.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        distances : ndarray of shape (n_samples, n_clusters)
        """
        X = self._check_test_data(X)
        return euclidean_distances(X, self.cluster_centers_)

    def score(self, X, y=None, sample_weight=None):
        r"""Opposite of the k-means objective of ``X`` against the fitted centres.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : Ignored
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        score : float
            :math:`-\sum_i w_i \min_l \|x_i - c_l\|^2`.
        """
        X = self._check_test_data(X)
        labels, sample_weight, centers, n_threads = self._assign(X, sample_weight)
        return -float(_inertia(X, sample_weight, centers, labels, n_threads,
                               min_work_per_thread(n_threads)))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = False
        return tags
