"""Shared machinery of the SMO-trained SVMs: parameters, kernels, input checks, one solver call.

:class:`kernelkit.svm.SVC` and :class:`kernelkit.svm.SVR` differ only in how they build the dual
(signs ``y``, linear term ``p``, bounds ``C_t``) and read the solution back; everything else —
validating ``X`` (vectors, a precomputed Gram, or a callable kernel), resolving ``gamma``, calling
the compiled solver with BLAS single-threaded, reporting non-convergence, and evaluating the kernel
against the support vectors at prediction time — lives here.
"""

import functools
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.linalg import LinAlgError, cholesky
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.utils._param_validation import Interval, Options, StrOptions
from sklearn.utils.validation import (
    _check_sample_weight,
    check_array,
    check_is_fitted,
    validate_data,
)
from threadpoolctl import ThreadpoolController

from kernelkit._core._smo_solver import check_gram, smo_solve
from kernelkit.utils._threads import N_JOBS_CONSTRAINT, effective_n_threads

# Kernel codes of the compiled solver (kernelkit._core._smo_solver).
KERNEL_CODES = {"linear": 0, "poly": 1, "rbf": 2, "sigmoid": 3, "precomputed": 4}
# Up to this size a precomputed Gram is checked to be p.s.d. by a Cholesky factorisation; above,
# the O(n³) check would cost as much as the fit, and only O(n²) necessary conditions are checked.
PSD_CHECK_MAX_SAMPLES = 1000
# With max_iter=-1 the solver still stops after max(10⁷, 100 l) steps (libsvm's own guard).
ITER_GUARD = 10_000_000


@functools.cache
def _threadpool_controller():
    # Built once: inspecting the loaded BLAS libraries costs milliseconds per call.
    return ThreadpoolController()


def check_precomputed_gram(K, n_samples, n_threads=1):
    """Validate a training Gram matrix for ``kernel="precomputed"``.

    Checks the shape ``(n_samples, n_samples)``, symmetry, a non-negative diagonal and every
    2×2 principal minor ``K_ij² ≤ K_ii K_jj`` (necessary for positive semi-definiteness, O(n²));
    up to ``PSD_CHECK_MAX_SAMPLES`` samples also positive semi-definiteness itself, by a
    Cholesky factorisation of ``K + δI`` with ``δ = 10⁻⁸ max(1, trace K)``. ``n_threads``
    OpenMP threads scan the matrix.

    Raises
    ------
    ValueError
        Naming the condition that fails.
    """
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(
            f"Precomputed Gram matrix should be square, got shape {K.shape}; with "
            'kernel="precomputed", X must be the (n_samples, n_samples) training Gram matrix.'
        )
    if K.shape[0] != n_samples:
        raise ValueError(f"Gram matrix has {K.shape[0]} rows but y has {n_samples} samples.")
    shift = 1e-8 * max(1.0, float(np.abs(np.diag(K)).sum()))
    code = check_gram(K, shift, n_threads)
    if code == 1:
        raise ValueError(
            "Precomputed Gram matrix has negative diagonal entries k(x, x) < 0: it is not "
            "positive semi-definite."
        )
    if code == 2:
        raise ValueError("Precomputed Gram matrix is not symmetric, so it is not a valid kernel.")
    if code == 3:
        raise ValueError(
            "Precomputed Gram matrix violates |K_ij| <= sqrt(K_ii K_jj): it is not positive "
            "semi-definite."
        )
    if K.shape[0] <= PSD_CHECK_MAX_SAMPLES:
        try:
            # One BLAS thread: at this size threading gains little and stalls on a busy machine.
            with _threadpool_controller().limit(limits=1, user_api="blas"):
                cholesky(K + shift * np.eye(K.shape[0]), lower=True, check_finite=False)
        except LinAlgError:
            raise ValueError(
                "Precomputed Gram matrix is not positive semi-definite (it has a negative "
                "eigenvalue); SVMs need a p.d. kernel."
            ) from None


class BaseSMO(BaseEstimator):
    """Parameters and the kernel/solver plumbing common to :class:`SVC` and :class:`SVR`."""

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0.0, None, closed="neither")],
        "kernel": [StrOptions(set(KERNEL_CODES)), callable],
        "degree": [Interval(Integral, 0, None, closed="left")],
        "gamma": [StrOptions({"scale", "auto"}), Interval(Real, 0.0, None, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "tol": [Interval(Real, 0.0, None, closed="neither")],
        "cache_size": [Interval(Real, 0.0, None, closed="neither")],
        "shrinking": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left"), Options(Integral, {-1})],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    # ------------------------------------------------------------------ fitting
    def _validate_training_input(self, X, y, sample_weight, *, classifier):
        """Validated ``(X, X_solver, y, sample_weight)``.

        ``X_solver`` is what the solver reads: ``X`` itself, except for a callable kernel, where
        it is the training Gram matrix. Sets ``n_features_in_``, ``shape_fit_`` and ``_gamma``.
        """
        precomputed = self.kernel == "precomputed"
        X, y = validate_data(
            self, X, y, dtype=np.float64, order="C", y_numeric=not classifier)
        self.shape_fit_ = X.shape
        sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                             ensure_non_negative=True)
        # gamma only enters the built-in kernels (X.var() of a large Gram would cost seconds).
        self._gamma = 0.0 if precomputed or callable(self.kernel) else self._resolve_gamma(X)
        X_solver = X
        if callable(self.kernel):
            X_solver = self._callable_gram(X, X)
        if precomputed or callable(self.kernel):
            check_precomputed_gram(X_solver, y.shape[0], effective_n_threads(self.n_jobs))
        return X, X_solver, y, sample_weight

    def _resolve_gamma(self, X):
        if self.gamma == "auto":
            return 1.0 / X.shape[1]
        if self.gamma == "scale":
            variance = X.var()
            return 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
        return float(self.gamma)

    def _callable_gram(self, X, Y):
        K = np.ascontiguousarray(self.kernel(X, Y), dtype=np.float64)
        if K.shape != (X.shape[0], Y.shape[0]):
            raise ValueError(
                f"The kernel callable returned shape {K.shape}; expected "
                f"({X.shape[0]}, {Y.shape[0]})."
            )
        if not np.all(np.isfinite(K)):
            raise ValueError("The kernel callable returned NaN or infinite values.")
        return K

    def _solve(self, n_threads, X, sample_index, signs, linear_term, upper_bound):
        """Run the compiled SMO on one dual problem; return ``(alpha, rho, objective, n_iter)``.

        ``X`` is the data matrix or (precomputed/callable kernel) the training Gram matrix.
        Warns with ``ConvergenceWarning`` when ``max_iter`` stops the solver.
        """
        gram_like = self.kernel == "precomputed" or callable(self.kernel)
        n_variables = signs.shape[0]
        alpha = np.zeros(n_variables)
        gradient = np.zeros(n_variables)
        guard = max(ITER_GUARD, 100 * n_variables)
        max_iter = guard if self.max_iter == -1 else self.max_iter
        empty = np.zeros((0, 0))
        rho, objective, n_iter, status = smo_solve(
            empty if gram_like else X, X if gram_like else empty,
            np.ascontiguousarray(sample_index, dtype=np.intp),
            np.ascontiguousarray(signs, dtype=np.int32),
            np.ascontiguousarray(linear_term, dtype=np.float64),
            np.ascontiguousarray(upper_bound, dtype=np.float64),
            alpha, gradient,
            KERNEL_CODES["precomputed" if gram_like else self.kernel],
            self._gamma, float(self.coef0), float(self.degree), float(self.tol),
            bool(self.shrinking), float(self.cache_size), int(max_iter), n_threads,
        )
        if status != 0:
            warnings.warn(
                f"Solver terminated early (max_iter={max_iter}) before reaching tol="
                f"{self.tol}: the maximal KKT violation is still above tol. Consider "
                "pre-processing your data with StandardScaler, or increasing max_iter.",
                ConvergenceWarning,
            )
        return alpha, rho, objective, n_iter

    def _solve_all(self, problems):
        """Solve each ``(X, sample_index, signs, p, C)`` of ``problems`` with BLAS on one thread.

        The kernel rows call BLAS inside OpenMP threads, so BLAS's own threads are switched off
        for the whole fit, once rather than per one-vs-one problem.
        """
        n_threads = effective_n_threads(self.n_jobs)
        with _threadpool_controller().limit(limits=1, user_api="blas"):
            return [self._solve(n_threads, *problem) for problem in problems]

    # ------------------------------------------------------------------ prediction
    def _kernel_to_support(self, X):
        """``K(X, support vectors)``, shape (n_samples, n_SV), float64."""
        check_is_fitted(self)
        if self.kernel == "precomputed":
            # Checked before validate_data to say what the "features" of a Gram matrix are.
            X = check_array(X, dtype=np.float64, order="C")
            if X.shape[1] != self.shape_fit_[0]:
                raise ValueError(
                    f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                    f"{self.shape_fit_[0]} features as input: with kernel=\"precomputed\", X "
                    "must be the (n_samples_test, n_samples_train) Gram matrix against the "
                    f"{self.shape_fit_[0]} training samples."
                )
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        if self.kernel == "precomputed":
            return X[:, self.support_]
        if callable(self.kernel):
            return self._callable_gram(X, self.support_vectors_)
        return pairwise_kernels(X, self.support_vectors_, metric=self.kernel, filter_params=True,
                                gamma=self._gamma, degree=self.degree, coef0=self.coef0)

    def _support_vectors_of(self, X, support):
        """Training rows of the support vectors (empty for a precomputed Gram, as scikit-learn)."""
        if self.kernel == "precomputed":
            return np.empty((0, 0))
        return X[support]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = False
        return tags
