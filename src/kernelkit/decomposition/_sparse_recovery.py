"""Reconstruction of sparse vectors from random projections: basis pursuit by linear programming
and the RIP dimension bound (Sangnier, §3.1.6, Theorems 70–71)."""

from numbers import Integral, Real

import numpy as np
from scipy.optimize import linprog
from sklearn.utils.validation import check_array

from kernelkit.utils._sklearn_compat import Interval, validate_params
from kernelkit.utils._validation import MAX_INT

__all__ = ["basis_pursuit", "rip_min_dim"]


@validate_params(
    {"W": ["array-like"], "y": ["array-like"]},
    prefer_skip_nested_validation=True,
)
def basis_pursuit(W, y):
    r"""The minimal-ℓ1 solution of :math:`W u = y`: :math:`\operatorname{argmin} \|u\|_1` subject
    to :math:`W u = y`, by linear programming.

    Sangnier, Theorem 71: if :math:`W` is :math:`(\varepsilon, 2s)`-RIP with
    :math:`\varepsilon < 2/5` (Theorem 70: true with high probability for a Gaussian :math:`W`
    with :math:`p` large enough, see :func:`rip_min_dim`), every :math:`s`-sparse :math:`x` is a
    solution for :math:`y = W x`: :math:`x` is recovered from :math:`p \ll d` random projections.
    The problem is the linear program :math:`\min \mathbf 1^\top (u^+ + u^-)` s.t.
    :math:`W (u^+ - u^-) = y`, :math:`u^+, u^- \ge 0` (at an optimum :math:`u^+_j u^-_j = 0`, so
    :math:`\mathbf 1^\top (u^+ + u^-) = \|u\|_1`), solved by SciPy's HiGHS.

    Parameters
    ----------
    W : array-like of shape (n_projections, n_features)
        The measurement matrix (e.g. ``GaussianRandomProjection().fit(...).components_``).
    y : array-like of shape (n_projections,)
        The measurements ``W x``.

    Returns
    -------
    u : ndarray of shape (n_features,)

    Raises
    ------
    ValueError
        If :math:`W u = y` has no solution (:math:`y` outside the range of :math:`W`) or the
        solver fails.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.1.6, Theorems 70 and 71, Fig 3.3.
    S. S. Chen, D. L. Donoho and M. A. Saunders, "Atomic decomposition by basis pursuit",
    SIAM J. Sci. Comput. 20, 1998.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.decomposition import basis_pursuit
    >>> rng = np.random.default_rng(0)
    >>> x = np.zeros(100)
    >>> x[[3, 40, 77]] = [1.5, -2.0, 0.5]
    >>> W = rng.normal(size=(30, 100)) / np.sqrt(30)
    >>> u = basis_pursuit(W, W @ x)
    >>> np.flatnonzero(np.abs(u) > 1e-6), bool(np.allclose(u, x, atol=1e-7))
    (array([ 3, 40, 77]), True)
    """
    W = check_array(W, dtype=np.float64, input_name="W")
    y = check_array(y, dtype=np.float64, ensure_2d=False, input_name="y")
    if y.shape != (W.shape[0],):
        raise ValueError(f"y must have shape ({W.shape[0]},) to match W {W.shape}, got "
                         f"{y.shape}.")
    n_features = W.shape[1]
    result = linprog(np.ones(2 * n_features), A_eq=np.hstack([W, -W]), b_eq=y,
                     bounds=(0, None), method="highs")
    if result.status == 2:
        raise ValueError("W u = y has no solution: y is not in the range of W.")
    if not result.success:
        raise ValueError(f"The linear program of basis pursuit failed: {result.message}")
    return result.x[:n_features] - result.x[n_features:]


@validate_params(
    {"n_features": [Interval(Integral, 1, MAX_INT, closed="left")],
     "n_nonzero": [Interval(Integral, 1, MAX_INT, closed="left")],
     "eps": [Interval(Real, 0, 1, closed="neither")],
     "delta": [Interval(Real, 0, 1, closed="neither")]},
    prefer_skip_nested_validation=True,
)
def rip_min_dim(n_features, n_nonzero, *, eps=0.1, delta=0.1):
    r"""Number of Gaussian projections that make :math:`W` :math:`(\varepsilon, s)`-RIP with
    probability :math:`1 - \delta`.

    Sangnier, Theorem 70: if :math:`p \ge 100 s \varepsilon^{-2} \log(40 d / (\delta \varepsilon))`,
    a :math:`p \times d` matrix with independent :math:`\mathcal N(0, 1/p)` entries satisfies
    :math:`(1 - \varepsilon) \|x\|^2 \le \|Wx\|^2 \le (1 + \varepsilon) \|x\|^2` for every
    :math:`s`-sparse :math:`x` with probability at least :math:`1 - \delta`. With Theorem 71
    (:math:`2s` and :math:`\varepsilon < 2/5`), this guarantees the exact recovery of every
    :math:`s`-sparse vector by :func:`basis_pursuit`. The constant is far from tight: in practice
    :math:`p` of order :math:`2 s \log(d/s)` suffices (``kernelkit demo sparse_recovery``).

    Parameters
    ----------
    n_features : int
        Dimension ``d``.
    n_nonzero : int
        Sparsity ``s``.
    eps : float in (0, 1), default=0.1
    delta : float in (0, 1), default=0.1

    Returns
    -------
    n_components : int
        The bound, rounded up.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.1.6, Theorem 70.

    Examples
    --------
    >>> from kernelkit.decomposition import rip_min_dim
    >>> rip_min_dim(1000, 5, eps=0.3, delta=0.1)
    78352
    """
    bound = 100 * n_nonzero / eps**2 * np.log(40 * n_features / (delta * eps))
    return int(np.ceil(bound))
