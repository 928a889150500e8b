"""k-means: time per Lloyd iteration, kernelkit vs the NumPy reference vs scikit-learn."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite

ITERATIONS = 10
REFERENCE_ITERATIONS = 2


def cases(quick):
    if quick:
        return [dict(n=20_000, d=50, k=100), dict(n=200_000, d=10, k=20)]
    return [dict(n=100_000, d=50, k=100), dict(n=1_000_000, d=10, k=20)]


def setup(p):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((p["n"], p["d"]))
    centers = X[rng.choice(p["n"], p["k"], replace=False)].copy()
    return X, centers


def run_kernelkit(data):
    from kernelkit.cluster import KMeans

    X, centers = data
    km = KMeans(len(centers), init=centers, max_iter=ITERATIONS, tol=0.0, n_jobs=2).fit(X)
    return {"per": km.n_iter_, "iterations": km.n_iter_, "inertia": km.inertia_}


def run_reference(data):
    from kernelkit.reference import kmeans_lloyd

    X, centers = data
    _, _, inertia, n_iter, _ = kmeans_lloyd(X, centers, REFERENCE_ITERATIONS, 0.0)
    return {"per": n_iter, "iterations": n_iter, "inertia": inertia}


def run_sklearn(data):
    from sklearn.cluster import KMeans

    X, centers = data
    km = KMeans(len(centers), init=centers, n_init=1, max_iter=ITERATIONS, tol=0.0,
                algorithm="lloyd").fit(X)
    return {"per": km.n_iter_, "iterations": km.n_iter_, "inertia": km.inertia_}


GEMM_SIZE = 768
_SQUARE = np.random.default_rng(1).standard_normal((GEMM_SIZE, GEMM_SIZE))


def run_gemm_bound(data):
    """The arithmetic bound of one iteration: the 2·n·k·d flops of X·Cᵀ at this machine's
    peak GEMM rate, measured now on a square product (numpy's BLAS, all threads). The harness
    divides the time by ``per`` = square flops / iteration flops."""
    X, centers = data
    _SQUARE @ _SQUARE
    flops = 2 * X.shape[0] * X.shape[1] * centers.shape[0]
    return {"per": 2 * GEMM_SIZE**3 / flops, "flops": flops}


SUITE = Suite(
    name="kmeans",
    description=(
        "Time per Lloyd iteration (median over alternating repeats, each a fit of "
        f"{ITERATIONS} iterations from the same initial centres, tol=0; the pure-NumPy "
        f"reference runs {REFERENCE_ITERATIONS}). Data: standard normal, float64. kernelkit "
        "with n_jobs=2; scikit-learn KMeans(algorithm='lloyd', n_init=1) with its default "
        "threads. 'GEMM bound' is 2·n·k·d flops at the GEMM rate of a square "
        f"{GEMM_SIZE}³ product timed in the same run: the arithmetic floor of an iteration. "
        "Equal inertia = the same clustering."
    ),
    cases=cases,
    setup=setup,
    contenders=[
        Contender("kernelkit", run_kernelkit),
        Contender("reference (NumPy)", run_reference),
        Contender("scikit-learn", run_sklearn, requires=("sklearn",)),
        Contender("GEMM bound (2nkd flops)", run_gemm_bound),
    ],
    repeats=lambda params, quick: 3 if quick else 5,
)
