"""Several kernels on the same training input, their Gram matrices computed once."""

import numpy as np
from scipy.linalg.blas import get_blas_funcs
from sklearn.utils import get_tags
from sklearn.utils.validation import check_array

from kernelkit.utils._gram import check_precomputed_gram
from kernelkit.utils._kernels import (
    kernel_kind,
    resolve_kernel,
    validate_kernel_data,
    with_targets,
)
from kernelkit.utils._threads import effective_n_threads, lapack_threads

__all__ = ["KernelStack", "combine", "input_kind", "quadratic_forms", "validate_mkl_data",
           "weighted_sum"]


def weighted_sum(grams, weights):
    """``Σ_m w_m K_m`` of Gram matrices given one after the other (an iterable: each can be
    computed when it is needed), added into one new matrix by BLAS ``axpy``: two Gram matrices
    in memory at a time, where stacking them first held ``2 n_kernels`` (the sum kernel of three
    RBF kernels on 10 000 samples: 4.8 GB)."""
    axpy = get_blas_funcs("axpy", dtype=np.float64)
    total = None
    for weight, K in zip(weights, grams):
        if total is None:
            total = np.multiply(K, weight)    # a new array: K may be the kernel's own
            continue
        with lapack_threads(2.0 * K.size):
            axpy(np.ascontiguousarray(K).reshape(-1), total.reshape(-1), a=weight)
    return total


def combine(Ks, weights):
    """``Σ_m w_m K_m`` of a stack ``Ks`` of shape ``(n_rows, n_cols, n_kernels)``: one
    matrix-vector product over the stack (kernels last keeps it one contiguous pass), on
    NumPy's BLAS team while it wakes promptly, on one thread when a busy core would stall it
    (``lapack_threads``)."""
    with lapack_threads(2.0 * Ks.size, library="numpy"):
        return (Ks.reshape(-1, Ks.shape[-1]) @ weights).reshape(Ks.shape[:2])


def quadratic_forms(Ks, coefficients):
    """``Σ_p c_pᵀ K_m c_p`` for every kernel ``m`` of a square stack ``Ks`` (kernels last) and
    the columns ``c_p`` of ``coefficients`` (shape ``(n_samples,)`` or ``(n_samples, n_vectors)``),
    e.g. ``γᵀ K_m γ``.

    Row by row: ``Σ_p c_ip (c_pᵀ K[i])`` for each sample ``i`` with a non-zero coefficient, where
    ``K[i]`` of shape ``(n_samples, n_kernels)`` is one contiguous slice of the stack (every kernel
    in one matrix-vector product, no copy). Rows whose coefficients are all zero (the
    non-support vectors of an SVM) are never read, and no ``n² `` outer product is formed.
    """
    C = np.asarray(coefficients, dtype=np.float64).reshape(Ks.shape[0], -1)
    support = np.flatnonzero(np.any(C != 0.0, axis=1))
    total = np.zeros(Ks.shape[2])
    for i in support:
        total += C[i] @ (C.T @ Ks[i])
    return total


def input_kind(kernels):
    """What several kernels read: ``"precomputed"`` (a stack of Gram matrices), ``"vector"``
    (every kernel is a vector kernel: a name, a callable, or an object taking 2-d arrays) or
    ``"structured"`` (sequences of objects)."""
    if isinstance(kernels, str):
        return "precomputed"
    for kernel in kernels:
        if kernel_kind(kernel) == "structured" and not get_tags(kernel).input_tags.two_d_array:
            return "structured"
    return "vector"


def validate_mkl_data(estimator, X, y="no_validation", *, reset=True, **check_params):
    """Validate ``X`` (and ``y``) of an estimator with a list of ``kernels``.

    Vectors are validated as by ``validate_data`` (``n_features_in_`` is set), objects are
    passed on, and for ``kernels="precomputed"`` ``X`` must be a stack of Gram matrices.
    """
    kind = input_kind(estimator.kernels)
    if kind != "precomputed":
        return validate_kernel_data(estimator, X, y, reset=reset, kind=kind, **check_params)
    X = _checked_stack(X, "X", square=reset, kernels_last=True)
    return with_targets(estimator, X, y, y_numeric=check_params.get("y_numeric", False))


class KernelStack:
    """Kernels fitted on one training input, with their Gram matrices stacked once.

    Parameters
    ----------
    kernels : list or "precomputed"
        Kernel objects, vector-kernel names or callables (each resolved by
        ``kernelkit.utils._kernels.resolve_kernel``), or "precomputed": the input is already the
        stack of Gram matrices, shape ``(n_samples, n_samples_fit, n_kernels)`` — kernels last,
        so that scikit-learn's cross-validation splits it as it splits one precomputed Gram.
    n_jobs : int, default=None

    Attributes
    ----------
    training_grams_ : ndarray of shape (n_samples, n_samples, n_kernels)
        Kernels last, C-contiguous: combinations and quadratic forms are one pass over it.
    kernels_ : list of FittedKernel
        (empty for "precomputed")

    Examples
    --------
    >>> import numpy as np
    >>> from kernelkit.mkl import KernelStack
    >>> stack = KernelStack(["linear", "rbf"]).fit(np.array([[0.0], [1.0], [2.0]]))
    >>> stack.training_grams_.shape      # (n_samples, n_samples, n_kernels)
    (3, 3, 2)
    >>> stack.training_grams_[:, :, 0]
    array([[0., 0., 0.],
           [0., 1., 2.],
           [0., 2., 4.]])
    """

    def __init__(self, kernels, n_jobs=None):
        self.kernels = kernels
        self.n_jobs = n_jobs

    def fit(self, X):
        """Fit every kernel on ``X`` and stack the training Gram matrices."""
        Ks, fitted = self._fit_kernels(X)
        if Ks is None:
            Ks = np.stack([kernel.training_gram() for kernel in fitted], axis=-1)
        self.training_grams_ = Ks
        self.n_samples_fit_, self.n_kernels_ = Ks.shape[1], Ks.shape[2]
        return self

    def fit_combined(self, X, weights):
        """Fit every kernel on ``X`` and return ``Σ_m w_m K_m(X, X)``: each kernel fitted, its
        Gram matrix added (:func:`weighted_sum`) and let go before the next is fitted (a kernel
        object computes its Gram when it is fitted); ``training_grams_`` is not set."""
        Ks, fitted = self._fit_kernels(X)
        if Ks is not None:
            self.n_samples_fit_, self.n_kernels_ = Ks.shape[1], Ks.shape[2]
            return combine(Ks, weights)
        K = weighted_sum((kernel.training_gram() for kernel in fitted), weights)
        self.n_samples_fit_, self.n_kernels_ = K.shape[1], len(self.kernels_)
        return K

    def _fit_kernels(self, X):
        """Validate ``X``; return ``(stack, [])`` for "precomputed", else ``(None, kernels)``:
        an iterator that fits each kernel when it is reached and appends it to ``kernels_``."""
        if isinstance(self.kernels, str):
            Ks = np.ascontiguousarray(_checked_stack(X, "X", kernels_last=True))
            n_threads = effective_n_threads(self.n_jobs)
            for m in range(Ks.shape[-1]):
                # the learners check the combination again (the SVM tests every pair it uses)
                check_precomputed_gram(Ks[..., m], n_threads=n_threads, psd="fast",
                                       name=f"Precomputed Gram matrix {m}")
            self.kernels_ = []
            return Ks, []
        if len(self.kernels) == 0:
            raise ValueError("kernels is empty: give at least one kernel.")
        kinds = [kernel_kind(kernel) for kernel in self.kernels]
        if "precomputed" in kinds:
            raise ValueError('A single "precomputed" kernel cannot be mixed with others: pass '
                             'kernels="precomputed" and the stack of Gram matrices as X.')
        if any(kind in ("vector", "callable") for kind in kinds):
            X = check_array(X, dtype=np.float64, order="C")
        self.kernels_ = []
        return None, self._fitted_one_by_one(X)

    def _fitted_one_by_one(self, X):
        for kernel in self.kernels:
            self.kernels_.append(resolve_kernel(kernel, X, n_jobs=self.n_jobs))
            yield self.kernels_[-1]

    def test_grams(self, X):
        """``K_m(X, X_fit)`` of every kernel, shape (n_samples, n_samples_fit, n_kernels)."""
        Ks, X = self._test_input(X)
        if Ks is not None:
            return Ks
        return np.stack([kernel.cross(X) for kernel in self.kernels_], axis=-1)

    def test_combined(self, X, weights):
        """``Σ_m w_m K_m(X, X_fit)``, the Gram matrices added one after the other."""
        Ks, X = self._test_input(X)
        if Ks is not None:
            return combine(Ks, weights)
        return weighted_sum((kernel.cross(X) for kernel in self.kernels_), weights)

    def _test_input(self, X):
        """``(stack, None)``: the checked stack of test Grams for "precomputed"; else
        ``(None, X)``, ``X`` validated for the kernels' ``cross``."""
        if isinstance(self.kernels, str):
            Ks = np.ascontiguousarray(_checked_stack(X, "X", square=False, kernels_last=True))
            if Ks.shape[2] != self.n_kernels_ or Ks.shape[1] != self.n_samples_fit_:
                raise ValueError(
                    f"X has shape {np.shape(X)}; expected (n_samples, {self.n_samples_fit_}, "
                    f"{self.n_kernels_}): the Gram matrices against the training samples, "
                    "kernels last.")
            return Ks, None
        if any(kernel.kind in ("vector", "callable") for kernel in self.kernels_):
            X = check_array(X, dtype=np.float64, order="C")
        return None, X


def _checked_stack(X, name, square=True, kernels_last=False):
    """``X`` as a float64 stack of Gram matrices, validated, in its own layout: kernels first,
    or last with ``kernels_last`` (an estimator's input, ``(n_rows, n_cols, n_kernels)``). A list
    of matrices is stacked. No copy when ``X`` is already a float64 array."""
    layout = "(n_samples, n_samples_train, n_kernels)" if kernels_last else \
        "(n_kernels, n_samples, n_samples)"
    if isinstance(X, (list, tuple)):
        X = [np.asarray(K, dtype=np.float64) for K in X]
        for m, K in enumerate(X):
            if K.ndim != 2 or K.shape != X[0].shape:
                raise ValueError(f"{name}[{m}] has shape {K.shape}, {name}[0] has shape "
                                 f"{X[0].shape}: the Gram matrices of {name} must be 2-d, all "
                                 "of one shape (the same samples for every kernel).")
        X = np.stack(X, axis=-1 if kernels_last else 0)
    X = np.asarray(X, dtype=np.float64)
    n_kernels = X.shape[-1 if kernels_last else 0] if X.ndim == 3 else 0
    rows, cols = (X.shape[:2] if kernels_last else X.shape[1:]) if X.ndim == 3 else (0, 0)
    if X.ndim != 3 or n_kernels == 0 or (square and rows != cols):
        raise ValueError(f"{name} must be a stack of {'square ' if square else ''}Gram matrices "
                         f"of shape {layout}; got shape {np.shape(X)}.")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return X


def _gram_stack(X, name, square=True, kernels_last=False):
    """A stack of Gram matrices as a C-contiguous float64 array of shape (n_kernels, n_rows,
    n_cols) (see :func:`_checked_stack` for the input layouts)."""
    X = _checked_stack(X, name, square, kernels_last)
    return np.ascontiguousarray(np.moveaxis(X, -1, 0) if kernels_last else X)
