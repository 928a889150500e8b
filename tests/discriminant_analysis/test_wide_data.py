"""Discriminant analysis on wide data (more features than samples): the factored covariances
give the model of the dense d × d formulas, on wide and on tall data."""

import warnings

import numpy as np
import pytest
from sklearn.covariance import ledoit_wolf_shrinkage as sklearn_ledoit_wolf

from kernelkit.discriminant_analysis import (
    FisherDiscriminantAnalysis,
    LinearDiscriminantAnalysis,
    MixedNaiveBayes,
    QuadraticDiscriminantAnalysis,
)
from kernelkit.discriminant_analysis._lda import ledoit_wolf_shrinkage
from kernelkit.discriminant_analysis._qda import (
    _count_eigenvalues_below,
    _low_rank_is_singular,
)

SHAPES = [(20, 500), (500, 20)]          # wide, tall


def labelled(n, d, rng, n_classes=3):
    """Features on different scales, class means apart, every class with at least 2 rows."""
    y = np.arange(n) % n_classes
    X = rng.normal(size=(n, d)) * rng.uniform(0.2, 5.0, d) + 0.5 * y[:, None]
    return X, y


def class_rows(X, y):
    means = np.array([X[y == k].mean(axis=0) for k in np.unique(y)])
    return means, [X[y == k] - means[k] for k in np.unique(y)]


def dense_qda_scores(X, y, X_test, reg_param, unbiased):
    """The log-posterior scores of QDA from d × d matrices: the regularised class covariance,
    the singularity test on its correlation form and the ridge, then a dense solve."""
    means, rows = class_rows(X, y)
    priors = np.bincount(y) / len(y)
    variance = np.concatenate(rows).var(axis=0) + means[y].var(axis=0)
    scores, singular = np.empty((len(X_test), len(means))), []
    for k, R in enumerate(rows):
        covariance = ((1 - reg_param) * R.T @ R / (len(R) - unbiased)
                      + reg_param * np.eye(X.shape[1]))
        eigenvalues = np.linalg.eigvalsh(covariance / np.sqrt(np.outer(variance, variance)))
        singular.append(eigenvalues.min() <= 1e-10 * eigenvalues.max())
        if singular[-1]:
            covariance += 1e-3 * np.diag(variance)
        Y = X_test - means[k]
        scores[:, k] = (np.log(priors[k]) - 0.5 * np.linalg.slogdet(covariance)[1]
                        - 0.5 * np.einsum("ij,ji->i", Y, np.linalg.solve(covariance, Y.T)))
    return scores, any(singular)


def assert_scores_close(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())


# ----------------------------------------------------------------- QDA and the mixed model
@pytest.mark.parametrize("n, d", SHAPES)
@pytest.mark.parametrize("reg_param, unbiased", [(0.0, False), (0.3, False), (0.0, True),
                                                 (1e-9, False), (1.0, False)])
def test_qda_scores_are_those_of_the_dense_covariances(n, d, reg_param, unbiased, rng):
    X, y = labelled(n, d, rng)
    X_test = labelled(30, d, rng)[0]
    expected, singular = dense_qda_scores(X, y, X_test, reg_param, unbiased)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = QuadraticDiscriminantAnalysis(
            reg_param=reg_param, covariance="unbiased" if unbiased else "mle").fit(X, y)
    assert any("is singular" in str(w.message) for w in caught) == singular
    assert_scores_close(model.decision_function(X_test), expected)
    np.testing.assert_allclose(
        model.predict_proba(X_test),
        np.exp(expected - expected.max(axis=1, keepdims=True))
        / np.exp(expected - expected.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True),
        atol=1e-8)


@pytest.mark.parametrize("n, d", SHAPES)
def test_qda_covariance_attribute_is_the_class_scatter(n, d, rng):
    X, y = labelled(n, d, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = QuadraticDiscriminantAnalysis().fit(X, y)
    _, rows = class_rows(X, y)
    for covariance, R in zip(model.covariance_, rows):
        np.testing.assert_allclose(covariance, R.T @ R / len(R), rtol=1e-10,
                                   atol=1e-12 * np.abs(R).max() ** 2)


@pytest.mark.parametrize("n, d", SHAPES)
def test_mixed_model_is_qda_on_the_continuous_block_plus_bernoulli_terms(n, d, rng):
    X, y = labelled(n, d, rng, n_classes=2)
    n_binary = 7
    V = (rng.random((n, n_binary)) < np.where(y[:, None] == 1, 0.7, 0.3)).astype(float)
    X_test = labelled(30, d, rng, n_classes=2)[0]
    V_test = (rng.random((30, n_binary)) < 0.5).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = MixedNaiveBayes(alpha=1.0).fit(np.hstack([X, V]), y)
    np.testing.assert_array_equal(model.binary_features_, np.arange(d, d + n_binary))
    gaussian, _ = dense_qda_scores(X, y, X_test, 0.0, False)
    p = np.array([(V[y == k].sum(axis=0) + 1) / ((y == k).sum() + 2) for k in range(2)])
    bernoulli = V_test @ np.log(p).T + (1 - V_test) @ np.log1p(-p).T
    expected = gaussian + bernoulli
    scores = model.decision_function(np.hstack([X_test, V_test]))
    np.testing.assert_allclose(scores, expected[:, 1] - expected[:, 0], rtol=1e-8,
                               atol=1e-8 * np.abs(expected).max())


def random_structure(d, m, rng, spread):
    """A diagonal spanning ``spread`` orders of magnitude, some entries far below the rest
    (the eigenvalue bounds then do not decide), and an m × d factor."""
    diagonal = 10.0 ** rng.uniform(-spread, 0, d)
    diagonal[rng.choice(d, 2, replace=False)] = 10.0 ** rng.uniform(-16, -8, 2)
    factor = rng.normal(size=(m, d)) * 10.0 ** rng.uniform(-1, 1)
    factor[:, rng.choice(d, 1)] = 0.0        # an eigenvector of diag(e) untouched by the factor
    return diagonal, factor


@pytest.mark.parametrize("spread", [0, 4, 12])
def test_eigenvalue_counts_of_diagonal_plus_low_rank(spread, rng):
    diagonal, factor = random_structure(60, 5, rng, spread)
    eigenvalues = np.linalg.eigvalsh(np.diag(diagonal) + factor.T @ factor)
    # points between consecutive eigenvalues, where the count is unambiguous
    gaps = np.sqrt(eigenvalues[:-1] * eigenvalues[1:])
    for expected, x in enumerate(gaps, start=1):
        if eigenvalues[expected] > eigenvalues[expected - 1] * (1 + 1e-6):
            assert _count_eigenvalues_below(diagonal, factor, x) == expected


@pytest.mark.parametrize("multiple", [0.01, 0.5, 1.2, 1.5, 1.95, 2.5, 100.0])
def test_low_rank_singularity_test_agrees_with_the_eigenvalues(multiple, rng):
    # diag(e) + GᵀG with e_0 untouched by G, e_0 = multiple · 1e-10 · ‖G‖², the other entries
    # near ‖G‖²: the smallest eigenvalue is e_0 and λ_max lies in [‖G‖², 2‖G‖²], so the
    # multiples between 1 and 2 leave the eigenvalue bounds undecided (bisection on λ_max)
    d, m = 50, 4
    factor = rng.normal(size=(m, d))
    factor[:, 0] = 0.0
    norm = np.linalg.norm(factor, 2) ** 2
    diagonal = norm * rng.uniform(0.5, 1.0, d)
    diagonal[0] = multiple * 1e-10 * norm
    eigenvalues = np.linalg.eigvalsh(np.diag(diagonal) + factor.T @ factor)
    ratio = eigenvalues[0] / eigenvalues[-1]
    assert not 0.99e-10 < ratio < 1.01e-10        # the construction keeps away from the edge
    assert _low_rank_is_singular(diagonal, factor) == (ratio <= 1e-10)


# ----------------------------------------------------------------- LDA and Fisher
def dense_lda(X, y, covariance, shrinkage):
    """Coefficients, intercepts and the projection of LDA from d × d matrices."""
    means, rows = class_rows(X, y)
    n, d = X.shape
    priors = np.bincount(y) / n
    R = np.concatenate(rows)
    sigma = R.T @ R / (n - len(means) if covariance == "unbiased" else n)
    sigma = (1 - shrinkage) * sigma + shrinkage * np.trace(sigma) / d * np.eye(d)
    coef = means @ np.linalg.pinv(sigma, hermitian=True)
    intercept = -0.5 * np.einsum("kd,kd->k", coef, means) + np.log(priors)
    # generalised eigenvectors of (between, sigma) on sigma's range, by whitening
    values, vectors = np.linalg.eigh(sigma)
    keep = values > d * np.finfo(float).eps * values.max()
    whitening = vectors[:, keep] / np.sqrt(values[keep])
    deviations = means - priors @ means
    between = (deviations * priors[:, None]).T @ deviations
    ratios, directions = np.linalg.eigh(whitening.T @ between @ whitening)
    directions = whitening @ directions[:, np.argsort(ratios)[::-1][:len(means) - 1]]
    return coef, intercept, directions / np.linalg.norm(directions, axis=0), sigma


@pytest.mark.parametrize("n, d", SHAPES)
@pytest.mark.parametrize("covariance, shrinkage", [("unbiased", None), ("mle", None),
                                                   ("unbiased", 0.3), ("mle", "auto")])
def test_lda_is_the_model_of_the_dense_covariance(n, d, covariance, shrinkage, rng):
    X, y = labelled(n, d, rng)
    X_test = labelled(30, d, rng)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = LinearDiscriminantAnalysis(covariance=covariance, shrinkage=shrinkage).fit(X, y)
    coef, intercept, directions, sigma = dense_lda(X, y, covariance, model.shrinkage_)
    scale = np.abs(coef).max()
    np.testing.assert_allclose(model._class_coef, coef, rtol=1e-8, atol=1e-8 * scale)
    np.testing.assert_allclose(model._class_intercept, intercept, rtol=1e-8,
                               atol=1e-8 * np.abs(intercept).max())
    np.testing.assert_allclose(model.covariance_, sigma, rtol=1e-8,
                               atol=1e-10 * np.abs(sigma).max())
    # directions up to sign
    signs = np.sign(np.sum(model.scalings_ * directions, axis=0))
    np.testing.assert_allclose(model.scalings_ * signs, directions, atol=1e-8)
    expected = X_test @ coef.T + intercept
    assert_scores_close(model.decision_function(X_test), expected)


@pytest.mark.parametrize("n, d", SHAPES)
def test_lda_without_shrinkage_on_wide_data_warns_of_the_singular_covariance(n, d, rng):
    X, y = labelled(n, d, rng)
    if n < d:
        with pytest.warns(UserWarning, match="fewer samples than features"):
            LinearDiscriminantAnalysis().fit(X, y)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            LinearDiscriminantAnalysis().fit(X, y)


@pytest.mark.parametrize("n, d", SHAPES)
def test_ledoit_wolf_weight_is_scikit_learns(n, d, rng):
    X = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, d)
    X -= X.mean(axis=0)
    np.testing.assert_allclose(ledoit_wolf_shrinkage(X),
                               sklearn_ledoit_wolf(X, assume_centered=True), rtol=1e-10)


@pytest.mark.parametrize("n, d", SHAPES)
def test_fisher_direction_is_the_pseudo_inverse_of_the_dense_covariance(n, d, rng):
    X, y = labelled(n, d, rng, n_classes=2)
    means, rows = class_rows(X, y)
    priors = np.bincount(y) / n
    sigma = sum(p * R.T @ R / len(R) for p, R in zip(priors, rows))
    expected = np.linalg.pinv(sigma, hermitian=True) @ (means[1] - means[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        model = FisherDiscriminantAnalysis().fit(X, y)
    np.testing.assert_allclose(model.coef_, expected, rtol=1e-8,
                               atol=1e-8 * np.abs(expected).max())
    np.testing.assert_allclose(model.intercept_, -0.5 * (X[y == 0] @ expected).mean()
                               - 0.5 * (X[y == 1] @ expected).mean(), rtol=1e-8)


@pytest.mark.parametrize("estimator", [QuadraticDiscriminantAnalysis(),
                                       LinearDiscriminantAnalysis(),
                                       FisherDiscriminantAnalysis()])
def test_a_factorisation_too_long_to_interrupt_is_announced(estimator, rng, monkeypatch):
    from kernelkit.utils import _validation

    X, y = labelled(20, 50, rng, n_classes=2)
    monkeypatch.setattr(_validation, "LONG_FACTORISATION_FLOPS", 1e9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        estimator.fit(X[:, :5], y)
    monkeypatch.setattr(_validation, "LONG_FACTORISATION_FLOPS", 1e3)
    with pytest.warns(UserWarning, match="does not stop on Ctrl-C"):
        estimator.fit(X, y)
