"""Metric and nonmetric MDS by SMACOF: the estimator."""

import numpy as np
from sklearn.base import BaseEstimator

from kernelkit.manifold._smacof import SMACOF_CONSTRAINTS, _run, check_init, check_n_components
from kernelkit.utils._dissimilarity import check_weights, fit_dissimilarities
from kernelkit.utils._sklearn_compat import ParameterNamesOncePerClass, StrOptions, _fit_context
from kernelkit.utils._threads import effective_n_threads

__all__ = ["MDS"]


class _SmacofEmbedding(ParameterNamesOncePerClass, BaseEstimator):
    """What MDS and SammonMapping share: input handling, the SMACOF run, ``fit_transform``."""

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.dissimilarity == "precomputed"
        return tags

    def _fit_smacof(self, X, metric, weights_of):
        """Run SMACOF on ``X`` with pair weights ``weights_of(D)`` (None: unit weights).

        Returns ``(Z, history, n_iter, stress, squared_distances, D)``.
        """
        _, D = fit_dissimilarities(self, X)
        n = D.shape[0]
        check_n_components(self.n_components, n)
        init = check_init(self.init, n, self.n_components)
        Z, history, n_iter, stress, squared = _run(
            D, weights=weights_of(D), n_components=self.n_components, metric=metric, init=init,
            n_init=self.n_init, max_iter=self.max_iter, eps=self.eps,
            random_state=self.random_state, n_threads=effective_n_threads(self.n_jobs),
            verbose=self.verbose, label=type(self).__name__)
        return Z, history, n_iter, stress, squared, D

    def fit_transform(self, X, y=None):
        """Fit and return ``embedding_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or dissimilarities when ``dissimilarity="precomputed"``.
        y : ignored

        Returns
        -------
        embedding : ndarray of shape (n_samples, n_components)
        """
        return self.fit(X).embedding_


class MDS(_SmacofEmbedding):
    """Multidimensional scaling by stress majorisation (SMACOF), metric or nonmetric.

    Metric MDS minimises the raw stress
    :math:`\\sigma(Z) = \\sum_{i<j} w_{ij} (D_{ij} - \\|z_i - z_j\\|)^2` (each pair once: half the
    course's :math:`S_{KS}`, equal to scikit-learn's raw stress) by Guttman transforms,
    which never increase it (Sangnier, §3.2.3, Algorithm 17). Nonmetric MDS fits only the order
    of the dissimilarities: each step first replaces them by the isotonic regression of the
    current distances (Sangnier "Nonmetric scaling"). See :func:`smacof` for the details.

    Parameters
    ----------
    n_components : int, default=2
        Dimension of the embedding, smaller than ``n_samples``.
    metric : bool, default=True
        Metric or nonmetric scaling.
    n_init : int, default=1
        Random restarts (with ``init="random"`` only); the lowest final stress wins.
    max_iter : int, default=300
        Maximum Guttman transforms per run.
    eps : float, default=1e-6
        Stop when the relative stress decrease is at most ``eps``.
    dissimilarity : {"euclidean", "precomputed"}, default="euclidean"
        "euclidean": Euclidean distances between the rows of ``X``; "precomputed": ``X`` is the
        symmetric dissimilarity matrix.
    init : {"classical", "random"} or array-like of shape (n_samples, n_components), \
            default="classical"
        Initial configuration.
    weights : array-like of shape (n_samples, n_samples), default=None
        Symmetric non-negative pair weights (weighted SMACOF with ``V⁺``); None = unit weights.
    random_state : int, RandomState instance or None, default=None
        Seed of the random initialisations.
    n_jobs : int or None, default=None
        OpenMP threads of the Guttman pass.
    verbose : int, default=0
        Progress on stderr: 1, a line per run (stress, iterations, time), and lines every two
        seconds during a long one; 2, a line every ten iterations.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The configuration of lowest stress.
    stress_ : float
        Raw stress of ``embedding_`` (against the final disparities when nonmetric).
    normalized_stress_ : float
        Kruskal's stress-1, :math:`\\sqrt{\\sigma / \\sum_{i<j} w_{ij} \\|z_i - z_j\\|^2}`.
    stress_history_ : ndarray of shape (n_iter_ + 1,)
        Stress of every configuration visited by the best run, the initial one first: raw
        stress (non-increasing) when metric, stress-1 when nonmetric.
    n_iter_ : int
        Guttman transforms of the best run.
    n_features_in_ : int
        Number of features (``n_samples`` when precomputed).

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.2.3 (Kruskal–Shepard scaling, Property 77,
    Algorithm 17, nonmetric scaling).
    J. B. Kruskal, "Nonmetric multidimensional scaling: a numerical method", Psychometrika 29,
    1964.
    J. de Leeuw, "Applications of convex analysis to multidimensional scaling", 1977.

    See Also
    --------
    smacof : the function.
    ClassicalMDS : the closed-form (Torgerson) embedding, with out-of-sample ``transform``.
    SammonMapping : stress weighted by :math:`1/D_{ij}`.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.manifold import MDS
    >>> X = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> mds = MDS(n_components=2).fit(X)
    >>> mds.embedding_.shape
    (4, 2)
    >>> bool(np.all(np.diff(mds.stress_history_) <= 1e-12))
    True
    """

    _parameter_constraints = {
        **SMACOF_CONSTRAINTS,
        "dissimilarity": [StrOptions({"euclidean", "precomputed"})],
    }

    def __init__(self, n_components=2, *, metric=True, n_init=1, max_iter=300, eps=1e-6,
                 dissimilarity="euclidean", init="classical", weights=None, random_state=None,
                 n_jobs=None, verbose=0):
        self.n_components = n_components
        self.metric = metric
        self.n_init = n_init
        self.max_iter = max_iter
        self.eps = eps
        self.dissimilarity = dissimilarity
        self.init = init
        self.weights = weights
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Compute the embedding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Samples, or dissimilarities when ``dissimilarity="precomputed"``.
        y : ignored

        Returns
        -------
        self : MDS
        """
        Z, history, n_iter, stress, squared, _ = self._fit_smacof(
            X, self.metric, lambda D: check_weights(self.weights, D.shape[0]))
        self.embedding_ = Z
        self.stress_history_ = history
        self.n_iter_ = n_iter
        self.stress_ = stress
        self.normalized_stress_ = np.sqrt(stress / squared) if squared > 0 else 0.0
        return self
