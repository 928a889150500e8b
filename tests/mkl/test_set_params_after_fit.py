"""SimpleMKL after set_params: what shapes the fitted solution needs a refit."""

import numpy as np
import pytest

from kernelkit.mkl import SimpleMKL


def test_loss_changed_after_fit_needs_a_refit():
    # after a logistic fit the fitted state holds per-class solutions, not an SVC: with
    # set_params(loss='hinge') it must ask for a refit rather than be read as an SVC
    from sklearn.exceptions import NotFittedError

    from kernelkit.kernels import VectorKernel

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = (X[:, 0] > 0).astype(int)
    model = SimpleMKL([VectorKernel("rbf"), VectorKernel("linear")], loss="logistic").fit(X, y)
    labels = model.predict(X)
    model.set_params(max_iter=3, verbose=0)            # steers the optimisation only
    np.testing.assert_array_equal(model.predict(X), labels)
    model.set_params(loss="hinge")
    with pytest.raises(NotFittedError, match="loss"):
        model.predict(X)
