"""Shared machinery of the SMO-trained SVMs: parameters, kernels, input checks, one solver call.

:class:`kernelkit.svm.SVC` and :class:`kernelkit.svm.SVR` differ only in how they build the dual
(signs ``y``, linear term ``p``, bounds ``C_t``) and read the solution back; everything else —
validating ``X`` and resolving the kernel (``kernelkit.utils._kernels``: vectors with a named
kernel, a precomputed Gram, a callable, or a string/graph kernel object), preparing each
subproblem for the compiled solver, calling it with BLAS single-threaded, reporting
non-convergence, and evaluating the kernel against the support vectors at prediction time —
lives here.
"""

import contextlib
import functools
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, is_classifier
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_array, check_is_fitted

from kernelkit._core._gram import VECTOR_KERNELS
from kernelkit._core._smo_solver import PRECOMPUTED_KERNEL, smo_solve
from kernelkit.utils._gram import blas_limit
from kernelkit.utils._kernels import (
    KERNEL_CONSTRAINT,
    kernel_input_tags,
    kernel_kind,
    resolve_kernel,
    validate_kernel_data,
)
from kernelkit.utils._progress import iteration_callback, report
from kernelkit.utils._sklearn_compat import (
    Interval,
    Options,
    ParameterNamesOncePerClass,
    StrOptions,
    _check_sample_weight,
    _fit_context,
)
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads, min_work_per_thread
from kernelkit.utils._validation import MAX_INT, kernel_cache_megabytes

# With max_iter=-1 the solver still stops after max(10⁷, 100 l) steps (libsvm's own guard).
ITER_GUARD = 10_000_000
# Problems solved concurrently only when each is long enough to amortise the thread pool and
# the GIL hand-offs of its Python set-up: the work of a problem of m variables is counted as
# m² kernel entries, each costing 1 when read from a Gram matrix and 1 + n_features / 8 when
# computed. Measured 2026-11-24 (2 cores, 4 classes = 6 pairs; 2 threads vs 1): precomputed
# pairs of 400 / 800 / 1600 samples 1.09 / 1.04 / 0.64x, RBF on 20 features 200 / 400 / 800
# samples 1.16 / 0.94 / 0.72x, digits (64 features, ~360 per pair) 0.72x.
_MIN_WORK_PER_PARALLEL_PROBLEM = 1_000_000
_EMPTY_ROWS = np.zeros((0, 0))
_NO_NORMS = np.zeros(0)
# verbose >= 2: a progress line every this many SMO steps; verbose 1: lines paced by time, the
# solver looking in every tenth of it (one GIL hand-off per 1000 steps of 1-100 µs each).
_REPORT_EVERY = 10_000


def solver_kernel_input(fitted_kernel, kernel, gram, index=None):
    """The kernel as the compiled dual solvers read it.

    Parameters
    ----------
    fitted_kernel : object
        The fitted kernel of ``kernelkit.utils._kernels.resolve_kernel`` (its ``rows`` and
        ``diagonal()`` are read for a vector kernel; unused when ``gram`` is given).
    kernel : str
        The estimator's ``kernel`` parameter (a key of ``VECTOR_KERNELS`` for a vector kernel).
    gram : ndarray of shape (n_samples, n_samples) or None
        The training Gram matrix, read in place; None for a vector kernel.
    index : ndarray of shape (n_variables,), default=None
        The sample of each dual variable; None: one variable per sample, in order.

    Returns
    -------
    rows : ndarray of shape (n_samples, n_features)
        The samples of a vector kernel; empty, shape (0, 0), with a Gram matrix.
    squared_norms : ndarray of shape (n_samples,)
        Their squared norms; empty with a Gram matrix.
    gram : ndarray of shape (n_samples, n_samples)
        The Gram matrix; empty, shape (0, 0), for a vector kernel.
    diagonal : ndarray of shape (n_variables,)
        ``k(x_i, x_i)`` of each variable's sample, C-contiguous.
    code : int
        ``VECTOR_KERNELS[kernel]``, or ``PRECOMPUTED_KERNEL`` with a Gram matrix (one code,
        declared once for every compiled solver).
    """
    if gram is not None:
        # the diagonal entries themselves, one gather (a subproblem per pair of classes)
        diagonal = np.diagonal(gram) if index is None else gram[index, index]
        return _EMPTY_ROWS, _NO_NORMS, gram, np.ascontiguousarray(diagonal), PRECOMPUTED_KERNEL
    rows = fitted_kernel.rows
    squared_norms = np.einsum("ij,ij->i", rows, rows)
    diagonal = fitted_kernel.diagonal()
    if index is not None:
        diagonal = diagonal[index]
    return (rows, squared_norms, _EMPTY_ROWS, np.ascontiguousarray(diagonal),
            VECTOR_KERNELS[kernel])


class BaseSMO(ParameterNamesOncePerClass, BaseEstimator):
    """Parameters and the kernel/solver plumbing common to :class:`SVC` and :class:`SVR`."""

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "kernel": KERNEL_CONSTRAINT,
        "degree": [Interval(Integral, 0, MAX_INT, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "cache_size": [Interval(Real, 0.0, None, closed="neither")],
        "shrinking": ["boolean"],
        "max_iter": [Interval(Integral, 1, MAX_INT, closed="left"), Options(Integral, {-1})],
        "verbose": ["verbose"],
        "warm_start": ["boolean"],
        "validate_gram": [StrOptions({"fast", "auto", "full"})],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, tol=1e-3,
                 cache_size=200, shrinking=True, verbose=0, max_iter=-1, n_jobs=None,
                 warm_start=False, validate_gram="fast"):
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.cache_size = cache_size
        self.shrinking = shrinking
        self.verbose = verbose
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.warm_start = warm_start
        self.validate_gram = validate_gram

    # ------------------------------------------------------------------ fitting
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the SVM: one dual problem per pair of classes (SVC), or the ε-SVR's.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or (n_samples, n_samples)
            Training vectors, or the Gram matrix for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels (SVC) or targets (SVR).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative per-sample multipliers of ``C``; samples of weight 0 are ignored.

        Returns
        -------
        self : object
            The fitted estimator.
        """
        X, gram, y, sample_weight = self._validate_training_input(
            X, y, sample_weight, classifier=is_classifier(self))
        return self._fit(X, gram, y, sample_weight)

    def _fit(self, X, gram, y, sample_weight):
        """Solve the dual problems on validated input (``gram``: see
        :meth:`_validate_training_input`); return ``self``."""
        raise NotImplementedError

    def _validate_training_input(self, X, y, sample_weight, *, classifier):
        """Validated ``(X, gram, y, sample_weight)``.

        ``gram`` is the training Gram matrix the solver reads in place (precomputed, callable
        or kernel-object kernels), or None for a vector kernel, whose rows the solver computes.
        Sets ``shape_fit_`` and the fitted kernel.
        """
        # A Gram matrix is tested for NaN and infinity in the pass over it that tests its
        # symmetry (resolve_kernel), not in one of its own; errors met before are raised after
        # that test, as scikit-learn's validation would.
        deferred = kernel_kind(self.kernel) == "precomputed"
        X, y = validate_kernel_data(self, X, y, y_numeric=not classifier,
                                    defer_finite=deferred)
        non_finite_error = (functools.partial(validate_kernel_data, self, X, y,
                                              y_numeric=not classifier) if deferred else None)
        self.shape_fit_ = X.shape if hasattr(X, "shape") else (len(X),)
        if sample_weight is None:
            sample_weight = np.ones(len(y))
        else:
            try:
                sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                                     ensure_non_negative=True)
            except (TypeError, ValueError):
                if deferred and not np.isfinite(X).all():
                    non_finite_error()
                raise
        self._fitted_kernel = resolve_kernel(self.kernel, X, gamma=self.gamma,
                                             degree=self.degree, coef0=self.coef0,
                                             n_jobs=self.n_jobs, psd=self.validate_gram,
                                             non_finite_error=non_finite_error)
        self._gamma = self._fitted_kernel.gamma or 0.0
        gram = None
        if self._fitted_kernel.kind != "vector":
            gram = self._fitted_kernel.training_gram()
        return X, gram, y, sample_weight

    def _subproblem(self, gram, sample_index, n_variables):
        """What the solver reads for the samples ``sample_index``: ``(rows, squared norms,
        column of each variable, kernel diagonal per variable, kernel code)``."""
        sample_index = np.asarray(sample_index, dtype=np.intp)
        position = (np.arange(n_variables) if n_variables == sample_index.size
                    else np.arange(n_variables) % sample_index.size)
        if gram is not None:
            col = sample_index[position]
            rows, sqnorm, _, diagonal, code = solver_kernel_input(None, self.kernel, gram, col)
            return rows, sqnorm, col, diagonal, code
        # the subset's rows are a private copy: the solver permutes them
        rows, sqnorm, _, diagonal, code = solver_kernel_input(
            self._fitted_kernel.subset(sample_index), self.kernel, None, position)
        return rows, sqnorm, position, diagonal, code

    def _prepare(self, n_threads, gram, sample_index, signs, linear_term, upper_bound,
                 start=None, cancel=None):
        """The arguments ``(problem, options, alpha)`` of ``smo_solve`` for one dual problem:
        every copy and slice of the subproblem is made here, in the calling thread, so that a
        worker thread only runs the solver (which releases the GIL).

        ``gram`` is the training Gram matrix (None for a vector kernel); ``start`` a feasible
        starting ``α`` (None: zeros); ``cancel`` a flag (int8 array of shape (1,)) that stops
        the solver when set, for solvers run in worker threads.
        """
        n_variables = signs.shape[0]
        rows, sqnorm, col, diagonal, kernel = self._subproblem(gram, sample_index, n_variables)
        alpha = np.zeros(n_variables) if start is None else np.array(start, dtype=np.float64)
        guard = max(ITER_GUARD, 100 * n_variables)
        max_iter = guard if self.max_iter == -1 else self.max_iter
        progress = iteration_callback(
            type(self).__name__, self.verbose, _REPORT_EVERY,
            lambda n_iter, gap, active_size: (
                f"{n_variables} variables: {n_iter} SMO steps, gap {gap:.3g} (tol "
                f"{self.tol:g}), {active_size} active"), unit="SMO steps")
        problem = {
            "X": rows, "x_sqnorm": sqnorm, "gram": _EMPTY_ROWS if gram is None else gram,
            "col": col, "y": np.ascontiguousarray(signs, dtype=np.int32),
            "p": np.ascontiguousarray(linear_term, dtype=np.float64),
            "upper_bound": np.ascontiguousarray(upper_bound, dtype=np.float64),
            "diagonal": diagonal, "regression": n_variables == 2 * sample_index.size,
            "kernel": kernel, "gamma": self._gamma, "coef0": float(self.coef0),
            "degree": float(self.degree),
        }
        options = {
            "tol": float(self.tol), "shrinking": bool(self.shrinking),
            # a Gram matrix is read in place: no kernel cache to size
            "cache_size": 0.0 if gram is not None else kernel_cache_megabytes(
                self.cache_size, n_variables,
                f"{type(self).__name__} on {n_variables} dual variables"),
            "max_iter": int(max_iter), "n_threads": n_threads,
            "min_work_per_thread": min_work_per_thread(n_threads),
            # a Gram matrix must be p.s.d.: the solver tests the 2×2 minors it reads
            "check_curvature": gram is not None,
            "progress": progress, "report_every": max(1, _REPORT_EVERY // 10), "cancel": cancel,
        }
        return problem, options, alpha

    def _run(self, arguments):
        """Run the compiled SMO on the arguments of :meth:`_prepare`; return the raw
        ``(alpha, rho, objective, n_iter, status, max_iter, start time)``."""
        problem, options, alpha = arguments
        start = time.perf_counter()
        rho, objective, n_iter, status = smo_solve(problem, options, alpha)
        return alpha, rho, objective, n_iter, status, options["max_iter"], start

    def _finish(self, solution):
        """Report and warn about one solver run of :meth:`_run` (in the main thread, so
        that warnings and verbose lines come out in the order of the problems); return
        ``(alpha, rho, objective, n_iter)``."""
        alpha, rho, objective, n_iter, status, max_iter, start = solution
        if self.verbose:
            report(type(self).__name__,
                   f"{alpha.size} variables: {n_iter} SMO steps, objective {objective:.10g}, "
                   f"{np.count_nonzero(alpha)} support vectors", start)
        if status != 0:
            warnings.warn(
                f"Solver terminated early (max_iter={max_iter}) before reaching tol="
                f"{self.tol}: the maximal KKT violation is still above tol. Consider "
                "pre-processing your data with StandardScaler, or increasing max_iter.",
                ConvergenceWarning,
            )
        return alpha, rho, objective, n_iter

    def _solve_all(self, problems, warm=False, remember=True):
        """Solve each ``(gram, sample_index, signs, p, C)`` of ``problems``; with ``warm``, start
        from the previous fit's solutions where the problems are the same (same samples, signs
        and bounds; the Gram matrix or kernel may differ); ``remember`` keeps the solutions as
        the next fit's starting points.

        Several problems (one-vs-one pairs) are solved concurrently, one per thread: the solver
        releases the GIL, so Python threads run them in parallel, each with its own kernel cache
        of ``cache_size``. The main thread slices each subproblem and submits it while the
        workers solve the earlier ones, and checks the results after the pool, so the workers
        hold the GIL only to enter and leave the solver; the problems are handed out largest
        first (longest-processing-time order), so that the last one to finish is a small one.
        A single problem uses the threads for its long kernel rows instead. Each problem's path
        is independent of the others and of the thread count, so the results are too. The kernel rows call BLAS inside the solver, so
        BLAS's own threads are switched off for the whole fit.
        """
        n_threads = effective_n_threads(self.n_jobs)
        previous = getattr(self, "_warm_starts", None) if warm else None
        if previous is not None and len(previous) != len(problems):
            previous = None
        starts = []
        for k, problem in enumerate(problems):
            start = None
            if previous is not None:
                rows, signs, upper, alpha = previous[k]
                if (np.array_equal(rows, problem[1]) and np.array_equal(signs, problem[2])
                        and np.array_equal(upper, problem[4])):
                    start = alpha
            starts.append(start)
        n_workers = min(n_threads, len(problems))
        entry_cost = 1.0 if problems[0][0] is not None else 1.0 + self.n_features_in_ / 8
        work = entry_cost * sum(len(problem[1]) ** 2 for problem in problems) / len(problems)
        if work < _MIN_WORK_PER_PARALLEL_PROBLEM:
            n_workers = 1
        inner_threads = max(1, n_threads // n_workers)
        # Ctrl-C reaches the main thread only, waiting on the pool: it sets the flag that stops
        # the solvers in the workers, so that the pool's shutdown does not wait for them
        cancel = np.zeros(1, dtype=np.int8) if n_workers > 1 else None

        def prepare(k):
            return self._prepare(inner_threads, *problems[k], start=starts[k], cancel=cancel)

        # A precomputed Gram is read in place: no BLAS call to keep single-threaded.
        single_blas = (contextlib.nullcontext() if problems[0][0] is not None
                       else blas_limit(1))
        with single_blas:
            if n_workers <= 1:
                raw = [self._run(prepare(k)) for k in range(len(problems))]
            else:
                order = sorted(range(len(problems)), key=lambda k: -problems[k][2].shape[0])
                raw = [None] * len(problems)
                with ThreadPoolExecutor(max_workers=n_workers) as pool:
                    try:
                        # each problem is sliced here, in turn, while the workers solve the
                        # ones submitted before it
                        futures = [(k, pool.submit(self._run, prepare(k))) for k in order]
                        for k, future in futures:
                            raw[k] = future.result()
                    except BaseException:
                        cancel[0] = 1
                        raise
        # every problem's coefficients and intercept at once (one test, not one per pair)
        self._fitted_kernel.check_finite(
            np.concatenate([solution[0] for solution in raw] + [[solution[1] for solution in raw]]),
            "dual coefficients and intercept")
        solutions = [self._finish(solution) for solution in raw]
        if remember:
            self._warm_starts = [(problem[1], problem[2], problem[4], solution[0])
                                 for problem, solution in zip(problems, solutions)]
        return solutions

    # ------------------------------------------------------------------ prediction
    def _keep_support(self, X, support):
        """Keep the kernel against the support vectors only; set ``support_vectors_`` (their rows
        of ``X``; empty for a precomputed Gram or a kernel object, as scikit-learn)."""
        self._support_kernel = self._fitted_kernel.subset(support)
        del self._fitted_kernel
        if self._support_kernel.kind in ("vector", "callable"):
            self.support_vectors_ = self._support_kernel.rows
        else:
            self.support_vectors_ = np.empty((0, 0))

    def _cross_gram(self, X, gram, rows, columns):
        """``K(x_rows, x_columns)`` between training samples (during fit)."""
        if gram is not None:
            return gram[np.ix_(rows, columns)]
        return self._fitted_kernel.gram(X[rows], X[columns])

    def _kernel_to_support(self, X):
        """``K(X, support vectors)``, shape (n_samples, n_SV), float64.

        With ``kernel="precomputed"``, ``X`` is the Gram matrix against all training samples, or
        against the support vectors only (in the order of ``support_``).
        """
        check_is_fitted(self)
        n_support = self.support_.size
        if (self._support_kernel.kind == "precomputed" and n_support != self.shape_fit_[0]
                and np.ndim(X) == 2 and np.shape(X)[1] == n_support):
            return check_array(X, dtype=np.float64, order="C", input_name="X")
        X = validate_kernel_data(self, X, reset=False, n_samples_fit=self.shape_fit_[0])
        return self._support_kernel.cross(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        kernel_input_tags(tags, self.kernel)
        tags.input_tags.sparse = False
        return tags
