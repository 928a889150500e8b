"""``warm_start`` of histogram gradient boosting: more rounds on the fitted trees give the
model fitted at once, the first fit's validation split is kept, and what cannot continue is
refused."""

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression

from kernelkit.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

CASES = [
    (HistGradientBoostingRegressor, "squared_error", None),
    (HistGradientBoostingRegressor, "absolute_error", None),
    (HistGradientBoostingRegressor, "poisson", None),
    (HistGradientBoostingClassifier, "log_loss", 2),
    (HistGradientBoostingClassifier, "log_loss", 3),
]


def _data(estimator, loss, n_classes, n=300, seed=0):
    if estimator is HistGradientBoostingRegressor:
        X, y = make_regression(n, 4, noise=5.0, random_state=seed)
        return X, (np.exp(y / np.abs(y).max()) if loss == "poisson" else y)
    return make_classification(n, 4, n_informative=3, n_redundant=0, n_classes=n_classes,
                               random_state=seed)


@pytest.mark.parametrize("estimator, loss, n_classes", CASES)
def test_more_rounds_give_the_model_fitted_at_once(estimator, loss, n_classes):
    X, y = _data(estimator, loss, n_classes)
    weight = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    params = dict(loss=loss, early_stopping=False)
    warm = estimator(max_iter=10, warm_start=True, **params).fit(X, y, sample_weight=weight)
    first_trees = list(warm._trees)
    warm.set_params(max_iter=20).fit(X, y, sample_weight=weight)
    at_once = estimator(max_iter=20, **params).fit(X, y, sample_weight=weight)
    assert warm.n_iter_ == 20 and warm._trees[:10 * len(first_trees) // 10] == first_trees
    np.testing.assert_array_equal(warm._raw_predict(X), at_once._raw_predict(X))


@pytest.mark.parametrize("random_state", [0, None])
def test_the_validation_split_of_the_first_fit_is_kept(random_state):
    X, y = _data(HistGradientBoostingClassifier, "log_loss", 2, n=400, seed=1)
    params = dict(early_stopping=True, n_iter_no_change=100, random_state=random_state)
    np.random.seed(1)   # the global state, for random_state=None
    warm = HistGradientBoostingClassifier(max_iter=8, warm_start=True, **params).fit(X, y)
    warm.set_params(max_iter=16).fit(X, y)
    np.random.seed(1)
    at_once = HistGradientBoostingClassifier(max_iter=16, **params).fit(X, y)
    np.testing.assert_array_equal(warm.decision_function(X), at_once.decision_function(X))
    np.testing.assert_array_equal(warm.train_score_, at_once.train_score_)
    np.testing.assert_array_equal(warm.validation_score_, at_once.validation_score_)
    assert warm.validation_score_.shape == (17,)


def test_the_same_max_iter_adds_nothing_and_warm_start_off_refits():
    X, y = _data(HistGradientBoostingRegressor, "squared_error", None)
    model = HistGradientBoostingRegressor(max_iter=5, warm_start=True,
                                          early_stopping=False).fit(X, y)
    trees = list(model._trees)
    model.fit(X, y)
    assert model._trees == trees
    model.set_params(warm_start=False, max_iter=3).fit(X, y)
    assert model.n_iter_ == 3


def test_what_cannot_continue_is_refused():
    X, y = _data(HistGradientBoostingClassifier, "log_loss", 3)
    model = HistGradientBoostingClassifier(max_iter=10, warm_start=True,
                                           early_stopping=False).fit(X, y)
    with pytest.raises(ValueError, match="max_iter=5 is below the 10 rounds"):
        model.set_params(max_iter=5).fit(X, y)
    model.set_params(max_iter=12)
    with pytest.raises(ValueError, match="classes"):
        model.fit(X, y + 1)
    with pytest.raises(ValueError, match="features"):
        model.fit(X[:, :3], y)
    with pytest.raises(ValueError, match="classes"):
        model.fit(X, y % 2)
    regressor = HistGradientBoostingRegressor(max_iter=3, warm_start=True,
                                              early_stopping=False).fit(X, y)
    with pytest.raises(ValueError, match="HalfPoissonLoss"):
        regressor.set_params(loss="poisson", max_iter=6).fit(X, y)
    # after the refusals the model is the one fitted, and continues
    assert model.n_iter_ == 10
    model.set_params(max_iter=12).fit(X, y)
    assert model.n_iter_ == 12
