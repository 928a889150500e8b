"""Internal clustering indexes: silhouette (in row blocks) and Calinski–Harabasz.

Sangnier, §2.5.2–2.5.3. Indexes that compare with ground-truth labels (Sangnier, §2.5, named only:
adjusted Rand index, (adjusted/normalised) mutual information, V-measure, Fowlkes–Mallows) are
not rewritten here: use scikit-learn's ``sklearn.metrics.adjusted_rand_score``,
``adjusted_mutual_info_score``, ``normalized_mutual_info_score``, ``v_measure_score`` and
``fowlkes_mallows_score``, which take the same label arrays. Note that, unlike the course says,
the Fowlkes–Mallows index is not adjusted for chance.
"""

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.metrics.pairwise import pairwise_distances
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_consistent_length

from kernelkit.utils._sklearn_compat import Interval, validate_params
from kernelkit.utils._validation import MAX_INT, check_memory_request, check_sparse_input

__all__ = ["silhouette_samples", "silhouette_score", "calinski_harabasz_score"]

# Default block size: rows · n_samples doubles of distances ≈ 64 MiB.
_BLOCK_BYTES = 64 * 2**20


def _encoded_labels(X, labels):
    labels = np.asarray(labels)
    check_consistent_length(X, labels)
    classes, codes = np.unique(labels, return_inverse=True)
    n_samples, n_labels = len(codes), len(classes)
    if not 2 <= n_labels <= n_samples - 1:
        raise ValueError(
            f"Number of labels is {n_labels}. Valid values are 2 to n_samples - 1 (inclusive).")
    return codes.ravel(), n_labels


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "labels": ["array-like"],
        "metric": [str, callable],
        "chunk_size": [Interval(Integral, 1, MAX_INT, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def silhouette_samples(X, labels, *, metric="euclidean", chunk_size=None, **kwds):
    r"""Silhouette coefficient of every sample, computed in row blocks.

    :math:`s_i = (b_i - a_i) / \max(a_i, b_i)` with :math:`a_i` the mean distance from
    :math:`x_i` to the other members of its cluster and :math:`b_i` the smallest mean distance to
    another cluster (Sangnier, §2.5.2). A sample alone in its cluster has :math:`s_i = 0` (the
    course's 0/0, resolved as
    in scikit-learn). Distances are computed ``chunk_size`` rows at a time and reduced at once to
    per-cluster sums, so memory is O(n_samples · chunk_size), never the full distance matrix.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
        Samples, or a distance matrix when ``metric="precomputed"`` (zero diagonal).
    labels : array-like of shape (n_samples,)
        Cluster of each sample; between 2 and ``n_samples − 1`` distinct values.
    metric : str or callable, default="euclidean"
        Any metric of ``sklearn.metrics.pairwise_distances``, or "precomputed".
    chunk_size : int, default=None
        Rows per block; None sizes blocks to about 64 MiB of distances.
    **kwds
        Passed to ``pairwise_distances``.

    Returns
    -------
    silhouette : ndarray of shape (n_samples,)
        Values in [−1, 1].

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.5.2. P. J. Rousseeuw, "Silhouettes: a graphical
    aid to the interpretation and validation of cluster analysis", J. Comput. Appl. Math. 20, 1987.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import silhouette_samples
    >>> X = np.array([[0.0], [1.0], [10.0], [11.0]])
    >>> silhouette_samples(X, [0, 0, 1, 1]).round(3)
    array([0.905, 0.895, 0.895, 0.905])
    """
    X = check_array(check_sparse_input(X), accept_sparse="csr", dtype=np.float64)
    codes, n_labels = _encoded_labels(X, labels)
    n_samples = X.shape[0]
    if metric == "precomputed":
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"metric='precomputed' needs a square matrix, got {X.shape}.")
        diagonal = X.diagonal()
        if np.any(np.abs(diagonal) > np.finfo(np.float64).eps * 100):
            raise ValueError("metric='precomputed': the distance matrix has a non-zero "
                             "diagonal; the silhouette needs d(x, x) = 0.")
    if chunk_size is None:
        chunk_size = max(1, _BLOCK_BYTES // (8 * max(n_samples, 1)))
    # a block of distances, its temporaries and its per-cluster sums
    check_memory_request(8.0 * min(chunk_size, n_samples) * (3.0 * n_samples + n_labels),
                         f"silhouette_samples(chunk_size={chunk_size}) on {n_samples} samples",
                         "lower chunk_size (or leave it None: blocks of about "
                         f"{_BLOCK_BYTES >> 20} MiB).")
    cluster_sizes = np.bincount(codes, minlength=n_labels).astype(np.float64)
    membership = sp.csr_matrix(
        (np.ones(n_samples), (np.arange(n_samples), codes)), shape=(n_samples, n_labels))
    intra = np.empty(n_samples)
    inter = np.empty(n_samples)
    for start in range(0, n_samples, chunk_size):
        stop = min(start + chunk_size, n_samples)
        if metric == "precomputed":
            block = X[start:stop]
            block = block.toarray() if sp.issparse(block) else block
        else:
            block = pairwise_distances(X[start:stop], X, metric=metric, **kwds)
            # d(x, x) = 0 exactly: the GEMM-based Euclidean distance leaves sqrt(rounding),
            # ~1e-7, on the diagonal when the block is not the whole matrix
            block[np.arange(stop - start), np.arange(start, stop)] = 0.0
        # (rows, n_labels) sums of distances to each cluster
        sums = np.asarray((membership.T @ block.T).T)
        rows = np.arange(stop - start)
        own = codes[start:stop]
        intra[start:stop] = sums[rows, own]
        sums[rows, own] = np.inf
        inter[start:stop] = (sums / cluster_sizes).min(axis=1)
    own_sizes = cluster_sizes[codes] - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        intra = np.where(own_sizes > 0, intra / np.maximum(own_sizes, 1), 0.0)
        silhouette = (inter - intra) / np.maximum(intra, inter)
    silhouette[own_sizes == 0] = 0.0
    return np.nan_to_num(silhouette)


@validate_params(
    {
        "X": ["array-like", "sparse matrix"],
        "labels": ["array-like"],
        "metric": [str, callable],
        "sample_size": [Interval(Integral, 1, MAX_INT, closed="left"), None],
        "random_state": ["random_state"],
        "chunk_size": [Interval(Integral, 1, MAX_INT, closed="left"), None],
    },
    prefer_skip_nested_validation=True,
)
def silhouette_score(X, labels, *, metric="euclidean", sample_size=None, random_state=None,
                     chunk_size=None, **kwds):
    r"""Mean silhouette coefficient :math:`\frac1n \sum_i s_i` (Sangnier, §2.5.2).

    Parameters
    ----------
    X, labels, metric, chunk_size, **kwds
        As in :func:`silhouette_samples`.
    sample_size : int, default=None
        Score a random subset of this many samples (without replacement) instead of all.
    random_state : int, RandomState instance or None, default=None
        Draws the subset when ``sample_size`` is given.

    Returns
    -------
    score : float
        In [−1, 1]; higher means tighter, better separated clusters.

    See Also
    --------
    calinski_harabasz_score : variance-ratio criterion, also favouring convex clusters.

    Notes
    -----
    The silhouette and the Calinski–Harabasz index judge a clustering without ground truth.
    With reference labels, use scikit-learn's external indexes (Sangnier, §2.5), which kernelkit
    does not duplicate: ``sklearn.metrics.adjusted_rand_score`` (ARI),
    ``adjusted_mutual_info_score`` / ``normalized_mutual_info_score`` (AMI/NMI),
    ``v_measure_score`` (with ``homogeneity_score`` and ``completeness_score``) and
    ``fowlkes_mallows_score``. All ignore label permutations; ARI and AMI are adjusted for chance
    (0 for independent labelings), Fowlkes–Mallows is not (the course says otherwise).

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import silhouette_score
    >>> X = np.array([[0.0], [1.0], [10.0], [11.0]])
    >>> round(silhouette_score(X, [0, 0, 1, 1]), 4)
    0.8997
    """
    if sample_size is not None:
        X = check_array(check_sparse_input(X), accept_sparse="csr", dtype=np.float64)
        labels = np.asarray(labels)
        check_consistent_length(X, labels)
        subset = check_random_state(random_state).permutation(X.shape[0])[:sample_size]
        X = X[subset][:, subset] if metric == "precomputed" else X[subset]
        labels = labels[subset]
    return float(np.mean(silhouette_samples(X, labels, metric=metric, chunk_size=chunk_size,
                                            **kwds)))


@validate_params(
    {"X": ["array-like"], "labels": ["array-like"]},
    prefer_skip_nested_validation=True,
)
def calinski_harabasz_score(X, labels):
    r"""Calinski–Harabasz (variance-ratio) index :math:`\frac{n - k}{k - 1} \cdot \frac bw`.

    :math:`b = \sum_j (|C_j| / n) \|\mu - \mu_j\|^2` is the between-cluster and
    :math:`w = \frac1n \sum_j \sum_{x \in C_j} \|x - \mu_j\|^2` the within-cluster variance
    (Sangnier, §2.5.3); the :math:`1/n` factors cancel. If every cluster is a single point
    (:math:`w = 0`) the index is 1, as in scikit-learn.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    labels : array-like of shape (n_samples,)
        Between 2 and ``n_samples − 1`` distinct values.

    Returns
    -------
    score : float
        Higher means better separated, more compact clusters.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.5.3. T. Caliński and J. Harabasz, "A dendrite
    method for cluster analysis", Communications in Statistics 3, 1974.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import calinski_harabasz_score
    >>> X = np.array([[0.0], [1.0], [10.0], [11.0]])
    >>> float(calinski_harabasz_score(X, [0, 0, 1, 1]))
    200.0
    """
    X = check_array(X, dtype=np.float64)
    codes, n_labels = _encoded_labels(X, labels)
    n_samples = X.shape[0]
    counts = np.bincount(codes, minlength=n_labels).astype(np.float64)
    centroids = np.zeros((n_labels, X.shape[1]))
    np.add.at(centroids, codes, X)
    centroids /= counts[:, None]
    mean = X.mean(axis=0)
    between = float(counts @ ((centroids - mean) ** 2).sum(axis=1))
    within = float(((X - centroids[codes]) ** 2).sum())
    if within == 0.0:
        return 1.0
    return between * (n_samples - n_labels) / (within * (n_labels - 1))
