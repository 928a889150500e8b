"""The kernel-learning objective ``J(K)`` (Mairal & Vert, "Learning the kernel", "An objective
function for K") and the single-kernel solvers it needs.

``J(K) = min_{f ∈ H_K} R(f(x_1), …, f(x_n)) + λ‖f‖²_H = max_γ −R*(−2λγ) − λγᵀKγ``, with the
empirical risk ``R`` of one of three losses (Mairal & Vert's normalisation, a mean over the
samples):

* ``"squared"``: ``R(u) = (1/n) Σ (u_i − y_i)²``; closed form ``γ* = (K + nλI)⁻¹ y`` and
  ``J(K) = λ yᵀ γ*`` (kernel ridge regression);
* ``"hinge"``: ``R(u) = (1/n) Σ max(0, 1 − y_i (u_i + b))`` with an unpenalised intercept ``b``,
  as the SVMs of SimpleMKL (Rakotomamonjy et al. 2008); the SVM dual with ``C = 1/(2nλ)``:
  ``J = 2λ max_{0 ≤ α ≤ C, yᵀα = 0} (1ᵀα − ½ αᵀ diag(y) K diag(y) α)``, ``γ = y ∘ α``;
* ``"logistic"``: ``R(u) = (1/n) Σ log(1 + e^{−y_i u_i})``, no intercept (kernel logistic
  regression), solved by Newton's method on ``f = Kγ``.

For every loss the derivative with respect to the kernel is ``∂J/∂K = −λ γ* γ*ᵀ`` (the dual is
linear in ``K`` and ``J`` its maximum), so ``∂J(Σ η_m K_m)/∂η_m = −λ γ*ᵀ K_m γ*``
(Mairal & Vert, "simpleMKL"). ``J`` is convex in ``K`` (a supremum of affine functions).
"""

from dataclasses import dataclass
from numbers import Real

import numpy as np
from sklearn.utils.validation import check_array, check_consistent_length

from kernelkit.mkl._kernels import quadratic_forms
from kernelkit.svm import SVC
from kernelkit.utils._smooth_solvers import damped_newton
from kernelkit.utils._ridge import solve_positive_definite
from kernelkit.utils._sklearn_compat import Interval, StrOptions, validate_params

__all__ = ["KernelObjective", "kernel_objective", "solve_logistic", "solve_squared"]

LOSSES = ("squared", "hinge", "logistic")


@dataclass
class KernelObjective:
    r"""``J(K)`` with its optimal dual variable (what :func:`kernel_objective` returns).

    Parameters
    ----------
    value : float
        :math:`J(K)`.
    gamma : ndarray of shape (n_samples,)
        :math:`\gamma^*`: the optimal function is
        :math:`f^*(x) = \sum_j \gamma^*_j k(x_j, x) + \mathrm{intercept}`.
    intercept : float, default=0.0
        :math:`b` of the hinge loss (0 for the other losses).

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mkl import kernel_objective
    >>> objective = kernel_objective(np.eye(3), np.array([1.0, -1.0, 1.0]), lambda_=1.0)
    >>> round(objective.value, 4), objective.gamma.round(4)
    (0.75, array([ 0.25, -0.25,  0.25]))
    >>> objective.gradient(1.0, np.eye(3)[:, :, None]).round(4)   # -λ γᵀ K γ
    array([-0.1875])
    """

    value: float
    gamma: np.ndarray
    intercept: float = 0.0

    def gradient(self, lambda_, Ks):
        r"""Gradient :math:`\partial J / \partial \eta_m = -\lambda \gamma^{*\top} K_m \gamma^*`
        for each Gram matrix of the stack ``Ks``, shape
        ``(n_samples, n_samples, n_kernels)`` (kernels last, as the MKL estimators' input)."""
        return -lambda_ * quadratic_forms(Ks, self.gamma)


def solve_squared(K, y, lambda_):
    """Kernel ridge regression in Mairal & Vert's scaling: ``γ = (K + nλI)⁻¹ y``.

    Returns
    -------
    KernelObjective
        ``J = λ yᵀγ``.
    """
    gamma = solve_positive_definite(
        K, y, "K + nλI", shift=K.shape[0] * lambda_, lower=True,
        advice=": K is not a p.d. kernel (kernelkit.kernels.shift_to_psd can repair it).")
    return KernelObjective(float(lambda_ * (y @ gamma)), gamma)


def solve_logistic(K, y, lambda_, gamma0=None, *, tol=1e-10, max_iter=100):
    """Kernel logistic regression ``min_γ (1/n) Σ log(1 + e^{−y_i (Kγ)_i}) + λ γᵀKγ`` by
    Newton's method (Mairal & Vert, kernel logistic regression by IRLS), from ``gamma0``.

    With ``f = Kγ``, ``p_i = σ(−y_i f_i)`` and ``w_i = p_i (1 − p_i) / n``, the gradient is
    ``K g`` with ``g = 2λγ − y ∘ p / n`` and the Hessian ``K (W K + 2λ I)``: the Newton step
    ``Δ`` solves ``(W K + 2λ I) Δ = g`` (the Newton system divided by ``K``, valid for a
    singular K too), damped until Armijo's condition holds, until ``max |g| ≤ tol``. At the
    optimum ``γ = y ∘ p / (2λn)`` exactly, the dual variable whose quadratic forms
    ``γᵀK_mγ`` give the gradient of ``J`` in every kernel, including the kernels absent from
    ``K``.

    Returns
    -------
    KernelObjective
    """
    n = K.shape[0]
    gamma = np.zeros(n) if gamma0 is None else np.array(gamma0, dtype=np.float64)
    ridge = 2.0 * lambda_ * np.eye(n)

    def objective(gamma, order):
        f = K @ gamma
        value = float(np.mean(np.logaddexp(0.0, -y * f)) + lambda_ * gamma @ f)
        if order == 0:
            return value
        p = 0.5 * (1.0 - np.tanh(0.5 * y * f))          # σ(−y f), computed without overflow
        gradient = 2.0 * lambda_ * gamma - y * p / n
        if order == 1:
            return value, gradient
        w = p * (1.0 - p) / n
        return value, gradient, w[:, None] * K + ridge

    gamma, _, _ = damped_newton(objective, gamma, max_iter, tol, metric=K.__matmul__)
    return KernelObjective(objective(gamma, 0), gamma)


def solve_hinge(K, y, lambda_, svc=None, *, tol=1e-6):
    """The SVM with intercept for ``C = 1/(2nλ)``, solved by kernelkit's SMO (``svc``, a
    ``SVC(kernel="precomputed")`` refitted with a warm start when given).

    Returns
    -------
    KernelObjective, SVC
    """
    n = K.shape[0]
    if svc is None:
        svc = SVC(kernel="precomputed", tol=tol, warm_start=True)
    svc.set_params(C=1.0 / (2.0 * n * lambda_)).fit(K, y)
    gamma = np.zeros(n)
    gamma[svc.support_] = svc.dual_coef_[0]
    value = -2.0 * lambda_ * float(svc.dual_objective_.sum())
    return KernelObjective(value, gamma, float(svc.intercept_[0])), svc


@validate_params(
    {
        "K": ["array-like"],
        "y": ["array-like"],
        "loss": [StrOptions(set(LOSSES))],
        "lambda_": [Interval(Real, 0, None, closed="neither")],
    },
    prefer_skip_nested_validation=True,
)
def kernel_objective(K, y, loss="squared", lambda_=1.0):
    r""":math:`J(K)` of the kernel-learning problem and its dual variable (Mairal & Vert, D22).

    :math:`J(K) = \min_{f \in \mathcal H_K} R(f(x_1), \dots, f(x_n)) + \lambda \|f\|^2` for the
    squared, hinge or logistic empirical risk (see the module docstring for the conventions). It
    is convex in :math:`K`, and its gradient with respect to :math:`\eta` in
    :math:`K = \sum_m \eta_m K_m` is
    :meth:`KernelObjective.gradient`.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Positive semi-definite Gram matrix.
    y : array-like of shape (n_samples,)
        Real targets (squared loss) or labels in {−1, +1} (hinge, logistic; any two labels are
        mapped to −1, +1 in sorted order).
    loss : {"squared", "hinge", "logistic"}, default="squared"
    lambda_ : float, default=1.0
        Regularisation :math:`\lambda > 0`.

    Returns
    -------
    KernelObjective
        ``value`` (:math:`J(K)`), ``gamma`` (:math:`\gamma^*`), ``intercept``.

    References
    ----------
    Mairal & Vert, *Kernel Methods* slides, "Learning the kernel", "An objective
    function for K", "simpleMKL". G. Lanckriet et al., "Learning the kernel matrix with
    semidefinite programming", JMLR 5, 2004.

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mkl import kernel_objective
    >>> K = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> J = kernel_objective(K, [1.0, -1.0], loss="squared", lambda_=0.5)
    >>> round(J.value, 6), J.gamma.round(6)   # λ yᵀ(K + nλI)⁻¹y
    (0.5, array([ 0.5, -0.5]))
    """
    K = check_array(K, dtype=np.float64, order="C", input_name="K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be square, got shape {K.shape}.")
    y = check_array(y, ensure_2d=False, dtype=None, input_name="y")
    check_consistent_length(K, y)
    if loss == "squared":
        return solve_squared(K, y.astype(np.float64), lambda_)
    signs = binary_signs(y)
    if loss == "logistic":
        return solve_logistic(K, signs, lambda_)
    return solve_hinge(K, signs, lambda_)[0]


def binary_signs(y):
    """Two labels as −1, +1 (in sorted order); a ValueError for any other number of labels."""
    classes, index = np.unique(y, return_inverse=True)
    if classes.size != 2:
        raise ValueError(f"The hinge and logistic objectives need exactly two classes; got "
                         f"{classes.size}.")
    return 2.0 * index - 1.0
