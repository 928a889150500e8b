"""LogisticRegression's sample_weight: each sample's loss multiplied by its weight, for every
solver and model (binary, multinomial, one-vs-rest)."""

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import load_breast_cancer, load_iris, make_blobs
from sklearn.preprocessing import StandardScaler

from kernelkit.linear_model import LogisticRegression

# (solver, max_iter, tol): tolerances each solver reaches on these data
SOLVERS = [("newton", 100, 1e-10), ("lbfgs", 5000, 1e-9), ("gd", 50_000, 1e-7)]
MODELS = [(2, "multinomial"), (3, "multinomial"), (3, "ovr")]


def _data(n_classes):
    X, y = make_blobs(40, 3, centers=n_classes, cluster_std=3.0, random_state=0)
    return StandardScaler().fit_transform(X), y


def _fit(X, y, solver, multi_class, sample_weight=None, C=0.5):
    name, max_iter, tol = solver
    return LogisticRegression(C=C, solver=name, multi_class=multi_class, max_iter=max_iter,
                              tol=tol).fit(X, y, sample_weight=sample_weight)


def _assert_same_model(a, b, atol):
    np.testing.assert_allclose(a.coef_, b.coef_, atol=atol)
    np.testing.assert_allclose(a.intercept_, b.intercept_, atol=atol)
    np.testing.assert_allclose(a.objective_, b.objective_, rtol=1e-8)


@pytest.mark.parametrize("solver", SOLVERS, ids=lambda s: s[0])
@pytest.mark.parametrize("n_classes, multi_class", MODELS)
def test_integer_weights_equal_repeated_rows(solver, n_classes, multi_class):
    X, y = _data(n_classes)
    counts = np.random.default_rng(0).integers(1, 4, size=len(y))
    weighted = _fit(X, y, solver, multi_class, counts)
    repeated = _fit(np.repeat(X, counts, axis=0), np.repeat(y, counts), solver, multi_class)
    _assert_same_model(weighted, repeated, atol=1e-6)


@pytest.mark.parametrize("solver", SOLVERS, ids=lambda s: s[0])
@pytest.mark.parametrize("n_classes, multi_class", MODELS)
def test_zero_weights_equal_dropped_rows(solver, n_classes, multi_class):
    X, y = _data(n_classes)
    weights = np.ones(len(y))
    weights[::3] = 0.0
    kept = weights > 0
    weighted = _fit(X, y, solver, multi_class, weights)
    dropped = _fit(X[kept], y[kept], solver, multi_class)
    _assert_same_model(weighted, dropped, atol=1e-6)


@pytest.mark.parametrize("n_classes, multi_class", MODELS)
def test_weights_in_the_row_space_of_wide_data(n_classes, multi_class):
    # more features than (repeated) samples: Newton solves in the row space of X, where the
    # weights must act as on the full problem
    X, y = make_blobs(24, 60, centers=n_classes, cluster_std=8.0, random_state=0)
    counts = np.random.default_rng(1).integers(1, 3, size=len(y))
    counts[::4] = 0
    kept = counts > 0
    weighted = _fit(X, y, SOLVERS[0], multi_class, counts)
    repeated = _fit(np.repeat(X, counts, axis=0), np.repeat(y, counts), SOLVERS[0],
                    multi_class)
    _assert_same_model(weighted, repeated, atol=1e-6)
    assert np.repeat(X, counts, axis=0).shape[0] < X.shape[1] and kept.sum() < len(y)


@pytest.mark.parametrize("n_classes, multi_class", MODELS)
def test_uniform_weight_scales_c(n_classes, multi_class):
    # Σ 2 ℓ_i + ‖w‖²/(2C) = 2 (Σ ℓ_i + ‖w‖²/(4C)): the minimiser of C' = 2C
    X, y = _data(n_classes)
    solver = SOLVERS[0]
    twice = _fit(X, y, solver, multi_class, np.full(len(y), 2.0), C=0.5)
    larger_c = _fit(X, y, solver, multi_class, C=1.0)
    np.testing.assert_allclose(twice.coef_, larger_c.coef_, atol=1e-8)
    np.testing.assert_allclose(twice.objective_, 2 * larger_c.objective_, rtol=1e-10)
    unit = _fit(X, y, solver, multi_class, np.ones(len(y)))
    np.testing.assert_array_equal(unit.coef_, _fit(X, y, solver, multi_class).coef_)


# L-BFGS-B may stop on its relative decrease just above tol, weighted or not; the comparison
# below is what counts
@pytest.mark.filterwarnings("ignore:The lbfgs solver stopped before the gradient reached")
@pytest.mark.parametrize("solver, tol", [("newton", 1e-9), ("lbfgs", 1e-6)])
@pytest.mark.parametrize("load, multi_class", [(load_breast_cancer, "multinomial"),
                                               (load_iris, "multinomial"), (load_iris, "ovr")])
def test_weighted_fit_equals_scikit_learn(load, multi_class, solver, tol):
    X, y = load(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    weights = np.random.default_rng(0).uniform(0.1, 3.0, size=len(y))
    ours = LogisticRegression(C=0.7, solver=solver, multi_class=multi_class, tol=tol,
                              max_iter=5000).fit(X, y, sample_weight=weights)
    if multi_class == "ovr":
        # one weighted binary model per class against the rest
        theirs = [sk.LogisticRegression(C=0.7, tol=1e-12, max_iter=10_000).fit(
            X, y == label, sample_weight=weights) for label in ours.classes_]
        coef = np.vstack([model.coef_ for model in theirs])
        intercept = np.concatenate([model.intercept_ for model in theirs])
    else:
        theirs = sk.LogisticRegression(C=0.7, tol=1e-12, max_iter=10_000).fit(
            X, y, sample_weight=weights)
        coef, intercept = theirs.coef_, theirs.intercept_
        np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-5)
    np.testing.assert_allclose(ours.coef_, coef, atol=1e-4)
    np.testing.assert_allclose(ours.intercept_, intercept, atol=1e-4)


def test_bad_sample_weight_is_refused():
    X, y = _data(3)
    model = LogisticRegression()
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        model.fit(X, y, sample_weight=np.r_[-1.0, np.ones(len(y) - 1)])
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(39,\)"):
        model.fit(X, y, sample_weight=np.ones(len(y) - 1))
    with pytest.raises(ValueError, match="Input sample_weight contains NaN"):
        model.fit(X, y, sample_weight=np.r_[np.nan, np.ones(len(y) - 1)])
    weights = np.where(y == 2, 0.0, 1.0)
    with pytest.raises(ValueError, match="class 2 has no sample of positive weight"):
        model.fit(X, y, sample_weight=weights)
