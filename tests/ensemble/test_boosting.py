"""AdaBoost, gradient boosting and bagging: the course's properties, scikit-learn, input."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from sklearn import ensemble as sk
from sklearn.datasets import (
    load_breast_cancer,
    load_diabetes,
    load_digits,
    load_iris,
    make_classification,
)

from kernelkit.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    BaggingRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
)
from kernelkit.tree import DecisionTreeClassifier


@pytest.fixture(scope="module")
def binary():
    X, y = make_classification(300, 6, n_informative=4, flip_y=0.1, random_state=0)
    return X, y


def _replay(model, X, y):
    """The weights D_t and the ±1 predictions of every stage of a binary AdaBoost."""
    signs = 2 * y - 1
    D = np.full(len(y), 1 / len(y))
    for learner, w, error in zip(model.estimators_, model.estimator_weights_,
                                 model.estimator_errors_):
        g = 2 * np.asarray(learner.predict(X)) - 1
        yield D, g, w, error
        D = D * np.exp(-w * signs * g)
        D /= D.sum()


# ----------------------------------------------------------------- AdaBoost (Algorithm 2)
def test_property_13_and_exercise_1_7(binary):
    X, y = binary
    model = AdaBoostClassifier(n_estimators=15, algorithm="binary", random_state=0).fit(X, y)
    signs = 2 * y - 1
    for D, g, w, error in _replay(model, X, y):
        np.testing.assert_allclose(error, D[g != signs].sum(), rtol=1e-12)
        np.testing.assert_allclose(w, 0.5 * np.log((1 - error) / error), rtol=1e-12)
        Z = np.sum(D * np.exp(-w * signs * g))
        np.testing.assert_allclose(Z, 2 * np.sqrt(error * (1 - error)), rtol=1e-10)
        D_next = D * np.exp(-w * signs * g) / Z
        # the next weights make g_t exactly as good as a coin (Exercise 1.7)
        np.testing.assert_allclose(D_next[g != signs].sum(), 0.5, rtol=1e-10)
        # w_t is the exact line search of the exponential loss
        search = minimize_scalar(lambda v: np.sum(D * np.exp(-v * signs * g)),
                                 bracket=(0, 1), tol=1e-12)
        np.testing.assert_allclose(w, search.x, rtol=1e-5)


def test_theorem_14_training_error_bound(binary):
    X, y = binary
    model = AdaBoostClassifier(n_estimators=30, algorithm="binary", random_state=0).fit(X, y)
    bound = np.cumprod(2 * np.sqrt(model.estimator_errors_ * (1 - model.estimator_errors_)))
    for t, predicted in enumerate(model.staged_predict(X)):
        assert np.mean(predicted != y) <= bound[t] + 1e-12


def test_samme_with_two_classes_is_binary_adaboost(binary):
    X, y = binary
    samme = AdaBoostClassifier(n_estimators=20, random_state=0).fit(X, y)
    plain = AdaBoostClassifier(n_estimators=20, algorithm="binary", random_state=0).fit(X, y)
    np.testing.assert_allclose(samme.estimator_weights_, 2 * plain.estimator_weights_,
                               rtol=1e-10)
    np.testing.assert_array_equal(samme.predict(X), plain.predict(X))


@pytest.mark.parametrize("loader", [load_breast_cancer, load_digits, load_iris])
def test_adaboost_equals_scikit_learn(loader):
    X, y = loader(return_X_y=True)
    ours = AdaBoostClassifier(n_estimators=40, random_state=0).fit(X, y)
    theirs = sk.AdaBoostClassifier(n_estimators=40, random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.estimator_weights_, theirs.estimator_weights_, rtol=1e-8)
    np.testing.assert_array_equal(ours.predict(X), theirs.predict(X))
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-10)


def test_samme_r_and_any_weighted_learner(binary):
    X, y = binary
    real = AdaBoostClassifier(n_estimators=20, algorithm="SAMME.R", random_state=0).fit(X, y)
    discrete = AdaBoostClassifier(n_estimators=20, random_state=0).fit(X, y)
    assert real.score(X, y) > max(np.mean(y), 1 - np.mean(y)) + 0.2
    assert real.score(X, y) >= discrete.score(X, y) - 0.03
    trees = AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=10,
                               random_state=0).fit(X, y)
    assert trees.score(X, y) > 0.85
    np.testing.assert_allclose(trees.predict_proba(X).sum(axis=1), 1.0)


def test_adaboost_guards():
    X, y = make_classification(60, 4, random_state=1)
    perfect = AdaBoostClassifier(DecisionTreeClassifier(), n_estimators=10).fit(X, y)
    assert len(perfect.estimators_) == 1 and perfect.estimator_errors_[0] == 0
    with pytest.raises(ValueError, match="class"):
        AdaBoostClassifier().fit(X, np.zeros(60))
    with pytest.raises(ValueError, match="two classes"):
        AdaBoostClassifier(algorithm="binary").fit(X, np.arange(60) % 3)
    with pytest.raises(ValueError, match="learning_rate"):
        AdaBoostClassifier(learning_rate=0).fit(X, y)


# ----------------------------------------------------------------- gradient boosting
def test_initial_values_are_the_mean_median_and_log_odds():
    X, y = load_diabetes(return_X_y=True)
    assert GradientBoostingRegressor(n_estimators=1).fit(X, y).init_[0] == pytest.approx(y.mean())
    median = GradientBoostingRegressor(loss="absolute_error", n_estimators=1).fit(X, y).init_
    assert median[0] == pytest.approx(np.median(y), abs=np.diff(np.sort(y)).max())
    Xc, yc = load_breast_cancer(return_X_y=True)
    p = yc.mean()
    init = GradientBoostingClassifier(n_estimators=1).fit(Xc, yc).init_[0]
    assert init == pytest.approx(np.log(p / (1 - p)))


def test_training_loss_never_increases_and_one_full_step_interpolates():
    X, y = load_diabetes(return_X_y=True)
    model = GradientBoostingRegressor(n_estimators=40, random_state=0).fit(X, y)
    assert np.all(np.diff(model.train_score_) <= 1e-9)
    for loss in ("absolute_error",):
        scores = GradientBoostingRegressor(loss=loss, n_estimators=40).fit(X, y).train_score_
        assert np.all(np.diff(scores) <= 1e-9)
    exact = GradientBoostingRegressor(n_estimators=1, learning_rate=1.0, max_depth=None).fit(X, y)
    np.testing.assert_allclose(exact.train_score_[-1], 0.0, atol=1e-12)


def test_regressor_equals_scikit_learn():
    X, y = load_diabetes(return_X_y=True)
    ours = GradientBoostingRegressor(n_estimators=60, random_state=0).fit(X, y)
    theirs = sk.GradientBoostingRegressor(n_estimators=60, random_state=0).fit(X, y)
    np.testing.assert_allclose(ours.train_score_, theirs.train_score_, rtol=1e-8)
    np.testing.assert_allclose(ours.predict(X), theirs.predict(X), rtol=1e-8)


# digits: 10 classes, 3 × 40 rounds of 10 trees on each side
@pytest.mark.parametrize("loader", [load_breast_cancer,
                                    pytest.param(load_digits, marks=pytest.mark.slow), load_iris])
def test_classifier_within_one_percent_of_scikit_learn(loader):
    from sklearn.model_selection import train_test_split

    X, y = loader(return_X_y=True)
    gaps = []
    for seed in range(3):
        X_a, X_b, y_a, y_b = train_test_split(X, y, random_state=seed, stratify=y)
        ours = GradientBoostingClassifier(n_estimators=40, random_state=seed).fit(X_a, y_a)
        theirs = sk.GradientBoostingClassifier(n_estimators=40, random_state=seed).fit(X_a, y_a)
        gaps.append(ours.score(X_b, y_b) - theirs.score(X_b, y_b))
    assert abs(np.mean(gaps)) <= 0.01


def test_histogram_with_every_value_in_its_own_bin_equals_exact():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 30, size=(400, 5)).astype(float)
    y = X[:, 0] - 2 * X[:, 1] + rng.normal(size=400)
    exact = GradientBoostingRegressor(n_estimators=20, criterion="squared_error",
                                      random_state=0).fit(X, y)
    hist = GradientBoostingRegressor(n_estimators=20, criterion="squared_error",
                                     splitter="hist", random_state=0).fit(X, y)
    np.testing.assert_allclose(hist.predict(X), exact.predict(X), rtol=1e-10)


def test_threads_do_not_change_the_model():
    X, y = load_breast_cancer(return_X_y=True)
    a = GradientBoostingClassifier(n_estimators=20, subsample=0.8, random_state=0, n_jobs=1)
    b = GradientBoostingClassifier(n_estimators=20, subsample=0.8, random_state=0, n_jobs=2)
    np.testing.assert_array_equal(a.fit(X, y).decision_function(X),
                                  b.fit(X, y).decision_function(X))


def test_adaboost_stumps_do_not_depend_on_the_threads():
    # 15 000 x 20: the root's features are shared by the threads (n x d >= 2**18)
    from threadpoolctl import threadpool_limits

    X, y = make_classification(15_000, 20, random_state=0)
    fits = []
    for n_threads in (1, 2):
        with threadpool_limits(n_threads, user_api="openmp"):
            fits.append(AdaBoostClassifier(n_estimators=10, random_state=0).fit(X, y))
    np.testing.assert_array_equal(fits[0].estimator_weights_, fits[1].estimator_weights_)
    np.testing.assert_array_equal(fits[0].decision_function(X), fits[1].decision_function(X))


def test_early_stopping_and_staged_predictions():
    X, y = make_classification(600, 10, flip_y=0.3, random_state=2)
    model = GradientBoostingClassifier(n_estimators=500, n_iter_no_change=5, learning_rate=0.5,
                                       random_state=0).fit(X, y)
    assert model.n_estimators_ < 500
    staged = list(model.staged_predict_proba(X[:10]))
    assert len(staged) == model.n_estimators_
    np.testing.assert_allclose(staged[-1], model.predict_proba(X[:10]), rtol=1e-12)


def test_gradient_boosting_refuses_bad_input():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="two-class"):
        GradientBoostingClassifier(loss="exponential").fit(X, y)
    with pytest.raises(ValueError, match="learning_rate"):
        GradientBoostingRegressor(learning_rate=0.0).fit(X, y)
    X_nan = X.copy()
    X_nan[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        GradientBoostingClassifier().fit(X_nan, y)


# ----------------------------------------------------------------- bagging
def test_one_estimator_on_all_samples_is_the_base_learner():
    X, y = load_breast_cancer(return_X_y=True)
    bag = BaggingClassifier(n_estimators=1, bootstrap=False, random_state=0).fit(X, y)
    seed = bag.estimators_[0].random_state
    alone = DecisionTreeClassifier(random_state=seed).fit(X, y)
    np.testing.assert_array_equal(bag.predict_proba(X), alone.predict_proba(X))


@pytest.mark.slow   # 240 trees, half of them scikit-learn's
def test_bagging_accuracy_close_to_scikit_learn():
    from sklearn.model_selection import train_test_split

    X, y = load_breast_cancer(return_X_y=True)
    Xr, yr = load_diabetes(return_X_y=True)
    gaps, r2_gaps = [], []
    for seed in range(3):
        X_a, X_b, y_a, y_b = train_test_split(X, y, random_state=seed)
        gaps.append(BaggingClassifier(n_estimators=20, random_state=seed).fit(X_a, y_a)
                    .score(X_b, y_b) - sk.BaggingClassifier(n_estimators=20, random_state=seed)
                    .fit(X_a, y_a).score(X_b, y_b))
        Xr_a, Xr_b, yr_a, yr_b = train_test_split(Xr, yr, random_state=seed)
        r2_gaps.append(BaggingRegressor(n_estimators=20, random_state=seed).fit(Xr_a, yr_a)
                       .score(Xr_b, yr_b) - sk.BaggingRegressor(n_estimators=20,
                                                                random_state=seed)
                       .fit(Xr_a, yr_a).score(Xr_b, yr_b))
    assert abs(np.mean(gaps)) <= 0.02 and abs(np.mean(r2_gaps)) <= 0.03


@pytest.mark.parametrize("Model, params", [
    (GradientBoostingClassifier, dict(n_estimators=30)),
    (GradientBoostingRegressor, dict(n_estimators=30)),
    (AdaBoostClassifier, dict(n_estimators=30)),
])
def test_verbose_prints_every_tenth_stage_and_changes_nothing(Model, params, binary, capsys):
    X, y = binary
    quiet = Model(random_state=0, **params).fit(X, y)
    assert capsys.readouterr().err == ""
    for verbose, n_lines in [(1, 10), (2, 30)]:
        loud = Model(random_state=0, verbose=verbose, **params).fit(X, y)
        np.testing.assert_array_equal(quiet.predict(X), loud.predict(X))
        lines = capsys.readouterr().err.splitlines()
        assert len(lines) == n_lines
        assert lines[-1].startswith(f"[{Model.__name__}] stage 30/30: ")
        assert lines[0].startswith(f"[{Model.__name__}] stage {30 // n_lines}/30: ")
    if Model is AdaBoostClassifier:
        np.testing.assert_array_equal(quiet.estimator_weights_, loud.estimator_weights_)
    else:
        np.testing.assert_array_equal(quiet.train_score_, loud.train_score_)


def test_gradient_boosting_verbose_reports_the_early_stop(binary, capsys):
    X, y = binary
    model = GradientBoostingClassifier(n_estimators=500, n_iter_no_change=3, random_state=0,
                                       verbose=1).fit(X, y)
    assert model.n_estimators_ < 500
    lines = capsys.readouterr().err.splitlines()
    assert lines[-1].startswith(f"[GradientBoostingClassifier] stage {model.n_estimators_}/500")
    assert "validation loss" in lines[-1] and lines[-1].split(", ")[-2] == "early stop"


@pytest.mark.parametrize("Model", [BaggingClassifier, BaggingRegressor])
def test_bagging_verbose_prints_ten_blocks_and_changes_nothing(Model, binary, capsys):
    X, y = binary
    quiet = Model(n_estimators=20, random_state=0).fit(X, y)
    assert capsys.readouterr().err == ""
    loud = Model(n_estimators=20, random_state=0, verbose=1).fit(X, y)
    np.testing.assert_array_equal(quiet.predict(X), loud.predict(X))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(",")[0] for line in lines] == [
        f"[{Model.__name__}] {n}/20 estimators" for n in range(2, 21, 2)]


def test_gradient_boosting_with_absurd_n_jobs():
    # n_jobs is clamped to the usable CPUs (10**9 once asked for one tree workspace per thread)
    X, y = make_classification(200, 6, random_state=0)
    expected = GradientBoostingClassifier(n_estimators=5, random_state=0, n_jobs=1).fit(X, y)
    got = GradientBoostingClassifier(n_estimators=5, random_state=0, n_jobs=10**9).fit(X, y)
    np.testing.assert_array_equal(got.decision_function(X), expected.decision_function(X))


@pytest.mark.parametrize("loss", ["squared_error", "absolute_error"])
def test_gradient_boosting_with_an_overflowing_step_raises(loss):
    # learning_rate=1e300 made the staged predictions inf, then NaN residuals
    X = np.random.default_rng(0).normal(size=(50, 3))
    with pytest.raises(ValueError, match="learning_rate"):
        GradientBoostingRegressor(n_estimators=5, learning_rate=1e300, loss=loss).fit(
            X, X[:, 0])
