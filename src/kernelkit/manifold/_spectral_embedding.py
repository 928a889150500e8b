"""Spectral embedding (Laplacian eigenmaps): the minor eigenvectors of a graph Laplacian.

Sangnier, §3.3.1; shares the similarity graphs and Laplacians of spectral
clustering (Sangnier, Algorithms 11–13) through ``kernelkit.utils._spectral_graph``.
"""

import warnings
from numbers import Integral, Real

from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._spectral_graph import (
    AFFINITIES,
    LAPLACIANS,
    graph_input_tags,
    laplacian_eigenvectors,
    n_graph_components,
    similarity_graph,
    validate_graph_data,
)
from kernelkit.utils._validation import MAX_INT

__all__ = ["SpectralEmbedding"]


class SpectralEmbedding(ParameterNamesOncePerClass, BaseEstimator):
    """Laplacian eigenmaps: embed the samples by minor eigenvectors of a graph Laplacian.

    The rows of the matrix :math:`H` of spectral clustering (Sangnier, Algorithms 11–13) are used as
    low-dimensional coordinates (Sangnier, §3.3.1): neighbours in the similarity graph get close
    coordinates, since :math:`u^\\top L u = \\frac12 \\sum_{ij} W_{ij} (u_i - u_j)^2`. With
    ``drop_first=True`` the first eigenvector, constant for "unnormalized" and "random_walk" on a
    connected graph, carries no information and is left out.

    With ``laplacian="random_walk"`` (:math:`L u = \\lambda D u`, the default) and
    ``drop_first=True`` this is scikit-learn's ``SpectralEmbedding`` on the same affinity matrix, up
    to column signs.

    Parameters
    ----------
    n_components : int, default=2
        Dimension of the embedding.
    affinity : {"nearest_neighbors", "mutual_nearest_neighbors", "epsilon", "rbf", \
"precomputed"}, default="nearest_neighbors"
        Similarity graph, as in :class:`kernelkit.cluster.SpectralClustering`.
    laplacian : {"unnormalized", "random_walk", "symmetric"}, default="random_walk"
    gamma : float, default=1.0
        :math:`\\gamma` in :math:`\\exp(-\\gamma \\|x - y\\|^2)` of the "rbf" graph.
    n_neighbors : int, default=10
        ``k`` of the k-NN graphs (clipped to ``n_samples − 1``).
    eps : float, default=None
        Radius of the "epsilon" graph; None: the longest minimum-spanning-tree edge.
    drop_first : bool, default=True
        Leave out the first (trivial) eigenvector.
    eigen_solver : {"auto", "dense", "arpack", "lobpcg"}, default="auto"
    random_state : int, RandomState instance or None, default=None
        Start of the iterative eigensolvers.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        Each column with its largest-magnitude entry positive.
    eigenvalues_ : ndarray of shape (n_components,)
        The Laplacian eigenvalues of the columns, increasing.
    affinity_matrix_ : ndarray or scipy.sparse.csr_matrix of shape (n_samples, n_samples)
    n_features_in_ : int

    See Also
    --------
    kernelkit.cluster.SpectralClustering : k-means on this embedding.
    sklearn.manifold.SpectralEmbedding : same embedding for the random-walk Laplacian.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.3.1, Remarks 3.1.5 and 3.2.3; §2.2.5 Algorithms
    11–13. M. Belkin and P. Niyogi, "Laplacian eigenmaps for dimensionality reduction and data
    representation", Neural Computation 15, 2003.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.manifold import SpectralEmbedding
    >>> X = np.arange(8.0).reshape(-1, 1)
    >>> Y = SpectralEmbedding(n_components=1, n_neighbors=1).fit_transform(X)
    >>> bool(np.all(np.diff(Y[:, 0]) > 0) or np.all(np.diff(Y[:, 0]) < 0))
    True
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, MAX_INT, closed="left")],
        "affinity": [StrOptions(set(AFFINITIES))],
        "laplacian": [StrOptions(set(LAPLACIANS))],
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "n_neighbors": [Interval(Integral, 1, MAX_INT, closed="left")],
        "eps": [Interval(Real, 0, None, closed="neither"), None],
        "drop_first": ["boolean"],
        "eigen_solver": [StrOptions({"auto", "dense", "arpack", "lobpcg"})],
        "random_state": ["random_state"],
    }

    def __init__(self, n_components=2, *, affinity="nearest_neighbors", laplacian="random_walk",
                 gamma=1.0, n_neighbors=10, eps=None, drop_first=True, eigen_solver="auto",
                 random_state=None):
        self.n_components = n_components
        self.affinity = affinity
        self.laplacian = laplacian
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.eps = eps
        self.drop_first = drop_first
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Compute the embedding of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or an affinity matrix when ``affinity="precomputed"`` (sparse only then).
        y : None
            Ignored.

        Returns
        -------
        self : SpectralEmbedding
        """
        X = validate_graph_data(self, X)
        n_vectors = self.n_components + int(self.drop_first)
        if n_vectors > X.shape[0]:
            raise ValueError(f"n_components={self.n_components} (+1 with drop_first) is larger "
                             f"than n_samples={X.shape[0]}.")
        W = similarity_graph(X, self.affinity, gamma=self.gamma, n_neighbors=self.n_neighbors,
                             eps=self.eps)
        if n_graph_components(W) > 1:
            warnings.warn(
                "The similarity graph is not connected: each component has its own zero "
                "eigenvalue, so the first coordinates only tell the components apart. Connect "
                "the graph (e.g. more neighbours, a larger eps) for a global embedding.",
                UserWarning, stacklevel=2)
        eigenvalues, H = laplacian_eigenvectors(W, n_vectors, self.laplacian,
                                                eigen_solver=self.eigen_solver,
                                                random_state=check_random_state(self.random_state))
        first = int(self.drop_first)
        self.embedding_ = H[:, first:]
        self.eigenvalues_ = eigenvalues[first:]
        self.affinity_matrix_ = W
        return self

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_``.

        Parameters
        ----------
        X : {array-like, sparse matrix}
            As in :meth:`fit`.
        y : None
            Ignored.

        Returns
        -------
        embedding : ndarray of shape (n_samples, n_components)
        """
        return self.fit(X, y).embedding_

    def __sklearn_tags__(self):
        return graph_input_tags(super().__sklearn_tags__(), self.affinity)
