"""LogisticRegression on sparse input: the coefficients of the dense copy, without densifying."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import make_classification
from sklearn.exceptions import ConvergenceWarning

from kernelkit.linear_model import LogisticRegression


def _data(n_classes, n_samples=100, n_features=15, seed=0):
    X, y = make_classification(n_samples, n_features, n_informative=6, n_classes=n_classes,
                               n_clusters_per_class=1, random_state=seed)
    # about half of the entries zero
    return sp.csr_matrix(np.where(np.abs(X) > 0.7, X, 0.0)), y


@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
@pytest.mark.parametrize("n_classes, multi_class", [(2, "multinomial"), (3, "multinomial"),
                                                    (3, "ovr")])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_sparse_gives_the_dense_coefficients(solver, n_classes, multi_class, fit_intercept,
                                             random_seed):
    X, y = _data(n_classes, seed=random_seed)
    sample_weight = np.random.default_rng(random_seed).uniform(0.0, 2.0, y.size)
    params = {"C": 0.5, "solver": solver, "multi_class": multi_class,
              "fit_intercept": fit_intercept, "tol": 1e-5, "max_iter": 500}
    on_sparse = LogisticRegression(**params).fit(X, y, sample_weight=sample_weight)
    on_dense = LogisticRegression(**params).fit(X.toarray(), y, sample_weight=sample_weight)
    # both minimise the same strictly convex objective to a gradient of at most tol
    np.testing.assert_allclose(on_sparse.coef_, on_dense.coef_, atol=1e-4)
    np.testing.assert_allclose(on_sparse.intercept_, on_dense.intercept_, atol=1e-4)
    assert on_sparse.objective_ == pytest.approx(on_dense.objective_, rel=1e-8)
    np.testing.assert_allclose(on_sparse.predict_proba(X), on_dense.predict_proba(X.toarray()),
                               atol=1e-5)
    np.testing.assert_array_equal(on_sparse.predict(X), on_dense.predict(X.toarray()))


@pytest.mark.parametrize("n_classes", [2, 3])
def test_gradient_descent_takes_the_dense_steps(n_classes):
    """Same step size (σ_max from products) and the same gradients: the same iterates."""
    X, y = _data(n_classes)
    params = {"solver": "gd", "max_iter": 200, "tol": 1e-12}
    with pytest.warns(ConvergenceWarning):
        on_sparse = LogisticRegression(**params).fit(X, y)
    with pytest.warns(ConvergenceWarning):
        on_dense = LogisticRegression(**params).fit(X.toarray(), y)
    np.testing.assert_allclose(on_sparse.coef_, on_dense.coef_, atol=1e-10)
    np.testing.assert_allclose(on_sparse.intercept_, on_dense.intercept_, atol=1e-10)


def test_gradient_is_zero_at_the_sparse_solution():
    """The first-order condition of Σ s_i log(1 + e^{−y_i(wᵀx_i + b)}) + ‖w‖²/(2C)."""
    X, y = _data(2)
    C = 0.3
    model = LogisticRegression(C=C, tol=1e-10).fit(X, y)
    signs = np.where(y == 1, 1.0, -1.0)
    margins = signs * model.decision_function(X)
    dz = -signs / (1.0 + np.exp(margins))
    np.testing.assert_allclose(X.T @ dz + model.coef_[0] / C, 0.0, atol=1e-8)
    assert abs(dz.sum()) < 1e-8


def test_wide_sparse_data_is_never_densified():
    """3·10⁵ features: the dense design would take 1 GB, the sparse fit a few MB."""
    rng = np.random.default_rng(0)
    n_samples, n_features, per_row = 400, 300_000, 8
    # a label readable from 5 frequent features, plus rare features at random
    frequent = rng.random((n_samples, 5)) < 0.5
    rare = rng.integers(5, n_features, size=(n_samples, per_row))
    rows = np.repeat(np.arange(n_samples), 5 + per_row)
    columns = np.hstack([np.tile(np.arange(5), (n_samples, 1)), rare]).ravel()
    values = np.hstack([frequent, np.ones((n_samples, per_row))]).ravel()
    X = sp.csr_matrix((values, (rows, columns)), shape=(n_samples, n_features))
    y = (frequent.sum(axis=1) >= 3).astype(int)
    model = LogisticRegression(C=10.0).fit(X, y)
    assert model.coef_.shape == (1, n_features)
    assert model.score(X, y) == 1.0
    # features no sample uses keep a zero coefficient (the penalty alone acts on them)
    unused = np.flatnonzero(X.getnnz(axis=0) == 0)
    assert unused.size > 0 and np.all(model.coef_[0, unused] == 0)


def test_sparse_formats_and_errors():
    X, y = _data(2)
    a = LogisticRegression().fit(X, y)
    b = LogisticRegression().fit(X.tocsc(), y)
    np.testing.assert_allclose(a.coef_, b.coef_, atol=1e-12)
    bad = X.copy()
    bad.data[0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        LogisticRegression().fit(bad, y)
    with pytest.raises(ValueError, match="features"):
        a.predict(X[:, :3])


def test_malformed_sparse_X_is_refused(sparse_inputs):
    """Inconsistent index arrays are refused before scipy's products read them (an index far
    beyond n_features crashed the fit with a segmentation fault)."""
    sparse_inputs.assert_refused("""
        from sklearn.datasets import make_classification
        from kernelkit.linear_model import LogisticRegression
        Z, y = make_classification(40, 8, random_state=0)
        model = LogisticRegression().fit(Z, y)
        def make():
            return sp.csr_matrix(np.where(np.abs(Z) > 0.7, Z, 0.0))
        """, ["LogisticRegression().fit(X, y)", "model.decision_function(X)"])


@pytest.mark.parametrize("multi_class", ["multinomial", "ovr"])
def test_every_sparse_layout_gives_the_model_of_the_csr_matrix(multi_class, sparse_inputs):
    X, y = _data(3)
    expected = LogisticRegression(multi_class=multi_class, tol=1e-10).fit(X, y)
    for case, given in sparse_inputs.equivalent(X):
        model = LogisticRegression(multi_class=multi_class, tol=1e-10).fit(given, y)
        # the same iterates up to the order of additions (repeated entries are summed)
        np.testing.assert_allclose(model.coef_, expected.coef_, rtol=1e-7, atol=1e-9,
                                   err_msg=case)
        np.testing.assert_allclose(model.decision_function(given), expected.decision_function(X),
                                   rtol=1e-7, atol=1e-9, err_msg=case)
