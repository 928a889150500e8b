"""SMO on kernels that are not positive definite or are badly scaled: bounded on the sigmoid (as
libsvm), refused before the solver when the Gram's range makes the solve meaningless."""

import numpy as np
import pytest
from sklearn.svm import SVC as SklearnSVC
from sklearn.svm import SVR as SklearnSVR

from kernelkit.svm import SVC, SVR


def _data():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    return X, (X[:, 0] + 0.3 * rng.standard_normal(60) > 0).astype(int), rng.uniform(0, 4, 60)


@pytest.mark.parametrize("gamma, coef0", [(1.0, 5.0), (0.1, -1.0), (1e6, 1e6)])
def test_sigmoid_svc_and_svr_match_libsvm(gamma, coef0):
    # SMO clips each step by the curvature K_ii + K_jj - 2K_ij of its pair: on an indefinite
    # kernel it stays bounded and agrees with libsvm
    X, labels, values = _data()
    ours = SVC(kernel="sigmoid", gamma=gamma, coef0=coef0).fit(X, labels)
    theirs = SklearnSVC(kernel="sigmoid", gamma=gamma, coef0=coef0).fit(X, labels)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-5)
    ours = SVR(kernel="sigmoid", gamma=gamma, coef0=coef0).fit(X, values)
    theirs = SklearnSVR(kernel="sigmoid", gamma=gamma, coef0=coef0).fit(X, values)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=1e-4)


@pytest.mark.parametrize("model", [SVR(kernel="exponential", gamma=100.0),
                                   SVC(kernel="exponential", gamma=100.0)])
def test_exponential_gram_spanning_300_decades_is_refused(model):
    # exp(100 x·y) on 30 normal points: entries up to 1.8e304, median k(x, x) 1e102; the solver
    # once ran 21 s and predicted -4e65
    X, labels, values = _data()
    y = labels if isinstance(model, SVC) else values
    with pytest.raises(ValueError, match=r"exponential kernel \(gamma=100\) spans values from "
                                         r".* to 1\.\d+e\+304"):
        model.fit(X[:30], y[:30])


def test_precomputed_gram_with_a_meaningless_range_is_refused():
    X, labels, _ = _data()
    K = np.exp(100.0 * X[:30] @ X[:30].T)
    with pytest.raises(ValueError, match="^Precomputed Gram matrix spans values"):
        SVC(kernel="precomputed").fit(K, labels[:30])
