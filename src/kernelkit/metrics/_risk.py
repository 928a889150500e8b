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
from sklearn.utils._param_validation import HasMethods, Interval, validate_params
from sklearn.utils.validation import check_array

from kernelkit.utils._validation import MAX_INT

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
    """Monte-Carlo bias–variance decomposition of the prediction risk at fixed design.

    The model is ``Y = f(x) + ε`` with ``ε ~ N(0, σ²)``. Each repeat draws the training targets
    ``y = f(X) + ε`` on the fixed inputs ``X``, fits a clone of ``estimator`` and predicts at the
    test inputs ``x_0``. For a new observation ``Y_0 = f(x_0) + ε_0`` (Mairal & Vert, "The
    fundamental bias-variance trade-off"):

        E(Y_0 − f̂(x_0))² = σ² + (f(x_0) − E f̂(x_0))² + E(f̂(x_0) − E f̂(x_0))²
                         = noise + bias² + variance,

    with the expectations over the training noise estimated by the ``n_repeats`` fits (the
    variance with divisor ``n_repeats``, so that bias² + variance is exactly the mean squared
    distance of the fits to ``f(x_0)``). ``risk`` is an independent Monte-Carlo estimate of the
    left-hand side, with fresh ``ε_0`` for each fit and test point; the decomposition agrees with
    it within a few ``risk_std_error``.

    Parameters
    ----------
    estimator : estimator with ``fit`` and ``predict``
        Cloned for every repeat.
    X : array-like of shape (n_samples, n_features)
        The fixed training inputs.
    f : callable
        ``f(X) -> ndarray of shape (n_samples,)``: the true regression function.
    noise_std : float
        ``σ``.
    X_test : array-like of shape (n_test, n_features), default=None
        Points ``x_0`` where the risk is decomposed (averaged over them); None: ``X``.
    n_repeats : int, default=200
        Training sets drawn.
    random_state : int, RandomState instance or None, default=None

    Returns
    -------
    result : Bunch
        ``bias2``, ``variance``, ``noise`` (= σ²), ``risk`` and ``risk_std_error`` (floats,
        averaged over ``X_test``); ``predictions`` of shape (n_repeats, n_test).

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
    """Upper bound ``2B sqrt(E‖X‖²) / sqrt(n)`` on the Rademacher complexity of the ball
    ``F_B = {x ↦ βᵀx : ‖β‖ ≤ B}``, with ``E‖X‖²`` estimated by the mean over the sample.

    Mairal & Vert, "ERM for bounded linear classifiers" (Theorem; the proof is Cauchy–Schwarz then
    Jensen); in an RKHS ball ``‖f‖_H ≤ B`` the same holds with ``‖X‖²`` replaced by
    ``k(X, X)`` ("Basic learning bounds in RKHS balls"): pass the Gram matrix with
    ``precomputed=True``. The courses' conventions differ by a factor 2: Mairal & Vert defines
    ``Rad_n(F) = E sup |(2/n) Σ σ_i f(X_i)|`` (used here), Sangnier, Def 1.3.1 without the 2.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) Gram matrix
    radius : float, default=1.0
        ``B``.
    precomputed : bool, default=False

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
    return float(2.0 * radius * np.sqrt(squared.mean()) / np.sqrt(X.shape[0]))


@validate_params(
    {"X": ["array-like"], "radius": [Interval(Real, 0, None, closed="left")],
     "precomputed": ["boolean"], "n_draws": [Interval(Integral, 1, MAX_INT, closed="left")],
     "random_state": ["random_state"]},
    prefer_skip_nested_validation=True,
)
def empirical_rademacher_complexity(X, radius=1.0, *, precomputed=False, n_draws=1000,
                                    random_state=None):
    """Empirical Rademacher complexity of the ball ``{‖β‖ ≤ B}`` on the sample, by Monte Carlo
    over the signs: ``E_σ sup_β |(2/n) Σ σ_i βᵀx_i| = (2B/n) E_σ ‖Σ σ_i x_i‖`` (the supremum is
    attained at ``β ∝ Σ σ_i x_i``; Mairal & Vert "ERM for bounded linear classifiers", proof).

    With ``precomputed=True``, ``X`` is a Gram matrix and ``‖Σ σ_i φ(x_i)‖ = sqrt(σᵀKσ)``: the
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
    """Estimation-error bound ``8 L_φ κ B / sqrt(n)`` of ERM over a ball of radius ``B``.

    Mairal & Vert, "Basic learning bounds in RKHS balls" (Corollary): if ``‖X‖ ≤ κ`` (or
    ``k(X, X) ≤ κ²``) and φ is ``L_φ``-Lipschitz, the ERM estimator in ``F_B`` has
    ``E R_φ(f̂_n) − R_φ* ≤ 8 L_φ κ B / sqrt(n)`` + the approximation error, from
    ``4 L_φ Rad_n(F_B)`` ("Basic learning bounds") and ``Rad_n(F_B) ≤ 2Bκ/sqrt(n)``.

    Parameters
    ----------
    radius : float
        ``B``.
    kappa : float
        Bound on ``‖X‖``.
    lipschitz : float
        ``L_φ`` (1 for the hinge and logistic losses).
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
