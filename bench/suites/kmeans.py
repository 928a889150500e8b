"""k-means: time per Lloyd iteration and fits to convergence, kernelkit (Lloyd, Elkan) vs the
NumPy reference vs scikit-learn (Lloyd, Elkan), Intel oneDAL (sklearnex) and faiss."""

import numpy as np
from kernelkit.bench._harness import Contender, Suite

ITERATIONS = 10
REFERENCE_ITERATIONS = 2
MAX_ITER = 300


def cases(quick):
    if quick:
        return [{"mode": "iteration", "n": 20_000, "d": 50, "k": 100},
                {"mode": "iteration", "n": 20_000, "d": 50, "k": 100, "dtype": "float32"},
                {"mode": "iteration", "n": 200_000, "d": 10, "k": 20},
                {"mode": "convergence", "n": 20_000, "d": 50, "k": 100},
                {"mode": "convergence", "n": 200_000, "d": 10, "k": 20}]
    return [{"mode": "iteration", "n": 100_000, "d": 50, "k": 100},
            {"mode": "iteration", "n": 100_000, "d": 50, "k": 100, "dtype": "float32"},
            {"mode": "iteration", "n": 1_000_000, "d": 10, "k": 20},
            {"mode": "convergence", "n": 100_000, "d": 50, "k": 100},
            {"mode": "convergence", "n": 1_000_000, "d": 10, "k": 20},
            {"mode": "convergence", "data": "digits", "k": 10}]


def setup(p):
    rng = np.random.default_rng(0)
    if p.get("data") == "digits":
        from sklearn.datasets import load_digits

        X = load_digits().data
    elif p["mode"] == "iteration":
        X = rng.standard_normal((p["n"], p["d"]))
    else:
        from sklearn.datasets import make_blobs

        # overlapping blobs: the clusters are there, but it takes tens of iterations
        X = make_blobs(p["n"], p["d"], centers=p["k"], cluster_std=4.0, random_state=0)[0]
    X = X.astype(p.get("dtype", "float64"))
    centers = X[rng.choice(X.shape[0], p["k"], replace=False)].copy()
    n_iter = ITERATIONS
    if p["mode"] == "convergence":
        from kernelkit.cluster import KMeans

        # faiss has no tolerance: it runs the number of iterations kernelkit converges in
        n_iter = KMeans(p["k"], init=centers, max_iter=MAX_ITER, n_jobs=2).fit(X).n_iter_
    return X, centers, p["mode"], n_iter


def _settings(mode):
    """(max_iter, tol): ten iterations exactly, or a fit to convergence at the default tol."""
    return (ITERATIONS, 0.0) if mode == "iteration" else (MAX_ITER, 1e-4)


def _values(km):
    return {"per": km.n_iter_ if km.tol == 0.0 else 1, "iterations": km.n_iter_,
            "inertia": km.inertia_, "labels": _label_digest(km.labels_)}


def _label_digest(labels):
    """A short fingerprint of the labels: equal digests = the same clustering."""
    return int(np.dot(labels.astype(np.int64), np.arange(1, labels.size + 1) % 9973) % 10**9)


def _kernelkit(algorithm):
    def run(data):
        from kernelkit.cluster import KMeans

        X, centers, mode, _ = data
        max_iter, tol = _settings(mode)
        if algorithm is None:
            # the baseline: Lloyd per iteration, the default ("auto" = Hamerly) for whole fits
            algorithm_ = "lloyd" if mode == "iteration" else "auto"
        else:
            algorithm_ = algorithm
        return _values(KMeans(len(centers), init=centers, max_iter=max_iter, tol=tol, n_jobs=2,
                              algorithm=algorithm_).fit(X))
    return run


def _sklearn(algorithm):
    def run(data):
        from sklearn.cluster import KMeans

        X, centers, mode, _ = data
        max_iter, tol = _settings(mode)
        return _values(KMeans(len(centers), init=centers, n_init=1, max_iter=max_iter, tol=tol,
                              algorithm=algorithm).fit(X))
    return run


def run_sklearnex(data):
    """Intel oneDAL's Lloyd through scikit-learn-intelex, imported directly (no patching)."""
    from sklearnex.cluster import KMeans

    X, centers, mode, _ = data
    max_iter, tol = _settings(mode)
    return _values(KMeans(len(centers), init=centers, n_init=1, max_iter=max_iter, tol=tol,
                          algorithm="lloyd", n_jobs=2).fit(X))


def run_faiss(data):
    """faiss's k-means (float32 only: float64 data is converted inside the timing) from the same
    centres, every sample used (no subsampling), as many iterations as kernelkit's run: 10 per
    iteration case, kernelkit's n_iter to convergence. 'objective' is faiss's objective of its
    last assignment step (the centres before the last update), not the final inertia."""
    import faiss

    X, centers, mode, n_iter = data
    faiss.omp_set_num_threads(2)
    km = faiss.Kmeans(X.shape[1], len(centers), niter=n_iter, nredo=1, spherical=False, seed=0,
                      max_points_per_centroid=10**9)
    km.train(np.ascontiguousarray(X, dtype=np.float32),
             init_centroids=np.ascontiguousarray(centers, dtype=np.float32))
    return {"per": n_iter if mode == "iteration" else 1, "iterations": n_iter,
            "objective": float(km.obj[-1])}


def run_reference(data):
    from kernelkit.reference import kmeans_lloyd

    X, centers, _, _ = data
    _, _, inertia, n_iter, _ = kmeans_lloyd(X, centers, REFERENCE_ITERATIONS, 0.0)
    return {"per": n_iter, "iterations": n_iter, "inertia": inertia}


GEMM_SIZE = 768
_SQUARE = np.random.default_rng(1).standard_normal((GEMM_SIZE, GEMM_SIZE))


def run_gemm_bound(data):
    """The arithmetic bound of one iteration: the 2·n·k·d flops of X·Cᵀ at this machine's
    peak GEMM rate, measured now on a square product (numpy's BLAS, all threads). The harness
    divides the time by ``per`` = square flops / iteration flops."""
    X, centers, _, _ = data
    _SQUARE @ _SQUARE
    flops = 2 * X.shape[0] * X.shape[1] * centers.shape[0]
    return {"per": 2 * GEMM_SIZE**3 / flops, "flops": flops}


def _iteration(params):
    return params["mode"] == "iteration"


def _convergence(params):
    return params["mode"] == "convergence"


SUITE = Suite(
    name="kmeans",
    description=(
        "mode=iteration: time per Lloyd iteration (median over alternating repeats, each a fit "
        f"of {ITERATIONS} iterations from the same initial centres, tol=0; the pure-NumPy "
        f"reference runs {REFERENCE_ITERATIONS}), standard normal data. mode=convergence: time "
        f"of a whole fit (tol=1e-4, max_iter={MAX_ITER}) from the same initial centres, on "
        "overlapping Gaussian blobs (cluster_std=4) or the digits. Float64 data, float32 where a "
        "case says so. kernelkit with n_jobs=2: 'kernelkit' is algorithm='lloyd' per iteration "
        "and the default 'auto' (= 'hamerly') for whole fits; scikit-learn KMeans(n_init=1) "
        "with its default threads; sklearnex (Intel oneDAL) KMeans(algorithm='lloyd', "
        "n_jobs=2); faiss.Kmeans with 2 OpenMP threads, float32 (float64 data converted in the "
        "timing), no subsampling, for kernelkit's number of iterations (no tolerance in faiss). "
        "'GEMM bound' is 2·n·k·d flops at the GEMM rate of a square "
        f"{GEMM_SIZE}³ product timed in the same run: the arithmetic floor of a double-precision "
        "iteration. 'labels' is a digest of the labels: equal digests = the same clustering."
    ),
    cases=cases,
    setup=setup,
    contenders=[
        Contender("kernelkit", _kernelkit(None)),
        Contender("kernelkit lloyd", _kernelkit("lloyd"), applies=_convergence),
        Contender("kernelkit elkan", _kernelkit("elkan"), applies=_convergence),
        Contender("reference (NumPy)", run_reference, applies=_iteration),
        Contender("scikit-learn", _sklearn("lloyd"), requires=("sklearn",)),
        Contender("scikit-learn elkan", _sklearn("elkan"), requires=("sklearn",),
                  applies=_convergence),
        Contender("sklearnex", run_sklearnex, requires=("sklearnex",)),
        Contender("faiss", run_faiss, requires=("faiss",)),
        Contender("GEMM bound (2nkd flops)", run_gemm_bound, applies=_iteration),
    ],
    repeats=lambda params, quick: 3 if quick or _convergence(params) else 5,
)
