"""Discriminant analysis: the course's identities, scikit-learn on real data, bad input."""

import math
import warnings

import numpy as np
import pytest
from scipy.stats import binom, norm
from sklearn import discriminant_analysis as sk
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.preprocessing import StandardScaler

from kernelkit.discriminant_analysis import (
    FisherDiscriminantAnalysis,
    KernelFisherDiscriminantAnalysis,
    LinearDiscriminantAnalysis,
    MixedNaiveBayes,
    QuadraticDiscriminantAnalysis,
)
from kernelkit.discriminant_analysis._fisher import best_threshold
from kernelkit.discriminant_analysis._qda import EigenGaussian, gaussian_class_scores


def gaussian_classes(n_per_class=(60, 80), d=3, seed=0, shared=True):
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d))
    X, y = [], []
    for k, n in enumerate(n_per_class):
        B = A if shared else rng.normal(size=(d, d))
        X.append(rng.normal(size=(n, d)) @ B + 1.5 * k * rng.normal(size=d))
        y.append(np.full(n, k))
    return np.vstack(X), np.concatenate(y)


def standardised(loader):
    X, y = loader(return_X_y=True)
    return StandardScaler().fit_transform(X), y


# ----------------------------------------------------------------- LDA (A6, A9, C10)
def test_lda_intercept_forms_coincide():
    X, y = gaussian_classes()
    lda = LinearDiscriminantAnalysis().fit(X, y)
    P = np.linalg.inv(lda.covariance_)
    m0, m1 = lda.means_
    log_odds = math.log(lda.priors_[1] / lda.priors_[0])
    b_prop5 = 0.5 * (m0 + m1) @ P @ (m0 - m1) + log_odds
    b_ex13 = 0.5 * (m0 @ P @ m0 - m1 @ P @ m1) + log_odds
    np.testing.assert_allclose([b_prop5, b_ex13], lda.intercept_[0], rtol=1e-10)
    np.testing.assert_allclose(lda.coef_[0], P @ (m1 - m0), rtol=1e-10)


def test_lda_with_equal_priors_is_the_nearest_mean_in_mahalanobis_distance():
    X, y = gaussian_classes((50, 50, 50), seed=1)
    lda = LinearDiscriminantAnalysis(priors=[1 / 3] * 3).fit(X, y)
    P = np.linalg.inv(lda.covariance_)
    diff = X[:, None, :] - lda.means_[None]
    mahalanobis = np.einsum("nkd,de,nke->nk", diff, P, diff)
    np.testing.assert_array_equal(lda.predict(X), np.argmin(mahalanobis, axis=1))


def test_property_6_total_covariance_gives_the_same_hyperplane():
    X, y = gaussian_classes((70, 70), seed=2)
    lda = LinearDiscriminantAnalysis(priors=[0.5, 0.5], covariance="mle").fit(X, y)
    V = np.cov(X.T, bias=True)
    m0, m1 = lda.means_
    w_total = np.linalg.solve(V, m1 - m0)
    b_total = 0.5 * (m0 + m1) @ np.linalg.solve(V, m0 - m1)
    scale = w_total @ lda.coef_[0] / (lda.coef_[0] @ lda.coef_[0])
    np.testing.assert_allclose(w_total, scale * lda.coef_[0], rtol=1e-9)
    np.testing.assert_allclose(b_total, scale * lda.intercept_[0], rtol=1e-9)


def test_lda_direction_is_the_fisher_direction():
    X, y = gaussian_classes(seed=3)
    lda = LinearDiscriminantAnalysis(covariance="mle").fit(X, y)
    fda = FisherDiscriminantAnalysis().fit(X, y)
    np.testing.assert_allclose(lda.coef_[0], fda.coef_, rtol=1e-9)


def test_projection_has_at_most_c_minus_1_directions_maximising_the_rayleigh_quotient():
    X, y = gaussian_classes((40, 50, 60, 45), d=6, seed=4)
    lda = LinearDiscriminantAnalysis().fit(X, y)
    assert lda.scalings_.shape == (6, 3)
    P = np.linalg.inv(lda.covariance_)
    xbar = lda.priors_ @ lda.means_
    M = ((lda.means_ - xbar) * lda.priors_[:, None]).T @ (lda.means_ - xbar)
    eigenvalues = np.sort(np.linalg.eigvals(P @ M).real)[::-1]
    assert np.all(np.abs(eigenvalues[3:]) < 1e-10 * eigenvalues[0])
    quotient = lambda w: (w @ M @ w) / (w @ lda.covariance_ @ w)  # noqa: E731
    np.testing.assert_allclose([quotient(w) for w in lda.scalings_.T], eigenvalues[:3],
                               rtol=1e-8)
    rng = np.random.default_rng(0)
    assert all(quotient(w) <= eigenvalues[0] * (1 + 1e-12) for w in rng.normal(size=(50, 6)))
    # the projected class means span C - 1 dimensions
    assert np.linalg.matrix_rank(lda.transform(lda.means_)) == 3


# ----------------------------------------------------------------- QDA (A5)
def test_binary_qda_formula_equals_the_multiclass_argmin():
    X, y = gaussian_classes((60, 90), seed=5, shared=False)
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    (Sn, Sp), (mn, mp) = qda.covariance_, qda.means_
    Pn, Pp = np.linalg.inv(Sn), np.linalg.inv(Sp)
    pn, pp = qda.priors_
    h = 0.5 * np.einsum("ij,jk,ik->i", X, Pn - Pp, X) + X @ (Pp @ mp - Pn @ mn)
    b = (0.5 * (mn @ Pn @ mn - mp @ Pp @ mp)
         - 0.5 * math.log(np.linalg.det(Sp) / np.linalg.det(Sn)) + math.log(pp / pn))
    np.testing.assert_allclose(h + b, qda.decision_function(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(qda.predict(X), (h + b > 0).astype(int))


def test_identity_covariances_and_equal_priors_give_the_nearest_centroid():
    rng = np.random.default_rng(6)
    X, means = rng.normal(size=(200, 4)), rng.normal(size=(3, 4))
    identity = [EigenGaussian(np.ones(4), np.eye(4))] * 3
    scores = gaussian_class_scores(X, means, identity, np.full(3, 1 / 3))
    distances = ((X[:, None, :] - means[None]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(scores.argmax(axis=1), distances.argmin(axis=1))


@pytest.mark.scikit_learn("1.8", reason="its QDA raises LinAlgError on these sets")
@pytest.mark.parametrize("loader", [load_digits, load_breast_cancer])
def test_qda_does_not_fail_where_scikit_learn_does(loader):
    X, y = loader(return_X_y=True)
    with pytest.raises(np.linalg.LinAlgError):
        sk.QuadraticDiscriminantAnalysis().fit(X, y)
    # digits: pixels constant within a class, regularised with a warning; breast cancer: only
    # badly scaled, which the scale-invariant test does not mistake for singular
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = QuadraticDiscriminantAnalysis().fit(X, y)
    assert any("singular" in str(w.message) for w in caught) == (loader is load_digits)
    assert np.mean(cross_val_score(QuadraticDiscriminantAnalysis(), X, y, cv=3)) > 0.85
    assert np.all(np.isfinite(model.predict_proba(X)))


# ----------------------------------------------------------------- peers on real data
@pytest.mark.parametrize("loader", [load_iris, load_wine, load_breast_cancer])
def test_lda_equals_scikit_learn(loader):
    X, y = standardised(loader)
    ours = LinearDiscriminantAnalysis(covariance="mle").fit(X, y)
    theirs = sk.LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    # the projection, up to the scale and sign of each direction
    eigen = sk.LinearDiscriminantAnalysis(solver="eigen").fit(X, y).transform(X)
    for ours_col, their_col in zip(ours.transform(X).T, eigen.T):
        assert abs(np.corrcoef(ours_col, their_col)[0, 1]) > 1 - 1e-8


@pytest.mark.scikit_learn("1.9", reason="earlier releases' QDA gives other probabilities here")
@pytest.mark.parametrize("loader", [load_iris, load_wine])
def test_qda_equals_scikit_learn(loader):
    X, y = standardised(loader)
    ours = QuadraticDiscriminantAnalysis().fit(X, y)
    theirs = sk.QuadraticDiscriminantAnalysis().fit(X, y)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    regularised = QuadraticDiscriminantAnalysis(reg_param=0.3).fit(X, y)
    np.testing.assert_allclose(regularised.predict_proba(X), sk.QuadraticDiscriminantAnalysis(
        reg_param=0.3).fit(X, y).predict_proba(X), atol=1e-8)


# ----------------------------------------------------------------- Fisher (A7) and kernel (A8)
def test_fisher_direction_maximises_the_rayleigh_quotient():
    X, y = gaussian_classes(seed=7)
    fda = FisherDiscriminantAnalysis().fit(X, y)
    pi1 = np.mean(y == 1)
    S = sum(np.mean(y == k) * np.cov(X[y == k].T, bias=True) for k in (0, 1))
    delta = fda.means_[1] - fda.means_[0]
    quotient = lambda w: pi1 * (1 - pi1) * (w @ delta) ** 2 / (w @ S @ w)  # noqa: E731
    best = quotient(fda.coef_)
    assert all(quotient(w) <= best * (1 + 1e-12)
               for w in np.random.default_rng(0).normal(size=(200, 3)))


def test_threshold_is_optimal_against_a_fine_grid():
    rng = np.random.default_rng(8)
    for _ in range(20):
        h = np.round(rng.normal(size=40), 1)  # ties included
        positive = rng.random(40) < 1 / (1 + np.exp(-2 * h))
        b = best_threshold(h, positive)
        signs = np.where(positive, 1, -1)
        error = np.mean(np.sign(h + b) != signs)
        grid = np.linspace(h.min() - 1, h.max() + 1, 4001)
        grid_errors = [np.mean(np.sign(h + a) != signs) for a in grid]
        assert error <= min(grid_errors) + 1e-12


def test_fisher_rules():
    X, y = standardised(load_breast_cancer)
    threshold = FisherDiscriminantAnalysis(rule="threshold").fit(X, y)
    centroid = FisherDiscriminantAnalysis().fit(X, y)
    assert threshold.score(X, y) >= centroid.score(X, y)
    h = X @ centroid.coef_
    m0, m1 = h[y == 0].mean(), h[y == 1].mean()
    expected = np.abs(h - m1) < np.abs(h - m0)
    np.testing.assert_array_equal(centroid.predict(X), expected.astype(int))


def test_linear_kernel_fisher_is_proportional_to_fisher():
    X, y = gaussian_classes((80, 60), d=4, seed=9)
    fda = FisherDiscriminantAnalysis().fit(X, y)
    kfda = KernelFisherDiscriminantAnalysis(kernel="linear", alpha=1e-8).fit(X, y)
    h_linear, h_kernel = X @ fda.coef_, kfda.decision_function(X) - kfda.intercept_
    assert np.corrcoef(h_linear, h_kernel)[0, 1] > 1 - 1e-6
    np.testing.assert_array_equal(kfda.predict(X), fda.predict(X))


def test_kernel_fisher_solution_maximises_its_rayleigh_quotient():
    X, y = gaussian_classes((30, 40), seed=10, shared=False)
    model = KernelFisherDiscriminantAnalysis(kernel="rbf", gamma=0.3, alpha=1e-2).fit(X, y)
    K = model._kernel.training_gram()
    pi1, n = np.mean(y == 1), len(y)
    N = 1e-2 * np.eye(n)
    v = []
    for k in (0, 1):
        Kk = K[:, y == k]
        v.append(Kk.mean(axis=1))
        N += np.mean(y == k) * (Kk @ Kk.T / Kk.shape[1] - np.outer(v[k], v[k]))
    quotient = lambda a: pi1 * (1 - pi1) * (a @ (v[1] - v[0])) ** 2 / (a @ N @ a)  # noqa: E731
    best = quotient(model.dual_coef_)
    assert all(quotient(a) <= best * (1 + 1e-9)
               for a in np.random.default_rng(1).normal(size=(100, n)))


def test_kernel_fisher_on_strings_in_cross_validation():
    from kernelkit.datasets import load_secreted_proteins
    from kernelkit.kernels import SpectrumKernel
    from kernelkit.svm import SVC

    sequences, y, _ = load_secreted_proteins()
    sequences, y = sequences[:300], y[:300]
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    kernel = SpectrumKernel(k=2, normalize=True)
    fisher = cross_val_score(KernelFisherDiscriminantAnalysis(kernel, alpha=1e-3), sequences, y,
                             cv=folds).mean()
    svm = cross_val_score(SVC(kernel=kernel), sequences, y, cv=folds).mean()
    assert fisher > max(np.mean(y), 1 - np.mean(y)) + 0.15 and fisher > svm - 0.05


def test_kernel_fisher_precomputed_matches_the_kernel():
    X, y = gaussian_classes(seed=11)
    from kernelkit.kernels import rbf_kernel

    a = KernelFisherDiscriminantAnalysis(kernel="rbf", gamma=0.5).fit(X, y)
    b = KernelFisherDiscriminantAnalysis(kernel="precomputed").fit(rbf_kernel(X, gamma=0.5), y)
    np.testing.assert_allclose(b.decision_function(rbf_kernel(X[:7], X, gamma=0.5)),
                               a.decision_function(X[:7]), rtol=1e-9)


# ----------------------------------------------------------------- mixed model (A29)
def test_mixed_model_error_matches_the_exam_closed_form():
    d, m, p, q, delta = 2, 3, 0.7, 0.4, 1.5
    rng = np.random.default_rng(12)

    def sample(n):
        y = rng.integers(0, 2, n)
        u = rng.normal(size=(n, d)) + np.where(y[:, None] == 1, delta / 2, -delta / 2) \
            * np.array([1.0, 0.0])
        v = (rng.random((n, m)) < np.where(y[:, None] == 1, p, q)).astype(float)
        return np.hstack([u, v]), y

    model = MixedNaiveBayes(priors=[0.5, 0.5]).fit(*sample(200_000))
    # the exam's true-parameter rule: identity covariances, so give the fitted model them
    model._gaussians = [EigenGaussian(np.ones(d), np.eye(d))] * 2
    model.means_ = np.array([[-delta / 2, 0.0], [delta / 2, 0.0]])
    model.feature_prob_ = np.array([[q] * m, [p] * m])
    X, y = sample(400_000)
    miss_positive = np.mean(model.predict(X[y == 1]) == 0)
    c = delta / 2 + (m / delta) * math.log((1 - p) / (1 - q))
    e = math.log(p * (1 - q) / (q * (1 - p)))
    closed = sum(binom.pmf(k, m, p) * norm.cdf(-c - k / delta * e) for k in range(m + 1))
    assert abs(miss_positive - closed) < 4e-3


def test_mixed_model_without_binary_features_is_qda():
    X, y = standardised(load_wine)
    mixed = MixedNaiveBayes(binary_features=[]).fit(X, y)
    qda = QuadraticDiscriminantAnalysis().fit(X, y)
    np.testing.assert_allclose(mixed.predict_proba(X), qda.predict_proba(X), atol=1e-12)


def test_mixed_model_without_continuous_features_is_bernoulli_naive_bayes():
    from sklearn.naive_bayes import BernoulliNB

    rng = np.random.default_rng(17)
    y = rng.integers(0, 2, 300)
    V = (rng.random((300, 5)) < np.where(y[:, None] == 1, 0.7, 0.3)).astype(float)
    ours = MixedNaiveBayes(alpha=1.0).fit(V, y)
    theirs = BernoulliNB(alpha=1.0).fit(V, y)
    np.testing.assert_allclose(ours.predict_proba(V), theirs.predict_proba(V), atol=1e-12)


def test_mixed_model_binary_rule_is_the_exam_formula():
    rng = np.random.default_rng(13)
    y = rng.integers(0, 2, 500)
    u = rng.normal(size=(500, 2)) @ rng.normal(size=(2, 2)) + y[:, None]
    v = (rng.random((500, 4)) < np.where(y[:, None] == 1, 0.6, 0.3)).astype(float)
    model = MixedNaiveBayes().fit(np.hstack([u, v]), y)
    (Sn, Sp), (mn, mp) = model.covariance_, model.means_
    Pn, Pp = np.linalg.inv(Sn), np.linalg.inv(Sp)
    q, p = model.feature_prob_
    pi = model.priors_[1]
    beta = np.log(p * (1 - q) / (q * (1 - p)))
    b = (math.log(pi / (1 - pi)) + 0.5 * math.log(np.linalg.det(Sn) / np.linalg.det(Sp))
         + 0.5 * (mn @ Pn @ mn - mp @ Pp @ mp) + np.sum(np.log((1 - p) / (1 - q))))
    g = 0.5 * np.einsum("ij,jk,ik->i", u, Pn - Pp, u) + u @ (Pp @ mp - Pn @ mn) + v @ beta + b
    np.testing.assert_allclose(model.decision_function(np.hstack([u, v])), g, rtol=1e-9,
                               atol=1e-9)


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("Model", [LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis,
                                   FisherDiscriminantAnalysis, KernelFisherDiscriminantAnalysis,
                                   MixedNaiveBayes])
def test_bad_input_is_refused_clearly(Model):
    X, y = gaussian_classes(seed=14)
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Model().fit(X_nan, y)
    with pytest.raises(ValueError, match="class"):
        Model().fit(X, np.zeros(len(y)))
    labels = np.array(["no", "yes"])[y]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = Model().fit(X, labels)
    assert set(fitted.predict(X)) <= {"no", "yes"}
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :2])


def test_fisher_refuses_several_classes_and_bad_priors():
    X, y = gaussian_classes((30, 30, 30), seed=15)
    with pytest.raises(ValueError, match="Only binary"):
        FisherDiscriminantAnalysis().fit(X, y)
    with pytest.raises(ValueError, match="priors"):
        LinearDiscriminantAnalysis(priors=[0.5, 0.6, -0.1]).fit(X, y)
    with pytest.raises(ValueError, match="n_components"):
        LinearDiscriminantAnalysis(n_components=3).fit(X, y)


def test_qda_with_fewer_samples_than_features_warns_and_predicts():
    rng = np.random.default_rng(16)
    X, y = rng.normal(size=(12, 20)), np.repeat([0, 1], 6)
    with pytest.warns(UserWarning, match="singular"):
        model = QuadraticDiscriminantAnalysis().fit(X, y)
    assert np.all(np.isfinite(model.predict_proba(X)))


def test_kernel_fisher_verbose_prints_its_stages_and_changes_nothing(capsys):
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)[:200]
    y = y[:200]
    quiet = KernelFisherDiscriminantAnalysis(gamma=0.05).fit(X, y)
    assert capsys.readouterr().err == ""
    loud = KernelFisherDiscriminantAnalysis(gamma=0.05, verbose=1).fit(X, y)
    np.testing.assert_array_equal(quiet.dual_coef_, loud.dual_coef_)
    assert [line.split(",")[0] for line in capsys.readouterr().err.splitlines()] == [
        "[KernelFisherDiscriminantAnalysis] Gram matrix 200 x 200",
        "[KernelFisherDiscriminantAnalysis] within-class matrix",
        "[KernelFisherDiscriminantAnalysis] Cholesky solve"]
