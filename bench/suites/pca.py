"""PCA fit + transform: kernelkit vs scikit-learn (both LAPACK-bound)."""

import numpy as np
from threadpoolctl import threadpool_limits

from kernelkit.bench._harness import versus_sklearn
from kernelkit.decomposition import PCA

try:
    from sklearn.decomposition import PCA as SklearnPCA
except ImportError:  # reported as missing by the harness
    SklearnPCA = None

CASES = [
    # tall: covariance route; wide: full SVD; large and few components: randomized SVD
    {"n_samples": 20000, "n_features": 50, "n_components": 10},
    {"n_samples": 500, "n_features": 2000, "n_components": 400},
    {"n_samples": 3000, "n_features": 1500, "n_components": 20},
]
QUICK_CASES = [
    {"n_samples": 5000, "n_features": 50, "n_components": 10},
    {"n_samples": 300, "n_features": 800, "n_components": 200},
    {"n_samples": 1000, "n_features": 600, "n_components": 10},
]


def setup(params):
    rng = np.random.default_rng(0)
    d = params["n_features"]
    # A decaying spectrum, as in real data; every solver then finds the same components.
    X = rng.normal(size=(params["n_samples"], d)) * (1.0 / np.arange(1, d + 1))
    return {"X": X, "k": params["n_components"]}


def _summary(Z, model):
    return {"variance": float(model.explained_variance_.sum()),
            "score_norm": float(np.abs(Z).sum())}


def _kernelkit(data):
    model = PCA(n_components=data["k"], random_state=0)
    with threadpool_limits(limits=1, user_api="blas"):
        return _summary(model.fit_transform(data["X"]), model)


def _sklearn(data):
    model = SklearnPCA(n_components=data["k"], random_state=0)
    with threadpool_limits(limits=1, user_api="blas"):
        return _summary(model.fit_transform(data["X"]), model)


SUITE = versus_sklearn(
    name="pca",
    description=(
        "PCA fit_transform with svd_solver='auto' on both sides (same rule: covariance "
        "eigendecomposition for tall data, full SVD, randomized SVD for few components of "
        "large data) on Gaussian data with a 1/j column scale. `variance` is the retained "
        "variance, `score_norm` the sum of |scores|. No compiled core, so no reference "
        "contender."
    ),
    setup=setup, kernelkit=_kernelkit, sklearn=_sklearn,
    cases=CASES, quick_cases=QUICK_CASES, repeats=7, quick_repeats=3,
)
