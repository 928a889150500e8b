"""Sammon mapping by weighted SMACOF."""

import numpy as np

from kernelkit.manifold._mds import MDS, _SmacofEmbedding
from kernelkit.utils._dissimilarity import check_weights
from kernelkit.utils._sklearn_compat import _fit_context

__all__ = ["SammonMapping"]


class SammonMapping(_SmacofEmbedding):
    """Sammon's nonlinear mapping, minimised by weighted SMACOF.

    Minimises Sammon's stress

    .. math::

        E(Z) = \\frac{1}{\\sum_{i<j} D_{ij}}
               \\sum_{i<j} \\frac{(D_{ij} - \\|z_i - z_j\\|)^2}{D_{ij}}

    (Sangnier, §3.2.3 "Sammon scaling", with Sammon's normalisation by :math:`\\sum D_{ij}`),
    which is the weighted SMACOF stress with :math:`w_{ij} = 1/D_{ij}`: every Guttman step
    :math:`Z \\leftarrow V^+ B(Z) Z` keeps the stress non-increasing, unlike Sammon's original
    pseudo-Newton step.

    Pairs of coincident samples (:math:`D_{ij} = 0`) have an undefined Sammon term and are left out
    (weight 0); the remaining pairs must still connect all samples.

    Parameters
    ----------
    n_components : int, default=2
        Dimension of the embedding, smaller than ``n_samples``.
    max_iter : int, default=300
        Maximum Guttman transforms per run.
    eps : float, default=1e-6
        Stop when the relative stress decrease is at most ``eps``.
    dissimilarity : {"euclidean", "precomputed"}, default="euclidean"
    init : {"classical", "random"} or array-like of shape (n_samples, n_components), \
            default="classical"
    n_init : int, default=1
        Random restarts (with ``init="random"`` only).
    random_state : int, RandomState instance or None, default=None
    n_jobs : int or None, default=None
        OpenMP threads of the Guttman pass.
    verbose : int, default=0
        Progress on stderr: 1, a line per run (stress, iterations, time), and lines every two
        seconds during a long one; 2, a line every ten iterations.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    stress_ : float
        Sammon's stress ``E`` of ``embedding_``.
    stress_history_ : ndarray of shape (n_iter_ + 1,)
        Sammon's stress of every configuration visited, the initial one first; non-increasing.
    n_iter_ : int
    n_features_in_ : int

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.2.3 "Sammon scaling".
    J. W. Sammon, "A nonlinear mapping for data structure analysis", IEEE Trans. Computers
    C-18, 1969.

    See Also
    --------
    MDS : unweighted (or user-weighted) metric and nonmetric SMACOF.
    ClassicalMDS : the closed-form embedding.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.manifold import SammonMapping
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
    >>> sammon = SammonMapping(n_components=2).fit(X)
    >>> bool(sammon.stress_ < 1e-10)
    True
    """

    _parameter_constraints = {
        k: v for k, v in MDS._parameter_constraints.items() if k not in ("metric", "weights")
    }

    def __init__(self, n_components=2, *, max_iter=300, eps=1e-6, dissimilarity="euclidean",
                 init="classical", n_init=1, random_state=None, n_jobs=None, verbose=0):
        self.n_components = n_components
        self.max_iter = max_iter
        self.eps = eps
        self.dissimilarity = dissimilarity
        self.init = init
        self.n_init = n_init
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @staticmethod
    def _sammon_weights(D):
        with np.errstate(divide="ignore"):
            W = np.where(D > 0, 1.0 / D, 0.0)
        return check_weights(W, D.shape[0])

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
        self : SammonMapping
        """
        Z, history, n_iter, stress, _, D = self._fit_smacof(X, True, self._sammon_weights)
        total = D[np.triu_indices(D.shape[0], k=1)].sum()
        self.embedding_ = Z
        self.stress_history_ = history / total
        self.n_iter_ = n_iter
        self.stress_ = stress / total
        return self
