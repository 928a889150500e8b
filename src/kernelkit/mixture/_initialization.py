"""Initial responsibilities shared by the mixture models (EM starts)."""

import numpy as np

from kernelkit.cluster import KMeans, kmeans_plusplus

__all__ = ["INIT_PARAMS", "initial_responsibilities"]

INIT_PARAMS = ("kmeans", "k-means++", "random", "random_from_data")


def initial_responsibilities(X, n_components, init_params, random_state, n_jobs=None):
    """Responsibilities ``(n_samples, n_components)`` to start EM from (an M step follows).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The points clustered to start (for a regression mixture, the rows ``[x, y]``).
    n_components : int
    init_params : {"kmeans", "k-means++", "random", "random_from_data"}
        One-hot k-means labels; one-hot labels of the nearest k-means++ centre; uniform random
        weights normalised per row; or one random sample per component (the other rows zero).
    random_state : numpy.random.RandomState
    n_jobs : int, default=None
        Threads of k-means.

    Returns
    -------
    resp : ndarray of shape (n_samples, n_components)
    """
    n_samples = X.shape[0]
    resp = np.zeros((n_samples, n_components))
    if init_params == "kmeans":
        labels = KMeans(n_clusters=n_components, n_init=1, random_state=random_state,
                        n_jobs=n_jobs).fit(X).labels_
        resp[np.arange(n_samples), labels] = 1.0
    elif init_params == "k-means++":
        centers, _ = kmeans_plusplus(X, n_components, random_state=random_state)
        squared = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        resp[np.arange(n_samples), np.argmin(squared, axis=1)] = 1.0
    elif init_params == "random":
        resp = random_state.uniform(size=(n_samples, n_components))
        resp /= resp.sum(axis=1, keepdims=True)
    else:  # "random_from_data": component j starts at one random sample
        chosen = random_state.choice(n_samples, size=n_components, replace=False)
        resp[chosen, np.arange(n_components)] = 1.0
    return resp
