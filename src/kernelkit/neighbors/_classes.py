"""k-nearest-neighbour classification and regression (Sangnier, *Introduction to machine
learning*, §1.6.1; Peyré, *Mathematical Foundations of Data Sciences*, ch. 16, §16.4.1 and
§16.5.2)."""

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from kernelkit.neighbors._base import NeighborsBase
from kernelkit.utils._docstrings import fill_doc
from kernelkit.utils._sklearn_compat import _fit_context
from kernelkit.utils._validation import check_class_labels

__all__ = ["KNeighborsClassifier", "KNeighborsRegressor"]

_SHARED_PARAMETERS = """n_neighbors : int, default=5
        Number of neighbours ``k``.
    weights : {"uniform", "distance", "gaussian"}, default="uniform"
        Vote of each neighbour: 1; ``1/d`` (where a query coincides with training samples, only
        those vote); or ``exp(−γ d²)`` (the course's weighted rule; ``γ = 0`` is uniform).
    gamma : float, default=1.0
        ``γ`` of the Gaussian weights.
    metric : {"euclidean", "precomputed"}, default="euclidean"
        "precomputed": ``X`` holds distances, ``(n_samples, n_samples)`` at fit and
        ``(n_queries, n_samples_fit)`` afterwards.
    kernel : str, callable, "precomputed", kernel object or None, default=None
        Neighbours in the kernel's feature space, by the distance ``‖φ(x) − φ(y)‖² = k(x, x) +
        k(y, y) − 2k(x, y)`` (Peyré, §16.5.2): a vector kernel name, a callable, a precomputed
        Gram matrix, or a kernelkit string or graph kernel such as ``SpectrumKernel(k=3)``, so
        sequences and graphs can be classified directly.
    kernel_params : dict, default=None
        ``gamma``, ``degree``, ``coef0`` of a vector kernel, or keyword arguments of a callable.
    algorithm : {"auto", "brute", "kd_tree"}, default="auto"
        Euclidean search: the compiled brute-force core (GEMM distances fused with a heap per
        query, memory independent of the data size) or the compiled KD-tree (median splits,
        bounding boxes, a copy of the training rows in their dtype); "auto" takes the tree for
        at most 20 features and at least 20 000 training samples when its search of 256
        training rows computes at most a tenth of the distances a brute force would (clustered
        or low-dimensional data). Both find the same neighbours.
    n_jobs : int, default=None
        Threads of the search and of the kernel Gram matrices.
    verbose : int, default=0
        1: the queries of ``kneighbors``, ``predict`` and ``predict_proba`` are searched in
        twenty blocks, with a progress line on stderr every 2 s once the search has lasted
        2 s; 2: a line after every block. The neighbours do not depend on it."""

_SHARED_NOTES = """Neighbours are ordered by distance, then by training index, so the result never
    depends on the thread count or the algorithm. The KD-tree and the brute force from 16
    features (entries within float32's range) compare exact double-precision distances; the
    brute force in fewer dimensions compares GEMM distances, exact for integer features (as on
    the digits) and otherwise accurate to rounding, which may swap neighbours at equal distance
    up to rounding.

    ``fit`` validates and stores the training samples; the search index is built at the first
    query (the KD-tree, or the float32 copy that screens the brute force's candidates), from the
    data and the parameters of the fit, and kept until the next ``fit``; threads querying at
    once build it once. A pickle leaves it out: the first query after loading builds it again,
    the same."""


@fill_doc(shared_notes=_SHARED_NOTES, shared_parameters=_SHARED_PARAMETERS)
class KNeighborsClassifier(ClassifierMixin, NeighborsBase):
    """Classifier by vote of the ``k`` nearest training samples.

    ``g(x) ∈ argmax_y Σ_{i ≤ k} w_i 1{Y_(i) = y}`` over the ``k`` nearest neighbours
    ``X_(1), …, X_(k)`` (Sangnier, §1.6.1; Peyré, §16.4.1); equal votes go to the smallest
    class label. ``predict_proba`` gives the normalised votes.

    Parameters
    ----------
    %(shared_parameters)s

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_samples_fit_ : int
    n_features_in_ : int
        For vector input.

    Notes
    -----
    %(shared_notes)s

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.6.1, Theorem 63.
    .. [2] Peyré, *Mathematical Foundations of Data Sciences*, ch. 16, §16.4.1 and §16.5.2.

    See Also
    --------
    KNeighborsRegressor : The mean of the neighbours' targets.
    kernelkit.linear_model.NearestCentroid : One prototype per class instead of every sample.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from kernelkit.neighbors import KNeighborsClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> knn = KNeighborsClassifier(n_neighbors=5).fit(X, y)
    >>> round(knn.score(X, y), 2), knn.kneighbors(X[:1], 3, return_distance=False).tolist()
    (0.97, [[0, 17, 4]])
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Store the training samples and their labels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), distances, Gram matrix or objects
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : KNeighborsClassifier
        """
        y = self._fit_neighbors(X, y)
        check_class_labels(y)
        self.classes_, self._y = np.unique(y, return_inverse=True)
        return self

    def predict_proba(self, X):
        """Normalised (weighted) votes of the neighbours, shape (n_queries, n_classes)."""
        check_is_fitted(self)
        distances, indices = self.kneighbors(X)
        weights = self._weights(distances)
        labels = self._y[indices]
        votes = np.stack([(weights * (labels == c)).sum(axis=1)
                          for c in range(len(self.classes_))], axis=1)
        return votes / votes.sum(axis=1, keepdims=True)

    def predict(self, X):
        """Class of the largest vote (ties: the smallest label)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


@fill_doc(shared_notes=_SHARED_NOTES, shared_parameters=_SHARED_PARAMETERS)
class KNeighborsRegressor(RegressorMixin, NeighborsBase):
    """Regression by the (weighted) mean target of the ``k`` nearest training samples.

    ``f(x) = Σ_{i ≤ k} w_i Y_(i) / Σ_{i ≤ k} w_i`` (Sangnier, §1.6.1).

    Parameters
    ----------
    %(shared_parameters)s

    Attributes
    ----------
    n_samples_fit_ : int
    n_features_in_ : int
        For vector input.

    Notes
    -----
    %(shared_notes)s

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.6.1.

    See Also
    --------
    KNeighborsClassifier : The vote of the neighbours.
    kernelkit.kernel_ridge.KernelRidge : A smooth kernel-weighted fit instead of a local mean.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.neighbors import KNeighborsRegressor
    >>> X = np.arange(10.0)[:, None]
    >>> KNeighborsRegressor(n_neighbors=2).fit(X, X.ravel() ** 2).predict([[4.4]])
    array([20.5])
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Store the training samples and their targets.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), distances, Gram matrix or objects
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        self : KNeighborsRegressor
        """
        self._y = np.asarray(self._fit_neighbors(X, y, y_numeric=True, multi_output=True),
                             dtype=np.float64)
        return self

    def predict(self, X):
        """Weighted mean of the neighbours' targets."""
        check_is_fitted(self)
        distances, indices = self.kneighbors(X)
        weights = self._weights(distances)
        weights /= weights.sum(axis=1, keepdims=True)
        if self._y.ndim == 1:
            return np.einsum("qk,qk->q", weights, self._y[indices])
        return np.einsum("qk,qkt->qt", weights, self._y[indices])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
