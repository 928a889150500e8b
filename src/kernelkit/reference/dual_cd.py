"""Dual coordinate descent (Sangnier, *Introduction to machine learning*, Exam 2023 Ex. 4 and
Exam 2022 Ex. 2): the readable twin of ``kernelkit._core._dual_cd``.

Same problem and signature as the compiled :func:`kernelkit._core._dual_cd.dual_cd_solve`::

    min_{α ≥ 0}  D(α) = (1/(2λ)) cᵀKc + ½ Σ_s S_s² + pᵀα,
    c_s = Σ_{t: t mod n = s} σ_t α_t,    S_s = Σ_{t: t mod n = s} α_t,

the squared-hinge SVM without intercept (``σ = y``, ``p = −1``) and the squared ε-insensitive
SVR (``2n`` variables ``(α, β)``, ``σ = (+1, −1)``, ``p = (ε − y, ε + y)``). The full Gram
matrix is built; each coordinate is minimised exactly, ``α_t ← max(0, α_t − G_t/(K_ss/λ + 1))``
with ``G_t = σ_t (Kc)_s/λ + S_s + p_t`` (only for the variables whose projected gradient is above
``max(tol, 0.1 × the previous epoch's largest)``), in the random order of the same splitmix64 stream as
the compiled solver, with the same shrinking and stopping rules, so both follow the same path.
"""

import numpy as np

from kernelkit.reference.gram import KERNEL_CODES, kernel_matrix

__all__ = ["dual_cd_solve"]

_MASK = (1 << 64) - 1


def _splitmix64(state):
    """``(new state, value)`` of the splitmix64 generator."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _shuffle(items, n, state):
    """Fisher–Yates on ``items[:n]`` in place; returns the new generator state."""
    for i in range(n - 1, 0, -1):
        state, r = _splitmix64(state)
        j = r % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def dual_cd_solve(problem, options, alpha, history):
    """Dual coordinate descent; same arguments and returns as the compiled
    :func:`kernelkit._core._dual_cd.dual_cd_solve` (``problem["x_sqnorm"]``,
    ``options["cache_size"]`` and ``options["n_threads"]`` are accepted for the common signature
    and ignored).

    Returns
    -------
    objective : float
    n_iter : int
    status : int
        0 converged, 1 ``max_iter`` reached.
    """
    X, gram, kernel, sign, p = (problem[key] for key in ("X", "gram", "kernel", "sign", "p"))
    gamma, coef0, degree, lambda_ = (problem[key] for key in ("gamma", "coef0", "degree",
                                                              "lambda_"))
    tol, max_iter, seed, shrinking = (options[key] for key in ("tol", "max_iter", "seed",
                                                               "shrinking"))
    progress, report_every = options.get("progress"), options.get("report_every", 0)
    diagonal = np.asarray(problem["diagonal"], dtype=np.float64)
    n, n_var = diagonal.size, len(sign)
    if kernel == KERNEL_CODES["precomputed"]:
        K = np.asarray(gram, dtype=np.float64)
    else:
        K = kernel_matrix(np.asarray(X, dtype=np.float64), np.asarray(X, dtype=np.float64),
                          kernel, gamma, coef0, degree)
    sample = np.arange(n_var) % n
    c = np.zeros(n)
    S = np.zeros(n)
    np.add.at(c, sample, np.asarray(sign) * alpha)
    np.add.at(S, sample, alpha)
    F = K @ c

    def objective():
        return 0.5 * (c @ F) / lambda_ + 0.5 * (S @ S) + np.dot(p, alpha)

    active = list(range(n_var))
    n_active = n_var
    state = int(seed) & _MASK
    pg_max_old = np.inf
    threshold = tol   # a variable moves only when |PG| is above it
    status, epoch = 1, 0
    while epoch < max_iter:
        state = _shuffle(active, n_active, state)
        violation, pg_max, k = 0.0, -np.inf, 0
        while k < n_active:
            t = active[k]
            s = t % n
            G = sign[t] * F[s] / lambda_ + S[s] + p[t]
            if alpha[t] == 0.0:
                if shrinking and G > pg_max_old:
                    n_active -= 1
                    active[k], active[n_active] = active[n_active], t
                    continue
                PG = min(G, 0.0)
            else:
                PG = G
            violation = max(violation, abs(PG))
            pg_max = max(pg_max, PG)
            k += 1
            if abs(PG) <= threshold:
                continue
            step = max(0.0, alpha[t] - G / (diagonal[s] / lambda_ + 1.0)) - alpha[t]
            if step == 0.0:
                continue
            alpha[t] += step
            S[s] += step
            c[s] += sign[t] * step
            F += sign[t] * step * K[s]
        history[epoch] = objective()
        epoch += 1
        if progress is not None and epoch % report_every == 0:
            progress(epoch, violation, n_active, history[epoch - 1])
        if violation <= tol:
            if n_active == n_var:
                status = 0
                break
            n_active, pg_max_old = n_var, np.inf
            continue
        pg_max_old = pg_max if pg_max > 0.0 else np.inf
        threshold = max(tol, 0.1 * violation)
    return objective(), epoch, status
