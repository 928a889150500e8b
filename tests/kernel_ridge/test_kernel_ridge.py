"""Kernel ridge and kernel logistic regression: the courses' identities, scikit-learn, kernels on
strings and graphs, bad input."""

import numpy as np
import pytest
from scipy.optimize import approx_fprime
from sklearn import kernel_ridge as sk
from sklearn.datasets import load_breast_cancer, load_diabetes, load_iris
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from kernelkit.kernel_ridge import KernelLogisticRegression, KernelRidge
from kernelkit.kernels import rbf_kernel
from kernelkit.linear_model import LogisticRegression, Ridge


def standardised(loader, n=None):
    X, y = loader(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    return (X[:n], y[:n]) if n else (X, y)


def test_linear_kernel_ridge_is_ridge():
    X, y = standardised(load_diabetes)
    for intercept in (False, True):
        kernel = KernelRidge(alpha=2.0, kernel="linear", fit_intercept=intercept).fit(X, y)
        ridge = Ridge(alpha=2.0, fit_intercept=intercept).fit(X, y)
        np.testing.assert_allclose(kernel.predict(X), ridge.predict(X), rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(X.T @ kernel.dual_coef_, ridge.coef_, rtol=1e-8)


def test_fitted_values_and_scikit_learn():
    X, y = standardised(load_diabetes, 300)
    K = rbf_kernel(X, gamma=0.1)
    model = KernelRidge(alpha=0.5, kernel="rbf", gamma=0.1).fit(X, y)
    np.testing.assert_allclose(model.predict(X), K @ np.linalg.solve(K + 0.5 * np.eye(300), y),
                               rtol=1e-9)
    theirs = sk.KernelRidge(alpha=0.5, kernel="rbf", gamma=0.1).fit(X, y)
    np.testing.assert_allclose(model.predict(X), theirs.predict(X), rtol=1e-8)
    precomputed = KernelRidge(alpha=0.5, kernel="precomputed").fit(K, y)
    np.testing.assert_allclose(precomputed.predict(K[:5]), model.predict(X[:5]), rtol=1e-10)


def test_intercept_conditions_hold():
    X, y = standardised(load_diabetes, 200)
    model = KernelRidge(alpha=1.0, kernel="rbf", gamma=0.2, fit_intercept=True).fit(X, y)
    K = rbf_kernel(X, gamma=0.2)
    np.testing.assert_allclose((K + np.eye(200)) @ model.dual_coef_ + model.intercept_, y,
                               rtol=1e-9)
    assert abs(model.dual_coef_.sum()) < 1e-8


def test_kernel_ridge_refuses_a_gram_matrix_that_is_not_psd():
    K = np.array([[1.0, 3.0], [3.0, 1.0]])
    with pytest.raises(ValueError):
        KernelRidge(alpha=0.1, kernel="precomputed").fit(K, [0.0, 1.0])
    model = KernelRidge(kernel="precomputed").fit(np.eye(3), [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="training samples"):
        model.predict(np.ones((2, 4)))


def test_binary_kernel_logistic_gradient_by_finite_differences():
    X, y = standardised(load_breast_cancer, 40)
    model = KernelLogisticRegression(alpha=0.3)
    K = rbf_kernel(X, gamma=0.05)
    objective = model._binary_objective(K, y.astype(float))
    theta = np.random.default_rng(0).normal(size=41) * 0.1
    np.testing.assert_allclose(objective(theta, 1)[1],
                               approx_fprime(theta, lambda t: objective(t, 0), 1e-6),
                               rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
def test_linear_kernel_logistic_is_linear_logistic(solver):
    X, y = standardised(load_breast_cancer, 120)
    kernel = KernelLogisticRegression(alpha=2.0, kernel="linear", solver=solver,
                                      max_iter=1000, tol=1e-8).fit(X, y)
    linear = LogisticRegression(C=0.5, tol=1e-10).fit(X, y)
    # L-BFGS in the dual coordinates sees the conditioning of K², hence the looser tolerance
    tol = 1e-5 if solver == "newton" else 1e-3
    np.testing.assert_allclose(kernel.decision_function(X), linear.decision_function(X),
                               rtol=tol, atol=tol)
    np.testing.assert_allclose(X.T @ kernel.dual_coef_[:, 0], linear.coef_[0], rtol=10 * tol,
                               atol=tol)
    np.testing.assert_allclose(kernel.objective_, linear.objective_, rtol=1e-3 * tol)


def test_multinomial_kernel_logistic_is_multinomial_logistic_with_a_linear_kernel():
    X, y = standardised(load_iris)
    kernel = KernelLogisticRegression(alpha=1.0, kernel="linear", tol=1e-9).fit(X, y)
    linear = LogisticRegression(C=1.0, tol=1e-9).fit(X, y)
    np.testing.assert_allclose(kernel.predict_proba(X), linear.predict_proba(X), atol=1e-6)
    np.testing.assert_allclose(kernel.objective_, linear.objective_, rtol=1e-8)


@pytest.mark.slow   # four cross-validations on real graphs and proteins
def test_string_and_graph_kernels_in_cross_validation():
    from kernelkit.datasets import load_mutag, load_secreted_proteins
    from kernelkit.kernels import SpectrumKernel, WeisfeilerLehmanKernel
    from kernelkit.svm import SVC

    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    mutag = load_mutag()
    wl = WeisfeilerLehmanKernel(n_iter=3, normalize=True)
    logistic = cross_val_score(KernelLogisticRegression(alpha=0.1, kernel=wl), mutag.graphs,
                               mutag.target, cv=folds).mean()
    svm = cross_val_score(SVC(kernel=wl), mutag.graphs, mutag.target, cv=folds).mean()
    assert logistic > 0.75 and logistic > svm - 0.05
    assert cross_val_score(KernelRidge(alpha=0.5, kernel=wl), mutag.graphs,
                           mutag.target.astype(float), cv=folds, scoring="r2").mean() > 0.2
    sequences, target, _ = load_secreted_proteins()
    spectrum = SpectrumKernel(k=2, normalize=True)
    assert cross_val_score(KernelLogisticRegression(alpha=0.05, kernel=spectrum),
                           sequences[:200], target[:200], cv=folds).mean() > 0.75


def test_kernel_logistic_refuses_bad_input():
    X, y = standardised(load_breast_cancer, 50)
    with pytest.raises(ValueError, match="class"):
        KernelLogisticRegression().fit(X, np.zeros(50))
    with pytest.raises(ValueError, match="alpha"):
        KernelLogisticRegression(alpha=0.0).fit(X, y)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KernelLogisticRegression().fit(X, y)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_kernel_logistic_verbose_prints_the_gram_and_each_model(solver, n_classes, capsys):
    X, y = load_iris(return_X_y=True)
    y = y if n_classes == 3 else (y > 0).astype(int)
    params = dict(alpha=0.1, solver=solver, gamma=0.5)
    # BLAS on one thread: the multinomial model's eigendecomposition runs on the BLAS team only
    # while it wakes promptly, and differs in the last bits between team sizes, so another
    # process's load could change the coefficients between two fits
    with threadpool_limits(1, user_api="blas"):
        quiet = KernelLogisticRegression(**params).fit(X, y)
        assert capsys.readouterr().err == ""
        loud = KernelLogisticRegression(verbose=1, **params).fit(X, y)
    np.testing.assert_array_equal(quiet.dual_coef_, loud.dual_coef_)
    lines = capsys.readouterr().err.splitlines()
    # the multinomial model is solved, and reported, by an inner LogisticRegression
    model = ("[KernelLogisticRegression] binary model" if n_classes == 2
             else "[LogisticRegression] multinomial model")
    assert [line.split(":")[0].split(",")[0] for line in lines] == [
        "[KernelLogisticRegression] Gram matrix 150 x 150", model]
    with threadpool_limits(1, user_api="blas"):
        detailed = KernelLogisticRegression(verbose=2, **params).fit(X, y)
    np.testing.assert_array_equal(quiet.dual_coef_, detailed.dual_coef_)
    lines = capsys.readouterr().err.splitlines()
    # per-iteration lines: its own (two classes) or the inner linear model's (multinomial)
    iterations = [line for line in lines if "] iteration " in line]
    assert len(iterations) == int(quiet.n_iter_[0]) and len(lines) == len(iterations) + 2
