"""k-medoids: FasterPAM and the alternate method, kernelkit vs the kmedoids package (Rust) and
scikit-learn-extra, on digits-like data."""

import warnings

import numpy as np

from kernelkit.bench._harness import Contender, Suite

MAX_ITER = 300


def cases(quick):
    sizes = [2000] if quick else [5000, 20000]
    return [dict(method=method, n=n, k=k) for method in ("pam", "alternate") for n in sizes
            for k in (10, 50)]


def setup(p):
    """Digits-like data: the 1797 digits of scikit-learn resampled with Gaussian pixel noise
    (σ = 1 grey level, clipped to [0, 16]); the initial medoids drawn once."""
    from sklearn.datasets import load_digits

    from kernelkit._core._kmedoids import METRICS, distance_matrix
    from kernelkit.utils._gram import blas_controller

    digits = load_digits().data
    rng = np.random.default_rng(0)
    n = p["n"]
    X = np.clip(digits[rng.integers(0, len(digits), n)] + rng.normal(0.0, 1.0, (n, 64)), 0, 16)
    init = rng.choice(n, p["k"], replace=False).astype(np.intp)
    D = None
    if p["method"] == "pam":
        centred = X - X.mean(axis=0)
        D = np.empty((n, n))
        with blas_controller().limit(limits=1, user_api="blas"):
            distance_matrix(centred, np.einsum("ij,ij->i", centred, centred),
                            METRICS["euclidean"], D, 2)
    return dict(X=X, D=D, init=init, method=p["method"])


def _kernelkit(n_jobs, on_the_fly=False):
    def run(data):
        import sklearn

        from kernelkit.cluster import KMedoids

        k = len(data["init"])
        model = KMedoids(k, method=data["method"], init=data["init"], max_iter=MAX_ITER,
                         n_jobs=n_jobs)
        if data["method"] == "alternate":
            model.fit(data["X"])
        elif on_the_fly:
            with sklearn.config_context(working_memory=1):   # no room for the matrix
                model.fit(data["X"])
        else:
            model.set_params(metric="precomputed").fit(data["D"])
        return {"objective": model.inertia_, "iterations": model.n_iter_,
                "swaps": model.n_swaps_}
    return run


def _rust(n_cpu):
    def run(data):
        import kmedoids

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)   # "seed ignored if medoids given"
            result = kmedoids.fasterpam(data["D"], data["init"].copy(), max_iter=MAX_ITER,
                                        n_cpu=n_cpu, random_state=0 if n_cpu > 1 else None)
        return {"objective": float(result.loss), "iterations": int(result.n_iter),
                "swaps": int(result.n_swap)}
    return run


def run_sklearn_extra(data):
    from sklearn_extra.cluster import KMedoids

    k = len(data["init"])
    if data["method"] == "pam":
        model = KMedoids(k, metric="precomputed", method="pam", init=data["D"][data["init"]],
                         max_iter=MAX_ITER).fit(data["D"])
    else:
        # initial centres given as the rows of the initial medoids
        model = KMedoids(k, method="alternate", init=data["X"][data["init"]],
                         max_iter=MAX_ITER).fit(data["X"])
    return {"objective": float(model.inertia_), "iterations": int(model.n_iter_)}


def run_reference(data):
    from kernelkit.reference import fasterpam

    n = data["D"].shape[0]
    medoids = data["init"].copy()
    loss, n_iter, n_swaps = fasterpam(data["D"], None, None, -1, medoids, np.empty(n, np.int32),
                                      np.empty(n), np.empty(MAX_ITER), MAX_ITER)
    return {"objective": loss, "iterations": n_iter, "swaps": n_swaps}


SUITE = Suite(
    name="kmedoids",
    description=(
        "Time of a k-medoids fit from the same initial medoids (median of alternating runs). "
        "Data: digits-like, the 1797 scikit-learn digits resampled to n samples with N(0, 1) "
        "pixel noise clipped to [0, 16] (64 features). 'pam': FasterPAM on the precomputed "
        "Euclidean distance matrix (float64, computed once in the set-up, not timed) — "
        "kernelkit KMedoids(metric='precomputed', method='pam') with n_jobs=2 and 1, the "
        "kmedoids package's fasterpam (Rust) with n_cpu=1 (the same sequential algorithm: equal "
        "objective and swaps) and n_cpu=2 (its par_fasterpam, a different parallel variant), "
        "scikit-learn-extra's PAM (n = 5000, k = 10 only: it evaluates all k(n−k) swaps per "
        "step), and kernelkit on the raw vectors with rows recomputed every pass "
        "(working_memory too small for the matrix; the time includes all distance "
        "computations). 'alternate': the alternate (Voronoi + in-cluster medoid) method on the "
        "vectors, kernelkit vs scikit-learn-extra (which computes the full distance matrix "
        "itself). Equal objective = same medoids. scikit-learn-extra 0.3.0 was built from source "
        "against numpy 2 (its wheel is binary-incompatible)."
    ),
    cases=cases,
    setup=setup,
    contenders=[
        Contender("kernelkit", _kernelkit(2)),
        Contender("kernelkit, 1 thread", _kernelkit(1)),
        Contender("kernelkit, vectors, rows on the fly", _kernelkit(2, on_the_fly=True),
                  applies=lambda p: p["method"] == "pam"),
        Contender("kmedoids (Rust), n_cpu=1", _rust(1), requires=("kmedoids",),
                  applies=lambda p: p["method"] == "pam"),
        Contender("kmedoids (Rust), n_cpu=2", _rust(2), requires=("kmedoids",),
                  applies=lambda p: p["method"] == "pam"),
        Contender("scikit-learn-extra", run_sklearn_extra, requires=("sklearn_extra",),
                  applies=lambda p: p["method"] == "alternate" or (p["n"] <= 5000
                                                                  and p["k"] == 10)),
        Contender("reference (NumPy)", run_reference,
                  applies=lambda p: p["method"] == "pam" and p["n"] <= 2000 and p["k"] == 10),
    ],
    repeats=lambda params, quick: 3,
)
