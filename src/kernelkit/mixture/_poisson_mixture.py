"""Mixtures of Poisson laws fitted by EM (Sangnier, Exam 2023 Ex. 1, generalised).

The EM loop is the shared driver of :mod:`kernelkit.mixture._em`.
"""

import numpy as np
from scipy.special import gammaln, xlogy
from sklearn.base import BaseEstimator, DensityMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.mixture._em import (
    EM_PARAMETER_CONSTRAINTS,
    MixtureDensityMixin,
    check_n_components,
    fit_em,
    logsumexp_rows,
    set_em_attributes,
)
from kernelkit.mixture._initialization import initial_responsibilities
from kernelkit.utils._sklearn_compat import ParameterNamesOncePerClass

__all__ = ["PoissonMixture"]


class PoissonMixture(MixtureDensityMixin, DensityMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Mixture of independent Poisson laws fitted by the EM algorithm.

    Model: a component :math:`Y = j` is drawn with probability :math:`\pi_j`, then each count
    :math:`X_k \mid Y = j \sim \mathcal P(\lambda_{jk})` independently, so
    :math:`\log f_j(x) = \sum_k (x_k \log \lambda_{jk} - \lambda_{jk} - \log x_k!)`. EM
    alternates (Sangnier, Exam 2023 Ex. 1):

    * E step: :math:`p_{ij} = \pi_j f_j(x_i) / \sum_l \pi_l f_l(x_i)` (the law of
      :math:`Y \mid X = x_i`);
    * M step: :math:`\pi_j = \frac1n \sum_i p_{ij}`,
      :math:`\lambda_j = \sum_i p_{ij} x_i / \sum_i p_{ij}`.

    The exam's model is one count (``n_features = 1``) and two components,
    :math:`\theta = (\pi, \lambda_1, \lambda_0)`; here any number of components and of independent
    counts. The log-likelihood never decreases (Sangnier, Theorem 53, the exam's bonus question):
    the M step is the exact maximiser of the expected complete log-likelihood.

    Parameters
    ----------
    n_components : int, default=1
    tol : float, default=1e-3
        Stop when the mean log-likelihood gains less than ``tol`` in an iteration.
    max_iter : int, default=100
    n_init : int, default=1
        Initialisations; the one reaching the highest likelihood is kept.
    init_params : {"kmeans", "k-means++", "random", "random_from_data"}, default="kmeans"
        Initial responsibilities, as :class:`GaussianMixture`.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        Threads of the k-means initialisation.
    verbose : int, default=0
        Progress on stderr, with the levels of :class:`GaussianMixture`.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Mixing proportions :math:`\pi`.
    rates_ : ndarray of shape (n_components, n_features)
        Poisson means :math:`\lambda`.
    converged_ : bool
    n_iter_ : int
    lower_bound_ : float
        Mean log-likelihood of the best run, as evaluated in its last E step.
    lower_bound_history_ : ndarray of shape (n_iter_,)
        Mean log-likelihood of each E step of the best run; non-decreasing.
    n_features_in_ : int

    See Also
    --------
    GaussianMixture : the same EM driver with Gaussian components.

    Notes
    -----
    ``X`` holds counts. Non-negative non-integer values are accepted (the density is then the
    continuation :math:`\lambda^x e^{-\lambda} / \Gamma(x + 1)`, which leaves the EM updates
    unchanged).

    References
    ----------
    Sangnier, *Introduction to machine learning*, Exam 2023, Exercise 1 (Algorithme EM); §2.1.3
    Algorithm 7, Theorem 53; §2.1.5 (BIC/AIC).

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mixture import PoissonMixture
    >>> rng = np.random.default_rng(0)
    >>> X = np.concatenate([rng.poisson(2.0, 300), rng.poisson(15.0, 700)])[:, None]
    >>> pm = PoissonMixture(2, random_state=0).fit(X)
    >>> order = np.argsort(pm.rates_[:, 0])
    >>> np.round(pm.rates_[order, 0]), np.round(pm.weights_[order], 1)
    (array([ 2., 15.]), array([0.3, 0.7]))
    """

    _parameter_constraints = dict(EM_PARAMETER_CONSTRAINTS)

    def __init__(self, n_components=1, *, tol=1e-3, max_iter=100, n_init=1, init_params="kmeans",
                 random_state=None, n_jobs=None, verbose=0):
        self.n_components = n_components
        self.tol = tol
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _fit(self, X):
        X = self._validated(X, reset=True)
        check_n_components(X.shape[0], self.n_components)
        log_factorials = gammaln(X + 1.0)

        def e_step(parameters):
            weighted = _weighted_log_prob(X, *parameters, log_factorials)
            log_norm = logsumexp_rows(weighted)
            return np.exp(weighted - log_norm[:, None]), float(log_norm.mean())

        def start(random_state):
            resp = initial_responsibilities(X, self.n_components, self.init_params,
                                            random_state, self.n_jobs)
            return _m_step(X, resp)

        best = fit_em(start, e_step, lambda resp, _: _m_step(X, resp), n_init=self.n_init,
                      max_iter=self.max_iter, tol=self.tol,
                      random_state=check_random_state(self.random_state),
                      verbose=self.verbose, label=type(self).__name__)
        self.weights_, self.rates_ = best.parameters
        set_em_attributes(self, best)

    def _validated(self, X, reset):
        X = validate_data(self, X, dtype=np.float64, reset=reset,
                          ensure_min_samples=2 if reset else 1)
        if np.any(X < 0):
            raise ValueError("Negative values in data passed to PoissonMixture: X must hold "
                             "non-negative counts.")
        return X

    def _checked_X(self, X):
        return self._validated(X, reset=False)

    def _weighted_log_prob(self, X):
        return _weighted_log_prob(X, self.weights_, self.rates_, gammaln(X + 1.0))

    def _n_parameters(self):
        """``(k − 1)`` weights and ``k d`` rates."""
        k, d = self.rates_.shape
        return k - 1 + k * d

    def sample(self, n_samples=1, random_state=None):
        """Draw from the fitted mixture (Sangnier, Algorithm 5: component, then counts).

        Parameters
        ----------
        n_samples : int, default=1
        random_state : int, RandomState instance or None, default=None

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
        y : ndarray of shape (n_samples,)
            Component of each draw, grouped by component.
        """
        check_is_fitted(self)
        if n_samples < 1:
            raise ValueError(f"n_samples must be at least 1, got {n_samples}.")
        rng = check_random_state(random_state)
        components = np.repeat(np.arange(self.n_components),
                               rng.multinomial(n_samples, self.weights_))
        return rng.poisson(self.rates_[components]).astype(np.float64), components

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True
        return tags


def _weighted_log_prob(X, weights, rates, log_factorials):
    """``log π_j + Σ_k (x_k log λ_jk − λ_jk − log x_k!)``, shape (n_samples, n_components);
    ``xlogy`` makes ``0 log 0 = 0`` (a component with a zero rate explains zero counts)."""
    log_prob = (xlogy(X[:, None, :], rates[None, :, :]).sum(axis=2) - rates.sum(axis=1)
                - log_factorials.sum(axis=1)[:, None])
    with np.errstate(divide="ignore"):
        return log_prob + np.log(weights)


def _m_step(X, resp):
    """Weights and rates maximising the expected complete log-likelihood (B9's M step)."""
    nk = resp.sum(axis=0) + 10 * np.finfo(np.float64).eps   # an empty component keeps a rate
    return nk / nk.sum(), (resp.T @ X) / nk[:, None]
