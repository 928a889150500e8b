"""SVC and SVR: agreement with LIBSVM (scikit-learn), kernels, weights, input checks."""

from itertools import combinations

import numpy as np
import pytest
from sklearn import svm as sklearn_svm
from sklearn.datasets import load_breast_cancer, load_diabetes, load_digits, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from kernelkit.kernels import pairwise_kernels
from kernelkit.svm import SVC, SVR


def _svc_pair_objectives(model, K):
    """LIBSVM's ``½αᵀQα − 1ᵀα`` of each one-vs-one problem from scikit-learn's attributes."""
    n_classes = model.classes_.size
    offsets = np.concatenate([[0], np.cumsum(model.n_support_)])
    objectives = []
    for a, b in combinations(range(n_classes), 2):
        sv_a, sv_b = np.arange(offsets[a], offsets[a + 1]), np.arange(offsets[b], offsets[b + 1])
        rows = np.concatenate([sv_a, sv_b])
        coef = np.concatenate([model.dual_coef_[b - 1, sv_a], model.dual_coef_[a, sv_b]])
        Ks = K[np.ix_(model.support_[rows], model.support_[rows])]
        objectives.append(0.5 * coef @ Ks @ coef - np.abs(coef).sum())
    return np.array(objectives)


def _svr_objective(model, K, y):
    beta = model.dual_coef_[0]
    s = model.support_
    return 0.5 * beta @ K[np.ix_(s, s)] @ beta - y[s] @ beta + model.epsilon * np.abs(beta).sum()


@pytest.fixture(scope="module")
def breast_cancer():
    X, y = load_breast_cancer(return_X_y=True)
    return StandardScaler().fit_transform(X), y


@pytest.fixture(scope="module")
def digits():
    return load_digits(return_X_y=True)


def _assert_same_classifier(ours, theirs, K, X, y, max_disagreements=3):
    np.testing.assert_allclose(ours.dual_objective_, _svc_pair_objectives(theirs, K), rtol=1e-4)
    np.testing.assert_allclose(_svc_pair_objectives(ours, K), ours.dual_objective_, rtol=1e-9)
    assert np.count_nonzero(ours.predict(X) != theirs.predict(X)) <= max_disagreements
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)


def test_binary_matches_libsvm_on_breast_cancer(breast_cancer):
    X, y = breast_cancer
    ours, theirs = SVC(C=2.0).fit(X, y), sklearn_svm.SVC(C=2.0).fit(X, y)
    _assert_same_classifier(ours, theirs, pairwise_kernels(X, metric="rbf", gamma=ours._gamma),
                            X, y)
    assert ours.dual_objective_.shape == ours.n_iter_.shape == (1,)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X), atol=5e-3)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=5e-3)


def test_multiclass_matches_libsvm_on_digits(digits):
    X, y = digits
    ours, theirs = SVC().fit(X, y), sklearn_svm.SVC().fit(X, y)
    _assert_same_classifier(ours, theirs, pairwise_kernels(X, metric="rbf", gamma=ours._gamma),
                            X, y)
    np.testing.assert_array_equal(ours.n_support_, theirs.n_support_)
    assert ours.dual_coef_.shape == theirs.dual_coef_.shape == (9, ours.support_.size)
    assert ours.decision_function(X[:5]).shape == (5, 10)
    ovo = ours.set_params(decision_function_shape="ovo").decision_function(X[:5])
    np.testing.assert_allclose(ovo, theirs.set_params(decision_function_shape="ovo")
                               .decision_function(X[:5]), atol=5e-3)


def test_regression_matches_libsvm_on_diabetes():
    X, y = load_diabetes(return_X_y=True)
    y = (y - y.mean()) / y.std()
    ours, theirs = SVR(C=3.0, epsilon=0.2).fit(X, y), sklearn_svm.SVR(C=3.0, epsilon=0.2).fit(X, y)
    K = pairwise_kernels(X, metric="rbf", gamma=ours._gamma)
    assert ours.dual_objective_ == pytest.approx(_svr_objective(theirs, K, y), rel=1e-4)
    assert _svr_objective(ours, K, y) == pytest.approx(ours.dual_objective_, rel=1e-9)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), atol=5e-3)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "sigmoid"])
def test_kernels_match_libsvm_on_random_data(kernel, random_seed):
    X, y = make_classification(n_samples=200, n_features=6, random_state=random_seed)
    params = dict(kernel=kernel, C=0.5, coef0=0.5 if kernel != "sigmoid" else 0.0, gamma=0.1)
    ours, theirs = SVC(**params).fit(X, y), sklearn_svm.SVC(**params).fit(X, y)
    K = pairwise_kernels(X, metric=kernel, gamma=0.1, coef0=params["coef0"])
    _assert_same_classifier(ours, theirs, K, X, y)


def test_precomputed_and_callable_equal_the_builtin_kernel(breast_cancer):
    X, y = breast_cancer
    X_train, y_train, X_test = X[:300], y[:300], X[300:]
    builtin = SVC(gamma=0.05).fit(X_train, y_train)
    K_train = pairwise_kernels(X_train, metric="rbf", gamma=0.05)
    K_test = pairwise_kernels(X_test, X_train, metric="rbf", gamma=0.05)
    precomputed = SVC(kernel="precomputed").fit(K_train, y_train)
    callable_kernel = SVC(kernel=lambda A, B: pairwise_kernels(A, B, metric="rbf", gamma=0.05))
    callable_kernel.fit(X_train, y_train)
    for model, test in ((precomputed, K_test), (callable_kernel, X_test)):
        np.testing.assert_array_equal(model.support_, builtin.support_)
        np.testing.assert_allclose(model.dual_coef_, builtin.dual_coef_, atol=1e-6)
        np.testing.assert_allclose(model.decision_function(test),
                                   builtin.decision_function(X_test), atol=1e-6)
    np.testing.assert_array_equal(callable_kernel.support_vectors_, builtin.support_vectors_)


def test_precomputed_svr_equals_the_builtin_kernel():
    X, y = load_diabetes(return_X_y=True)
    y = (y - y.mean()) / y.std()
    builtin = SVR(gamma=2.0, tol=1e-6).fit(X, y)
    precomputed = SVR(kernel="precomputed", tol=1e-6).fit(
        pairwise_kernels(X, metric="rbf", gamma=2.0), y)
    np.testing.assert_array_equal(precomputed.support_, builtin.support_)
    # both stop within tol of the optimum, from kernels rounded differently (rows computed on the
    # fly vs the Gram): the coefficients agree to about 10 tol, the objective far closer
    np.testing.assert_allclose(precomputed.dual_coef_, builtin.dual_coef_, atol=1e-5)
    assert precomputed.dual_objective_ == pytest.approx(builtin.dual_objective_, rel=1e-9)


def test_weight_two_equals_a_duplicated_sample(rng):
    X, y = make_classification(n_samples=80, n_features=4, random_state=0)
    twice = rng.choice(80, size=15, replace=False)
    weights = np.ones(80)
    weights[twice] = 2.0
    X_dup, y_dup = np.vstack([X, X[twice]]), np.concatenate([y, y[twice]])
    for Estimator, target, target_dup in ((SVC, y, y_dup), (SVR, X[:, 0], X_dup[:, 0])):
        weighted = Estimator(gamma=0.2, tol=1e-8).fit(X, target, sample_weight=weights)
        duplicated = Estimator(gamma=0.2, tol=1e-8).fit(X_dup, target_dup)
        np.testing.assert_allclose(weighted.dual_objective_, duplicated.dual_objective_,
                                   rtol=1e-7)
        score = "decision_function" if Estimator is SVC else "predict"
        np.testing.assert_allclose(getattr(weighted, score)(X), getattr(duplicated, score)(X),
                                   atol=1e-5)


def test_class_weight_equals_duplicating_the_class():
    X, y = make_classification(n_samples=60, n_features=4, random_state=1)
    weighted = SVC(class_weight={1: 2.0}, gamma=0.2, tol=1e-8).fit(X, y)
    duplicated = SVC(gamma=0.2, tol=1e-8).fit(np.vstack([X, X[y == 1]]), np.concatenate([y, y[y == 1]]))
    np.testing.assert_allclose(weighted.dual_objective_, duplicated.dual_objective_, rtol=1e-7)
    np.testing.assert_allclose(weighted.decision_function(X), duplicated.decision_function(X),
                               atol=1e-5)
    np.testing.assert_allclose(weighted.class_weight_, [1.0, 2.0])


def test_zero_weight_samples_are_ignored():
    X, y = make_classification(n_samples=60, n_features=4, random_state=2)
    weights = np.ones(60)
    weights[:10] = 0.0
    weighted = SVC().fit(X, y, sample_weight=weights)
    dropped = SVC(gamma=weighted._gamma).fit(X[10:], y[10:])
    np.testing.assert_array_equal(weighted.support_, dropped.support_ + 10)
    np.testing.assert_allclose(weighted.dual_coef_, dropped.dual_coef_)


@pytest.mark.parametrize("unbalanced", [False, True])
@pytest.mark.parametrize("kernel", ["rbf", "precomputed"])
def test_results_do_not_depend_on_n_jobs(digits, kernel, unbalanced, monkeypatch):
    import kernelkit.svm._base

    # one-vs-one problems run concurrently whatever their size (the default leaves the small
    # ones to one thread)
    monkeypatch.setattr(kernelkit.svm._base, "_MIN_WORK_PER_PARALLEL_PROBLEM", 0)
    X, y = digits
    X, y = X[:600], y[:600]
    if unbalanced:
        # pairs of very different sizes, handed to the threads largest first: the results
        # must still come back in pair order
        keep = np.concatenate([np.flatnonzero(y == c)[:8 + 5 * c] for c in range(10)])
        X, y = X[keep], y[keep]
    if kernel == "precomputed":
        X = pairwise_kernels(X, metric="rbf", gamma=1e-3)
    a, b = SVC(kernel=kernel, n_jobs=1).fit(X, y), SVC(kernel=kernel, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(a.dual_coef_, b.dual_coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    np.testing.assert_array_equal(a.n_iter_, b.n_iter_)
    np.testing.assert_array_equal(a.dual_objective_, b.dual_objective_)


def test_max_iter_warns():
    X, y = make_classification(n_samples=100, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        model = SVC(max_iter=2).fit(X, y)
    np.testing.assert_array_equal(model.n_iter_, [2])


@pytest.mark.parametrize(
    "X, y, params, match",
    [
        (np.array([[1.0, 2.0], [2.0, 1.0]]), [0, 1], dict(kernel="precomputed"),
         "positive semi-definite"),
        (np.array([[2.0, 1.0, 1.0], [1.0, 2.0, -1.0], [1.0, -1.0, 0.5]]), [0, 1, 0],
         dict(kernel="precomputed"), "not positive semi-definite"),
        (np.array([[1.0, 0.5], [0.4, 1.0]]), [0, 1], dict(kernel="precomputed"), "symmetric"),
        (np.ones((3, 2)), [0, 1, 0], dict(kernel="precomputed"), "square"),
        (np.array([[1.0, np.nan], [0.0, 1.0]]), [0, 1], {}, "NaN"),
        (np.ones((4, 2)), [1, 1, 1, 1], {}, "one"),
        (np.eye(2), [0, 1], dict(C=0.0), "C"),
        (np.eye(2), [0, 1], dict(C=-1.0), "C"),
        (np.eye(2), [0, 1], dict(kernel="histogram"), "kernel"),
    ],
)
def test_bad_input_raises(X, y, params, match):
    with pytest.raises(ValueError, match=match):
        SVC(**params).fit(X, y)


def test_precomputed_predict_checks_gram_shape():
    K = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
    model = SVC(kernel="precomputed").fit(K, [0, 1, 1])
    # neither the 3 training samples nor the support vectors (a Gram against those is valid)
    assert model.support_.size != 5
    with pytest.raises(ValueError, match="Gram matrix against the 3 training samples"):
        model.predict(np.ones((2, 5)))
    with pytest.raises(ValueError, match="Gram matrix against the 3 training samples"):
        SVR(kernel="precomputed").fit(K, [0.0, 1.0, 2.0]).predict(np.ones((2, 4)))


def test_callable_returning_wrong_shape():
    with pytest.raises(ValueError, match="kernel callable returned shape"):
        SVC(kernel=lambda A, B: np.ones((2, 2))).fit(np.eye(3), [0, 1, 1])


def test_precomputed_predict_accepts_the_support_vector_columns(breast_cancer):
    X, y = breast_cancer
    K = pairwise_kernels(X, metric="rbf", gamma=0.05)
    model = SVC(kernel="precomputed").fit(K[:300, :300], y[:300])
    assert model.support_.size < 300
    full = model.decision_function(K[300:, :300])
    np.testing.assert_array_equal(model.decision_function(K[300:, model.support_]), full)


# scikit-learn 1.9 deprecates SVC(probability=True) in favour of CalibratedClassifierCV
@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
def test_probabilities_close_to_libsvm_and_calibrated(breast_cancer):
    # Platt scaling on internal 5-fold CV: the folds differ from LIBSVM's, so the probabilities
    # are close to scikit-learn's, not equal; on held-out data they are calibrated.
    X, y = breast_cancer
    train, test = slice(0, 400), slice(400, None)
    ours = SVC(probability=True, random_state=0).fit(X[train], y[train])
    theirs = sklearn_svm.SVC(probability=True, random_state=0).fit(X[train], y[train])
    proba = ours.predict_proba(X[test])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.abs(proba - theirs.predict_proba(X[test])).max() < 0.05
    np.testing.assert_allclose(ours.predict_log_proba(X[test]), np.log(proba))
    # calibration: in each third of predicted P(y=1), the observed rate is within 0.15
    p1, observed = proba[:, 1], y[test] == ours.classes_[1]
    for low, high in ((0.0, 1 / 3), (1 / 3, 2 / 3), (2 / 3, 1.0 + 1e-12)):
        inside = (p1 >= low) & (p1 < high)
        if inside.sum() >= 10:
            assert abs(observed[inside].mean() - p1[inside].mean()) < 0.15
    with pytest.raises(AttributeError, match="predict_proba") as error:
        SVC().fit(X[train], y[train]).predict_proba(X[test])
    assert "probability=False" in str(error.value.__cause__)


@pytest.mark.filterwarnings("ignore:The `probability` parameter:FutureWarning")
def test_multiclass_probabilities_couple_the_pairs():
    X, y = load_digits(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    model = SVC(probability=True, random_state=0).fit(X[:600], y[:600])
    proba = model.predict_proba(X[600:900])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert np.all(proba >= 0)
    # the most probable class agrees with the vote on nearly every sample
    assert np.mean(model.classes_[proba.argmax(axis=1)] == model.predict(X[600:900])) > 0.95
    theirs = sklearn_svm.SVC(probability=True, random_state=0).fit(X[:600], y[:600])
    assert np.abs(proba - theirs.predict_proba(X[600:900])).mean() < 0.02


def test_probabilities_do_not_depend_on_threads(breast_cancer):
    X, y = breast_cancer
    one = SVC(probability=True, random_state=3, n_jobs=1).fit(X[:200], y[:200])
    two = SVC(probability=True, random_state=3, n_jobs=2).fit(X[:200], y[:200])
    np.testing.assert_array_equal(one.predict_proba(X[200:]), two.predict_proba(X[200:]))


def test_verbose_reports_each_problem(capsys):
    X, y = load_digits(return_X_y=True)
    SVC(verbose=1).fit(X[:200] / 16, y[:200])
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 45 and all(line.startswith("[SVC]") and "SMO steps" in line
                                    for line in lines)


@pytest.mark.parametrize("verbose", [1, 2])
def test_verbose_reports_progress_during_a_solve(verbose, capsys, monkeypatch):
    # Reports every 100 SMO steps (verbose=2), or every 10 steps paced by a clock that is
    # always due (verbose=1): deterministic lines before the problem's final one.
    from kernelkit.svm import _base
    from kernelkit.utils import _progress

    monkeypatch.setattr(_base, "_REPORT_EVERY", 100)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)
    X, y = load_digits(return_X_y=True)
    X, y = X[:400] / 16, y[:400] % 2
    quiet = SVC(C=100).fit(X, y)
    assert capsys.readouterr().err == ""
    loud = SVC(C=100, verbose=verbose).fit(X, y)
    np.testing.assert_array_equal(quiet.dual_coef_, loud.dual_coef_)
    assert quiet.intercept_ == loud.intercept_
    lines = capsys.readouterr().err.strip().splitlines()
    n_steps = int(loud.n_iter_[0])
    during = [line for line in lines if "gap" in line]
    assert len(during) == n_steps // (100 if verbose == 2 else 10)
    assert during[0].startswith(f"[SVC] 400 variables: {100 if verbose == 2 else 10} SMO steps")
    assert lines[-1].startswith(f"[SVC] 400 variables: {n_steps} SMO steps, objective")
    assert len(lines) == len(during) + 1


def test_warm_start_reaches_the_cold_optimum_in_fewer_steps(digits):
    # Refit on a perturbed Gram matrix of the same samples (what multiple kernel learning does):
    # starting from the previous solution gives the same optimum as a cold start.
    X, y = digits
    K1 = pairwise_kernels(X, metric="rbf", gamma=0.02)
    K2 = 0.7 * K1 + 0.3 * pairwise_kernels(X, metric="rbf", gamma=0.03)
    warm = SVC(kernel="precomputed", tol=1e-6, warm_start=True).fit(K1, y).fit(K2, y)
    cold = SVC(kernel="precomputed", tol=1e-6).fit(K2, y)
    np.testing.assert_allclose(warm.dual_objective_, cold.dual_objective_, rtol=1e-7)
    np.testing.assert_array_equal(warm.predict(K2), cold.predict(K2))
    assert warm.n_iter_.sum() < cold.n_iter_.sum()


def test_warm_start_with_other_labels_starts_cold():
    X, y = make_classification(n_samples=80, random_state=0)
    model = SVC(warm_start=True, tol=1e-6).fit(X, y)
    flipped = model.fit(X, 1 - y)
    cold = SVC(tol=1e-6).fit(X, 1 - y)
    np.testing.assert_array_equal(flipped.n_iter_, cold.n_iter_)
    np.testing.assert_allclose(flipped.dual_coef_, cold.dual_coef_)


def test_warm_start_svr():
    X, y = load_diabetes(return_X_y=True)
    y = (y - y.mean()) / y.std()
    warm = SVR(gamma=2.0, warm_start=True, tol=1e-6).fit(X, y)
    warm.set_params(gamma=2.2).fit(X, y)
    cold = SVR(gamma=2.2, tol=1e-6).fit(X, y)
    assert warm.dual_objective_ == pytest.approx(cold.dual_objective_, rel=1e-7)
    assert warm.n_iter_ < cold.n_iter_


@pytest.mark.parametrize("y", [np.ones(10), np.arange(10.0)])
def test_svr_without_support_vectors_predicts_the_offset(y):
    # constant y, or ε wider than y's spread: β = 0, f(x) = b, a finite offset
    model = SVR(epsilon=100.0).fit(np.arange(10.0)[:, None], y)
    assert model.support_.size == 0
    np.testing.assert_allclose(model.predict([[3.0], [30.0]]), model.intercept_[0])


def test_overflowing_inputs_raise_clear_errors():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match="overflow float64. Rescale"):
        SVC().fit(X * 1e300, y)
    with pytest.raises(ValueError, match="poly kernel overflows"):
        SVC(kernel="poly", gamma=1e10, degree=50).fit(X, y)
    model = SVC(kernel="poly", degree=30).fit(X, y)
    with pytest.raises(ValueError, match=r"poly kernel \(.*degree=30\) has NaN or infinite values"):
        model.predict(X * 1e20)


@pytest.mark.parametrize("validate_gram", ["fast", "auto"])
@pytest.mark.parametrize("entry", [(0, 0), (3, 17), (17, 3)])
def test_overflowing_precomputed_gram_raises_before_the_definiteness_checks(entry,
                                                                           validate_gram):
    # The range check reads max |K_ij| from the diagonal when the scan shows every 2×2 minor
    # non-negative, and from the whole matrix otherwise: an overflowing entry anywhere is
    # reported as such, not as an asymmetric or indefinite matrix.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] > 0).astype(int)
    K = X @ X.T
    K[entry] = 1e306
    with pytest.raises(ValueError, match="overflow float64. Rescale"):
        SVC(kernel="precomputed", validate_gram=validate_gram).fit(K, y)


@pytest.mark.parametrize("other_error", [None, "asymmetric", "negative diagonal", "short y",
                                         "negative sample_weight", "not square"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("n", [20, 300])
def test_non_finite_precomputed_gram_is_refused_first_with_scikit_learns_error(n, bad,
                                                                               other_error):
    # The finiteness of a precomputed X is tested in the scan of the Gram check, not by
    # scikit-learn's validation: the error, and its precedence over every other error, are
    # still scikit-learn's (what scikit-learn's SVC raises).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    y = (X[:, 0] > 0).astype(int)
    K = X @ X.T
    K[n - 1, 1] = bad
    sample_weight = None
    if other_error == "asymmetric":
        K[2, n - 3] += 1.0
    elif other_error == "negative diagonal":
        K[5, 5] = -1.0
    elif other_error == "short y":
        y = y[:-1]
    elif other_error == "negative sample_weight":
        sample_weight = -np.ones(n)
    elif other_error == "not square":
        K = K[:, :-1]
    for estimator, peer in ((SVC, sklearn_svm.SVC), (SVR, sklearn_svm.SVR)):
        with pytest.raises(ValueError) as expected:
            peer(kernel="precomputed").fit(K, y, sample_weight=sample_weight)
        assert "Input X contains" in str(expected.value)
        with pytest.raises(ValueError) as got:
            estimator(kernel="precomputed").fit(K, y, sample_weight=sample_weight)
        assert str(got.value) == str(expected.value)


def test_fast_gram_check_catches_an_indefinite_gram_in_the_solver():
    # 300 samples: above the size of the complete check; the Gram of "fast" is only checked for
    # a non-negative diagonal up front, and the solver finds a pair with negative curvature.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y = (X[:, 0] > 0).astype(int)
    K = pairwise_kernels(X, metric="rbf", gamma=0.5)
    K[np.ix_(y == 1, y == 0)] = K[np.ix_(y == 0, y == 1)] = 1.0   # classes made identical
    K[np.ix_(y == 1, y == 0)] += 0.5
    K[np.ix_(y == 0, y == 1)] += 0.5
    with pytest.raises(ValueError, match="not positive semi-definite: K_ii"):
        SVC(kernel="precomputed").fit(K, y)
    with pytest.raises(ValueError, match=r"sqrt\(K_ii K_jj\)"):
        SVC(kernel="precomputed", validate_gram="full").fit(K, y)


def test_validate_gram_options_agree_on_a_valid_gram(breast_cancer):
    X, y = breast_cancer
    K = pairwise_kernels(X, metric="rbf", gamma=0.05)
    fits = [SVC(kernel="precomputed", validate_gram=v).fit(K, y) for v in ("fast", "auto", "full")]
    for fit in fits[1:]:
        np.testing.assert_array_equal(fit.dual_coef_, fits[0].dual_coef_)


@pytest.mark.parametrize("y_kind", ["constant", "inside the tube"])
def test_svr_without_support_vectors_predicts_the_intercept(y_kind):
    # every sample inside the ε-tube leaves no support vector: the prediction is the intercept
    X = np.random.default_rng(0).normal(size=(30, 3))
    y = np.full(30, 2.5) if y_kind == "constant" else 0.01 * X[:, 0]
    model = SVR(epsilon=1.0).fit(X, y)
    assert model.support_.size == 0
    prediction = model.predict(X)
    assert np.isfinite(prediction).all() and np.ptp(prediction) == 0.0
    assert abs(prediction[0] - np.median(y)) <= 1.0 + 1e-12
