"""What an estimator's ``kernel=`` parameter can be, and how it becomes Gram matrices.

Every kernel method of kernelkit (SVMs, kernel PCA, kernel ridge and logistic regression, kernel
Fisher analysis, kernel nearest neighbours, MKL) accepts the same four kinds of ``kernel``:

* a name of ``KERNEL_NAMES`` — a vector kernel computed by the compiled core
  (``_core/_gram.pyx``, formulas in ``_core/_vector_kernels.pxd``), with ``gamma``, ``degree``
  and ``coef0``;
* a callable ``kernel(X, Y, **kernel_params)`` returning the ``(n_X, n_Y)`` Gram matrix (as
  scikit-learn's ``SVC``; note that scikit-learn's ``KernelPCA``/``KernelRidge`` call a callable
  once per pair of rows instead);
* ``"precomputed"`` — ``X`` is the Gram matrix: ``(n_samples, n_samples)`` at fit,
  ``(n_samples_test, n_samples_fit)`` afterwards;
* a kernel **object**: any scikit-learn transformer whose ``fit_transform(X)`` returns
  ``K(X, X)`` and ``transform(Y)`` returns ``K(Y, X_fit)`` — the string and graph kernels of
  :mod:`kernelkit.kernels`. It is cloned and fitted on the training objects, so
  ``SVC(kernel=SpectrumKernel(k=3)).fit(sequences, y)`` trains on strings directly.

:func:`resolve_kernel` turns the parameter and the training input into a :class:`FittedKernel`;
:func:`validate_kernel_data` validates ``X`` according to the kind.
"""

import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.validation import check_array, check_consistent_length, validate_data

from kernelkit._core._gram import VECTOR_KERNELS, vector_gram, vector_gram_diagonal
from kernelkit.utils._gram import (
    blas_limit,
    check_gram_range,
    check_precomputed_gram,
    definiteness_sample,
)
from kernelkit.utils._sklearn_compat import HasMethods, StrOptions
from kernelkit.utils._threads import effective_n_threads
from kernelkit.utils._validation import check_distance_scale, check_sparse_input

__all__ = [
    "KERNEL_CONSTRAINT",
    "KERNEL_NAMES",
    "FittedKernel",
    "definite_by_construction",
    "kernel_input_tags",
    "kernel_kind",
    "pairwise_kernels",
    "resolve_gamma",
    "resolve_kernel",
    "validate_kernel_data",
    "with_targets",
]

KERNEL_NAMES = frozenset(VECTOR_KERNELS) | {"precomputed"}
# The ``_parameter_constraints`` entry of every ``kernel`` parameter.
KERNEL_CONSTRAINT = [StrOptions(KERNEL_NAMES), callable, HasMethods(["fit_transform", "transform"])]


def kernel_kind(kernel):
    """``"vector"``, ``"precomputed"``, ``"callable"`` or ``"structured"`` (a kernel object)."""
    if isinstance(kernel, str):
        if kernel not in KERNEL_NAMES:
            raise ValueError(
                f"Unknown kernel {kernel!r}; expected one of {sorted(KERNEL_NAMES)}, a callable "
                "or a kernel object such as kernelkit.kernels.SpectrumKernel()."
            )
        return "precomputed" if kernel == "precomputed" else "vector"
    if hasattr(kernel, "fit_transform") and hasattr(kernel, "transform"):
        return "structured"
    if callable(kernel):
        return "callable"
    raise TypeError(f"kernel must be a string, a callable or a kernel object, got {kernel!r}.")


# Vector kernel values beyond this carry no usable information next to the ordinary ones
# (float64 keeps 16 digits): the Gram matrix is returned with a warning.
_HUGE_KERNEL_VALUE = 1e100


def _check_kernel_bound(name, gamma, coef0, degree, X):
    """Raise if the kernel values of rows of ``X`` can overflow (poly or exponential with a large
    γ, degree or norms).

    ``|k(x, y)| ≤ (γ max‖x‖² + |coef0|)^degree`` for the polynomial kernel, ``exp(γ max‖x‖²)``
    for the exponential one and ``max‖x‖²`` for the linear one; sinc is bounded by
    ``(γ/π)^n_features``, the others by 1 or ``n_features max|x|``.
    """
    if name not in ("linear", "poly", "polynomial", "exponential", "sinc") or X.size == 0:
        return
    if name == "sinc":
        with np.errstate(over="ignore"):
            bound = np.power(np.float64(gamma / np.pi), X.shape[1])
        if not np.isfinite(bound):
            raise ValueError(
                f"The sinc kernel overflows float64 on these data (k(x, x) = (gamma/pi)^"
                f"n_features = ({gamma:.3g}/pi)^{X.shape[1]}); use a smaller gamma."
            )
        return
    sq = float(np.max(np.einsum("ij,ij->i", X, X)))
    with np.errstate(over="ignore"):
        if name == "linear":
            bound = sq
        elif name == "exponential":
            bound = np.exp(np.float64(gamma * sq))
        else:
            bound = np.power(np.float64(gamma * sq + abs(coef0)), degree)
    if not np.isfinite(bound):
        detail = (f"exp({gamma:.3g} * {sq:.3g})" if name == "exponential"
                  else f"({gamma:.3g} * {sq:.3g} + {abs(coef0):.3g})^{degree:g}")
        raise ValueError(
            f"The {name} kernel overflows float64 on these data (|k(x, y)| can reach {detail}); "
            "use a smaller gamma or degree, or rescale X."
        )


def _check_kernel_domain(name, X, input_name="X"):
    """Raise if ``X`` lies outside the domain where the kernel is positive definite: the min
    kernel is a kernel on vectors with non-negative entries only."""
    if name == "min" and X.size and float(X.min()) < 0:
        raise ValueError(
            f"The min kernel is positive definite on non-negative vectors only; {input_name} has "
            f"a negative entry ({float(X.min()):.3g}). Shift or rescale the features to [0, ∞)."
        )


def _kernel_description(name, gamma, coef0, degree):
    """``"the sigmoid kernel (gamma=2, coef0=1)"``: a vector kernel and the parameters it uses,
    for error messages."""
    parameters = []
    if name in ("poly", "polynomial", "rbf", "sigmoid", "laplacian", "exponential", "sinc"):
        parameters.append(f"gamma={gamma:.6g}")
    if name in ("poly", "polynomial", "sigmoid"):
        parameters.append(f"coef0={coef0:.6g}")
    if name in ("poly", "polynomial"):
        parameters.append(f"degree={degree:.6g}")
    return f"the {name} kernel" + (f" ({', '.join(parameters)})" if parameters else "")


def definite_by_construction(name, coef0, degree):
    """Whether the vector kernel is positive definite for any input it accepts: all but sigmoid
    (``tanh`` of a dot product is not a kernel in general) and the polynomial kernel with
    ``coef0 < 0`` or a non-integer degree (its power series then has negative coefficients).
    The min kernel refuses negative entries, where it would not be."""
    if name == "sigmoid":
        return False
    if name in ("poly", "polynomial"):
        return coef0 >= 0 and float(degree).is_integer()
    return True


def resolve_gamma(gamma, X):
    """``γ`` of the vector kernels: ``"scale"`` is ``1 / (n_features · Var X)`` (1 when X is
    constant), ``"auto"`` and None are ``1 / n_features``, a number is itself."""
    n_features = max(X.shape[1], 1)
    if gamma == "scale":
        variance = float(X.var()) if X.size else 0.0
        return 1.0 / (n_features * variance) if variance > 0 else 1.0
    if gamma is None or gamma == "auto":
        return 1.0 / n_features
    return float(gamma)


def _vector_gram(X, Y, name, gamma, coef0, degree, n_threads):
    """``K(X, Y)`` of a vector kernel; a ValueError naming the kernel and its parameters when a
    value is NaN or infinite (overflow, or a negative base to a non-integer degree)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    symmetric = Y is None
    Y = X if symmetric else np.ascontiguousarray(Y, dtype=np.float64)
    out = np.empty((X.shape[0], Y.shape[0]))
    # The blocks call BLAS inside OpenMP threads: BLAS's own threads are switched off.
    with blas_limit(1):
        vector_gram(X, Y, symmetric, VECTOR_KERNELS[name], gamma, coef0, degree, out, n_threads)
    # max and min propagate NaN: two passes, no temporary array
    peak = max(out.max(), -out.min()) if out.size else 0.0
    if not np.isfinite(peak):
        raise _non_finite_gram(name, gamma, coef0, degree)
    if peak > _HUGE_KERNEL_VALUE:
        warnings.warn(
            f"The Gram matrix of {_kernel_description(name, gamma, coef0, degree)} reaches "
            f"{peak:.3g}: its largest entries swamp the others in every solver's arithmetic. "
            "Rescale X or use a smaller gamma or degree.", UserWarning, stacklevel=3)
    return out


def _non_finite_gram(name, gamma, coef0, degree):
    """The ValueError for a vector kernel with a NaN or infinite value, naming its parameters."""
    description = _kernel_description(name, gamma, coef0, degree)
    if name in ("poly", "polynomial") and not float(degree).is_integer():
        return ValueError(
            f"The Gram matrix of {description} has NaN values: gamma x·y + coef0 is negative "
            "for some pairs, and a negative number has no real non-integer power. Use an "
            "integer degree, or coef0 >= gamma · max|x·y| (e.g. non-negative features).")
    return ValueError(f"The Gram matrix of {description} has NaN or infinite values "
                      "(overflow): rescale X or use a smaller gamma or degree.")


def pairwise_kernels(X, Y=None, metric="rbf", *, gamma=None, degree=3, coef0=1.0, n_jobs=None):
    """Gram matrix :math:`K_{ij} = k(x_i, y_j)` of a vector kernel (compiled, threaded).

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
    Y : array-like of shape (n_samples_Y, n_features), default=None
        None computes ``K(X, X)``, exactly symmetric, each pair once.
    metric : {"linear", "poly", "polynomial", "rbf", "sigmoid", "laplacian", "cosine", \
"exponential", "min", "sinc"}
        :math:`x \\cdot y`, :math:`(\\gamma x \\cdot y + \\mathrm{coef0})^\\mathrm{degree}`,
        :math:`\\exp(-\\gamma \\|x - y\\|^2)`, :math:`\\tanh(\\gamma x \\cdot y + \\mathrm{coef0})`,
        :math:`\\exp(-\\gamma \\|x - y\\|_1)`, :math:`x \\cdot y / (\\|x\\| \\|y\\|)` (Mairal &
        Vert, "Examples of kernels"), :math:`\\exp(\\gamma x \\cdot y)` (Sangnier, Ex 1.4.2),
        :math:`\\sum_k \\min(x_k, y_k)` on non-negative vectors (Mairal & Vert, Brownian motion
        kernel), :math:`\\prod_k \\sin(\\gamma (x_k - y_k)) / (\\pi (x_k - y_k))` (Mairal & Vert,
        sinc kernel with band limit :math:`\\Omega = \\gamma`).
    gamma : float, default=None
        None means ``1 / n_features``, as in scikit-learn.
    degree : float, default=3
    coef0 : float, default=1.0
    n_jobs : int, default=None
        OpenMP threads (None: all allowed). Results do not depend on it.

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y)

    Raises
    ------
    ValueError
        When a value is NaN or infinite, naming the kernel and its parameters: an overflow, or
        the polynomial kernel with a non-integer degree where :math:`\\gamma x \\cdot y +
        \\mathrm{coef0} < 0` (scikit-learn returns NaN there).

    Examples
    --------
    >>> from kernelkit.kernels import pairwise_kernels
    >>> pairwise_kernels([[0.0, 1.0], [1.0, 1.0]], metric="linear")
    array([[1., 1.],
           [1., 2.]])
    """
    if metric not in VECTOR_KERNELS:
        raise ValueError(f"Unknown kernel {metric!r}; expected one of {sorted(VECTOR_KERNELS)}.")
    X = check_array(X, dtype=np.float64, order="C", input_name="X")
    _check_kernel_domain(metric, X)
    if Y is not None:
        Y = check_array(Y, dtype=np.float64, order="C", input_name="Y")
        if Y.shape[1] != X.shape[1]:
            raise ValueError(f"X has {X.shape[1]} features but Y has {Y.shape[1]}.")
        _check_kernel_domain(metric, Y, "Y")
    return _vector_gram(X, Y, metric, resolve_gamma(gamma, X), float(coef0), float(degree),
                        effective_n_threads(n_jobs))


class FittedKernel:
    """A ``kernel`` parameter resolved against the training input (see :func:`resolve_kernel`).

    It remembers what it needs to evaluate the kernel against (some of) the training samples:
    their rows for vector and callable kernels, their indices for a precomputed Gram, the fitted
    kernel object for structured input.

    Attributes
    ----------
    kind : {"vector", "callable", "precomputed", "structured"}
    gamma : float or None
        Resolved ``γ`` of a vector kernel.
    estimator : object or None
        The fitted clone of a kernel object.
    rows : ndarray
        The training rows kept (vector, callable), or their indices (precomputed, structured).
    n_samples_fit : int
        Number of training samples the kernel was resolved on.
    """

    def __init__(self, kind, rows, n_samples_fit, *, name=None, gamma=None, coef0=1.0,
                 degree=3.0, function=None, kernel_params=None, estimator=None, n_threads=1):
        self.kind = kind
        self.rows = rows
        self.n_samples_fit = n_samples_fit
        self.name = name
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.function = function
        self.kernel_params = kernel_params or {}
        self.estimator = estimator
        self.n_threads = n_threads
        self._training_gram = None

    def gram(self, A, B=None):
        """``K(A, B)`` (``K(A, A)`` when ``B`` is None) for vector and callable kernels."""
        if self.kind == "vector":
            return _vector_gram(A, B, self.name, self.gamma, self.coef0, self.degree,
                                self.n_threads)
        if self.kind == "callable":
            B = A if B is None else B
            K = _as_gram(self.function(A, B, **self.kernel_params), "The kernel callable")
            if K.shape != (A.shape[0], B.shape[0]):
                raise ValueError(f"The kernel callable returned shape {K.shape}; expected "
                                 f"({A.shape[0]}, {B.shape[0]}).")
            if not np.all(np.isfinite(K)):
                raise ValueError(f"The kernel callable {self.description()} returned NaN or "
                                 "infinite values.")
            return np.ascontiguousarray(K)
        raise TypeError(f"gram(A, B) is not available for a {self.kind} kernel.")

    def description(self):
        """The kernel and its parameters, for error messages."""
        if self.kind == "vector":
            return _kernel_description(self.name, self.gamma, self.coef0, self.degree)
        if self.kind == "callable":
            name = getattr(self.function, "__name__", repr(self.function))
            return f"{name}(**{self.kernel_params!r})"
        if self.kind == "precomputed":
            return "the precomputed Gram matrix"
        return f"the kernel {self.estimator!r}"

    def check_finite(self, values, what):
        """``values`` (the fitted coefficients or predictions) unchanged, or a ValueError naming
        the kernel and its parameters when one is NaN or infinite: the last guard after the
        checks of :func:`resolve_kernel`, so that no fit ends in silent NaN."""
        if not np.isfinite(values).all():
            raise ValueError(
                f"The {what} are not finite with {self.description()}: the problem is "
                "numerically meaningless for this kernel (indefinite or badly scaled). Use "
                "other kernel parameters, rescale X, or increase the regularisation.")
        return values

    def training_gram(self):
        """``K(X_fit, X_fit)`` over the kept training samples."""
        if self._training_gram is not None:
            K, self._training_gram = self._training_gram, None   # handed over once
            return K
        if self.kind in ("vector", "callable"):
            return self.gram(self.rows)
        raise RuntimeError("the training Gram of a precomputed or structured kernel is only "
                           "available right after resolve_kernel")

    def diagonal(self):
        """``k(x, x)`` of the kept training samples (vector kernels)."""
        out = np.empty(self.rows.shape[0])
        vector_gram_diagonal(np.ascontiguousarray(self.rows), VECTOR_KERNELS[self.name],
                             self.gamma, self.coef0, self.degree, out)
        return out

    def query_diagonal(self, X):
        """``k(x, x)`` of new samples ``X`` (validated as for :meth:`cross`): computed for
        vector kernels, one 1 × 1 Gram per sample for callables and kernel objects; unknown for
        a precomputed kernel (a ValueError)."""
        if self.kind == "vector":
            out = np.empty(X.shape[0])
            vector_gram_diagonal(np.ascontiguousarray(X), VECTOR_KERNELS[self.name], self.gamma,
                                 self.coef0, self.degree, out)
            return out
        if self.kind == "callable":
            return np.array([self.gram(X[i:i + 1], X[i:i + 1])[0, 0] for i in range(len(X))])
        if self.kind == "structured":
            return np.array([float(clone(self.estimator).fit_transform([x])[0, 0]) for x in X])
        raise ValueError("k(x, x) of new samples is unknown for kernel='precomputed' (the test "
                         "Gram only holds k(x, x_train)); pass the kernel itself instead.")

    def subset(self, indices):
        """The same kernel, keeping only the training samples ``indices`` (e.g. support
        vectors), so :meth:`cross` evaluates against them."""
        subset = FittedKernel(self.kind, self.rows[indices], self.n_samples_fit, name=self.name,
                              gamma=self.gamma, coef0=self.coef0, degree=self.degree,
                              function=self.function, kernel_params=self.kernel_params,
                              estimator=self.estimator, n_threads=self.n_threads)
        if self.kind in ("vector", "callable"):
            subset.rows = np.ascontiguousarray(subset.rows)
        return subset

    def cross(self, X):
        """``K(X, kept training samples)``; ``X`` validated by :func:`validate_kernel_data`."""
        if self.kind == "vector":
            check_distance_scale(X)
            _check_kernel_domain(self.name, X)
            return self.gram(X, self.rows)
        if self.kind == "callable":
            return self.gram(X, self.rows)
        if self.kind == "precomputed":
            return np.ascontiguousarray(X[:, self.rows])
        K = _as_gram(self.estimator.transform(X), f"{type(self.estimator).__name__}.transform")
        return np.ascontiguousarray(K[:, self.rows])


def _as_gram(K, source):
    """``K`` as a float64 array: a scipy.sparse Gram is densified; anything that is not a
    matrix of numbers is a ValueError naming ``source``."""
    if sp.issparse(K):
        K = check_sparse_input(K, f"{source}'s output").toarray()
    try:
        K = np.asarray(K, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{source} returned {type(K).__name__}, not a matrix of numbers: "
                         f"{exc}") from None
    if K.ndim != 2:
        raise ValueError(f"{source} returned an array of {K.ndim} dimensions; expected a "
                         "2-D Gram matrix.")
    return K


def resolve_kernel(kernel, X, *, gamma=None, degree=3, coef0=1.0, kernel_params=None,
                   n_jobs=None, psd="auto", ridge=0.0, non_finite_error=None):
    """Resolve an estimator's ``kernel`` parameter on the training input ``X``.

    Parameters
    ----------
    kernel : str, callable or kernel object
        See the module docstring.
    X : ndarray or sequence
        Training input, already validated by :func:`validate_kernel_data`: samples, the
        training Gram matrix (``"precomputed"``) or the training objects (kernel object).
    gamma : {"scale", "auto"}, float or None
        See :func:`resolve_gamma`.
    degree, coef0 : float
        Parameters of the poly and sigmoid kernels.
    kernel_params : dict, default=None
        Extra keyword arguments of a callable kernel.
    n_jobs : int, default=None
        Threads of the compiled Gram and checks.
    psd : {"auto", "full", "fast"} or False, default="auto"
        How a training Gram matrix (precomputed, callable, kernel object) is checked for
        positive semi-definiteness (see :func:`kernelkit.utils._gram.check_precomputed_gram`).
        A vector kernel's Gram is tested with ``"auto"`` and ``"full"`` (on the rows
        of :func:`~kernelkit.utils._gram.definiteness_sample`) unless the kernel is positive
        definite by construction; its diagonal is checked for overflow and a meaningless
        dynamic range (:func:`~kernelkit.utils._gram.check_gram_range`) in every case.
    ridge : float, default=0.0
        Diagonal shift the solver adds to the Gram matrix: definiteness is that of
        ``K + ridge·I``.
    non_finite_error : callable, default=None
        For a precomputed ``X`` validated with ``defer_finite`` (:func:`validate_kernel_data`):
        raises the estimator's error for a NaN or infinite entry, which the scan of
        :func:`~kernelkit.utils._gram.check_precomputed_gram` finds.

    Returns
    -------
    FittedKernel
        Its :meth:`~FittedKernel.training_gram` is ``K(X, X)`` — for a precomputed Gram the
        validated matrix itself, for a kernel object the output of its ``fit_transform``.
    """
    kind = kernel_kind(kernel)
    n_threads = effective_n_threads(n_jobs)
    if kind == "vector":
        check_distance_scale(X)
        _check_kernel_domain(kernel, X)
        gamma = resolve_gamma(gamma, X)
        _check_kernel_bound(kernel, gamma, float(coef0), float(degree), X)
        fitted = FittedKernel(kind, X, X.shape[0], name=kernel, gamma=gamma, coef0=float(coef0),
                              degree=float(degree), n_threads=n_threads)
        _check_vector_gram(fitted, psd, ridge)
        return fitted
    if kind == "callable":
        fitted = FittedKernel(kind, X, X.shape[0], function=kernel, kernel_params=kernel_params,
                              n_threads=n_threads)
        K, finite = fitted.gram(X), True
        name = f"The Gram matrix returned by the kernel callable {fitted.description()}"
    elif kind == "precomputed":
        fitted = FittedKernel(kind, np.arange(X.shape[0]), X.shape[0], n_threads=n_threads)
        # validate_kernel_data checked X, its finiteness too unless deferred to the scan
        K, name, finite = X, "Precomputed Gram matrix", non_finite_error or True
    else:
        estimator = clone(kernel)
        K = _as_gram(estimator.fit_transform(X), f"{type(kernel).__name__}.fit_transform")
        name, finite = f"The Gram matrix of {kernel!r}", False
        # a kernel object that is positive definite by construction (VectorKernel("rbf")) is
        # checked as its name would be: symmetry and scale, no factorisation (a Cholesky
        # factorisation per Gram was 0.55 of SumKernel's time on three RBF kernels of 1 000)
        definite = getattr(estimator, "_positive_definite_by_construction", None)
        if definite is not None and definite():
            psd = False
        if K.shape != (len(X), len(X)):
            raise ValueError(f"{type(kernel).__name__}.fit_transform returned shape {K.shape}; "
                             f"a kernel object must return the ({len(X)}, {len(X)}) Gram matrix.")
        fitted = FittedKernel(kind, np.arange(len(X)), len(X), estimator=estimator,
                              n_threads=n_threads)
    fitted._training_gram = check_precomputed_gram(K, psd=psd, n_threads=n_threads, name=name,
                                                    finite=finite, ridge=ridge)
    return fitted


def _check_vector_gram(fitted, psd, ridge):
    """The training Gram policy of :mod:`kernelkit.utils._gram` for a vector kernel without
    forming its Gram: the range from the diagonal (``max |K_ij| = max K_ii`` for a p.d. kernel,
    by Cauchy–Schwarz; O(n)), and for ``psd`` "auto" or "full" the definiteness test on the
    Gram of :func:`~kernelkit.utils._gram.definiteness_sample`'s rows, unless the kernel is
    positive definite by construction."""
    if fitted.rows.shape[0] == 0:
        return
    name = f"The Gram matrix of {fitted.description()}"
    diagonal = fitted.diagonal()
    if not np.isfinite(diagonal).all():
        raise _non_finite_gram(fitted.name, fitted.gamma, fitted.coef0, fitted.degree)
    check_gram_range(float(np.abs(diagonal).max()), diagonal, fitted.rows.shape[0], name)
    if psd in ("auto", "full") and not definite_by_construction(fitted.name, fitted.coef0,
                                                                 fitted.degree):
        sample = definiteness_sample(fitted.rows.shape[0], psd)
        rows = fitted.rows if sample is None else fitted.rows[sample]
        check_precomputed_gram(fitted.gram(rows), psd="full", n_threads=fitted.n_threads,
                               name=name, finite=True, ridge=ridge)


def validate_kernel_data(estimator, X, y="no_validation", *, reset=True, n_samples_fit=None,
                         kind=None, defer_finite=False, **check_params):
    """Validate ``X`` (and ``y``) for an estimator with a ``kernel`` parameter.

    Vector and callable kernels: ``validate_data`` into a float64, C-ordered array. Precomputed:
    the same, and at prediction (``reset=False``) a check that ``X`` has one column per training
    sample (``n_samples_fit``). Kernel objects: ``X`` is a sequence of objects passed on as is;
    only ``y`` is validated.

    Parameters
    ----------
    estimator : estimator with a ``kernel`` parameter
    X : array-like or sequence of objects
    y : array-like, None or "no_validation", default="no_validation"
        As in ``sklearn.utils.validation.validate_data``: None at fit raises for estimators
        that require ``y``.
    reset : bool, default=True
        True at fit; False afterwards (then ``n_features_in_`` is checked).
    n_samples_fit : int, default=None
        Number of training samples (checks a precomputed test Gram at ``reset=False``).
    kind : {"vector", "callable", "precomputed", "structured"}, default=None
        The kind of input, when not that of ``estimator.kernel`` (estimators with several
        kernels).
    defer_finite : bool, default=False
        For a training Gram matrix (precomputed, ``reset``): leave its finiteness to the scan
        of :func:`~kernelkit.utils._gram.check_precomputed_gram` (through
        :func:`resolve_kernel`'s ``non_finite_error``, which calls this function again without
        it), saving a pass over the matrix. Any other error is raised as without it, a NaN or
        infinite ``X`` first.
    **check_params
        Passed to ``validate_data`` (``y_numeric``, ``multi_output``, ...).

    Returns
    -------
    X or (X, y)
    """
    kind = kernel_kind(estimator.kernel) if kind is None else kind
    if kind == "structured":
        if isinstance(X, np.ndarray) and X.ndim == 0 or isinstance(X, (str, bytes)):
            raise TypeError(f"X must be a sequence of objects, got {type(X).__name__}.")
        if len(X) == 0:
            raise ValueError("X is empty: at least one object is required.")
        return with_targets(estimator, X, y, y_numeric=check_params.get("y_numeric", False))
    if kind == "precomputed" and not reset and n_samples_fit is not None:
        # Checked before validate_data to say what the "features" of a Gram matrix are (arrays
        # are not converted twice: a conversion costs as much as a small prediction).
        if getattr(X, "ndim", None) != 2:
            X = check_array(X, dtype=np.float64, order="C")
        if X.shape[1] != n_samples_fit:
            raise ValueError(
                f"X has {X.shape[1]} features, but {type(estimator).__name__} is expecting "
                f"{n_samples_fit} features as input: with kernel=\"precomputed\", X must be the "
                f"(n_samples_test, n_samples_train) Gram matrix against the {n_samples_fit} "
                "training samples."
            )
    if defer_finite and kind == "precomputed" and reset:
        try:
            return validate_data(estimator, X, y, dtype=np.float64, order="C",
                                 ensure_all_finite=False, **check_params)
        except (TypeError, ValueError):
            # the first error in scikit-learn's order, which tests finiteness early
            validate_data(estimator, X, y, dtype=np.float64, order="C", **check_params)
            raise
    return validate_data(estimator, X, y, reset=reset, dtype=np.float64, order="C",
                         **check_params)


def with_targets(estimator, X, y="no_validation", *, y_numeric=False):
    """``X``, or ``(X, y)`` with ``y`` validated against it, for inputs that ``validate_data``
    cannot check (sequences of objects, stacks of Gram matrices): ``y`` None raises as
    scikit-learn's estimators do, and numeric targets must be finite."""
    if isinstance(y, str) and y == "no_validation":
        return X
    if y is None:
        raise ValueError(f"This {type(estimator).__name__} estimator requires y to be passed, "
                         "but the target y is None.")
    y = check_array(y, ensure_2d=False, dtype=np.float64 if y_numeric else None,
                    ensure_all_finite=y_numeric, input_name="y")
    check_consistent_length(X, y)
    return X, y


def kernel_input_tags(tags, kernel):
    """Set the input tags of an estimator for its ``kernel`` (pairwise, non-array input)."""
    kind = kernel_kind(kernel)
    tags.input_tags.pairwise = kind == "precomputed"
    if kind == "structured":
        tags.input_tags.two_d_array = False
    return tags

