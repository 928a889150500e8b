"""Gaussian mixture models fitted by expectation–maximisation.

Sangnier, §2.1 (mixtures, Algorithm 5 sampling, Algorithm 7 EM, Theorem 53 monotonicity),
§2.1.4 Algorithm 8 (Gaussian EM, "soft k-means") and §2.1.5 (degeneracy, BIC/AIC). The EM loop is
the shared driver of :mod:`kernelkit.mixture._em`.
"""

import warnings
from numbers import Real

import numpy as np
from scipy.linalg import cholesky
from sklearn.base import BaseEstimator, DensityMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, validate_data

from kernelkit.mixture._em import (
    EM_PARAMETER_CONSTRAINTS,
    MixtureDensityMixin,
    check_fitted_mixture,
    check_n_components,
    fit_em,
    logsumexp_rows,
    set_em_attributes,
)
from kernelkit.mixture._initialization import initial_responsibilities
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._scatter import scatter_matrices
from kernelkit.utils._sklearn_compat import Interval, ParameterNamesOncePerClass, StrOptions
from kernelkit.utils._threads import effective_n_threads, fold_row_blocks
from kernelkit.utils._validation import (
    check_memory_request,
    validate_distance_data,
    warn_long_factorisation,
)

__all__ = ["GaussianMixture"]

_LOG_2PI = np.log(2.0 * np.pi)
# Each escalation multiplies reg_covar by this, at most _MAX_ESCALATIONS times.
_ESCALATION_FACTOR = 10.0
_MAX_ESCALATIONS = 12
# Values of an E step's row block (rows x components x features): 1 MiB of float64, whose
# products stay in the cache until the passes that read them back (100 000 x 12 samples, 8
# components, in one process, quiet: E steps of 15-16 ms on 2 threads and 22 ms on one, against
# 41 ms for passes over whole arrays) ...
_BLOCK_ELEMENTS = 2**17
# ... of at least this many rows, which keep the calls per block few against the block's work
_MIN_BLOCK_ROWS = 256
# Blocks a thread takes at least: starting and joining the threads costs about 0.2 ms
_MIN_BLOCKS_PER_THREAD = 4


class GaussianMixture(MixtureDensityMixin, DensityMixin, ParameterNamesOncePerClass,
                      BaseEstimator):
    r"""Gaussian mixture model fitted by the EM algorithm.

    The density :math:`\sum_j \pi_j \varphi(x; \mu_j, \Sigma_j)` is fitted by alternating
    (Sangnier, Algorithm 8):

    * E step: responsibilities

      .. math::

          p_{ij} = \frac{\pi_j \varphi(x_i; \mu_j, \Sigma_j)}
                        {\sum_l \pi_l \varphi(x_i; \mu_l, \Sigma_l)};

    * M step:

      .. math::

          \pi_j = \frac1n \sum_i p_{ij}, \qquad \mu_j = \frac{\sum_i p_{ij} x_i}{\sum_i p_{ij}},

          \Sigma_j = \frac{\sum_i p_{ij} (x_i - \mu_j)(x_i - \mu_j)^\top}{\sum_i p_{ij}}
          + \mathrm{reg\_covar} \cdot I.

    The log-likelihood never decreases along the iterations (Sangnier, Theorem 53; exactly so for
    ``reg_covar = 0``). The likelihood is unbounded when a component collapses onto a point
    (Sangnier, §2.1.5), so ``reg_covar`` is added to every covariance; if a covariance is still not
    positive definite, ``reg_covar`` is multiplied by 10 (up to 12 times) with a
    :class:`~sklearn.exceptions.ConvergenceWarning` instead of an error, and the value used is
    kept in ``reg_covar_``.

    Parameters
    ----------
    n_components : int, default=1
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        One full matrix per component (the course's model), one full matrix shared by all, one
        diagonal matrix per component, or :math:`\sigma_j^2 I` per component (Sangnier, Remark
        2.2.4: the
        link to k-means).
    tol : float, default=1e-3
        Stop when the mean log-likelihood gains less than ``tol`` in an iteration.
    reg_covar : float, default=1e-6
        Non-negative ridge added to the covariances' diagonals.
    max_iter : int, default=100
    n_init : int, default=1
        Initialisations; the one reaching the highest likelihood is kept.
    init_params : {"kmeans", "k-means++", "random", "random_from_data"}, default="kmeans"
        Initial responsibilities: k-means labels, the nearest k-means++ centre, uniform random
        weights, or one random sample per component.
    weights_init, means_init, precisions_init : array-like, default=None
        Initial parameters overriding those of ``init_params`` (precisions in the shape of
        ``covariances_``).
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        Threads of the k-means initialisation and of the E and M steps, which go through the
        samples by row blocks (``None``: every usable CPU). The fit does not depend on it.
    verbose : int, default=0
        Progress on stderr: 1, a line per initialisation (mean log-likelihood, iterations,
        convergence, time), and lines every two seconds during a long one; 2, a line every
        ten EM iterations.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
    means_ : ndarray of shape (n_components, n_features)
    covariances_ : ndarray
        (n_components, n_features, n_features) for "full", (n_features, n_features) for "tied",
        (n_components, n_features) for "diag", (n_components,) for "spherical".
    precisions_ : ndarray
        Inverses of the covariances, same shape.
    precisions_cholesky_ : ndarray
        Triangular factors :math:`U` of the precisions (:math:`P = U U^\top`), same shape.
    converged_ : bool
    n_iter_ : int
    lower_bound_ : float
        Mean log-likelihood of the best run, as evaluated in its last E step.
    lower_bound_history_ : ndarray of shape (n_iter_,)
        Mean log-likelihood evaluated in each E step of the best run: that of the parameters
        entering the iteration (scikit-learn's ``lower_bounds_``). Non-decreasing. With the exact
        E step, the lower bound :math:`F(\theta | \theta) + H(\theta)` of Sangnier, Prop 52
        equals the log-likelihood.
    log_likelihood_history_ : ndarray of shape (n_iter_,)
        The same array as ``lower_bound_history_``.
    reg_covar_ : float
        The ``reg_covar`` finally used (larger than ``reg_covar`` after an escalation).
    n_features_in_ : int

    See Also
    --------
    KMeans : the hard-assignment limit (Sangnier, Remark 2.2.4).
    PoissonMixture, MixtureOfLinearRegressions : other mixtures on the same EM driver.
    sklearn.mixture.GaussianMixture : same model and parameter names.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §2.1.1–2.1.5, Algorithms 5, 7 and 8, Theorem 53.
    A. P. Dempster, N. M. Laird and D. B. Rubin, "Maximum likelihood from incomplete data via the
    EM algorithm", JRSS B 39, 1977.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mixture import GaussianMixture
    >>> X = np.array([[1.0, 2.0], [1.0, 4.0], [1.0, 0.0], [10.0, 2.0], [10.0, 4.0], [10.0, 0.0]])
    >>> gm = GaussianMixture(n_components=2, random_state=0).fit(X)
    >>> np.sort(gm.means_[:, 0])
    array([ 1., 10.])
    >>> bool(np.all(np.diff(gm.log_likelihood_history_) >= 0))
    True
    """

    _parameter_constraints = {
        **EM_PARAMETER_CONSTRAINTS,
        "covariance_type": [StrOptions({"full", "tied", "diag", "spherical"})],
        "reg_covar": [Interval(Real, 0.0, None, closed="left")],
        "weights_init": ["array-like", None],
        "means_init": ["array-like", None],
        "precisions_init": ["array-like", None],
    }

    def __init__(self, n_components=1, *, covariance_type="full", tol=1e-3, reg_covar=1e-6,
                 max_iter=100, n_init=1, init_params="kmeans", weights_init=None,
                 means_init=None, precisions_init=None, random_state=None, n_jobs=None,
                 verbose=0):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.tol = tol
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.precisions_init = precisions_init
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    # ------------------------------------------------------------------------------------------
    # fitting

    def _fit(self, X):
        X = validate_distance_data(self, X, dtype=np.float64, ensure_min_samples=2)
        check_n_components(X.shape[0], self.n_components)
        initial = self._checked_initial_parameters(X.shape[1])
        covariance_type = self.covariance_type
        n_samples, n_features, k = X.shape[0], X.shape[1], self.n_components
        covariance_entries = {"full": k * n_features**2, "tied": n_features**2,
                              "diag": k * n_features, "spherical": k}[covariance_type]
        # three parameter sets alive (current, new, best), each with covariances and their
        # Cholesky factors; the responsibilities and the E-step's log-densities
        check_memory_request(8.0 * (6.0 * covariance_entries + 4.0 * n_samples * k),
                             f"GaussianMixture(n_components={k}, covariance_type="
                             f"'{covariance_type}') on {n_samples} samples of {n_features} "
                             "features",
                             "lower n_components, or use covariance_type='diag' (n_features "
                             "numbers a component instead of n_features²).")
        if covariance_type in ("full", "tied"):
            # each EM iteration forms and factorises the d × d covariances (n d² + d³ / 3 each)
            n_matrices = k if covariance_type == "full" else 1
            warn_long_factorisation(
                self.n_init * max(self.max_iter, 1) * n_matrices
                * (n_samples * n_features**2 + n_features**3 / 3.0),
                f"Up to max_iter={self.max_iter} EM iterations of GaussianMixture(covariance_type="
                f"'{covariance_type}') on {n_samples} samples x {n_features} features",
                "use covariance_type='diag' or 'spherical', or reduce the features (e.g. PCA) "
                "first.")

        n_threads = effective_n_threads(self.n_jobs)

        def e_step(parameters):
            weights, means, _, precisions_cholesky, _ = parameters
            return _e_step(X, weights, means, precisions_cholesky, covariance_type, n_threads)

        def m_step(resp, parameters):
            return _m_step(X, resp, parameters[4], covariance_type, n_threads)

        # The steps' threads are those of their row blocks (E step) and of the scatter core (M
        # step, "full"): BLAS on one thread, whose team would otherwise spin on the cores they
        # need (quiet, 2 threads: 0.85-0.92 of the fit's time with the team on) or stall beside
        # a busy core.
        with blas_limit(1):
            best = fit_em(lambda random_state: self._start(X, initial, random_state), e_step,
                          m_step, n_init=self.n_init, max_iter=self.max_iter, tol=self.tol,
                          random_state=check_random_state(self.random_state),
                          verbose=self.verbose, label=type(self).__name__)
        (weights, means, covariances, precisions_cholesky, self.reg_covar_) = best.parameters
        # C-contiguous copies: a pickle round trip keeps the layout, hence bit-identical scores
        # (Fortran-ordered factors would come back C-ordered)
        (self.weights_, self.means_, self.covariances_, self.precisions_cholesky_) = (
            np.ascontiguousarray(array) for array in (weights, means, covariances,
                                                      precisions_cholesky))
        self.precisions_ = _precisions(self.precisions_cholesky_, self.covariance_type)
        set_em_attributes(self, best)
        self.log_likelihood_history_ = self.lower_bound_history_

    def _start(self, X, initial, random_state):
        """Initial ``(weights, means, covariances, precisions_cholesky, reg_covar)``."""
        if all(initial[name] is not None for name in ("weights", "means", "precisions")):
            # fully specified start: no k-means or random responsibilities to compute
            return (initial["weights"], initial["means"],
                    _covariances_from_precisions(initial["precisions"], self.covariance_type),
                    _cholesky_of_precisions(initial["precisions"], self.covariance_type),
                    self.reg_covar)
        resp = initial_responsibilities(X, self.n_components, self.init_params, random_state,
                                        self.n_jobs)
        weights, means, covariances, precisions_cholesky, reg_covar = _m_step(
            X, resp, self.reg_covar, self.covariance_type, effective_n_threads(self.n_jobs))
        weights = initial["weights"] if initial["weights"] is not None else weights
        means = initial["means"] if initial["means"] is not None else means
        if initial["precisions"] is not None:
            precisions_cholesky = _cholesky_of_precisions(initial["precisions"],
                                                          self.covariance_type)
            covariances = _covariances_from_precisions(initial["precisions"],
                                                       self.covariance_type)
        return weights, means, covariances, precisions_cholesky, reg_covar

    def _checked_initial_parameters(self, n_features):
        k = self.n_components
        weights = means = precisions = None
        if self.weights_init is not None:
            weights = check_array(self.weights_init, ensure_2d=False, dtype=np.float64)
            if weights.shape != (k,) or np.any(weights < 0) or not np.isclose(weights.sum(), 1):
                raise ValueError(f"weights_init must be {k} non-negative numbers summing to 1.")
        if self.means_init is not None:
            means = check_array(self.means_init, dtype=np.float64)
            if means.shape != (k, n_features):
                raise ValueError(f"means_init must have shape {(k, n_features)}, "
                                 f"got {means.shape}.")
        if self.precisions_init is not None:
            precisions = check_array(self.precisions_init, ensure_2d=False, allow_nd=True,
                                     dtype=np.float64)
            expected = _covariance_shape(self.covariance_type, k, n_features)
            if precisions.shape != expected:
                raise ValueError(f"precisions_init must have shape {expected} for "
                                 f"covariance_type={self.covariance_type!r}, "
                                 f"got {precisions.shape}.")
            if not _positive_definite(precisions, self.covariance_type):
                raise ValueError("precisions_init must hold positive definite precisions "
                                 "(symmetric matrices for 'full' and 'tied', positive values "
                                 f"for 'diag' and 'spherical'); covariance_type="
                                 f"{self.covariance_type!r}.")
        return dict(weights=weights, means=means, precisions=precisions)

    # ------------------------------------------------------------------------------------------
    # using the fitted model

    def _checked_X(self, X):
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _weighted_log_prob(self, X):
        return _weighted_log_prob(X, self.weights_, self.means_, self.precisions_cholesky_,
                                  self.covariance_type, effective_n_threads(self.n_jobs))[0]

    def sample(self, n_samples=1, random_state=None):
        """Draw from the fitted mixture (Sangnier, Algorithm 5: component, then Gaussian).

        Parameters
        ----------
        n_samples : int, default=1
        random_state : int, RandomState instance or None, default=None
            Seed of the draws (independent of the estimator's ``random_state``).

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
        y : ndarray of shape (n_samples,)
            Component of each draw, grouped by component.
        """
        check_fitted_mixture(self)
        if n_samples < 1:
            raise ValueError(f"n_samples must be at least 1, got {n_samples}.")
        rng = check_random_state(random_state)
        counts = rng.multinomial(n_samples, self.weights_)
        n_features = self.means_.shape[1]
        draws = []
        for j, count in enumerate(counts):
            z = rng.standard_normal((count, n_features))
            if self.covariance_type in ("full", "tied"):
                cov = self.covariances_[j] if self.covariance_type == "full" else self.covariances_
                draws.append(self.means_[j] + z @ cholesky(cov, lower=True).T)
            else:
                scale = np.sqrt(self.covariances_[j])
                draws.append(self.means_[j] + z * scale)
        return np.vstack(draws), np.repeat(np.arange(self.n_components), counts)

    def _n_parameters(self):
        """Free parameters: ``(k−1) + kd`` plus the covariances' (Sangnier, §2.1.5)."""
        k, d = self.means_.shape
        covariance = {"full": k * d * (d + 1) / 2, "tied": d * (d + 1) / 2, "diag": k * d,
                      "spherical": k}[self.covariance_type]
        return int(covariance + k * d + k - 1)

# ----------------------------------------------------------------------------------------------
# EM steps (functions of arrays, shared by fitting and the fitted model)


def _positive_definite(precisions, covariance_type):
    """Whether every precision of ``precisions`` (in ``covariance_type``'s layout) is positive
    definite."""
    if covariance_type in ("diag", "spherical"):
        return bool(np.all(precisions > 0))
    matrices = precisions.reshape(-1, *precisions.shape[-2:])
    if not np.allclose(matrices, np.swapaxes(matrices, 1, 2)):
        return False
    try:
        np.linalg.cholesky(matrices)
    except np.linalg.LinAlgError:
        return False
    return True


def _covariance_shape(covariance_type, n_components, n_features):
    return {"full": (n_components, n_features, n_features), "tied": (n_features, n_features),
            "diag": (n_components, n_features), "spherical": (n_components,)}[covariance_type]


def _block_rows(n_samples, values_per_row):
    """Rows of a block of ``_BLOCK_ELEMENTS`` values, at least ``_MIN_BLOCK_ROWS``, at most the
    data."""
    rows = max(_BLOCK_ELEMENTS // max(values_per_row, 1), _MIN_BLOCK_ROWS)
    return max(1, min(rows, n_samples))


def _fold_blocks(fold, X, block_rows, n_threads):
    """:func:`~kernelkit.utils._threads.fold_row_blocks` of ``fold`` over the rows of ``X``,
    each block's products on one BLAS thread while the block is in the cache, on up to
    ``n_threads`` threads that take ``_MIN_BLOCKS_PER_THREAD`` blocks or more. The slots'
    states come in slot order: a result summed in that order does not depend on
    ``n_threads``."""
    n_blocks = -(-X.shape[0] // block_rows)
    if n_blocks == 1:
        return [fold(None, 0, X.shape[0])]
    n_threads = max(1, min(n_threads, n_blocks // _MIN_BLOCKS_PER_THREAD))
    return fold_row_blocks(fold, X.shape[0], block_rows, n_threads)


def _weighted_log_prob(X, weights, means, precisions_cholesky, covariance_type, n_threads,
                       posterior=False):
    """``log π_j φ(x_i; μ_j, Σ_j)`` of every sample and component, by row blocks on up to
    ``n_threads`` threads (:func:`_fold_blocks`).

    With ``posterior``, the responsibilities ``exp`` of each row minus its log-sum-exp, in
    Fortran order (each component's column contiguous, as the M step's products read them), and
    the sum of those log-sum-exps (the log-likelihood), added in slot order. Without, the sum is
    None.
    """
    (n_samples, n_features), n_components = X.shape, len(weights)
    out = np.empty((n_components, n_samples)).T if posterior else np.empty((n_samples,
                                                                             n_components))
    log_density = _log_gaussian_of(means, precisions_cholesky, covariance_type)
    # a row's values in a block: its products with every component's factor ("full"), else
    # its squares or products with one factor and its densities
    values_per_row = n_components * (n_features if covariance_type == "full" else 1) + n_features
    log_weights = np.log(weights)

    def fold(total, start, stop):
        block = log_density(X[start:stop])
        block += log_weights
        if posterior:
            log_norm = logsumexp_rows(block)
            block -= log_norm[:, None]
            np.exp(block, out=block)
            total = (0.0 if total is None else total) + float(log_norm.sum())
        out[start:stop] = block
        return total

    totals = _fold_blocks(fold, X, _block_rows(n_samples, values_per_row), n_threads)
    return out, (sum(totals) if posterior else None)


def _e_step(X, weights, means, precisions_cholesky, covariance_type, n_threads):
    """Responsibilities (Fortran-ordered) and the mean log-likelihood of the current
    parameters."""
    resp, log_likelihood = _weighted_log_prob(X, weights, means, precisions_cholesky,
                                              covariance_type, n_threads, posterior=True)
    return resp, log_likelihood / X.shape[0]


def _m_step(X, resp, reg_covar, covariance_type, n_threads):
    """Weighted maximum-likelihood parameters (Sangnier, Property 54), escalating ``reg_covar``
    until the covariances are positive definite."""
    nk = resp.sum(axis=0) + 10 * np.finfo(np.float64).eps  # an empty component keeps a mean
    means = (resp.T @ X) / nk[:, None]
    scatter = _scatter(X, resp, nk, means, covariance_type, n_threads)
    for escalation in range(_MAX_ESCALATIONS + 1):
        covariances = _add_ridge(scatter, reg_covar, covariance_type)
        try:
            precisions_cholesky = _cholesky_of_precisions(covariances, covariance_type,
                                                          inverse=True)
            break
        except np.linalg.LinAlgError:
            if escalation == _MAX_ESCALATIONS:
                raise ValueError(
                    f"A covariance stays singular with reg_covar={reg_covar:g}: the data are "
                    "degenerate (e.g. fewer distinct samples than components).") from None
            raised = max(reg_covar * _ESCALATION_FACTOR, 1e-10 * max(_scale(X), 1e-300))
            warnings.warn(
                f"A covariance is not positive definite with reg_covar={reg_covar:g} (a "
                f"component has collapsed onto too few samples); reg_covar raised to "
                f"{raised:g}.", ConvergenceWarning, stacklevel=4)
            reg_covar = raised
    return nk / nk.sum(), means, covariances, precisions_cholesky, reg_covar


def _scale(X):
    return float(np.mean(np.var(X, axis=0)))


def _scatter(X, resp, nk, means, covariance_type, n_threads):
    """Weighted covariances without the ridge."""
    if covariance_type == "full":
        return _full_scatter(X, resp, means, n_threads) / nk[:, None, None]
    if covariance_type == "tied":
        # Σ = (XᵀX − Σ_j n_j μ_j μ_jᵀ) / n
        return (X.T @ X - (nk * means.T) @ means) / nk.sum()
    # weighted E[x²] − μ², per component and feature (μ is the weighted E[x])
    diag = (resp.T @ (X * X)) / nk[:, None] - means**2
    return diag if covariance_type == "diag" else diag.mean(axis=1)


def _full_scatter(X, resp, means, n_threads):
    """``Σ_i p_ij (x_i − μ_j)(x_i − μ_j)ᵀ`` of every component: the scatter matrices of the rows
    shifted by ``μ_j`` and weighted by ``p_ij``
    (:func:`~kernelkit.utils._scatter.scatter_matrices`, compiled row blocks on ``n_threads``
    threads, independent of their number). The differences are taken before the products, as
    in the course's formula: no cancellation of ``Σ_i p_ij x_i x_iᵀ − n_j μ_j μ_jᵀ`` when the
    means are far from the spread."""
    return scatter_matrices(X, weights=resp, centres=means, n_threads=n_threads)


def _add_ridge(scatter, reg_covar, covariance_type):
    covariances = scatter.copy()
    if covariance_type == "full":
        covariances[:, np.arange(scatter.shape[1]), np.arange(scatter.shape[1])] += reg_covar
    elif covariance_type == "tied":
        covariances.flat[:: scatter.shape[0] + 1] += reg_covar
    else:
        covariances += reg_covar
    return covariances


def _cholesky_of_precisions(matrices, covariance_type, inverse=False):
    """Factors ``U`` with ``precision = U Uᵀ``, from precisions (lower Cholesky factors) or,
    with ``inverse``, from covariances (upper triangular ``C⁻ᵀ``).

    Raises ``numpy.linalg.LinAlgError`` when a matrix is not positive definite.
    """
    if covariance_type in ("diag", "spherical"):
        if np.any(matrices <= 0.0):
            raise np.linalg.LinAlgError("non-positive variance")
        return 1.0 / np.sqrt(matrices) if inverse else np.sqrt(matrices)
    stack = matrices[None] if covariance_type == "tied" else matrices
    # batched LAPACK over the components: no per-component Python/SciPy overhead
    lower = np.linalg.cholesky(stack)
    # covariance Σ = C Cᵀ ⇒ precision Σ⁻¹ = C⁻ᵀ C⁻¹ = U Uᵀ with U = C⁻ᵀ upper triangular
    factors = np.swapaxes(np.linalg.inv(lower), 1, 2) if inverse else lower
    return factors[0] if covariance_type == "tied" else factors


def _covariances_from_precisions(precisions, covariance_type):
    if covariance_type in ("diag", "spherical"):
        return 1.0 / precisions
    return np.linalg.inv(precisions)


def _precisions(precisions_cholesky, covariance_type):
    if covariance_type in ("diag", "spherical"):
        return precisions_cholesky**2
    if covariance_type == "tied":
        return precisions_cholesky @ precisions_cholesky.T
    return np.einsum("kij,klj->kil", precisions_cholesky, precisions_cholesky)


def _log_gaussian_of(means, precisions_cholesky, covariance_type):
    """The function ``X ↦ log φ(x_i; μ_j, Σ_j)`` of every sample and component, shape
    (n_samples, n_components), with its terms that do not depend on ``X`` computed once.

    With ``P = U Uᵀ``: ``(x − μ)ᵀ P (x − μ) = ‖xᵀ U − μᵀ U‖²`` and ``log det P = 2 Σ log diag U``.
    """
    n_features = means.shape[1]
    if covariance_type == "full":
        log_det = np.log(np.diagonal(precisions_cholesky, axis1=1, axis2=2)).sum(axis=1)
        shifts = np.einsum("kj,kjl->kl", means, precisions_cholesky)[:, None, :]

        def mahalanobis(X):
            y = np.matmul(X, precisions_cholesky)   # (components, samples, features)
            y -= shifts
            return np.einsum("kij,kij->ik", y, y)
    elif covariance_type == "tied":
        log_det = np.log(np.diag(precisions_cholesky)).sum()
        centres = means @ precisions_cholesky
        centre_norms = (centres * centres).sum(axis=1)

        def mahalanobis(X):
            y = X @ precisions_cholesky
            return (y * y).sum(axis=1)[:, None] - 2 * y @ centres.T + centre_norms
    elif covariance_type == "diag":
        log_det = np.log(precisions_cholesky).sum(axis=1)
        precisions = precisions_cholesky**2
        scaled_means, mean_norms = (means * precisions).T, (means**2 * precisions).sum(axis=1)

        def mahalanobis(X):
            return mean_norms - 2 * X @ scaled_means + (X**2) @ precisions.T
    else:
        log_det = n_features * np.log(precisions_cholesky)
        precisions = precisions_cholesky**2
        mean_norms = (means**2).sum(axis=1) * precisions

        def mahalanobis(X):
            return (mean_norms - 2 * X @ means.T * precisions
                    + np.outer((X**2).sum(axis=1), precisions))
    constant = log_det - 0.5 * n_features * _LOG_2PI

    def log_gaussian(X):
        return constant - 0.5 * mahalanobis(X)

    return log_gaussian
