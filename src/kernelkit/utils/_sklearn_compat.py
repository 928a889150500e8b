"""Every private name kernelkit takes from scikit-learn, in one place.

scikit-learn's estimator conventions (parameter constraints checked once by ``_fit_context``,
the ``Interval``/``StrOptions`` vocabulary, ``_check_sample_weight``) live in private modules:
a release may move or change them without a deprecation cycle. kernelkit imports them here
and nowhere else, so a change upstream is one edit in this file. ``pyproject.toml`` bounds
scikit-learn from above, and CI runs the suite against the oldest supported release.

Where a private function's contract changed between supported releases, the function here gives
the newest contract on every release (``_check_sample_weight`` refuses all-zero weights, which
scikit-learn's own check does only in its later releases).

The public names scikit-learn documents (``sklearn.base.BaseEstimator``, the mixins,
``sklearn.utils.validation.check_array``/``validate_data``/``check_is_fitted``) are imported
directly where they are used.
"""

import functools

import numpy as np
from sklearn.base import _fit_context
from sklearn.metrics.pairwise import _VALID_METRICS
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    InvalidParameterError,
    Options,
    RealNotInt,
    StrOptions,
    validate_parameter_constraints,
    validate_params,
)
from sklearn.utils.multiclass import _ovr_decision_function
from sklearn.utils.validation import _check_sample_weight as _sklearn_check_sample_weight


def _check_sample_weight(sample_weight, X, *, dtype=None, ensure_non_negative=False, copy=False):
    """``sample_weight`` as a 1-D float array of length ``n_samples`` (ones when None).

    scikit-learn's check, plus a refusal of weights that are all zero (nothing to fit), so the
    contract is the same on every supported scikit-learn release.
    """
    sample_weight = _sklearn_check_sample_weight(sample_weight, X, dtype=dtype, copy=copy,
                                                 ensure_non_negative=ensure_non_negative)
    if not np.any(sample_weight):
        raise ValueError("Sample weights must contain at least one non-zero number.")
    return sample_weight


class ParameterNamesOncePerClass:
    """Mixin (before ``BaseEstimator``): the parameter names read from ``__init__``'s signature
    once per class, and a set of parameter values checked once per class.

    scikit-learn's ``BaseEstimator._get_param_names`` reads the signature at every
    ``get_params`` (about 25 µs; the parameter check of every fit makes one), and its parameter
    check builds every constraint object again at every fit (another 12–25 µs): together a
    tenth of a small fit. Each class, a subclass with other parameters included, keeps its own
    names and remembers up to :data:`_CHECKED_VALUES_PER_CLASS` sets of values that passed its
    check, when every value is ``None``, a bool, an int, a float or a str (immutable: the
    check's verdict on them cannot change); any other value is checked at every fit.
    """

    @classmethod
    def _get_param_names(cls):
        return list(cls._parameter_names())

    @classmethod
    @functools.cache
    def _parameter_names(cls):
        return tuple(super()._get_param_names())

    def _validate_params(self):
        values = tuple(self.get_params(deep=False).values())
        if not all(type(value) in _SCALAR_TYPES for value in values):
            super()._validate_params()
            return
        # the types, as 5 == 5.0 == True; the table, as a class's may be replaced (by a test)
        key = (id(self._parameter_constraints), *map(type, values), *values)
        checked = type(self)._checked_values()
        if key in checked:
            return
        super()._validate_params()
        if len(checked) >= _CHECKED_VALUES_PER_CLASS:
            checked.clear()  # (one call: safe when fits run in several threads)
        checked[key] = None

    @classmethod
    @functools.cache
    def _checked_values(cls):
        return {}


_SCALAR_TYPES = frozenset((type(None), bool, int, float, str))
_CHECKED_VALUES_PER_CLASS = 32


__all__ = [
    "HasMethods",
    "Interval",
    "InvalidParameterError",
    "Options",
    "ParameterNamesOncePerClass",
    "RealNotInt",
    "StrOptions",
    "_VALID_METRICS",
    "_check_sample_weight",
    "_fit_context",
    "_ovr_decision_function",
    "validate_parameter_constraints",
    "validate_params",
]
