"""The expectation–maximisation driver of every mixture model, and what their fitted models share.

Sangnier, §2.1.3 (Algorithm 7, the generic EM; Lemma 51, Prop 52, Theorem 53: the log-likelihood
never decreases), §2.1.5 (BIC/AIC). A model provides two functions of its
parameters — the E step (responsibilities and the mean log-likelihood of the parameters it was
given) and the M step (new parameters from responsibilities) — and :func:`fit_em` runs the loop,
the restarts and the convergence warning. Used by :class:`kernelkit.mixture.GaussianMixture`,
:class:`kernelkit.mixture.PoissonMixture` and
:class:`kernelkit.mixture.MixtureOfLinearRegressions`.
"""

import dataclasses
import time
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted

from kernelkit.mixture._initialization import INIT_PARAMS
from kernelkit.utils._progress import iteration_callback, report
from kernelkit.utils._sklearn_compat import Interval, StrOptions, _fit_context
from kernelkit.utils._threads import N_JOBS_CONSTRAINT
from kernelkit.utils._validation import MAX_INT, check_fit_params, record_fit_params

__all__ = [
    "EM_PARAMETER_CONSTRAINTS",
    "EMResult",
    "MixtureDensityMixin",
    "aic",
    "bic",
    "check_fitted_mixture",
    "check_n_components",
    "fit_em",
    "logsumexp_rows",
    "run_em",
    "set_em_attributes",
]

# verbose >= 2: a line every this many EM iterations (verbose 1: lines paced by time).
_REPORT_EVERY = 10

# The parameters every mixture takes to steer its EM run (part of each ``_parameter_constraints``).
EM_PARAMETER_CONSTRAINTS = {
    "n_components": [Interval(Integral, 1, MAX_INT, closed="left")],
    "tol": [Interval(Real, 0.0, None, closed="left")],
    "max_iter": [Interval(Integral, 0, MAX_INT, closed="left")],
    "n_init": [Interval(Integral, 1, MAX_INT, closed="left")],
    "init_params": [StrOptions(set(INIT_PARAMS))],
    "random_state": ["random_state"],
    "n_jobs": N_JOBS_CONSTRAINT,
    "verbose": ["verbose"],
}


def check_n_components(n_samples, n_components):
    """Raise a ValueError when there are fewer samples than components (each component starts
    from at least one sample)."""
    if n_samples < n_components:
        raise ValueError(f"n_components={n_components} is larger than n_samples={n_samples}.")


@dataclasses.dataclass
class EMResult:
    """Outcome of one EM run.

    Attributes
    ----------
    parameters : object
        The parameters after the last M step (whatever the model's M step returns).
    lower_bound : float
        Mean log-likelihood evaluated in the last E step (that of the parameters entering the
        last iteration); ``-inf`` when no iteration ran.
    history : ndarray of shape (n_iter,)
        Mean log-likelihood of each E step: non-decreasing (Sangnier, Theorem 53).
    converged : bool
        Whether an iteration gained less than ``tol``.
    n_iter : int
    """

    parameters: object
    lower_bound: float
    history: np.ndarray
    converged: bool
    n_iter: int


def logsumexp_rows(a):
    """``log Σ_j exp(a_ij)`` of each row, shifted by the row maximum (no overflow)."""
    top = a.max(axis=1)
    return np.log(np.exp(a - top[:, None]).sum(axis=1)) + top


def run_em(parameters, e_step, m_step, *, max_iter, tol, progress=None):
    """EM iterations from ``parameters`` (Sangnier, Algorithm 7).

    Parameters
    ----------
    parameters : object
        Initial parameters, passed to ``e_step`` and ``m_step``.
    e_step : callable
        ``e_step(parameters) -> (responsibilities, mean_log_likelihood)``: the posterior of the
        latent variables under ``parameters`` (any form the M step reads, e.g. their logarithm)
        and the mean log-likelihood of ``parameters``.
    m_step : callable
        ``m_step(responsibilities, parameters) -> parameters``: the maximiser of the expected
        complete log-likelihood (or, for an ECM step, a value that does not decrease it).
    max_iter : int
        Iterations at most (0: the parameters are returned as given).
    tol : float
        Stop when the mean log-likelihood changes by less than ``tol`` in an iteration.
    progress : callable, default=None
        ``progress(n_iter, mean_log_likelihood, change)``, called after every iteration.

    Returns
    -------
    EMResult
    """
    history = []
    lower_bound = -np.inf
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        previous = lower_bound
        responsibilities, lower_bound = e_step(parameters)
        history.append(lower_bound)
        parameters = m_step(responsibilities, parameters)
        if progress is not None:
            progress(n_iter, lower_bound, lower_bound - previous)
        if abs(lower_bound - previous) < tol:
            converged = True
            break
    return EMResult(parameters, lower_bound, np.asarray(history, dtype=np.float64), converged,
                    n_iter)


def fit_em(start, e_step, m_step, *, n_init, max_iter, tol, random_state, verbose=0,
           label="EM"):
    """The best of ``n_init`` EM runs (highest final log-likelihood, the first on ties).

    Parameters
    ----------
    start : callable
        ``start(random_state) -> parameters``: an initialisation (called once per run, in
        order, with the same ``RandomState``).
    e_step, m_step, max_iter, tol
        See :func:`run_em`.
    n_init : int
    random_state : numpy.random.RandomState
    verbose : int, default=0
        Progress on stderr: 1, a line per run (log-likelihood, iterations, convergence, time)
        and lines every two seconds during a long run; 2, a line every ten iterations.
    label : str, default="EM"
        Shown in front of the lines (the estimator).

    Returns
    -------
    EMResult
        The best run; a :class:`~sklearn.exceptions.ConvergenceWarning` is issued when it did
        not converge within ``max_iter > 0`` iterations.
    """
    best = None
    for index in range(1, n_init + 1):
        begin = time.perf_counter()
        progress = iteration_callback(
            label, verbose, _REPORT_EVERY,
            lambda n_iter, value, change, index=index: (
                f"init {index} of {n_init}, iteration {n_iter}: mean log-likelihood "
                f"{value:.10g}, change {change:.3g}"))
        run = run_em(start(random_state), e_step, m_step, max_iter=max_iter, tol=tol,
                     progress=progress)
        if verbose:
            report(label, f"init {index} of {n_init}: mean log-likelihood "
                          f"{run.lower_bound:.10g}, {run.n_iter} iterations, "
                          f"{'converged' if run.converged else 'not converged'}", begin)
        if best is None or run.lower_bound > best.lower_bound:
            best = run
    if not best.converged and max_iter > 0:
        warnings.warn("EM did not converge: increase max_iter or tol, or check the data.",
                      ConvergenceWarning, stacklevel=4)
    return best


def set_em_attributes(estimator, result):
    """Store an EM run's diagnostics on a fitted ``estimator``: ``converged_``, ``n_iter_``,
    ``lower_bound_`` and ``lower_bound_history_``."""
    estimator.converged_ = result.converged
    estimator.n_iter_ = result.n_iter
    estimator.lower_bound_ = result.lower_bound
    estimator.lower_bound_history_ = result.history
    estimator._fit_params = record_fit_params(estimator, refit_free=FIT_ONLY_PARAMS)


# Parameters that steer the EM run only; the fitted model does not depend on them after ``fit``
# (any other change, e.g. ``covariance_type``, needs a refit).
FIT_ONLY_PARAMS = frozenset({"init_params", "max_iter", "n_init", "n_jobs", "random_state",
                             "tol", "verbose", "weights_init", "means_init", "precisions_init"})


def check_fitted_mixture(estimator):
    """``check_is_fitted``, and a NotFittedError naming a parameter changed since ``fit`` that
    the fitted model depends on."""
    check_is_fitted(estimator)
    check_fit_params(estimator, getattr(estimator, "_fit_params", None))


def bic(total_log_likelihood, n_parameters, n_samples):
    """Bayesian information criterion ``−2 log m_θ(X) + m log n`` (Sangnier, §2.1.5)."""
    return -2.0 * total_log_likelihood + n_parameters * np.log(n_samples)


def aic(total_log_likelihood, n_parameters):
    """Akaike information criterion ``−2 log m_θ(X) + 2m`` (Sangnier, §2.1.5)."""
    return -2.0 * total_log_likelihood + 2.0 * n_parameters


class MixtureDensityMixin:
    """Methods of a fitted mixture density over ``X``: log-density, posteriors, MAP labels,
    BIC/AIC.

    The class provides ``_fit(X)`` (the EM fit), ``_checked_X(X)`` (validation of new data),
    ``_weighted_log_prob(X)`` (``log π_j + log f_j(x_i)``, shape ``(n_samples, n_components)``)
    and ``_n_parameters()``.
    """

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Estimate the parameters by EM (the best of ``n_init`` runs).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples in the support of the components' law (counts for a Poisson mixture).
        y : None
            Ignored.

        Returns
        -------
        self : object
            The fitted mixture.
        """
        self._fit(X)
        return self

    def _fit(self, X):
        raise NotImplementedError

    def _checked_X(self, X):
        raise NotImplementedError

    def score_samples(self, X):
        r"""Log-density :math:`\log \sum_j \pi_j f_j(x)` of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        log_density : ndarray of shape (n_samples,)
        """
        check_fitted_mixture(self)
        return logsumexp_rows(self._weighted_log_prob(self._checked_X(X)))

    def score(self, X, y=None):
        """Mean log-likelihood of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        log_likelihood : float
        """
        return float(self.score_samples(X).mean())

    def predict_proba(self, X):
        """Posterior probabilities of the components (the E step's responsibilities).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_components)
            Rows sum to 1.
        """
        check_fitted_mixture(self)
        weighted = self._weighted_log_prob(self._checked_X(X))
        return np.exp(weighted - logsumexp_rows(weighted)[:, None])

    def predict(self, X):
        """Most probable component (maximum a posteriori, lowest index on ties; Sangnier, §2.1.1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        check_fitted_mixture(self)
        return np.argmax(self._weighted_log_prob(self._checked_X(X)), axis=1)

    def fit_predict(self, X, y=None):
        """Fit, then return the most probable component of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
        """
        return self.fit(X).predict(X)

    def bic(self, X):
        r"""Bayesian information criterion :math:`-2 \log m_\theta(X) + m \log n` (lower is better).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        bic : float
        """
        log_density = self.score_samples(X)
        return bic(float(log_density.sum()), self._n_parameters(), log_density.size)

    def aic(self, X):
        r"""Akaike information criterion :math:`-2 \log m_\theta(X) + 2m` (lower is better).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        aic : float
        """
        return aic(float(self.score_samples(X).sum()), self._n_parameters())
