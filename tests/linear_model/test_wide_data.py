"""Newton logistic regression on wide data (more features than samples): solved in the row
space of the data, it gives the iterates and the model of the full-space Newton method."""

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression

from kernelkit.linear_model import LogisticRegression
from kernelkit.linear_model._row_space import row_space_reduction
from kernelkit.utils._smooth_solvers import damped_newton

SHAPES = [(20, 500), (500, 20)]          # wide, tall


def noisy_labels(n, d, rng, n_classes=2):
    X = rng.normal(size=(n, d))
    scores = X[:, :n_classes] + rng.normal(size=(n, n_classes))
    y = np.argmax(np.c_[scores, np.zeros(n)] if n_classes == 2 else scores, axis=1)
    y[:n_classes] = np.arange(n_classes)                 # every class present
    return X, y


# scikit-learn's Newton solver forms the (n_features + 1)-square Hessian: a narrower wide shape
@pytest.mark.parametrize("n, d", [(20, 100), (500, 20)])
@pytest.mark.parametrize("C", [0.01, 1.0, 100.0])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_newton_is_scikit_learns_model(n, d, C, n_classes, rng):
    X, y = noisy_labels(n, d, rng, n_classes)
    X_test = rng.normal(size=(30, d))
    model = LogisticRegression(C=C, tol=1e-10).fit(X, y)
    peer = SklearnLogisticRegression(C=C, solver="newton-cholesky", tol=1e-10,
                                     max_iter=100).fit(X, y)
    # each solver stops by its own criterion: agreement to about 1e-7
    np.testing.assert_allclose(model.predict_proba(X_test), peer.predict_proba(X_test),
                               atol=1e-6)
    np.testing.assert_allclose(model.coef_, peer.coef_, rtol=1e-6,
                               atol=1e-6 * np.abs(peer.coef_).max())


def full_space_newton(model, X, y):
    """The Newton iterates on all ``n_features + 1`` coordinates (the d × d Hessian)."""
    A = np.hstack([X, np.ones((len(X), 1))]) if model.fit_intercept else X
    r = model._penalty_weights(A.shape[1])
    if model.classes_.size == 2:
        objective = model._binary_objective(A, (y == model.classes_[1]).astype(float), r, np.ones(len(y)))
        start = np.zeros(A.shape[1])
    else:
        D = (y[:, None] == model.classes_[None]).astype(float)
        objective = model._multinomial_objective(A, D, r, np.ones(len(y)))
        start = np.zeros(A.shape[1] * D.shape[1])
    theta, n_iter, _ = damped_newton(objective, start, model.max_iter, model.tol)
    return theta.reshape(A.shape[1], -1), n_iter, objective(theta, 0)


@pytest.mark.parametrize("n, d", SHAPES)
@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("n_classes, multi_class", [(2, "multinomial"), (3, "multinomial"),
                                                    (3, "ovr")])
def test_reduced_newton_takes_the_full_space_iterates(n, d, fit_intercept, n_classes,
                                                      multi_class, rng):
    X, y = noisy_labels(n, d, rng, n_classes)
    model = LogisticRegression(C=10.0, fit_intercept=fit_intercept,
                               multi_class=multi_class).fit(X, y)
    if multi_class == "ovr":
        fits = [full_space_newton(LogisticRegression(C=10.0, fit_intercept=fit_intercept)
                                  .fit(X, y == k), X, y == k) for k in range(n_classes)]
        Theta = np.hstack([fit[0] for fit in fits])
        n_iter = [fit[1] for fit in fits]
        objective = sum(fit[2] for fit in fits)
    else:
        Theta, n_iter, objective = full_space_newton(model, X, y)
        n_iter = [n_iter]
    np.testing.assert_array_equal(model.n_iter_, n_iter)
    np.testing.assert_allclose(model.objective_, objective, rtol=1e-10)
    np.testing.assert_allclose(model.coef_, Theta[:d].T, rtol=1e-8,
                               atol=1e-8 * np.abs(Theta).max())
    if fit_intercept:
        np.testing.assert_allclose(model.intercept_, Theta[d], rtol=1e-8,
                                   atol=1e-8 * np.abs(Theta).max())


def test_row_space_reduction_keeps_the_scores_and_the_norm(rng):
    A = np.hstack([rng.normal(size=(15, 200)), np.ones((15, 1))])
    reduced, expand = row_space_reduction(A, 200)
    assert reduced.shape == (15, 16)
    eta = rng.normal(size=(16, 3))
    theta = expand(eta)
    assert theta.shape == (201, 3)
    np.testing.assert_allclose(A @ theta, reduced @ eta, atol=1e-10)
    np.testing.assert_allclose(np.linalg.norm(theta[:200], axis=0),
                               np.linalg.norm(eta[:15], axis=0), rtol=1e-12)
    np.testing.assert_array_equal(theta[200], eta[15])


def test_wide_data_without_penalty_still_warns_of_separable_classes(rng):
    X, y = noisy_labels(20, 500, rng)
    with pytest.warns(ConvergenceWarning, match="linearly separable"):
        LogisticRegression(penalty=None).fit(X, y)


def test_reduced_newton_with_duplicated_rows(rng):
    # a row space of lower dimension than n_samples: the basis keeps n_samples columns
    X, y = noisy_labels(10, 500, rng)
    X, y = np.vstack([X, X]), np.r_[y, y]
    model = LogisticRegression(C=1.0, tol=1e-10).fit(X, y)
    reference, _, _ = full_space_newton(model, X, y)
    np.testing.assert_allclose(model.coef_[0], reference[:-1, 0], rtol=1e-8,
                               atol=1e-8 * np.abs(reference).max())


def test_a_newton_solve_too_long_to_interrupt_is_announced(rng, monkeypatch):
    from kernelkit.utils import _validation

    X, y = noisy_labels(20, 50, rng)
    monkeypatch.setattr(_validation, "LONG_FACTORISATION_FLOPS", 1e3)
    with pytest.warns(UserWarning, match="does not stop on Ctrl-C"):
        LogisticRegression().fit(X, y)
