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
