"""The parameter check of ``ParameterNamesOncePerClass``: scikit-learn's check, made once per
class and set of immutable values, never for values that failed it or that may change."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from kernelkit.cluster import KMeans
from kernelkit.utils._sklearn_compat import InvalidParameterError


@pytest.fixture
def checks(monkeypatch):
    """The list of estimators scikit-learn's check ran on."""
    seen = []
    check = BaseEstimator._validate_params

    def counted(self):
        seen.append(self)
        check(self)

    monkeypatch.setattr(BaseEstimator, "_validate_params", counted)
    return seen


def test_scalar_values_are_checked_once_per_class(checks):
    for _ in range(3):
        KMeans(n_clusters=1_234_567, tol=0.5, random_state=3)._validate_params()
    assert len(checks) == 1
    KMeans(n_clusters=1_234_567, tol=0.5, random_state=4)._validate_params()  # other values
    assert len(checks) == 2


def test_values_that_failed_are_checked_again(checks):
    for _ in range(2):
        with pytest.raises(InvalidParameterError, match="n_clusters"):
            KMeans(n_clusters=-7)._validate_params()
    assert len(checks) == 2


def test_values_of_other_types_are_checked_every_time(checks):
    centres = np.zeros((2, 3))
    for _ in range(2):
        KMeans(n_clusters=2, init=centres)._validate_params()
    assert len(checks) == 2


def test_a_float_is_not_taken_for_the_int_it_equals(checks):
    KMeans(n_clusters=1_234_568, max_iter=5)._validate_params()
    with pytest.raises(InvalidParameterError, match="max_iter"):
        KMeans(n_clusters=1_234_568, max_iter=5.0)._validate_params()
