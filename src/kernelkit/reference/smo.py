"""Simplified SMO (Sangnier, Algorithm 4): the readable twin of ``kernelkit._core._smo_solver``.

Same problem as the compiled :func:`kernelkit._core._smo_solver.smo_solve`, whose arguments it
takes (then ``random_state``, the seed of the course's random choice of the second variable; the
options ``progress``, ``report_every`` and ``cancel`` are not read)::

    min_α ½ αᵀQα + pᵀα   s.t.   yᵀα = 0,   0 ≤ α_t ≤ C_t,     Q_ts = y_t y_s K(x_t, x_s),

with ``l = n`` variables (C-SVC) or ``l = 2n`` (ε-SVR, variables ``t`` and ``t + n`` share sample
``t``). The algorithm is the course's: sweep over the variables, and for each ``α_i`` violating the
KKT conditions (Sangnier, Property 40, in the gradient form "``i`` belongs to a violating pair"),
pick ``j ≠ i`` at random and solve the problem in ``(α_i, α_j)`` exactly with Platt's analytic
step (clip ``α_j`` to ``[L, H]``, then move ``α_i`` to keep ``yᵀα``). It stops when the maximal
violating pair gap is below ``tol`` — the same criterion as the compiled solver, so both reach
the same optimum up to ``tol`` (by different paths). The full matrix ``Q`` is built: this is for small problems only. The offset
is read off Property 40 (mean of ``y_t G_t`` over free variables, else the middle of the
feasible interval) rather than Platt's running ``b1/b2`` update, which it equals at the optimum.
"""

import numpy as np

from kernelkit.reference.gram import KERNEL_CODES, kernel_matrix

__all__ = ["smo_solve"]


def _gram(X, gram, col, kernel, gamma, coef0, degree):
    """Kernel matrix between the variables' samples (kernel codes as the compiled solver)."""
    if kernel == KERNEL_CODES["precomputed"]:
        return np.asarray(gram, dtype=np.float64)[np.ix_(col, col)]
    Z = np.asarray(X, dtype=np.float64)[col]
    return kernel_matrix(Z, Z, kernel, gamma, coef0, degree)


def _up_low(alpha, y, C):
    """Masks of I_up (α_t can move so that y_tα_t grows) and I_low (so that it shrinks)."""
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    return up, low


def _rho(alpha, y, G, C):
    """``ρ = −b`` from Sangnier, Property 40."""
    yG = y * G
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(yG[free].mean())
    up, low = _up_low(alpha, y, C)
    return 0.5 * (float(yG[up].min(initial=np.inf)) + float(yG[low].max(initial=-np.inf)))


def smo_solve(problem, options, alpha, random_state=0):
    """Sangnier, Algorithm 4 on the general SVM dual; the arguments and returns of the compiled
    :func:`kernelkit._core._smo_solver.smo_solve`.

    Of ``problem``, ``x_sqnorm``, ``diagonal`` and ``regression`` (implied by ``col``) are
    accepted for the common signature and ignored (the whole ``Q`` is built from ``X`` or
    ``gram`` and ``col``); of ``options``, only ``tol`` and ``max_iter`` are read.
    ``random_state`` seeds the choice of ``j``.

    Returns
    -------
    rho, objective, n_iter, status
        As the compiled solver: ``status`` is 0 on convergence, 1 when ``max_iter`` pair steps
        were taken first.
    """
    y = np.asarray(problem["y"], dtype=np.float64)
    p = np.asarray(problem["p"], dtype=np.float64)
    C = np.asarray(problem["upper_bound"], dtype=np.float64)
    tol, max_iter = options["tol"], options["max_iter"]
    l = y.size
    K = _gram(problem["X"], problem["gram"], np.asarray(problem["col"]), problem["kernel"],
              problem["gamma"], problem["coef0"], problem["degree"])
    Q = y[:, None] * y[None, :] * K
    a = np.array(alpha, dtype=np.float64)   # the starting point (zeros: a cold start)
    G = Q @ a + p                     # ∇(½αᵀQα + pᵀα) = Qα + p
    rng = np.random.default_rng(random_state)
    n_iter, status = 0, 0
    while True:
        up, low = _up_low(a, y, C)
        # the pair (i, j) violates KKT if score_i > score_j, i ∈ I_up, j ∈ I_low
        score = -y * G
        top = score[up].max(initial=-np.inf)
        bottom = score[low].min(initial=np.inf)
        if top - bottom < tol:
            break
        for i in range(l):
            up, low = _up_low(a, y, C)
            score = -y * G
            violates = ((up[i] and score[i] > score[low].min(initial=np.inf) + tol)
                        or (low[i] and score[i] < score[up].max(initial=-np.inf) - tol))
            if not violates:
                continue
            if n_iter == max_iter:
                status = 1
                break
            j = int(rng.integers(l - 1))
            j += j >= i
            s = y[i] * y[j]
            # Feasible segment of α_j on the line α_i + s α_j = constant, within both boxes.
            if s < 0:
                L, H = max(0.0, a[j] - a[i]), min(C[j], C[i] + a[j] - a[i])
            else:
                L, H = max(0.0, a[i] + a[j] - C[i]), min(C[j], a[i] + a[j])
            eta = K[i, i] + K[j, j] - 2.0 * K[i, j]
            # E_i − E_j of Platt's step is y_iG_i − y_jG_j in the gradient form.
            e_diff = y[i] * G[i] - y[j] * G[j]
            if eta > 1e-12:
                new_j = float(np.clip(a[j] + y[j] * e_diff / eta, L, H))
            else:
                # Flat curvature (equal points, or the two copies of a sample in ε-SVR): the
                # objective is linear along the segment; go to the end that decreases it.
                new_j = H if y[j] * e_diff > 0 else L
            new_i = a[i] + s * (a[j] - new_j)
            d_i, d_j = new_i - a[i], new_j - a[j]
            a[i], a[j] = new_i, new_j
            G += Q[:, i] * d_i + Q[:, j] * d_j
            n_iter += 1
        if status:
            break
    alpha[:] = a
    objective = 0.5 * float(a @ (G + p))
    return _rho(a, y, G, C), objective, n_iter, status
