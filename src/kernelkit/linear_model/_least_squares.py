"""Least squares and ridge regression (Mairal & Vert, *Kernel Methods* slides, "Simple example 1:
OLS", "Ridge regression"; Peyré, *Mathematical Foundations of Data Sciences*, ch. 16, §16.3.1;
Sangnier, *Introduction to machine learning*, §1.5.1)."""

from numbers import Real

import numpy as np
from scipy.linalg import lstsq
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from kernelkit.utils._ridge import solve_positive_definite
from kernelkit.utils._sklearn_compat import (
    Interval,
    ParameterNamesOncePerClass,
    StrOptions,
    _fit_context,
)
from kernelkit.utils._threads import blas_threads
from kernelkit.utils._validation import check_distance_scale

__all__ = ["LinearRegression", "Ridge", "centred_data"]


def centred_data(X, y, fit_intercept, sample_weight=None):
    """``(X − x̄, y − ȳ, x̄, ȳ)`` with (weighted) means, or the data and zeros without an
    intercept: the intercept of a least-squares fit is then ``ȳ − x̄ᵀβ`` and is not
    penalised."""
    if not fit_intercept:
        return X, y, np.zeros(X.shape[1]), np.zeros(y.shape[1:])
    x_mean = np.average(X, axis=0, weights=sample_weight)
    y_mean = np.average(y, axis=0, weights=sample_weight)
    return X - x_mean, y - y_mean, x_mean, y_mean


class _LinearRegressor(RegressorMixin, ParameterNamesOncePerClass, BaseEstimator):
    """``predict(X) = X coef_ᵀ + intercept_``; subclasses fit ``coef_`` on centred data."""

    _multi_output = True

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit ``coef_`` and ``intercept_``: the estimator's solver on the data centred when
        ``fit_intercept``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            One target only for :class:`LeastAbsoluteDeviation`.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, dtype=np.float64, multi_output=self._multi_output,
                             y_numeric=True)
        check_distance_scale(X)
        Xc, yc, x_mean, y_mean = centred_data(X, y, self.fit_intercept)
        # (p,) or (p, n_targets); a solver that fits its own intercept on the centred data
        # (the median regression) returns it too
        solution = self._solve(Xc, yc)
        beta, offset = solution if isinstance(solution, tuple) else (solution, 0.0)
        self.coef_ = beta.T
        self.intercept_ = y_mean - x_mean @ beta + offset if self.fit_intercept else (
            0.0 if y.ndim == 1 else np.zeros(y.shape[1]))
        return self

    def predict(self, X):
        """Predicted targets ``X coef_ᵀ + intercept_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y : ndarray of shape (n_samples,) or (n_samples, n_targets)
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X @ self.coef_.T + self.intercept_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = self._multi_output
        return tags


class LinearRegression(_LinearRegressor):
    r"""Ordinary least squares: :math:`\hat\beta \in \operatorname{argmin} \|y - X\beta - b\|^2`.

    The normal equations :math:`X^\top (X\hat\beta - y) = 0` (on centred data when
    ``fit_intercept``) are solved by LAPACK's SVD least squares (``gelsd``), so rank-deficient
    designs give the minimum-norm solution :math:`\hat\beta = X^+ y` (Mairal & Vert, "Simple
    example 1: OLS"; Peyré, §16.3.1). Singular values below
    :math:`\max(n, p)\,\varepsilon\,\sigma_{\max}` (:math:`\varepsilon` the float64 machine
    epsilon, NumPy's ``lstsq`` default cutoff) are treated as zero: collinear columns — a one-hot
    encoded category next to the intercept, a duplicated column — leave singular values at
    rounding level, and inverting them instead gives huge coefficients and a worse fit.

    Parameters
    ----------
    fit_intercept : bool, default=True

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    rank_ : int
        Numerical rank of the (centred) design: the number of singular values above the cutoff
        :math:`\max(n, p)\,\varepsilon\,\sigma_{\max}`.
    singular_ : ndarray of shape (min(n_samples, n_features),)
        Singular values of the (centred) design, in decreasing order.
    n_features_in_ : int

    References
    ----------
    .. [1] Peyré, *Mathematical Foundations of Data Sciences*, §16.3.1; Mairal & Vert, *Kernel
       Methods* slides, "Simple example 1: OLS".
    .. [2] G. H. Golub, C. F. Van Loan, *Matrix Computations*, 4th ed., Johns Hopkins, 2013, §5.5
       (rank-deficient least squares by the SVD).

    See Also
    --------
    Ridge : An ℓ2 penalty, for ill-conditioned or wide designs.
    LeastAbsoluteDeviation : The absolute loss, robust to outlying targets.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.linear_model import LinearRegression
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> model = LinearRegression().fit(X, 1 + 2 * X.ravel())
    >>> np.round(model.coef_, 6), round(float(model.intercept_), 6)
    (array([2.]), 1.0)
    """

    _parameter_constraints = {"fit_intercept": ["boolean"]}

    def __init__(self, *, fit_intercept=True):
        self.fit_intercept = fit_intercept

    def _solve(self, Xc, yc):
        # the cutoff is relative to the largest singular value of the matrix decomposed (the
        # centred design when fit_intercept), as numpy.linalg.lstsq's default rcond
        cond = max(Xc.shape) * np.finfo(np.float64).eps
        # gelsd's bidiagonalisation: about 4 m n² operations, mostly matrix-vector products,
        # each a join of the BLAS threads: a small problem runs on one thread
        # (with one busy core, 1 000 × 20 took 86 ms on two threads and 1.6 ms on one)
        with blas_threads(4.0 * max(Xc.shape) * min(Xc.shape) ** 2, None):
            beta, _, self.rank_, self.singular_ = lstsq(Xc, yc, cond=cond, check_finite=False,
                                                        lapack_driver="gelsd")
        return beta


class Ridge(_LinearRegressor):
    r"""Ridge regression:
    :math:`\hat\beta = \operatorname{argmin} \|y - X\beta - b\|^2 + \alpha \|\beta\|^2` (the
    intercept not penalised).

    Primal form :math:`\hat\beta = (X^\top X + \alpha I_p)^{-1} X^\top y` (a :math:`p \times p`
    system) or, by the matrix inversion lemma, the dual form
    :math:`\hat\beta = X^\top (X X^\top + \alpha I_n)^{-1} y` (:math:`n \times n`);
    ``solver="auto"`` takes the smaller system, as Mairal & Vert advise ("Ridge regression",
    "Comparison with standard ridge regression"). Peyré's ch. 16 (§16.3.1) recommends the
    :math:`n \times n` form when :math:`n \gg p`, which is backwards — it costs :math:`O(n^3)`
    instead of :math:`O(p^3)`. :math:`\alpha` is scikit-learn's (:math:`\alpha = n\lambda` in the
    slides' :math:`\frac1n \|y - X\beta\|^2 + \lambda \|\beta\|^2`).

    Parameters
    ----------
    alpha : float, default=1.0
    fit_intercept : bool, default=True
    solver : {"auto", "primal", "dual"}, default="auto"

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,) or (n_targets, n_features)
    intercept_ : float or ndarray of shape (n_targets,)
    solver_ : str
        The form used.
    n_features_in_ : int

    References
    ----------
    .. [1] Peyré, *Mathematical Foundations of Data Sciences*, §16.3.1; Mairal & Vert, *Kernel
       Methods* slides, "Ridge regression", "Comparison with standard ridge regression".
    .. [2] A. E. Hoerl, R. W. Kennard, "Ridge regression: biased estimation for nonorthogonal
       problems", Technometrics 12(1), 1970.

    See Also
    --------
    LinearRegression : No penalty.
    kernelkit.kernel_ridge.KernelRidge : The same penalty in a kernel's feature space.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.linear_model import Ridge
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> y = np.array([1.0, 2.0, 3.0])
    >>> primal = Ridge(alpha=0.5, solver="primal").fit(X, y)
    >>> dual = Ridge(alpha=0.5, solver="dual").fit(X, y)
    >>> bool(np.allclose(primal.coef_, dual.coef_))
    True
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "solver": [StrOptions({"auto", "primal", "dual"})],
    }

    def __init__(self, alpha=1.0, *, fit_intercept=True, solver="auto"):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver

    def _solve(self, Xc, yc):
        n, p = Xc.shape
        self.solver_ = self.solver if self.solver != "auto" else ("primal" if p <= n else "dual")
        if self.solver_ == "primal":
            A = Xc.T @ Xc
            A.flat[::p + 1] += self.alpha
            return solve_positive_definite(A, Xc.T @ yc, "XᵀX + alpha·I")
        G = Xc @ Xc.T
        G.flat[::n + 1] += self.alpha
        return Xc.T @ solve_positive_definite(G, yc, "XXᵀ + alpha·I")
