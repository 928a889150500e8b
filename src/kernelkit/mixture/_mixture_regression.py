"""Mixtures of linear regressions fitted by EM (Sangnier, Exam 2021 Ex. 2, generalised).

The EM loop is the shared driver of :mod:`kernelkit.mixture._em`.
"""

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from kernelkit.mixture._em import (
    EM_PARAMETER_CONSTRAINTS,
    aic,
    bic,
    check_n_components,
    fit_em,
    logsumexp_rows,
    set_em_attributes,
)
from kernelkit.mixture._initialization import initial_responsibilities
from kernelkit.utils._sklearn_compat import Interval, ParameterNamesOncePerClass, _fit_context
from kernelkit.utils._validation import check_distance_scale

__all__ = ["MixtureOfLinearRegressions"]

_LOG_2PI = np.log(2.0 * np.pi)


class MixtureOfLinearRegressions(RegressorMixin, ParameterNamesOncePerClass, BaseEstimator):
    r"""Mixture of linear regressions fitted by the EM algorithm.

    Model: a hidden component :math:`Y = j` is drawn with probability :math:`\pi_j`, then
    :math:`y \mid x, Y = j \sim \mathcal N(x^\top \beta_j + c_j, \sigma_j^2)`. EM alternates:

    * E step:

      .. math::

          p_{ij} = \frac{\pi_j \varphi(y_i; x_i^\top \beta_j + c_j, \sigma_j^2)}
                        {\sum_l \pi_l \varphi(y_i; x_i^\top \beta_l + c_l, \sigma_l^2)};

    * M step: :math:`\pi_j = \frac1n \sum_i p_{ij}`; :math:`(\beta, c)` by least squares weighted
      by :math:`p_{ij} / \sigma_j^2`; :math:`\sigma_j^2 = \sum_i p_{ij} r_{ij}^2 / \sum_i p_{ij}`
      with the residuals :math:`r_{ij} = y_i - x_i^\top \beta_j - c_j` (pooled over components
      when the variance is shared), plus ``reg_var``.

    **The exam's model** (Sangnier, Exam 2021 Ex. 2) is a
    special case: :math:`X_i \mid Y_i \sim \mathcal N(a_i^\top \beta_0 + Y_i, \sigma_0^2)` with
    :math:`Y_i \in \{b_1, b_2\}` known, :math:`P(Y_i = b_1) = \alpha_0`, one coefficient vector
    and one variance. It is
    ``MixtureOfLinearRegressions(2, offsets=[b_1, b_2], shared_coef=True, shared_variance=True,
    fit_intercept=False)`` fitted on ``(A, X)``; its M step is the exam's closed form

    .. math::

        \beta = (A^\top A)^{-1} A^\top (X - (p b_1 + (1 - p) b_2)),

        \sigma^2 = \frac1n \sum_i [p_i r_{i1}^2 + (1 - p_i) r_{i2}^2], \qquad
        \alpha = \operatorname{mean}_i p_i.

    With ``shared_coef`` and separate variances the coefficient update uses the current
    variances (an ECM step, Meng & Rubin 1993), which keeps the log-likelihood non-decreasing
    (Sangnier, Theorem 53); every other M step is exact.

    Parameters
    ----------
    n_components : int, default=2
    fit_intercept : bool, default=True
        Learn an intercept :math:`c_j` per component (ignored when ``offsets`` is given).
    offsets : array-like of shape (n_components,), default=None
        Known intercepts :math:`c_j = b_j` (the exam's :math:`b_1, b_2`), not learned.
    shared_coef : bool, default=False
        One coefficient vector :math:`\beta` for every component (components then differ by their
        intercepts).
    shared_variance : bool, default=False
        One noise variance for every component.
    reg_var : float, default=1e-6
        Added to the variances: the likelihood is unbounded when a component fits a few samples
        exactly (the degeneracy of Sangnier, §2.1.5). 0 gives exact EM.
    tol : float, default=1e-3
        Stop when the mean log-likelihood gains less than ``tol`` in an iteration.
    max_iter : int, default=100
    n_init : int, default=1
        Initialisations; the one reaching the highest likelihood is kept.
    init_params : {"random", "kmeans", "k-means++", "random_from_data"}, default="random"
        Initial responsibilities, computed on the rows ``[x, y]`` as :class:`GaussianMixture`
        does on ``X``.
    random_state : int, RandomState instance or None, default=None
    n_jobs : int, default=None
        Threads of a k-means initialisation.
    verbose : int, default=0
        Progress on stderr, with the levels of :class:`GaussianMixture`.

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
        Mixing proportions :math:`\pi`.
    coef_ : ndarray of shape (n_components, n_features)
        :math:`\beta_j` (identical rows when ``shared_coef``).
    intercept_ : ndarray of shape (n_components,)
        :math:`c_j`: learned, the given ``offsets``, or zeros.
    variances_ : ndarray of shape (n_components,)
        :math:`\sigma_j^2` (identical entries when ``shared_variance``).
    converged_ : bool
    n_iter_ : int
    lower_bound_ : float
        Mean conditional log-likelihood :math:`\frac1n \sum_i \log p(y_i \mid x_i)` of the best
        run, as
        evaluated in its last E step.
    lower_bound_history_ : ndarray of shape (n_iter_,)
        The same after each E step; non-decreasing.
    n_features_in_ : int

    See Also
    --------
    GaussianMixture, PoissonMixture : mixtures on the same EM driver.

    References
    ----------
    Sangnier, *Introduction to machine learning*, Exam 2021, Exercise 2 (Algorithme EM); §2.1.3
    Algorithm 7, Theorem 53; §2.1.5 (BIC/AIC).
    X.-L. Meng and D. B. Rubin, "Maximum likelihood estimation via the ECM algorithm",
    Biometrika 80, 1993.

    Examples
    --------
    The exam's model: two known offsets :math:`b = (1, -1)`, one :math:`\beta`, one
    :math:`\sigma^2`:

    >>> import numpy as np
    >>> from kernelkit.mixture import MixtureOfLinearRegressions
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(2000, 2))
    >>> Y = np.where(rng.uniform(size=2000) < 0.3, 1.0, -1.0)
    >>> X = A @ [2.0, -1.0] + Y + 0.3 * rng.normal(size=2000)
    >>> model = MixtureOfLinearRegressions(2, offsets=[1.0, -1.0], shared_coef=True,
    ...                                    shared_variance=True, fit_intercept=False,
    ...                                    random_state=0).fit(A, X)
    >>> np.round(model.coef_[0], 1), np.round(model.weights_, 1), np.round(model.variances_[0], 2)
    (array([ 2., -1.]), array([0.3, 0.7]), np.float64(0.09))
    """

    _parameter_constraints = {
        **EM_PARAMETER_CONSTRAINTS,
        "fit_intercept": ["boolean"],
        "offsets": ["array-like", None],
        "shared_coef": ["boolean"],
        "shared_variance": ["boolean"],
        "reg_var": [Interval(Real, 0.0, None, closed="left")],
    }

    def __init__(self, n_components=2, *, fit_intercept=True, offsets=None, shared_coef=False,
                 shared_variance=False, reg_var=1e-6, tol=1e-3, max_iter=100, n_init=1,
                 init_params="random", random_state=None, n_jobs=None, verbose=0):
        self.n_components = n_components
        self.fit_intercept = fit_intercept
        self.offsets = offsets
        self.shared_coef = shared_coef
        self.shared_variance = shared_variance
        self.reg_var = reg_var
        self.tol = tol
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Estimate the weights, coefficients, intercepts and variances by EM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : MixtureOfLinearRegressions
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, ensure_min_samples=2)
        check_distance_scale(np.column_stack([X, y]))   # squared residuals must stay finite
        k = self.n_components
        check_n_components(X.shape[0], k)
        offsets = None
        if self.offsets is not None:
            offsets = check_array(self.offsets, ensure_2d=False, dtype=np.float64,
                                  input_name="offsets")
            if offsets.shape != (k,):
                raise ValueError(f"offsets must have one value per component ({k}), got shape "
                                 f"{offsets.shape}.")
        learn_intercepts = self.fit_intercept and offsets is None
        fixed = offsets if offsets is not None else np.zeros(k)
        design = _Design(X, learn_intercepts, k, self.shared_coef)

        def e_step(parameters):
            weighted = _weighted_log_prob(X, y, *parameters)
            log_norm = logsumexp_rows(weighted)
            return np.exp(weighted - log_norm[:, None]), float(log_norm.mean())

        def m_step(resp, parameters):
            return self._m_step(design, y, resp, fixed, parameters[3])

        def start(random_state):
            rows = np.column_stack([X, y])
            resp = initial_responsibilities(rows, k, self.init_params, random_state, self.n_jobs)
            # first M step: unit variances weight the components alike
            return self._m_step(design, y, resp, fixed, np.ones(k))

        best = fit_em(start, e_step, m_step, n_init=self.n_init, max_iter=self.max_iter,
                      tol=self.tol, random_state=check_random_state(self.random_state),
                      verbose=self.verbose, label=type(self).__name__)
        self.weights_, self.coef_, self.intercept_, self.variances_ = best.parameters
        set_em_attributes(self, best)
        return self

    def _m_step(self, design, y, resp, fixed, variances):
        """Weights, coefficients, intercepts, variances (weighted least squares, then the
        residual variances)."""
        n_samples, k = resp.shape
        nk = resp.sum(axis=0) + 10 * np.finfo(np.float64).eps   # an empty component keeps values
        weights = nk / nk.sum()
        coef, intercepts = design.solve(y, resp / variances, fixed)
        residuals = y[:, None] - design.predict(coef, intercepts)
        scatter = (resp * residuals**2).sum(axis=0)
        if self.shared_variance:
            variances = np.full(k, scatter.sum() / n_samples)
        else:
            variances = scatter / nk
        variances = variances + self.reg_var
        # below ε Var(y) a residual variance is rounding: the component interpolates its samples
        if not np.all(variances > np.finfo(np.float64).eps * max(float(np.var(y)), 1e-300)):
            raise ValueError("A component fits its samples exactly (zero residual variance): the "
                             "likelihood is unbounded. Use reg_var > 0 or fewer components.")
        return weights, coef, intercepts, variances

    def _checked_Xy(self, X, y):
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        y = check_array(y, ensure_2d=False, dtype=np.float64, input_name="y")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}.")
        return X, y

    def _weighted_log_prob(self, X, y):
        return _weighted_log_prob(X, y, self.weights_, self.coef_, self.intercept_,
                                  self.variances_)

    def predict(self, X):
        r"""Conditional mean :math:`E[y \mid x] = \sum_j \pi_j (x^\top \beta_j + c_j)`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return (X @ self.coef_.T + self.intercept_) @ self.weights_

    def predict_proba(self, X, y=None):
        r"""Posterior probabilities of the components (the E step when ``y`` is given).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,), default=None
            None: the components given ``x`` alone, which are the weights :math:`\pi` (in this model
            the component does not depend on ``x``).

        Returns
        -------
        proba : ndarray of shape (n_samples, n_components)
        """
        if y is None:
            check_is_fitted(self)
            X = validate_data(self, X, dtype=np.float64, reset=False)
            return np.tile(self.weights_, (X.shape[0], 1))
        weighted = self._weighted_log_prob(*self._checked_Xy(X, y))
        return np.exp(weighted - logsumexp_rows(weighted)[:, None])

    def conditional_log_density(self, X, y):
        r"""Conditional log-density :math:`\log p(y_i \mid x_i)` of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        log_density : ndarray of shape (n_samples,)
        """
        return logsumexp_rows(self._weighted_log_prob(*self._checked_Xy(X, y)))

    def _n_parameters(self):
        """``(k − 1)`` weights, the coefficients, the learned intercepts, the variances."""
        k, d = self.coef_.shape
        n_coef = d if self.shared_coef else k * d
        n_intercepts = k if self.fit_intercept and self.offsets is None else 0
        return k - 1 + n_coef + n_intercepts + (1 if self.shared_variance else k)

    def bic(self, X, y):
        r"""Bayesian information criterion :math:`-2 \sum_i \log p(y_i \mid x_i) + m \log n`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        bic : float
        """
        log_density = self.conditional_log_density(X, y)
        return bic(float(log_density.sum()), self._n_parameters(), log_density.size)

    def aic(self, X, y):
        r"""Akaike information criterion :math:`-2 \sum_i \log p(y_i \mid x_i) + 2m`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        aic : float
        """
        return aic(float(self.conditional_log_density(X, y).sum()), self._n_parameters())


class _Design:
    """Weighted least squares of the M step for separate or shared coefficients.

    Separate coefficients: one problem per component, ``min Σ_i w_ij (y_i − b_j − z_iᵀθ_j)²``
    with ``z_i = [x_i, 1]`` when intercepts are learned. Shared coefficients: one problem over
    the ``n × k`` pairs, ``min Σ_ij w_ij (y_i − b_j − x_iᵀβ − c_j)²``, the columns of ``c`` the
    component indicators.
    """

    def __init__(self, X, learn_intercepts, n_components, shared):
        self.X = X
        self.learn_intercepts = learn_intercepts
        self.n_components = n_components
        self.shared = shared

    def solve(self, y, w, fixed):
        """``(coef (k, d), intercepts (k,))`` for the weights ``w`` (n, k) and fixed offsets."""
        n, d = self.X.shape
        k = self.n_components
        target = y[:, None] - fixed                              # (n, k)
        root = np.sqrt(w)
        if self.shared:
            blocks = [np.repeat(self.X, k, axis=0)]              # row i·k + j holds x_i
            if self.learn_intercepts:
                blocks.append(np.tile(np.eye(k), (n, 1)))        # ... and the indicator of j
            A = np.hstack(blocks) * root.reshape(-1, 1)
            theta = np.linalg.lstsq(A, (target * root).ravel(), rcond=None)[0]
            coef = np.tile(theta[:d], (k, 1))
            intercepts = fixed + (theta[d:] if self.learn_intercepts else 0.0)
            return coef, intercepts
        Z = np.column_stack([self.X, np.ones(n)]) if self.learn_intercepts else self.X
        coef, intercepts = np.empty((k, d)), fixed.copy()
        for j in range(k):
            theta = np.linalg.lstsq(Z * root[:, [j]], target[:, j] * root[:, j], rcond=None)[0]
            coef[j] = theta[:d]
            if self.learn_intercepts:
                intercepts[j] += theta[d]
        return coef, intercepts

    def predict(self, coef, intercepts):
        """``x_iᵀβ_j + c_j`` for every sample and component, shape (n, k)."""
        return self.X @ coef.T + intercepts


def _weighted_log_prob(X, y, weights, coef, intercepts, variances):
    """``log π_j + log φ(y_i; x_iᵀβ_j + c_j, σ_j²)``, shape (n_samples, n_components)."""
    residuals = y[:, None] - (X @ coef.T + intercepts)
    with np.errstate(divide="ignore"):
        log_weights = np.log(weights)
    return log_weights - 0.5 * (_LOG_2PI + np.log(variances) + residuals**2 / variances)
