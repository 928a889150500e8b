"""The shared input checks agree with scikit-learn's where they stand in for them."""

import numpy as np
import pytest
from sklearn.utils.multiclass import check_classification_targets

from kernelkit.cluster import DBSCAN
from kernelkit.kernels import WalkKernel
from kernelkit.tree import DecisionTreeClassifier
from kernelkit.utils._validation import check_class_labels

TARGETS = [
    np.array([0, 1, 1, 0]), np.array([True, False, True]), np.array([1.0, 2.0, 3.0]),
    np.array([-1.0, 1.0]), np.array(["a", "b"]), np.array(["a", "b"], dtype=object),
    np.array([0.5, 1.0]), np.array([1.0, np.nan]), np.array([1.0, np.inf]),
    np.array([[0, 1], [1, 0]]), np.array([1e300, -1e300]), np.array([3], dtype=np.uint8),
]


@pytest.mark.parametrize("y", TARGETS, ids=lambda y: f"{y.dtype}-{y.ndim}d-{y.ravel()[0]}")
def test_class_labels_accepted_and_refused_as_scikit_learn_does(y):
    try:
        check_classification_targets(y)
    except ValueError as expected:
        with pytest.raises(ValueError) as raised:
            check_class_labels(y)
        assert type(raised.value) is type(expected)
    else:
        check_class_labels(y)


@pytest.mark.parametrize("make", [
    lambda: DBSCAN(min_samples=2**63),
    lambda: DecisionTreeClassifier(min_samples_leaf=2**63),
    lambda: WalkKernel(n=2**63),
], ids=["DBSCAN", "DecisionTreeClassifier", "WalkKernel"])
def test_integers_beyond_int64_are_refused_by_the_parameter_check(make):
    # an unbounded Interval(Integral) let 2**63 through to the C conversion (OverflowError)
    X, y = np.random.default_rng(0).normal(size=(6, 2)), np.array([0, 1] * 3)
    estimator = make()
    with pytest.raises(ValueError, match="must be an int in the range"):
        estimator.fit(X, y) if hasattr(estimator, "predict") else estimator.fit(X)


# ---------------------------------------------------- validate_distance_data: one pass, same verdicts

def _distance_inputs():
    rng = np.random.default_rng(3)
    base = rng.normal(size=(40, 5))
    nan, inf, huge = base.copy(), base.copy(), base.copy()
    nan[7, 2], inf[3, 4], huge[11, 1] = np.nan, -np.inf, 1e160
    many_large = np.full((100_000, 1), 1e153)   # X·X overflows; every entry is within the bound
    return {"finite": base, "nan": nan, "inf": inf, "huge": huge, "many_large": many_large,
            "float32": base.astype(np.float32), "fortran": np.asfortranarray(nan),
            "strided": nan[:, ::2], "strided-finite": base[::3, ::2]}


def _old_checks(X):
    """What the estimators ran before: validate_data's finiteness pass, then the scale check."""
    from sklearn.utils import assert_all_finite

    from kernelkit.utils._validation import check_distance_scale

    assert_all_finite(X, estimator_name="KMeans", input_name="X")
    check_distance_scale(X)


@pytest.mark.parametrize("name", list(_distance_inputs()))
def test_validate_distance_data_gives_the_verdicts_and_messages_of_the_two_checks(name):
    from sklearn.base import BaseEstimator

    from kernelkit.utils._validation import validate_distance_data

    class KMeans(BaseEstimator):
        pass

    X = _distance_inputs()[name]
    try:
        _old_checks(X)
    except ValueError as expected:
        with pytest.raises(ValueError) as raised:
            validate_distance_data(KMeans(), X, dtype=[np.float64, np.float32])
        assert str(raised.value) == str(expected)
    else:
        out = validate_distance_data(KMeans(), X, dtype=[np.float64, np.float32])
        np.testing.assert_array_equal(out, X)
        assert out.dtype == X.dtype


def test_validate_distance_data_checks_finite_data_of_a_safe_scale_by_one_pass(monkeypatch):
    # the exact checks (three passes) run only when the sum of squares leaves the bound
    from sklearn.base import BaseEstimator

    from kernelkit.utils import _validation

    def fail(*args, **kwargs):
        raise AssertionError("the exact checks ran on finite data of a safe scale")

    monkeypatch.setattr(_validation, "assert_all_finite", fail)
    monkeypatch.setattr(_validation, "check_distance_scale", fail)
    X = np.random.default_rng(0).normal(size=(1000, 20)) * 1e100
    X_out, y_out = _validation.validate_distance_data(BaseEstimator(), X, np.arange(1000.0))
    assert X_out is X and y_out.shape == (1000,)
    with pytest.raises(AssertionError, match="exact checks"):
        _validation.validate_distance_data(BaseEstimator(), X * 1e60)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 1000, 3 * 2**16 + 5])
def test_sum_of_squares_core_is_its_twin_bit_for_bit(dtype, n):
    from kernelkit._core._sum_of_squares import sum_of_squares
    from kernelkit.reference.sum_of_squares import sum_of_squares as twin

    x = (np.random.default_rng(n).standard_normal(n) * 1e3).astype(dtype)
    assert sum_of_squares(x) == twin(x)
    if n:   # float64 sums: a float32 square beyond float32's range is no overflow
        assert sum_of_squares(np.full(n, 1e30, dtype=np.float32)) == pytest.approx(n * 1e60)


@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_sum_of_squares_core_is_not_finite_when_an_entry_is_not(value):
    from kernelkit._core._sum_of_squares import sum_of_squares

    for position in (0, 8, 17):   # in a full row of lanes and in the tail
        x = np.ones(19)
        x[position] = value
        assert not np.isfinite(sum_of_squares(x))


def test_parameter_names_are_read_once_per_class_and_each_class_keeps_its_own(monkeypatch):
    import sklearn.base
    from sklearn.base import clone

    from kernelkit.neighbors import KNeighborsClassifier, KNeighborsRegressor

    class Wider(KNeighborsRegressor):
        def __init__(self, n_neighbors=5, extra=1):
            super().__init__(n_neighbors=n_neighbors)
            self.extra = extra

    for cls in (KNeighborsClassifier, KNeighborsRegressor, Wider):
        cls().get_params()   # the first call reads the signature

    def no_signature(*args, **kwargs):
        raise AssertionError("__init__'s signature read again")

    monkeypatch.setattr(sklearn.base.inspect, "signature", no_signature)
    assert "extra" not in KNeighborsRegressor().get_params()
    assert Wider(extra=2).get_params()["extra"] == 2
    assert clone(Wider(extra=3).set_params(extra=4)).extra == 4
    assert sorted(KNeighborsClassifier().get_params()) == sorted(
        KNeighborsClassifier._get_param_names())
