"""Agglomerative hierarchical clustering: single, complete, average and Ward linkage.

Sangnier, §2.3.1 (linkages, stopping rules) and §2.3.2 (single linkage ⇔ minimum spanning tree).
"""

from numbers import Integral, Real

import numpy as np
from scipy.spatial.distance import pdist, squareform
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import validate_data

from kernelkit._core._linkage import cut_linkage, mst_single_linkage, nn_chain_linkage
from kernelkit.utils._dissimilarity import check_dissimilarities
from kernelkit.utils._progress import stage
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._validation import MAX_INT, validate_distance_data

__all__ = ["AgglomerativeClustering"]

_METRICS = {"euclidean": "euclidean", "l2": "euclidean", "manhattan": "manhattan",
            "l1": "manhattan", "cityblock": "manhattan", "cosine": "cosine"}
_PDIST_METRICS = {"euclidean": "euclidean", "manhattan": "cityblock", "cosine": "cosine"}


class AgglomerativeClustering(ClusterMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Bottom-up hierarchical clustering with single, complete, average or Ward linkage.

    Starting from singletons, the two closest clusters are merged until one is left (Sangnier
    §2.3.1), with cluster distance ``min`` (single), ``max`` (complete) or mean (average) of the
    pairwise distances, or Ward's :math:`D(A, B) = I(A \cup B) - I(A) - I(B)` (increase of
    within-cluster inertia). The whole dendrogram is built; ``n_clusters`` or
    ``distance_threshold`` then cuts it.

    Single linkage is computed as a minimum spanning tree (Sangnier, §2.3.2) by Prim's algorithm
    with distances computed on the fly: O(n²) time and O(n) memory, without any distance matrix.
    The other linkages use the nearest-neighbour chain on the condensed distance matrix
    (O(n²) time and memory), compiled.

    Parameters
    ----------
    n_clusters : int or None, default=2
        Number of clusters of the cut; None when ``distance_threshold`` is given.
    metric : {"euclidean", "manhattan", "cosine", "precomputed"}, default="euclidean"
        Distance between samples ("l2", "l1", "cityblock" are aliases). "precomputed": ``X`` is
        a symmetric distance matrix with a zero diagonal. Ward needs "euclidean".
    linkage : {"ward", "complete", "average", "single"}, default="ward"
    distance_threshold : float or None, default=None
        Cut height: merges at a height ``< distance_threshold`` are applied (scikit-learn's
        convention). Exactly one of ``n_clusters`` and ``distance_threshold`` must be None.
    verbose : int, default=0
        1: a line on stderr per stage of ``fit`` (pairwise distances, linkage), with its time.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Flat clusters of the cut, numbered in order of their first sample.
    n_clusters_ : int
    linkage_matrix_ : ndarray of shape (n_samples - 1, 4)
        The dendrogram in SciPy's format (``scipy.cluster.hierarchy.linkage``): row ``k`` merges
        clusters ``Z[k, 0] < Z[k, 1]`` at height ``Z[k, 2]`` into cluster ``n_samples + k`` of
        ``Z[k, 3]`` samples. Ward heights are SciPy's :math:`\sqrt{2 \Delta I}`.
    children_ : ndarray of shape (n_samples - 1, 2)
        ``linkage_matrix_[:, :2]`` as integers (scikit-learn's attribute).
    distances_ : ndarray of shape (n_samples - 1,)
        Merge heights, non-decreasing.
    n_leaves_ : int
    n_features_in_ : int

    See Also
    --------
    DBSCAN : density-based clustering; with ``min_samples=2`` it gives the single-linkage
        clusters cut at ``eps``.
    scipy.cluster.hierarchy.linkage : same dendrograms from a condensed distance matrix.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.3.1 and §2.3.2.
    D. Müllner, "Modern hierarchical, agglomerative clustering algorithms", arXiv:1109.2378, 2011.
    J. C. Gower and G. J. S. Ross, "Minimum spanning trees and single linkage cluster analysis",
    Applied Statistics 18, 1969.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import AgglomerativeClustering
    >>> X = np.array([[0.0], [0.4], [1.0], [5.0], [5.3]])
    >>> model = AgglomerativeClustering(n_clusters=2, linkage="single").fit(X)
    >>> model.labels_
    array([0, 0, 0, 1, 1])
    >>> model.linkage_matrix_[:, 2]
    array([0.3, 0.4, 0.6, 4. ])
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "metric": [StrOptions(set(_METRICS) | {"precomputed"})],
        "linkage": [StrOptions({"ward", "complete", "average", "single"})],
        "distance_threshold": [Interval(Real, 0, None, closed="left"), None],
        "verbose": ["verbose"],
    }

    def __init__(self, n_clusters=2, *, metric="euclidean", linkage="ward",
                 distance_threshold=None, verbose=0):
        self.n_clusters = n_clusters
        self.metric = metric
        self.linkage = linkage
        self.distance_threshold = distance_threshold
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Build the dendrogram of ``X`` and cut it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or distances when ``metric="precomputed"``.
        y : None
            Ignored.

        Returns
        -------
        self : AgglomerativeClustering
        """
        if (self.n_clusters is None) == (self.distance_threshold is None):
            raise ValueError("Exactly one of n_clusters and distance_threshold must be None.")
        if self.linkage == "ward" and self.metric not in ("euclidean", "l2"):
            raise ValueError(f"Ward linkage needs metric='euclidean', got {self.metric!r}.")
        if self.metric == "precomputed":
            X = validate_data(self, X, dtype=np.float64, order="C", ensure_min_samples=2)
        else:
            X = validate_distance_data(self, X, dtype=np.float64, order="C",
                                       ensure_min_samples=2)
        n_samples = X.shape[0]
        if self.n_clusters is not None and self.n_clusters > n_samples:
            raise ValueError(
                f"n_clusters={self.n_clusters} is larger than n_samples={n_samples}.")
        metric = "precomputed" if self.metric == "precomputed" else _METRICS[self.metric]
        if metric == "precomputed":
            X = check_dissimilarities(X, "metric='precomputed': the distance matrix")

        Z = np.empty((n_samples - 1, 4))
        label = type(self).__name__
        if self.linkage != "single" and metric == "precomputed":
            condensed = squareform(X, checks=False)
        elif self.linkage != "single":
            with stage(label, self.verbose, f"{n_samples * (n_samples - 1) // 2} pairwise "
                                            "distances"):
                condensed = pdist(X, _PDIST_METRICS[metric])
        with stage(label, self.verbose, f"{self.linkage} linkage of {n_samples} samples"):
            if self.linkage == "single":
                mst_single_linkage(X, Z, metric)
            else:
                nn_chain_linkage(np.ascontiguousarray(condensed), n_samples, Z, self.linkage)

        if self.n_clusters is not None:
            n_merges = n_samples - self.n_clusters
        else:
            n_merges = int(np.count_nonzero(Z[:, 2] < self.distance_threshold))
        labels = np.empty(n_samples, dtype=np.intp)
        self.n_clusters_ = cut_linkage(Z, n_merges, labels)
        self.labels_ = labels
        self.linkage_matrix_ = Z
        self.children_ = Z[:, :2].astype(np.intp)
        self.distances_ = Z[:, 2].copy()
        self.n_leaves_ = n_samples
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.metric == "precomputed"
        return tags

