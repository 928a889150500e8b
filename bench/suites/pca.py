"""PCA fit + transform: kernelkit vs scikit-learn and Intel's oneDAL (scikit-learn-intelex)."""

import numpy as np
from threadpoolctl import threadpool_limits

from kernelkit.bench._harness import Contender, Suite
from kernelkit.decomposition import PCA

N_THREADS = 2
# the tall sizes at which the solvers are compared one by one, 10 components each
SOLVERS = ("full", "covariance_eigh", "randomized")
CASES = [
    # tall: covariance route; wide: full SVD; large and few components: randomized SVD
    {"n_samples": 20000, "n_features": 50, "n_components": 10, "svd_solver": "auto"},
    {"n_samples": 500, "n_features": 2000, "n_components": 400, "svd_solver": "auto"},
    {"n_samples": 3000, "n_features": 1500, "n_components": 20, "svd_solver": "auto"},
    *({"n_samples": n, "n_features": d, "n_components": 10, "svd_solver": solver}
      for n, d in ((100_000, 100), (1_000_000, 50)) for solver in SOLVERS),
]
QUICK_CASES = [
    {"n_samples": 5000, "n_features": 50, "n_components": 10, "svd_solver": "auto"},
    {"n_samples": 300, "n_features": 800, "n_components": 200, "svd_solver": "auto"},
    {"n_samples": 1000, "n_features": 600, "n_components": 10, "svd_solver": "auto"},
    *({"n_samples": 20_000, "n_features": 100, "n_components": 10, "svd_solver": solver}
      for solver in SOLVERS),
]
# scikit-learn's full SVD and randomized products take tens of seconds at a million rows
# on the loaded 2-core machine (its randomized solver: 61 s at 1e6 x 50)
SKLEARN_MAX_SAMPLES = 100_000


def setup(params):
    rng = np.random.default_rng(0)
    d = params["n_features"]
    # A decaying spectrum, as in real data; every solver then finds the same components.
    X = rng.normal(size=(params["n_samples"], d)) * (1.0 / np.arange(1, d + 1))
    return {"X": X, "k": params["n_components"], "svd_solver": params["svd_solver"]}


def _fit_transform(estimator_class, data, **kwargs):
    model = estimator_class(n_components=data["k"], svd_solver=data["svd_solver"],
                            random_state=0, **kwargs)
    with threadpool_limits(limits=N_THREADS, user_api="blas"):
        Z = model.fit_transform(data["X"])
    return {"variance": float(model.explained_variance_.sum()),
            "score_norm": float(np.abs(Z).sum())}


def _kernelkit(data):
    return _fit_transform(PCA, data, n_jobs=N_THREADS)


def _sklearn(data):
    from sklearn.decomposition import PCA as SklearnPCA

    return _fit_transform(SklearnPCA, data)


def _sklearnex(data):
    # imported directly (no patching); its randomized solver is scikit-learn's
    from sklearnex.decomposition import PCA as OneDalPCA

    return _fit_transform(OneDalPCA, data, n_jobs=N_THREADS)


SUITE = Suite(
    name="pca",
    description=(
        "PCA fit_transform on Gaussian data with a 1/j column scale (a decaying spectrum), on "
        f"{N_THREADS} threads for every contender (kernelkit n_jobs, scikit-learn-intelex "
        "n_jobs, BLAS through threadpoolctl): svd_solver='auto' on the first three cases (same "
        "rule on both sides), then each solver at the tall sizes with 10 components. "
        "scikit-learn-intelex runs 'full' and 'covariance_eigh' in oneDAL (a covariance "
        "method), 'randomized' in scikit-learn. `variance` is the retained variance, "
        "`score_norm` the sum of |scores|. scikit-learn (and scikit-learn-intelex's "
        f"randomized solver, which is scikit-learn's) is left out beyond {SKLEARN_MAX_SAMPLES} "
        "samples. No compiled core, so no reference contender."
    ),
    cases=lambda quick: QUICK_CASES if quick else CASES,
    setup=setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("scikit-learn", _sklearn, requires=("sklearn",),
                  applies=lambda params: params["n_samples"] <= SKLEARN_MAX_SAMPLES),
        Contender("scikit-learn-intelex", _sklearnex, requires=("sklearnex",),
                  applies=lambda params: (params["svd_solver"] != "randomized"
                                          or params["n_samples"] <= SKLEARN_MAX_SAMPLES)),
    ],
    repeats=lambda params, quick: 3 if quick or params["n_samples"] > 20_000 else 7,
)
