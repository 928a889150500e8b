"""Twin of ``kernelkit._core._linear_dual_cd``: liblinear's dual coordinate descent for the
linear SVM, written as Hsieh et al. state it.

C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi, S. Sundararajan, "A dual coordinate descent
method for large-scale linear SVM", ICML 2008: Algorithm 1 (the exact one-variable update while
keeping ``w = Σ_i y_i α_i x̄_i``), the projected gradient of §3.1 as the stopping rule and the
shrinking of §3.3 (Algorithm 2), with ``x̄_i = (x_i, bias)`` carrying the intercept. For the hinge
``U_i = C_i, D_ii = 0``; for the squared hinge ``U_i = ∞, D_ii = 1/(2C_i)``.
"""

import numpy as np
import scipy.sparse as sp

from kernelkit.reference.dual_cd import _shuffle

__all__ = ["linear_dual_cd_solve"]


def linear_dual_cd_solve(problem, options, w, alpha, n_iter, status):
    """The core's arguments and outputs (``options["n_threads"]`` is ignored): in ``problem``,
    ``X`` a dense array or the ``(data, indices, indptr)`` of a CSR matrix, ``n_features``, one
    problem per row of ``y`` and ``cost``, ``squared_hinge`` and ``bias``; in ``options``,
    ``tol``, ``max_iter`` and ``seeds``; fills ``w``, ``alpha``, ``n_iter`` and ``status`` (0
    converged, 1 ``max_iter`` reached)."""
    X, n_features, y, cost = problem["X"], problem["n_features"], problem["y"], problem["cost"]
    squared_hinge, bias = problem["squared_hinge"], problem["bias"]
    tol, max_iter, seeds = options["tol"], options["max_iter"], options["seeds"]
    if isinstance(X, tuple):
        n_samples = len(X[2]) - 1
        X = sp.csr_matrix(X, shape=(n_samples, n_features)).toarray()
    # x̄_i: the rows with the constant feature appended
    X_bar = np.hstack([np.asarray(X, dtype=float), np.full((X.shape[0], 1), float(bias))])
    for p in range(y.shape[0]):
        status[p], n_iter[p] = _solve(X_bar, y[p], cost[p], squared_hinge, tol, max_iter,
                                      int(seeds[p]), w[p], alpha[p])


def _solve(X_bar, y, cost, squared_hinge, tol, max_iter, state, w, alpha):
    variables = [i for i in range(len(y)) if cost[i] > 0]
    diagonal = np.zeros(len(y))
    upper = np.full(len(y), np.inf)
    for i in variables:
        if squared_hinge:
            diagonal[i] = 0.5 / cost[i]
        else:
            upper[i] = cost[i]
    Q_bar = np.einsum("ij,ij->i", X_bar, X_bar) + diagonal
    active = list(variables)
    n_active = len(active)
    M_bar, m_bar = np.inf, -np.inf
    for epoch in range(1, max_iter + 1):
        state = _shuffle(active, n_active, state)
        M, m = -np.inf, np.inf
        s = 0
        while s < n_active:
            i = active[s]
            G = y[i] * (w @ X_bar[i]) - 1.0 + diagonal[i] * alpha[i]
            # shrinking: a variable at a bound whose gradient points further out
            if (alpha[i] == 0 and G > M_bar) or (alpha[i] == upper[i] and G < m_bar):
                n_active -= 1
                active[s], active[n_active] = active[n_active], active[s]
                continue
            if alpha[i] == 0:
                PG = min(G, 0.0)
            elif alpha[i] == upper[i]:
                PG = max(G, 0.0)
            else:
                PG = G
            M, m = max(M, PG), min(m, PG)
            if abs(PG) > 1e-12:
                old = alpha[i]
                alpha[i] = min(max(old - G / Q_bar[i], 0.0), upper[i])
                w += (alpha[i] - old) * y[i] * X_bar[i]
            s += 1
        if M - m <= tol:
            if n_active == len(variables):
                return 0, epoch
            n_active = len(variables)
            M_bar, m_bar = np.inf, -np.inf
            continue
        M_bar = M if M > 0 else np.inf
        m_bar = m if m < 0 else -np.inf
    return 1, max_iter
