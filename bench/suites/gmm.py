"""Gaussian-mixture EM: time per iteration, kernelkit vs scikit-learn from the same start."""

import warnings

import numpy as np
from sklearn.mixture import GaussianMixture as SklearnGaussianMixture

from kernelkit.bench._harness import Contender, Suite
from kernelkit.mixture import GaussianMixture

N_ITER = 20


def cases(quick):
    if quick:
        return [dict(n=20_000, d=8, k=5, covariance_type=c) for c in ("full", "diag")]
    return [dict(n=100_000, d=10, k=8, covariance_type=c)
            for c in ("full", "tied", "diag", "spherical")]


def setup(params):
    """Gaussian blobs and one common starting point (weights, means, precisions)."""
    rng = np.random.default_rng(0)
    n, d, k = params["n"], params["d"], params["k"]
    centres = rng.normal(scale=4.0, size=(k, d))
    X = centres[rng.integers(k, size=n)] + rng.normal(size=(n, d))
    start = dict(weights_init=np.full(k, 1.0 / k), means_init=X[rng.choice(n, k, replace=False)])
    covariance_type = params["covariance_type"]
    start["precisions_init"] = {
        "full": np.tile(np.eye(d), (k, 1, 1)), "tied": np.eye(d), "diag": np.ones((k, d)),
        "spherical": np.ones(k)}[covariance_type]
    return X, covariance_type, start


def _fit(cls, data):
    X, covariance_type, start = data
    # "random_from_data": the cheapest initialisation, overridden anyway by the given start
    model = cls(n_components=len(start["weights_init"]), covariance_type=covariance_type,
                max_iter=N_ITER, tol=0.0, init_params="random_from_data", random_state=0,
                **start)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # max_iter reached on purpose
        model.fit(X)
    return dict(per=model.n_iter_, lower_bound=float(model.lower_bound_))


def _kernelkit(data):
    return _fit(GaussianMixture, data)


def _sklearn(data):
    return _fit(SklearnGaussianMixture, data)


SUITE = Suite(
    name="gmm",
    description=(
        f"EM for Gaussian mixtures, {N_ITER} iterations (tol=0) from the same weights, means and "
        "precisions (init_params='random_from_data', the cheapest, for both; kernelkit skips it "
        "when the start is fully given, scikit-learn computes and discards it); time per "
        "iteration = fit time / iterations. Values: "
        "the final mean log-likelihood, equal in both. Both are NumPy/BLAS code (kernelkit has no "
        "compiled core here, hence no reference column)."
    ),
    cases=cases,
    setup=setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("scikit-learn", _sklearn, requires=("sklearn",)),
    ],
    repeats=lambda params, quick: 2 if quick else 3,
)
