"""SMACOF stress majorisation (metric, weighted and nonmetric) around the compiled Guttman pass.

Sangnier, §3.2.3 (Kruskal–Shepard scaling, majorisation derivation, Algorithm 17; nonmetric
scaling).
"""

import contextlib
import time
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.optimize import isotonic_regression
from scipy.stats import rankdata
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state

from kernelkit._core import _smacof_guttman
from kernelkit.manifold._classical_mds import classical_scaling
from kernelkit.utils._dissimilarity import check_dissimilarities, check_weights
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._progress import iteration_callback, report
from kernelkit.utils._sklearn_compat import Interval, StrOptions, validate_params
from kernelkit.utils._threads import (
    N_JOBS_CONSTRAINT,
    blas_threads,
    effective_n_threads,
    min_work_per_thread,
)
from kernelkit.utils._validation import MAX_INT

__all__ = ["smacof"]

# verbose >= 2: a line every this many Guttman transforms (verbose 1: lines paced by time).
_REPORT_EVERY = 10


class _WeightedSolver:
    """Applies ``V⁺`` for weights ``W`` without forming it.

    With the weighted Laplacian ``L = diag(W1) − W`` (the course's ``V`` is ``2L`` and its
    ``V'(Z)`` is ``2B(Z)``), the update is ``L⁺ B(Z) Z``. For a connected weight graph and any
    ``c > 0``, ``L⁺ = (L + c 11ᵀ/n)⁻¹ − 11ᵀ/(c n)``; ``L + c 11ᵀ/n`` is positive definite, so it
    is Cholesky-factored once per fit, and since ``(L + c 11ᵀ/n)⁻¹ 1 = 1/c`` the second term just
    removes the column means of ``B(Z) Z`` over c (zero up to rounding, as ``1ᵀB(Z) = 0``). c is
    the mean degree, the scale of L: with c = 1, weights of 1e160 (Sammon's 1/D on tiny
    distances) rounded the term away and the factorisation failed.
    """

    def __init__(self, weights):
        n = weights.shape[0]
        degrees = weights.sum(axis=1)
        laplacian = np.diag(degrees) - weights
        self._scale = float(degrees.mean()) if degrees.mean() > 0 else 1.0
        laplacian += self._scale / n
        with blas_threads(n**3 / 3.0, None):   # small ones on one thread
            self._factor = cho_factor(laplacian, overwrite_a=True, check_finite=False)

    def __call__(self, Y):
        # once per iteration, 2 n² operations a column: one thread
        with blas_threads(2.0 * Y.size * Y.shape[0], None):
            solved = cho_solve(self._factor, Y, check_finite=False)
        return np.ascontiguousarray(solved - Y.mean(axis=0) / self._scale)


def _upper(M):
    return M[np.triu_indices(M.shape[0], k=1)]


class _Disparities:
    """Nonmetric step: isotonic regression of the distances on the order of the dissimilarities.

    Only the order of the dissimilarities is used (ties share a block only if PAVA pools them),
    so the fit is invariant to increasing transforms of the dissimilarities. Disparities are
    scaled so that ``Σ_{i<j} w_ij d̂_ij² = Σ_{i<j} w_ij``, which excludes the trivial solution
    ``Z = 0`` (Kruskal 1964b; scikit-learn normalises the same way).
    """

    def __init__(self, dissimilarities, weights):
        n = dissimilarities.shape[0]
        self._rows, self._cols = np.triu_indices(n, k=1)
        pair_weights = np.ones(self._rows.size) if weights is None else _upper(weights)
        keep = pair_weights > 0
        self._rows, self._cols = self._rows[keep], self._cols[keep]
        self._order = np.argsort(dissimilarities[self._rows, self._cols], kind="stable")
        self._weights = pair_weights[keep][self._order]
        self._target = np.sqrt(self._weights.sum())
        self._n = n

    def __call__(self, Z):
        diff = Z[self._rows[self._order]] - Z[self._cols[self._order]]
        distances = np.sqrt((diff * diff).sum(axis=1))
        fitted = isotonic_regression(distances, weights=self._weights).x
        norm = np.sqrt((self._weights * fitted * fitted).sum())
        fitted *= self._target / norm if norm > 0 else 0.0
        D_hat = np.zeros((self._n, self._n))
        rows, cols = self._rows[self._order], self._cols[self._order]
        D_hat[rows, cols] = fitted
        D_hat[cols, rows] = fitted
        return D_hat


def _initial_configuration(init, dissimilarities, n_components, metric, random_state):
    n = dissimilarities.shape[0]
    if isinstance(init, str) and init == "classical":
        if metric:
            return classical_scaling(dissimilarities, n_components)
        # Ranks rather than values: a nonmetric fit must only see the order (see _Disparities).
        ranks = np.zeros_like(dissimilarities)
        rows, cols = np.triu_indices(n, k=1)
        ranks[rows, cols] = rankdata(dissimilarities[rows, cols])
        return classical_scaling(ranks + ranks.T, n_components)
    if isinstance(init, str) and init == "random":
        Z = random_state.standard_normal((n, n_components))
        Z -= Z.mean(axis=0)
        # Match the mean squared pair distance of the dissimilarities, so that the first Guttman
        # step starts at the right scale. For centred Z, Σ_{i<j} ‖z_i − z_j‖² = n Σ_i ‖z_i‖²;
        # einsum sums D∘D without an n×n temporary.
        target = np.einsum("ij,ij->", dissimilarities, dissimilarities) / 2
        current = n * np.einsum("ij,ij->", Z, Z)
        return Z * np.sqrt(target / current if current > 0 else 1.0)
    return np.array(init, dtype=np.float64, order="C", copy=True)


def _smacof_single(dissimilarities, weights, init, metric, max_iter, eps, n_threads,
                   progress=None):
    """One SMACOF run from ``init``; ``progress(n_iter, stress)`` after every transform.

    Returns ``(Z, history, n_iter, stress, squared_distances, converged)`` where ``history[k]``
    is the stress of the k-th configuration (the initial one first; raw for metric runs,
    Kruskal's stress-1 for nonmetric ones), ``Z`` is the last configuration whose stress is
    known and ``stress``/``squared_distances`` are its raw stress and ``Σ w δ²``.
    """
    n = dissimilarities.shape[0]
    solver = _WeightedSolver(weights) if weights is not None else None
    disparities = None if metric else _Disparities(dissimilarities, weights)
    scale = 1.0 if solver is not None else 1.0 / n
    Z = np.ascontiguousarray(init, dtype=np.float64)
    Z_next = np.empty_like(Z)
    history = []
    target = dissimilarities
    converged = False
    threads = (n_threads, min_work_per_thread(n_threads))
    for it in range(max_iter + 1):
        if disparities is not None:
            target = disparities(Z)
        if it == max_iter:
            stress, squared = _smacof_guttman.stress(target, weights, Z, *threads)
        else:
            stress, squared = _smacof_guttman.guttman_transform(target, weights, Z, Z_next, scale,
                                                                *threads)
        value = stress if metric else np.sqrt(stress / squared) if squared > 0 else 0.0
        history.append(value)
        if progress is not None and it > 0:
            progress(it, value)
        if it > 0 and history[-2] - value <= eps * history[-2]:
            converged = True
            break
        if it == max_iter:
            break
        if solver is not None:
            Z_next = solver(Z_next)
        Z, Z_next = Z_next, Z
    return Z, np.asarray(history), it, stress, squared, converged


def _run(dissimilarities, *, weights, n_components, metric, init, n_init, max_iter, eps,
         random_state, n_threads, verbose=0, label="smacof"):
    """Best of ``n_init`` runs: ``(Z, history, n_iter, stress, squared_distances)``; progress
    lines under ``label`` when ``verbose``."""
    random_state = check_random_state(random_state)
    is_random = isinstance(init, str) and init == "random"
    if not is_random and n_init != 1:
        name = init if isinstance(init, str) else "array"
        warnings.warn(f"n_init={n_init} is ignored: init={name} is deterministic, so a single "
                      "run is made.", UserWarning, stacklevel=3)
    best = None
    n_runs = n_init if is_random else 1
    kind = "stress" if metric else "stress-1"
    # The BLAS calls of the runs (the first configuration, the weighted solver) on one thread
    # when the passes run on a team: BLAS threads woken by them spin (OpenBLAS: about 0.1 s) on
    # the cores the team needs. Quiet, 2 threads: MDS of 1 000 samples 221 ms with a BLAS team,
    # 150 ms without (196 ms on one thread); of 2 500, 1.34 s and 1.20 s.
    with blas_limit(1) if n_threads > 1 else contextlib.nullcontext():
        for index in range(1, n_runs + 1):
            start = time.perf_counter()
            progress = iteration_callback(
                label, verbose, _REPORT_EVERY,
                lambda n_iter, value, index=index: (
                    f"init {index} of {n_runs}, iteration {n_iter}: {kind} {value:.10g}"))
            Z0 = _initial_configuration(init, dissimilarities, n_components, metric, random_state)
            result = _smacof_single(dissimilarities, weights, Z0, metric, max_iter, eps, n_threads,
                                    progress)
            if verbose:
                report(label, f"init {index} of {n_runs}: {kind} {result[1][-1]:.10g}, "
                              f"{result[2]} iterations", start)
            if best is None or result[1][-1] < best[1][-1]:
                best = result
    if not best[5]:
        warnings.warn(f"SMACOF did not converge in max_iter={max_iter} iterations; increase "
                      "max_iter or eps.", ConvergenceWarning, stacklevel=3)
    return best[:5]


def check_init(init, n_samples, n_components):
    """Validate an ``init`` array against the data (strings are checked by the constraints)."""
    if isinstance(init, str):
        return init
    init = np.asarray(init, dtype=np.float64)
    if init.ndim != 2 or init.shape[0] != n_samples:
        raise ValueError(f"init must have shape ({n_samples}, n_components), got {init.shape}.")
    if n_components is not None and init.shape[1] != n_components:
        raise ValueError(f"init has {init.shape[1]} columns but n_components={n_components}.")
    if not np.all(np.isfinite(init)):
        raise ValueError("init must be finite.")
    return init


def check_n_components(n_components, n_samples):
    if n_components >= n_samples:
        raise ValueError(f"n_components={n_components} must be smaller than n_samples={n_samples}.")


SMACOF_CONSTRAINTS = {
    "n_components": [Interval(Integral, 1, MAX_INT, closed="left")],
    "metric": ["boolean"],
    "n_init": [Interval(Integral, 1, MAX_INT, closed="left")],
    "max_iter": [Interval(Integral, 1, MAX_INT, closed="left")],
    "eps": [Interval(Real, 0.0, None, closed="left")],
    "init": [StrOptions({"classical", "random"}), "array-like"],
    "weights": ["array-like", None],
    "random_state": ["random_state"],
    "n_jobs": N_JOBS_CONSTRAINT,
    "verbose": ["verbose"],
}


@validate_params({"dissimilarities": ["array-like"], **SMACOF_CONSTRAINTS,
                  "return_n_iter": ["boolean"]}, prefer_skip_nested_validation=True)
def smacof(dissimilarities, *, n_components=2, metric=True, init="classical", weights=None,
           n_init=1, max_iter=300, eps=1e-6, random_state=None, n_jobs=None, verbose=0,
           return_n_iter=False):
    """Multidimensional scaling by SMACOF (Scaling by MAjorizing a COmplicated Function).

    Minimises the raw stress :math:`\\sigma(Z) = \\sum_{i<j} w_{ij} (D_{ij} - \\|z_i - z_j\\|)^2` by
    the Guttman transform :math:`Z \\leftarrow \\frac1n B(Z) Z` (:math:`Z \\leftarrow V^+ B(Z) Z`
    with weights), Sangnier, Algorithm 17. The stress never increases (Sangnier, §3.2.3:
    :math:`S(Z) \\le M(Z, Y)` with equality at :math:`Y = Z`). Each iteration is one compiled pass
    over the dissimilarities (no n×n temporaries), in parallel over row blocks, with results
    independent of the thread count.

    Stress convention: each pair counts once, so :math:`\\sigma` is half the course's
    :math:`S_{KS} = \\sum_{i \\ne j} (d_{ij} - \\delta_{ij})^2` and equal to scikit-learn's raw
    stress.

    With ``metric=False`` (nonmetric MDS, Sangnier "Nonmetric scaling"), each Guttman step is
    preceded by an isotonic regression of the distances on the order of the dissimilarities
    (``scipy.optimize.isotonic_regression``), and the returned stress is Kruskal's stress-1
    :math:`\\sqrt{\\sum w (\\hat d - \\delta)^2 / \\sum w \\delta^2}`. Only the order of the
    dissimilarities matters, including in the classical initialisation, which then scales the ranks
    of the dissimilarities.

    Parameters
    ----------
    dissimilarities : array-like of shape (n_samples, n_samples)
        Symmetric, non-negative, zero diagonal.
    n_components : int, default=2
        Dimension of the embedding, smaller than ``n_samples``; must equal ``init.shape[1]``
        for an array init.
    metric : bool, default=True
        Metric (stress on the dissimilarities) or nonmetric (on their order) scaling.
    init : {"classical", "random"} or array-like of shape (n_samples, n_components), \
            default="classical"
        Initial configuration: classical MDS (Torgerson), a random Gaussian configuration
        rescaled to the dissimilarities' size, or the given array.
    weights : array-like of shape (n_samples, n_samples), default=None
        Symmetric non-negative pair weights; pairs of weight 0 are ignored. Their graph must be
        connected. None means unit weights.
    n_init : int, default=1
        Runs from different random initialisations (only with ``init="random"``); the lowest
        final stress wins.
    max_iter : int, default=300
        Maximum number of Guttman transforms per run.
    eps : float, default=1e-6
        Stop when the relative stress decrease :math:`(\\sigma_{k-1} - \\sigma_k) / \\sigma_{k-1}`
        is at most ``eps``.
    random_state : int, RandomState instance or None, default=None
        Seed of the random initialisations.
    n_jobs : int or None, default=None
        OpenMP threads (see :func:`kernelkit.utils._threads.effective_n_threads`).
    verbose : int, default=0
        Progress on stderr: 1, a line per run (stress, iterations, time), and lines every two
        seconds during a long one; 2, a line every ten iterations.
    return_n_iter : bool, default=False
        Also return the number of iterations of the best run.

    Returns
    -------
    embedding : ndarray of shape (n_samples, n_components)
    stress : float
        Raw stress (metric) or Kruskal's stress-1 (nonmetric) of ``embedding``.
    n_iter : int
        Only if ``return_n_iter``.

    References
    ----------
    Sangnier, *Introduction to machine learning*, §3.2.3, Property 77, Algorithm 17.
    J. de Leeuw, "Applications of convex analysis to multidimensional scaling", 1977.
    I. Borg and P. Groenen, *Modern Multidimensional Scaling*, 2nd ed., Springer 2005, ch. 8–9.

    See Also
    --------
    MDS : the estimator.
    SammonMapping : weighted SMACOF with Sammon's weights.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.spatial.distance import pdist, squareform
    >>> from kernelkit.manifold import smacof
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])
    >>> Z, stress = smacof(squareform(pdist(X)), n_components=2)
    >>> bool(stress < 1e-12)
    True
    """
    D = check_dissimilarities(dissimilarities)
    n = D.shape[0]
    check_n_components(n_components, n)
    init = check_init(init, n, n_components)
    W = check_weights(weights, n)
    Z, _, n_iter, stress, squared = _run(
        D, weights=W, n_components=n_components, metric=metric, init=init, n_init=n_init,
        max_iter=max_iter, eps=eps, random_state=random_state,
        n_threads=effective_n_threads(n_jobs), verbose=verbose)
    value = stress if metric else (np.sqrt(stress / squared) if squared > 0 else 0.0)
    return (Z, value, n_iter) if return_n_iter else (Z, value)
