"""Gaussian mixture EM: monotone log-likelihood (Sangnier Theorem 53), the weighted MLE of the
M step (Property 54), and scikit-learn's GaussianMixture started from the same parameters; the
E and M steps' row blocks and threads leave the fit unchanged."""

import pickle
import warnings

import numpy as np
import pytest
from scipy.stats import multivariate_normal
from sklearn.datasets import load_iris, make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture as SklearnGaussianMixture

from kernelkit.mixture import GaussianMixture
from kernelkit.mixture import _gaussian_mixture
from kernelkit.mixture._gaussian_mixture import _m_step
from kernelkit.utils import _scatter

COVARIANCE_TYPES = ["full", "tied", "diag", "spherical"]


def _blobs(seed, n_samples=400):
    X, _ = make_blobs(n_samples=n_samples, centers=3, n_features=3, cluster_std=[1.0, 2.0, 0.5],
                      random_state=seed)
    return X


@pytest.mark.parametrize("covariance_type", COVARIANCE_TYPES)
@pytest.mark.parametrize("init_params", ["kmeans", "k-means++", "random", "random_from_data"])
def test_log_likelihood_never_decreases(random_seed, covariance_type, init_params):
    X = _blobs(random_seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        gm = GaussianMixture(3, covariance_type=covariance_type, init_params=init_params,
                             reg_covar=0.0, tol=0.0, max_iter=60,
                             random_state=random_seed).fit(X)
    history = gm.log_likelihood_history_
    assert len(history) == gm.n_iter_
    # exact EM (no ridge): monotone up to rounding of the mean log-likelihood
    assert np.all(np.diff(history) >= -1e-12 * np.abs(history[1:]))


@pytest.mark.scikit_learn("1.7", reason="lower_bounds_, the history of the bound, is new in 1.7")
@pytest.mark.parametrize("covariance_type", COVARIANCE_TYPES)
def test_matches_sklearn_from_the_same_start(random_seed, covariance_type):
    X = load_iris().data if random_seed % 2 == 0 else _blobs(random_seed)
    start = GaussianMixture(3, covariance_type=covariance_type, max_iter=2,
                            random_state=random_seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start.fit(X)
        init = dict(weights_init=start.weights_, means_init=start.means_,
                    precisions_init=start.precisions_, max_iter=25, tol=0.0)
        ours = GaussianMixture(3, covariance_type=covariance_type, **init).fit(X)
        theirs = SklearnGaussianMixture(3, covariance_type=covariance_type, **init,
                                        random_state=0).fit(X)
    np.testing.assert_allclose(ours.log_likelihood_history_, theirs.lower_bounds_, rtol=1e-8)
    np.testing.assert_allclose(ours.means_, theirs.means_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.covariances_, theirs.covariances_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(ours.score_samples(X), theirs.score_samples(X), rtol=1e-8)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-8)
    np.testing.assert_allclose(ours.bic(X), theirs.bic(X), rtol=1e-8)
    np.testing.assert_allclose(ours.aic(X), theirs.aic(X), rtol=1e-8)


@pytest.mark.parametrize("covariance_type", COVARIANCE_TYPES)
def test_zero_iterations_return_the_given_start(covariance_type):
    X = _blobs(4)
    fitted = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    start = GaussianMixture(3, covariance_type=covariance_type, max_iter=0,
                            weights_init=fitted.weights_, means_init=fitted.means_,
                            precisions_init=fitted.precisions_).fit(X)
    np.testing.assert_allclose(start.covariances_, fitted.covariances_, rtol=1e-10)
    np.testing.assert_allclose(start.score_samples(X), fitted.score_samples(X), rtol=1e-10)
    assert start.n_iter_ == 0 and len(start.log_likelihood_history_) == 0


def _blocks_of_seven_rows(monkeypatch):
    """The E and M steps cut the samples into blocks of 7 rows (several slots of row blocks on
    test-sized data)."""
    for module in (_gaussian_mixture, _scatter):
        monkeypatch.setattr(module, "_BLOCK_ELEMENTS", 1)
        monkeypatch.setattr(module, "_MIN_BLOCK_ROWS", 7)


@pytest.fixture
def blocks_of_seven_rows(monkeypatch):
    _blocks_of_seven_rows(monkeypatch)


@pytest.mark.usefixtures("blocks_of_seven_rows")
@pytest.mark.parametrize("n_threads", [1, 2])
def test_m_step_is_the_weighted_mle(rng, n_threads):
    # Sangnier Property 54, the scatter matrices summed over blocks and slots
    X = rng.normal(size=(50, 2)) + [1e3, -1e3]   # means far from the spread: no cancellation
    resp = rng.uniform(size=(50, 3))
    resp /= resp.sum(axis=1, keepdims=True)
    weights, means, covariances, _, reg = _m_step(X, resp, 0.0, "full", n_threads)
    assert reg == 0.0
    for j in range(3):
        p = resp[:, j]
        mean = p @ X / p.sum()
        np.testing.assert_allclose(means[j], mean, rtol=1e-12)
        np.testing.assert_allclose(covariances[j], (p * (X - mean).T) @ (X - mean) / p.sum(),
                                   rtol=1e-10)
        np.testing.assert_allclose(weights[j], p.mean(), rtol=1e-12)


@pytest.mark.parametrize("covariance_type", COVARIANCE_TYPES)
def test_row_blocks_and_threads_leave_the_fit_unchanged(monkeypatch, covariance_type):
    X = _blobs(5, n_samples=300)

    def fit(n_jobs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model = GaussianMixture(3, covariance_type=covariance_type, tol=0.0, max_iter=10,
                                    random_state=0, n_jobs=n_jobs).fit(X)
        return model, model.predict_proba(X), model.score_samples(X)

    whole, *whole_outputs = fit(1)   # one block
    _blocks_of_seven_rows(monkeypatch)
    one, *one_outputs = fit(1)
    two, *two_outputs = fit(2)
    # 43 blocks in 8 slots, added in slot order: the same bits on any number of threads
    for a, b in zip([one.means_, one.covariances_, one.log_likelihood_history_, *one_outputs],
                    [two.means_, two.covariances_, two.log_likelihood_history_, *two_outputs]):
        np.testing.assert_array_equal(a, b)
    # and, up to the order of the sums, the fit of one block
    for a, b in zip([one.means_, one.covariances_, one.log_likelihood_history_, *one_outputs],
                    [whole.means_, whole.covariances_, whole.log_likelihood_history_,
                     *whole_outputs]):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_density_and_posteriors(rng):
    X = _blobs(1)
    gm = GaussianMixture(3, random_state=0).fit(X)
    proba = gm.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    density = sum(w * multivariate_normal(m, c).pdf(X)
                  for w, m, c in zip(gm.weights_, gm.means_, gm.covariances_))
    np.testing.assert_allclose(gm.score_samples(X), np.log(density), rtol=1e-10)
    np.testing.assert_array_equal(gm.predict(X), proba.argmax(axis=1))
    np.testing.assert_allclose(gm.score(X), np.log(density).mean(), rtol=1e-10)
    for j in range(3):
        np.testing.assert_allclose(gm.precisions_[j] @ gm.covariances_[j], np.eye(3),
                                   atol=1e-8)


@pytest.mark.parametrize("covariance_type, expected", [
    ("full", 2 + 3 * 4 + 3 * 10), ("tied", 2 + 3 * 4 + 10), ("diag", 2 + 3 * 4 + 3 * 4),
    ("spherical", 2 + 3 * 4 + 3),
])
def test_parameter_count(covariance_type, expected):
    # Sangnier §2.1.5: m = (k−1) + kd + covariance parameters
    X = np.random.default_rng(0).normal(size=(60, 4))
    gm = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    assert gm._n_parameters() == expected
    np.testing.assert_allclose(gm.bic(X) - gm.aic(X), expected * (np.log(60) - 2), rtol=1e-12)


@pytest.mark.parametrize("covariance_type", COVARIANCE_TYPES)
def test_sample_follows_the_mixture(covariance_type):
    X = _blobs(2)
    gm = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    draws, components = gm.sample(20000, random_state=0)
    assert draws.shape == (20000, 3)
    frequencies = np.bincount(components, minlength=3) / 20000
    np.testing.assert_allclose(frequencies, gm.weights_, atol=0.02)
    for j in range(3):
        np.testing.assert_allclose(draws[components == j].mean(axis=0), gm.means_[j], atol=0.1)


def test_singular_covariance_escalates_reg_covar_with_a_warning():
    # one component collapses onto a repeated point: its covariance is exactly singular
    rng = np.random.default_rng(0)
    X = np.vstack([np.tile([[5.0, 5.0]], (10, 1)), rng.normal(size=(40, 2))])
    means = np.array([[5.0, 5.0], [0.0, 0.0]])
    with pytest.warns(ConvergenceWarning, match="reg_covar raised"):
        gm = GaussianMixture(2, reg_covar=0.0, means_init=means, max_iter=5,
                             random_state=0).fit(X)
    assert gm.reg_covar_ > 0.0
    assert np.all(np.isfinite(gm.score_samples(X)))


def test_reproducible_and_n_init_keeps_the_best():
    X = _blobs(3)
    a = GaussianMixture(3, init_params="random", n_init=1, random_state=5).fit(X)
    b = GaussianMixture(3, init_params="random", n_init=1, random_state=5).fit(X)
    np.testing.assert_array_equal(a.means_, b.means_)
    best = GaussianMixture(3, init_params="random", n_init=4, random_state=5).fit(X)
    assert best.lower_bound_ >= a.lower_bound_ - 1e-12


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="NaN"):
        GaussianMixture().fit(np.array([[0.0, np.nan], [1.0, 1.0]]))
    with pytest.raises(ValueError, match="larger than n_samples"):
        GaussianMixture(11).fit(X)
    with pytest.raises(ValueError, match="weights_init"):
        GaussianMixture(2, weights_init=[0.3, 0.3]).fit(X)
    with pytest.raises(ValueError, match="means_init"):
        GaussianMixture(2, means_init=np.zeros((3, 2))).fit(X)
    with pytest.raises(ValueError, match="precisions_init"):
        GaussianMixture(2, covariance_type="diag", precisions_init=np.ones((2, 3))).fit(X)
    not_positive_definite = {
        "full": np.zeros((2, 2, 2)), "tied": np.array([[1.0, 2.0], [2.0, 1.0]]),
        "diag": np.array([[1.0, 0.0], [1.0, 1.0]]), "spherical": np.array([1.0, -1.0])}
    for covariance_type, precisions in not_positive_definite.items():
        with pytest.raises(ValueError, match="positive definite"):
            GaussianMixture(2, covariance_type=covariance_type,
                            precisions_init=precisions).fit(X)
    with pytest.raises(ValueError, match="covariance_type"):
        GaussianMixture(covariance_type="block").fit(X)
    with pytest.raises(ValueError, match="reg_covar"):
        GaussianMixture(reg_covar=-1.0).fit(X)
    with pytest.raises(ValueError, match="3 features"):
        GaussianMixture(1).fit(X).score_samples(np.zeros((2, 3)))


@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
def test_pickle_round_trip_is_bit_identical(covariance_type):
    # the Cholesky factors came back in another memory layout and scores moved by 1e-15
    X = np.random.default_rng(0).normal(size=(200, 4))
    model = GaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.score_samples(X), model.score_samples(X))
    assert restored.precisions_cholesky_.flags.c_contiguous


@pytest.mark.parametrize("covariance_type", ["full", "tied"])
def test_wide_data_with_full_covariances_warns_before_the_long_factorisations(covariance_type):
    # d × d covariances factorised every EM iteration: minutes at d = 3000 (Ctrl-C waits for
    # each LAPACK call); the fit says so before it starts and names the cheaper models
    import warnings

    X = np.random.default_rng(0).normal(size=(20, 3000))
    with warnings.catch_warnings():
        warnings.simplefilter("error")    # stop at the warning instead of running the fit
        with pytest.raises(UserWarning, match="covariance_type='diag'"):
            GaussianMixture(2, covariance_type=covariance_type, max_iter=500,
                            random_state=0).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GaussianMixture(2, covariance_type="diag", random_state=0).fit(X)


@pytest.mark.parametrize("change, free", [({"covariance_type": "diag"}, False),
                                          ({"n_components": 3}, False),
                                          ({"max_iter": 5, "tol": 1.0, "verbose": 0}, True)])
def test_set_params_after_fit(change, free):
    # covariance_type changed after fit once met the fitted full covariances in predict
    # (a numpy broadcast error); what the fitted model depends on now needs a refit, what only
    # steers the EM run does not
    from sklearn.exceptions import NotFittedError

    X = np.random.default_rng(0).normal(size=(40, 3))
    gmm = GaussianMixture(2, random_state=0).fit(X)
    labels = gmm.predict(X)
    gmm.set_params(**change)
    if free:
        np.testing.assert_array_equal(gmm.predict(X), labels)
    else:
        for method in (gmm.predict, gmm.predict_proba, gmm.score_samples):
            with pytest.raises(NotFittedError, match=next(iter(change))):
                method(X)
        with pytest.raises(NotFittedError, match=next(iter(change))):
            gmm.sample(3)
