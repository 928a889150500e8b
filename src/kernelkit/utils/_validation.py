"""Input checks shared by the estimators, beyond scikit-learn's ``validate_data``."""

import os
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError
from sklearn.utils.multiclass import check_classification_targets

__all__ = ["MAX_INT", "check_class_labels", "check_distance_scale", "check_finite_result",
           "check_fit_params", "check_memory_request", "record_fit_params",
           "warn_long_factorisation"]

# Upper bound of every integer hyper-parameter: larger Python ints pass an unbounded
# ``Interval(Integral, ...)`` and then overflow when they reach the compiled cores (issue 17).
MAX_INT = int(np.iinfo(np.intp).max)


def check_class_labels(y):
    """scikit-learn's ``check_classification_targets`` for a validated 1-d ``y``, with a fast
    path for the usual integer, boolean and integral float labels.

    The general check costs ~0.25 ms a call (it infers the target type through several array
    conversions), as much as a whole SVM fit on a 100 × 100 Gram matrix; integer, boolean and
    finite integral float labels are exactly the ones it accepts as "binary"/"multiclass".
    """
    y = np.asarray(y)
    if y.ndim == 1 and y.dtype.kind in "biu":
        return
    # integral floats within int64's range (scikit-learn compares y with y.astype(int))
    if (y.ndim == 1 and y.dtype.kind == "f" and np.all(np.abs(y) < 2.0**62)
            and np.all(y == np.round(y))):
        return
    check_classification_targets(y)


def check_distance_scale(X, name="X"):
    """Raise a ValueError when squared distances between rows of ``X`` could overflow float64.

    ``‖x − y‖² ≤ 4 · n_features · max|x|²``; finite inputs near the float64 maximum (1e154 and
    beyond) make distances, inner products and variances infinite, and the algorithms would
    return NaN or garbage silently.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite, validated.
    name : str
    """
    if X.size == 0:
        return
    # the extremes, not max(|X|): no temporary copy of X
    largest = max(abs(float(X.max())), abs(float(X.min())))
    if largest > np.sqrt(np.finfo(np.float64).max / (4.0 * X.shape[1])):
        raise ValueError(
            f"{name} has entries as large as {largest:.3g}: squared norms and distances overflow "
            "float64. Rescale the features (e.g. sklearn.preprocessing.StandardScaler)."
        )


def check_finite_result(values, what):
    """Raise a ValueError when a computed array (dense, or a sparse matrix's stored values)
    holds inf or NaN: finite inputs whose products overflow the float type.

    Parameters
    ----------
    values : ndarray or sparse matrix
    what : str
        What was computed, for the message (e.g. ``"X @ components_.T"``).
    """
    data = values.data if sp.issparse(values) else values
    if not np.isfinite(data).all():
        raise ValueError(
            f"{what} overflows {np.asarray(data).dtype}: the input's entries are too large "
            "for this computation. Rescale the features (e.g. "
            "sklearn.preprocessing.StandardScaler)."
        )


def _physical_memory():
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):     # not POSIX: assume a large machine
        return 2**40


def check_memory_request(n_bytes, what, fix):
    """Refuse up front, with the estimate, a request larger than the machine's memory.

    Absurd parameters (a mismatch ball of millions of k-mers per window, all node pairs of a
    huge graph, a billion projection rows) would otherwise swap, be killed, or run in a loop
    that cannot be interrupted.

    Parameters
    ----------
    n_bytes : int or float
        Estimated memory of the request.
    what : str
        What needs it, e.g. ``"MismatchKernel(k=10, m=5) on 12 sequences"``.
    fix : str
        What to change.
    """
    total = _physical_memory()
    if n_bytes > total:
        raise ValueError(
            f"{what} would need about {n_bytes / 2**30:.1f} GiB of memory, more than this "
            f"machine's {total / 2**30:.1f} GiB; {fix}"
        )


# LAPACK factorisations (SVD, eigendecompositions, Cholesky) do not return to Python until
# they finish, so Ctrl-C waits for them; above this many floating-point operations (about a
# minute on one core) a fit says so before starting one.
LONG_FACTORISATION_FLOPS = 1e12


def warn_long_factorisation(n_flops, what, fix):
    """Warn, before it starts, of a factorisation of about ``n_flops`` operations that would
    run for minutes without answering Ctrl-C.

    Parameters
    ----------
    n_flops : float
        Estimated floating-point operations (``min(n, d)² max(n, d)`` for a thin SVD).
    what : str
        What is factorised, e.g. ``"the within-class covariance of 20000 samples x 20000
        features"``.
    fix : str
        What to change.
    """
    if n_flops > LONG_FACTORISATION_FLOPS:
        warnings.warn(
            f"{what} needs about {n_flops:.1e} floating-point operations in LAPACK, which does "
            f"not stop on Ctrl-C until it finishes; {fix}", UserWarning, stacklevel=3)


def _same_value(a, b):
    """Whether a parameter still has the value it had at ``fit`` (arrays compared by content)."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # arrays: an elementwise comparison
        try:
            return bool(np.array_equal(a, b))
        except (TypeError, ValueError):
            return False


def record_fit_params(estimator, refit_free=()):
    """The parameters the fitted state of ``estimator`` depends on, to store at ``fit``.

    Every parameter (nested ones of a kernel object included) except those in ``refit_free``,
    which the estimator reads at prediction time and whose change after ``fit`` it honours.
    :func:`check_fit_params` compares them with the current ones.
    """
    return {name: value for name, value in estimator.get_params(deep=True).items()
            if name.split("__", 1)[0] not in refit_free}


def check_fit_params(estimator, recorded):
    """Raise NotFittedError when ``set_params`` changed a parameter the fit depends on.

    ``recorded`` is what :func:`record_fit_params` returned at ``fit`` (None: nothing to check).
    The fitted state (vocabularies, feature maps, class means ...) was computed with the
    recorded values, so using it with new ones would mix two models: the estimator must be
    refitted instead.
    """
    if recorded is None:
        return
    current = estimator.get_params(deep=True)
    missing = object()
    changed = [name for name, value in recorded.items()
               if not _same_value(current.get(name, missing), value)]
    if not changed:
        return
    described = ", ".join(
        f"{name}={recorded[name]!r} at fit, now {current.get(name, '<unset>')!r}"
        for name in changed)
    raise NotFittedError(
        f"This {type(estimator).__name__} instance must be refitted after changing "
        f"{', '.join(changed)} with set_params ({described}): call 'fit' again before using it."
    )
