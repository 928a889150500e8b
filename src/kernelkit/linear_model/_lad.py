"""Least absolute deviations (median regression) by linear programming or iteratively
reweighted least squares (Sangnier, *Introduction to machine learning*, §1.5.2, Theorem 45)."""

from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from kernelkit.linear_model._least_squares import _LinearRegressor
from kernelkit.utils._ridge import solve_positive_definite
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["LeastAbsoluteDeviation"]


class LeastAbsoluteDeviation(_LinearRegressor):
    r"""Median regression:
    :math:`\operatorname{argmin}_{\beta, b} \sum_i |y_i - x_i^\top \beta - b| + \alpha \|\beta\|^2`.

    The absolute loss makes the prediction a conditional median (Sangnier, §1.5.2, Theorem 45),
    robust to outlying targets. With :math:`\alpha = 0` the problem is the linear programme
    :math:`\min \sum_i (u_i + v_i)` s.t. :math:`X\beta + b + u - v = y`, :math:`u, v \ge 0`, solved
    exactly by SciPy's HiGHS; with :math:`\alpha > 0` (a quadratic term), by iteratively
    reweighted least squares: each step a weighted ridge regression with weights
    :math:`1 / \max(|r_i|, \varepsilon)`.

    Parameters
    ----------
    alpha : float, default=0.0
        ℓ2 penalty on the coefficients (not the intercept).
    fit_intercept : bool, default=True
    max_iter : int, default=200
        IRLS steps (``alpha > 0``).
    tol : float, default=1e-8
        IRLS stops when the objective decreases by less than ``tol`` relatively.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    n_iter_ : int
    n_features_in_ : int

    References
    ----------
    .. [1] Sangnier, *Introduction to machine learning*, §1.5.2, Theorem 45.
    .. [2] R. Koenker, G. Bassett, "Regression quantiles", Econometrica 46(1), 1978.

    See Also
    --------
    LinearRegression : The squared loss (conditional mean).
    kernelkit.svm.SVR : The ε-insensitive loss, with a kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.linear_model import LeastAbsoluteDeviation
    >>> X = np.arange(6.0)[:, None]
    >>> y = 2 * X.ravel() + 1
    >>> y[5] = 100.0                       # one outlier
    >>> model = LeastAbsoluteDeviation().fit(X, y)
    >>> np.round(model.coef_, 6), round(float(model.intercept_), 6)
    (array([2.]), 1.0)
    """

    _multi_output = False
    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": ["boolean"],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(self, alpha=0.0, *, fit_intercept=True, max_iter=200, tol=1e-8):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol

    def _solve(self, Xc, yc):
        if self.alpha == 0:
            return self._linear_programme(Xc, yc)
        return self._irls(Xc, yc)

    def _linear_programme(self, Xc, yc):
        """``min 1ᵀu + 1ᵀv`` over ``(β, b, u, v)`` on the centred data; returns ``β`` and the
        LP's own intercept, an offset to the least-squares one (the median of the centred
        residuals need not be 0)."""
        n, p = Xc.shape
        n_free = p + int(self.fit_intercept)
        design = np.hstack([Xc, np.ones((n, 1))]) if self.fit_intercept else Xc
        A_eq = sp.hstack([sp.csr_array(design), sp.eye_array(n), -sp.eye_array(n)], format="csr")
        cost = np.r_[np.zeros(n_free), np.ones(2 * n)]
        bounds = [(None, None)] * n_free + [(0, None)] * (2 * n)
        result = linprog(cost, A_eq=A_eq, b_eq=yc, bounds=bounds, method="highs")
        if result.status != 0:
            raise ValueError(f"The linear programme of the median regression failed: "
                             f"{result.message}")
        self.n_iter_ = int(result.nit)
        return result.x[:p], float(result.x[p]) if self.fit_intercept else 0.0

    def _irls(self, Xc, yc):
        n, p = Xc.shape
        design = np.hstack([Xc, np.ones((n, 1))]) if self.fit_intercept else Xc
        penalty = np.full(design.shape[1], self.alpha)
        if self.fit_intercept:
            penalty[-1] = 0.0
        theta = np.zeros(design.shape[1])
        previous = np.inf
        scale = max(np.abs(yc).max(), 1.0)
        for self.n_iter_ in range(1, self.max_iter + 1):
            residual = yc - design @ theta
            objective = np.abs(residual).sum() + self.alpha * float(theta[:p] @ theta[:p])
            if previous - objective <= self.tol * max(objective, 1.0):
                break
            previous = objective
            weights = 1.0 / np.maximum(np.abs(residual), 1e-9 * scale)
            # each step minimises Σ w_i r_i² / 2 + α‖β‖², a weighted ridge regression
            A = (design * weights[:, None]).T @ design
            A.flat[::design.shape[1] + 1] += 2.0 * penalty
            theta = solve_positive_definite(A, design.T @ (weights * yc),
                                            "The weighted normal matrix")
        return theta[:p], float(theta[p]) if self.fit_intercept else 0.0

