"""Early stopping of histogram gradient boosting on a scorer (``scoring``): scikit-learn's
stopping and scores, the scores' meaning, weights, and the scorer's training subsample."""

import numpy as np
import pytest
from sklearn import ensemble as sk
from sklearn.datasets import make_classification, make_regression
from sklearn.metrics import get_scorer
from threadpoolctl import threadpool_limits

from kernelkit.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from kernelkit.ensemble._hist_gradient_boosting import _early_stopping

SAME_TREES_AS_SCIKIT_LEARN = pytest.mark.scikit_learn(
    "1.9", reason="scikit-learn 1.6 grows other histogram trees; agreement checked from 1.9")


def _accuracy(estimator, X, y):
    return float(np.mean(estimator.predict(X) == y))


@SAME_TREES_AS_SCIKIT_LEARN
@pytest.mark.parametrize("estimator, scoring, tol", [
    (HistGradientBoostingClassifier, "accuracy", 1e-3),
    (HistGradientBoostingClassifier, "neg_log_loss", 1e-3),
    (HistGradientBoostingClassifier, None, 1e-3),
    (HistGradientBoostingClassifier, _accuracy, 1e-3),
    (HistGradientBoostingRegressor, "r2", 1e-3),
    (HistGradientBoostingRegressor, "neg_mean_absolute_error", 0.1),
])
def test_a_scorer_stops_as_scikit_learn(estimator, scoring, tol):
    # scored on the training data (validation_fraction=None): no split to draw, and data on
    # which both libraries grow the same trees, so the scores and the round of the stop are
    # scikit-learn's
    if estimator is HistGradientBoostingClassifier:
        X, y = make_classification(500, 5, weights=[0.8, 0.2], random_state=0)
    else:
        X, y = make_regression(500, 5, noise=20.0, random_state=0)
    params = dict(max_iter=300, early_stopping=True, validation_fraction=None, scoring=scoring,
                  n_iter_no_change=5, tol=tol, learning_rate=0.3)
    ours = estimator(**params).fit(X, y)
    with threadpool_limits(1):
        theirs = getattr(sk, estimator.__name__)(**params).fit(X, y)
    assert 1 < ours.n_iter_ == theirs.n_iter_ < 300
    np.testing.assert_allclose(ours.train_score_, theirs.train_score_, rtol=1e-10, atol=1e-12)
    assert ours.validation_score_.size == 0


def test_the_scores_are_the_scorers_values():
    X, y = make_classification(600, 5, random_state=1)
    weight = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    model = HistGradientBoostingClassifier(
        max_iter=15, early_stopping=True, validation_fraction=None, scoring="balanced_accuracy",
        n_iter_no_change=50).fit(X, y, sample_weight=weight)
    assert model.train_score_.shape == (16,)
    # the last training score is the scorer's on the final model, weighted
    scorer = get_scorer("balanced_accuracy")
    assert model.train_score_[-1] == pytest.approx(scorer(model, X, y, sample_weight=weight),
                                                   rel=1e-12)
    # with held-out data, it decides: same length, and its values are the scorer's too
    held_out = HistGradientBoostingClassifier(
        max_iter=15, early_stopping=True, scoring="accuracy", n_iter_no_change=50,
        random_state=0).fit(X, y)
    assert held_out.validation_score_.shape == held_out.train_score_.shape == (16,)
    n_valid = round(0.1 * len(y))
    assert np.allclose(held_out.validation_score_ * n_valid,
                       np.round(held_out.validation_score_ * n_valid))


def test_a_scorer_sees_a_training_subsample(monkeypatch):
    monkeypatch.setattr(_early_stopping, "SCORER_TRAIN_SAMPLES", 100)
    X, y = make_regression(400, 3, noise=1.0, random_state=2)
    seen = []

    def scorer(estimator, X_scored, y_scored):
        seen.append(len(y_scored))
        return -np.mean((estimator.predict(X_scored) - y_scored) ** 2)

    HistGradientBoostingRegressor(max_iter=3, early_stopping=True, validation_fraction=None,
                                  scoring=scorer, random_state=0).fit(X, y)
    assert seen == [100] * 4


def test_an_unknown_scorer_is_refused():
    X, y = make_regression(50, 3, random_state=3)
    with pytest.raises(ValueError, match="not a valid scoring value"):
        HistGradientBoostingRegressor(early_stopping=True, scoring="no-such-score").fit(X, y)
    with pytest.raises(ValueError, match="scoring"):
        HistGradientBoostingRegressor(scoring=3).fit(X, y)
