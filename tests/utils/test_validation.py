"""The shared input checks agree with scikit-learn's where they stand in for them."""

import numpy as np
import pytest
from sklearn.utils.multiclass import check_classification_targets

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
