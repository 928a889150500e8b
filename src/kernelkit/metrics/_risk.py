"""Risk utilities: the Monte-Carlo bias–variance decomposition and the Rademacher complexity of
norm balls with the learning bounds it gives.

Mairal & Vert, *Kernel Methods* slides, "The fundamental bias-variance trade-off", "Definition:
Rademacher complexity", "Basic learning bounds", "ERM for bounded linear classifiers", "Basic
learning bounds in RKHS balls".
"""

from numbers import Integral, Real

import numpy as np
from sklearn.base import clone
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.validation import check_array

from kernelkit.utils._gram import check_precomputed_gram
from kernelkit.utils._sklearn_compat import HasMethods, Interval, validate_params
from kernelkit.utils._validation import MAX_INT, check_memory_request

__all__ = [
    "bias_variance",
    "empirical_rademacher_complexity",
    "excess_risk_bound",
    "rademacher_bound",
]


@validate_params(
    {"estimator": [HasMethods(["fit", "predict"])], "X": ["array-like"], "f": [callable],
     "noise_std": [Interval(Real, 0, None, closed="left")], "X_test": ["array-like", None],
     "n_repeats": [Interval(Integral, 2, MAX_INT, closed="left")], "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
def bias_variance(estimator, X, f, *, noise_std, X_test=None, n_repeats=200, random_state=None):
    r"""Monte-Carlo bias–variance decomposition of the prediction risk at fixed design.

    The model is :math:`Y = f(x) + \varepsilon` with
    :math:`\varepsilon \sim \mathcal N(0, \sigma^2)`. Each repeat draws the training targets
    :math:`y = f(X) + \varepsilon` on the fixed inputs :math:`X`, fits a clone of ``estimator`` and
    predicts at the test inputs :math:`x_0`. For a new observation
    :math:`Y_0 = f(x_0) + \varepsilon_0` (Mairal & Vert, "The fundamental bias-variance trade-off"):

    .. math::

        E(Y_0 - \hat f(x_0))^2
        &= \sigma^2 + (f(x_0) - E \hat f(x_0))^2 \\
        &\quad + E(\hat f(x_0) - E \hat f(x_0))^2 \\
        &= \text{noise} + \text{bias}^2 + \text{variance},

    with the expectations over the training noise estimated by the ``n_repeats`` fits (the variance
    with divisor ``n_repeats``, so that bias² + variance is exactly the mean squared distance of the
    fits to :math:`f(x_0)`). ``risk`` is an independent Monte-Carlo estimate of the left-hand side,
    with fresh :math:`\varepsilon_0` for each fit and test point; the decomposition agrees with it
    within a few ``risk_std_error``.

    Parameters
    ----------
    estimator : estimator with ``fit`` and ``predict``
        Cloned for every repeat.
    X : array-like of shape (n_samples, n_features)
        The fixed training inputs.
    f : callable
        ``f(X) -> ndarray of shape (n_samples,)``: the true regression function.
    noise_std : float
        :math:`\sigma`.
    X_test : array-like of shape (n_test, n_features), default=None
        Points :math:`x_0` where the risk is decomposed (averaged over them); None: ``X``.
    n_repeats : int, default=200
        Training sets drawn.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    result : Bunch
        ``bias2``, ``variance``, ``noise`` (:math:`= \sigma^2`), ``risk`` and ``risk_std_error``
        (floats, averaged over ``X_test``); ``predictions`` of shape (n_repeats, n_test).

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "The fundamental bias-variance trade-off", "Performance
    of ridge regression" (closed forms for ridge).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from kernelkit.metrics import bias_variance
    >>> X = np.linspace(-1, 1, 30)[:, None]
    >>> result = bias_variance(LinearRegression(), X, lambda X: X[:, 0] ** 2, noise_std=0.1,
    ...                        random_state=0)
    >>> bool(result.bias2 > result.variance)   # a line cannot fit a parabola: bias dominates
    True
    """
    X = check_array(X, dtype=np.float64, input_name="X")
    X_test = X if X_test is None else check_array(X_test, dtype=np.float64, input_name="X_test")
    rng = check_random_state(random_state)
    f_train = np.asarray(f(X), dtype=np.float64)
    f_test = np.asarray(f(X_test), dtype=np.float64)
    if f_train.shape != (X.shape[0],) or f_test.shape != (X_test.shape[0],):
        raise ValueError("f must map (n, n_features) inputs to an array of shape (n,).")
    # the predictions, the fresh noise, the errors and their squares: (n_repeats, n_test) each
    check_memory_request(32.0 * n_repeats * X_test.shape[0],
                         f"bias_variance(n_repeats={n_repeats}) on {X_test.shape[0]} test points",
                         "lower n_repeats (the Monte Carlo error decreases as "
                         "1/sqrt(n_repeats)).")
    predictions = np.empty((n_repeats, X_test.shape[0]))
    for r in range(n_repeats):
        y = f_train + noise_std * rng.standard_normal(X.shape[0])
        predictions[r] = clone(estimator).fit(X, y).predict(X_test)
    mean_prediction = predictions.mean(axis=0)
    # squared errors against fresh observations Y_0 = f(x_0) + ε_0, one per fit and point
    errors = (f_test + noise_std * rng.standard_normal(predictions.shape) - predictions) ** 2
    per_repeat = errors.mean(axis=1)
    return Bunch(bias2=float(np.mean((f_test - mean_prediction) ** 2)),
                 variance=float(np.mean(predictions.var(axis=0))),
                 noise=float(noise_std**2),
                 risk=float(per_repeat.mean()),
                 risk_std_error=float(per_repeat.std(ddof=1) / np.sqrt(n_repeats)),
                 predictions=predictions)


def _squared_norms(X, precomputed):
    """``‖x_i‖²`` of the rows of X, or the diagonal ``k(x_i, x_i)`` of a Gram matrix."""
    if precomputed:
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"precomputed=True needs a square Gram matrix, got {X.shape}.")
        return np.diag(X).copy()
    return np.einsum("ij,ij->i", X, X)


@validate_params(
    {"X": ["array-like"], "radius": [Interval(Real, 0, None, closed="left")],
     "precomputed": ["boolean"]},
    prefer_skip_nested_validation=True,
)
def rademacher_bound(X, radius=1.0, *, precomputed=False):
    r"""Upper bound :math:`2B \sqrt{E\|X\|^2} / \sqrt n` on the Rademacher complexity of the
    ball :math:`F_B = \{x \mapsto \beta^\top x : \|\beta\| \le B\}`, with :math:`E\|X\|^2`
    estimated by the mean over the sample.

    Mairal & Vert, "ERM for bounded linear classifiers" (Theorem; the proof is Cauchy–Schwarz then
    Jensen); in an RKHS ball :math:`\|f\|_H \le B` the same holds with :math:`\|X\|^2` replaced by
    :math:`k(X, X)` ("Basic learning bounds in RKHS balls"): pass the Gram matrix with
    ``precomputed=True``. The courses' conventions differ by a factor 2: Mairal & Vert defines
    :math:`\mathrm{Rad}_n(F) = E \sup |\frac2n \sum_i \sigma_i f(X_i)|` (used here), Sangnier,
    Def 1.3.1 without the 2.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) Gram matrix
    radius : float, default=1.0
        ``B``.
    precomputed : bool, default=False
        ``X`` is a Gram matrix; it must be positive semi-definite (a ValueError otherwise, see
        :func:`kernelkit.utils._gram.check_precomputed_gram`).

    Returns
    -------
    bound : float

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.metrics import rademacher_bound
    >>> rademacher_bound(np.eye(4), radius=3.0)   # 2 · 3 · 1 / 2
    3.0
    """
    X = check_array(X, dtype=np.float64, input_name="X")
    squared = _squared_norms(X, precomputed)
    if precomputed:
        # the trace bound takes sqrt(k(x, x)) and Cauchy–Schwarz in the RKHS: a p.s.d. K only
        check_precomputed_gram(X, name="The Gram matrix X", finite=True)
    return float(2.0 * radius * np.sqrt(squared.mean()) / np.sqrt(X.shape[0]))


@validate_params(
    {"X": ["array-like"], "radius": [Interval(Real, 0, None, closed="left")],
     "precomputed": ["boolean"], "n_draws": [Interval(Integral, 1, MAX_INT, closed="left")],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
def empirical_rademacher_complexity(X, radius=1.0, *, precomputed=False, n_draws=1000,
                                    random_state=None):
    r"""Empirical Rademacher complexity of the ball :math:`\{\|\beta\| \le B\}` on the sample, by
    Monte Carlo over the signs:

    .. math::

        E_\sigma \sup_\beta \Big|\frac2n \sum_i \sigma_i \beta^\top x_i\Big|
        = \frac{2B}n E_\sigma \Big\|\sum_i \sigma_i x_i\Big\|

    (the supremum is attained at :math:`\beta \propto \sum_i \sigma_i x_i`; Mairal & Vert "ERM for
    bounded linear classifiers", proof).

    With ``precomputed=True``, ``X`` is a Gram matrix and
    :math:`\|\sum_i \sigma_i \varphi(x_i)\| = \sqrt{\sigma^\top K \sigma}`: the
    complexity of an RKHS ball. By Jensen it is at most :func:`rademacher_bound`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) Gram matrix
    radius : float, default=1.0
    precomputed : bool, default=False
    n_draws : int, default=1000
        Sign vectors drawn.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    complexity : float

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.metrics import empirical_rademacher_complexity
    >>> empirical_rademacher_complexity(np.eye(4), radius=3.0, random_state=0)   # ‖σ‖ = 2
    3.0
    """
    X = check_array(X, dtype=np.float64, input_name="X")
    n = X.shape[0]
    if precomputed:
        _squared_norms(X, True)
    # the signs, the sampler's index array and σ X (or σ K), each (n_draws, n) or (n_draws, d)
    check_memory_request(8.0 * n_draws * (2 * n + X.shape[1]),
                         f"empirical_rademacher_complexity(n_draws={n_draws}) on {n} samples",
                         "lower n_draws (the Monte Carlo error decreases as 1/sqrt(n_draws)).")
    signs = check_random_state(random_state).choice([-1.0, 1.0], size=(n_draws, n))
    if precomputed:
        norms = np.sqrt(np.maximum(np.einsum("ri,ij,rj->r", signs, X, signs), 0.0))
    else:
        norms = np.linalg.norm(signs @ X, axis=1)
    return float(2.0 * radius / n * norms.mean())


@validate_params(
    {"radius": [Interval(Real, 0, None, closed="left")],
     "kappa": [Interval(Real, 0, None, closed="left")],
     "lipschitz": [Interval(Real, 0, None, closed="left")],
     "n_samples": [Interval(Integral, 1, MAX_INT, closed="left")]},
    prefer_skip_nested_validation=True,
)
def excess_risk_bound(radius, kappa, lipschitz, n_samples):
    r"""Estimation-error bound :math:`8 L_\varphi \kappa B / \sqrt n` of ERM over a ball of
    radius :math:`B`.

    Mairal & Vert, "Basic learning bounds in RKHS balls" (Corollary): if :math:`\|X\| \le \kappa`
    (or :math:`k(X, X) \le \kappa^2`) and :math:`\varphi` is :math:`L_\varphi`-Lipschitz, the ERM
    estimator in :math:`F_B` has
    :math:`E R_\varphi(\hat f_n) - R_\varphi^* \le 8 L_\varphi \kappa B / \sqrt n` + the
    approximation error, from :math:`4 L_\varphi \mathrm{Rad}_n(F_B)` ("Basic learning bounds")
    and :math:`\mathrm{Rad}_n(F_B) \le 2B\kappa / \sqrt n`.

    Parameters
    ----------
    radius : float
        :math:`B`.
    kappa : float
        Bound on :math:`\|X\|`.
    lipschitz : float
        :math:`L_\varphi` (1 for the hinge and logistic losses).
    n_samples : int

    Returns
    -------
    bound : float

    Examples
    --------
    >>> from kernelkit.metrics import excess_risk_bound
    >>> excess_risk_bound(radius=1.0, kappa=1.0, lipschitz=1.0, n_samples=64)
    1.0
    """
    return float(8.0 * lipschitz * kappa * radius / np.sqrt(n_samples))
