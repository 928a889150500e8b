"""k-medians (Sangnier, §2.2.2, "Variants of k-means"): ℓ1 distances and coordinate-wise medians.

The ℓ1 assignment and the coordinate-wise medians are compiled (``manhattan_assign``,
``cluster_medians``); the seeding and the grouping of samples by cluster are those of
:mod:`kernelkit.cluster._medoids`.
"""

import time
import warnings
from numbers import Integral

import numpy as np
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    ClusterMixin,
    TransformerMixin,
)
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import manhattan_distances
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from kernelkit._core._kmedians import cluster_medians, manhattan_assign
from kernelkit.cluster._medoids import _group, _plusplus
from kernelkit.utils._progress import iteration_callback, report
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads, min_work_per_thread
from kernelkit.utils._validation import MAX_INT, validate_distance_data

__all__ = ["KMedians"]


class KMedians(ClassNamePrefixFeaturesOutMixin, TransformerMixin, ClusterMixin,
               ParameterNamesOncePerClass, BaseEstimator):
    """k-medians clustering: ℓ1 distances and coordinate-wise medians.

    Minimises :math:`\\sum_i \\|x_i - c_{y_i}\\|_1` by alternating exact block minimisations, as
    Lloyd's
    algorithm does for k-means: assign every sample to the centre nearest in ℓ1 (compiled,
    lowest index on ties), then move each centre to the coordinate-wise median of its cluster —
    the minimiser of :math:`\\sum_{i \\in C} \\|x_i - c\\|_1` since the ℓ1 norm separates over
    coordinates. The
    objective never increases while no cluster empties; an empty cluster takes the sample
    farthest from its centre (as :class:`KMeans`). The median ignores the magnitude of outliers,
    which is the point of the method.

    The course's "k-median" (Sangnier, §2.2.2) is a medoid method with the unsquared Euclidean
    distance, i.e. ``KMedoids(metric="euclidean")``; this class is the continuous-centre
    k-median of the ℓ1 objective (Bradley, Mangasarian & Street 1997), which has the closed-form
    centre update (the Euclidean one, the geometric median, has none).

    Parameters
    ----------
    n_clusters : int, default=8
    init : {"k-medians++", "random"} or array-like of shape (n_clusters, n_features), \
default="k-medians++"
        "k-medians++": samples drawn with probability proportional to their ℓ1 distance to the
        nearest centre so far; "random": distinct uniform samples; an array: the centres.
    max_iter : int, default=300
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        OpenMP threads of the assignment.
    verbose : int, default=0
        Progress on stderr: 1, a line at the end (iterations, inertia, time), and lines every
        two seconds during a long fit; 2, a line per iteration.

    Attributes
    ----------
    cluster_centers_ : ndarray of shape (n_clusters, n_features)
    labels_ : ndarray of shape (n_samples,)
    inertia_ : float
        :math:`\\sum_i \\|x_i - c_{y_i}\\|_1`.
    n_iter_ : int
    inertia_history_ : ndarray of shape (n_iter_,)
        Objective of each assignment step.
    n_features_in_ : int

    See Also
    --------
    KMeans, KMedoids

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.2.2 "Variants of k-means".
    P. S. Bradley, O. L. Mangasarian and W. N. Street, "Clustering via concave minimization",
    NIPS 1997.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import KMedians

    The outlier ``[2, 30]`` does not move its cluster's centre (a mean would be ``[1.2, 7.8]``):

    >>> X = np.array([[1, 2], [1, 4], [1, 0], [1, 3], [2, 30], [10, 2], [10, 4], [10, 0], [11, 3]])
    >>> km = KMedians(n_clusters=2, random_state=1).fit(X)
    >>> km.cluster_centers_[np.argsort(km.cluster_centers_[:, 0])]
    array([[ 1. ,  3. ],
           [10. ,  2.5]])
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, MAX_INT, closed="left")],
        "init": [StrOptions({"k-medians++", "random"}), "array-like"],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "random_state": ["random_state"],
        "n_jobs": N_JOBS_CONSTRAINT,
        "verbose": ["verbose"],
    }

    def __init__(self, n_clusters=8, *, init="k-medians++", max_iter=300, random_state=None,
                 n_jobs=None, verbose=0):
        self.n_clusters = n_clusters
        self.init = init
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Compute the k-medians clustering.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        self : KMedians
        """
        X = validate_distance_data(self, X, dtype=np.float64, order="C")
        n, k = X.shape[0], self.n_clusters
        if n < k:
            raise ValueError(f"n_samples={n} should be >= n_clusters={k}.")
        n_threads = effective_n_threads(self.n_jobs)
        # each pass on a team sized by its work
        threads = (n_threads, min_work_per_thread(n_threads))
        centers = self._initial_centers(X, check_random_state(self.random_state))
        labels = np.empty(n, dtype=np.int32)
        distances = np.empty(n)
        previous = None
        history = []
        n_iter = 0
        start = time.perf_counter()
        progress = iteration_callback(
            type(self).__name__, self.verbose, 1,
            lambda n_iter, loss: f"iteration {n_iter}: loss {loss:.10g}")
        for n_iter in range(1, self.max_iter + 1):
            history.append(manhattan_assign(X, centers, labels, distances, *threads))
            if progress is not None:
                progress(n_iter, history[-1])
            if previous is not None and np.array_equal(labels, previous):
                break
            previous = labels.copy()
            centers = self._medians(X, labels, distances, threads)
        inertia = manhattan_assign(X, centers, labels, distances, *threads)
        if self.verbose:
            report(type(self).__name__, f"{n_iter} iterations, inertia {inertia:.10g}", start)
        if np.unique(labels).size < k:
            warnings.warn(f"Only {np.unique(labels).size} of the {k} clusters have samples "
                          "(duplicate samples).", ConvergenceWarning, stacklevel=2)
        self.cluster_centers_ = centers
        self.labels_ = labels.astype(np.intp)
        self.inertia_ = float(inertia)
        self.n_iter_ = n_iter
        self.inertia_history_ = np.asarray(history)
        self._n_features_out = k
        return self

    def _initial_centers(self, X, random_state):
        n, k = X.shape[0], self.n_clusters
        if not isinstance(self.init, str):
            centers = check_array(self.init, dtype=np.float64, order="C", copy=True,
                                  input_name="init")
            if centers.shape != (k, X.shape[1]):
                raise ValueError(f"init should be of shape ({k}, {X.shape[1]}), got "
                                 f"{centers.shape}.")
            return centers
        if self.init == "random":
            chosen = random_state.choice(n, size=k, replace=False)
        else:
            chosen = _plusplus(lambda i: np.abs(X - X[i]).sum(axis=1), n, k, random_state)
        return X[chosen].copy()

    def _medians(self, X, labels, distances, threads):
        """Coordinate-wise median of every cluster; an empty cluster takes the sample farthest
        from its centre (ranked once, ties by index), removed from its donor."""
        k = self.n_clusters
        labels = labels.copy()
        counts = np.bincount(labels, minlength=k)
        empty = np.flatnonzero(counts == 0)
        if empty.size:
            far = np.argsort(-distances, kind="stable")[: empty.size]
            labels[far] = empty
        order, offsets = _group(labels, k)
        centers = np.empty((k, X.shape[1]))
        cluster_medians(X, order, offsets, centers, *threads)
        return centers

    def _check_test_data(self, X):
        check_is_fitted(self)
        return validate_data(self, X, dtype=np.float64, order="C", reset=False)

    def predict(self, X):
        """Index of the centre nearest in ℓ1 (lowest index on ties).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        X = self._check_test_data(X)
        labels = np.empty(X.shape[0], dtype=np.int32)
        n_threads = effective_n_threads(self.n_jobs)
        manhattan_assign(X, self.cluster_centers_, labels, np.empty(X.shape[0]), n_threads,
                         min_work_per_thread(n_threads))
        return labels.astype(np.intp)

    def transform(self, X):
        """ℓ1 distances of each sample to every centre.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        distances : ndarray of shape (n_samples, n_clusters)
        """
        return manhattan_distances(self._check_test_data(X), self.cluster_centers_)
