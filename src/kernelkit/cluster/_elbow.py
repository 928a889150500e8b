"""The elbow method (Sangnier, §2.5.1): inertia of k-means against the number of clusters."""

import numpy as np
from sklearn.base import clone
from sklearn.utils.validation import check_array

from kernelkit.cluster._kmeans import KMeans

__all__ = ["elbow_curve"]


def elbow_curve(X, k_values, *, estimator=None, sample_weight=None):
    r"""Within-cluster inertia of k-means for each number of clusters in ``k_values``.

    The elbow — where the curve turns from steep to flat — suggests a number of clusters; it is
    "not always unambiguously identified" (Sangnier, §2.5.1), so no automatic choice is made.
    By Huygens' theorem (Sangnier, Prop 57) the between-cluster part is
    ``total − inertia`` with :math:`\mathrm{total} = \sum_i w_i \|x_i - \bar x\|^2`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    k_values : iterable of int
        Numbers of clusters to try.
    estimator : KMeans, default=None
        Template (cloned for every k, ``n_clusters`` overwritten); default ``KMeans(n_init=4,
        random_state=0)``.
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    inertias : ndarray of shape (len(k_values),)
        ``inertia_`` of the fitted model for each k.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.cluster import elbow_curve
    >>> X = np.array([[0.0], [0.2], [5.0], [5.2], [10.0], [10.2]])
    >>> np.round(elbow_curve(X, [1, 2, 3]), 3).tolist()
    [100.06, 25.06, 0.06]
    """
    X = check_array(X, dtype=[np.float64, np.float32], input_name="X")
    template = KMeans(n_init=4, random_state=0) if estimator is None else estimator
    k_values = [int(k) for k in k_values]
    if not k_values:
        raise ValueError("k_values must contain at least one number of clusters.")
    return np.array([
        clone(template).set_params(n_clusters=k).fit(X, sample_weight=sample_weight).inertia_
        for k in k_values
    ])
