"""k-NN search against the strongest CPU engines (oneDAL through scikit-learn-intelex, faiss)
and scikit-learn, same neighbours."""

import numpy as np
from kernelkit.bench._harness import Contender, Suite

K = 10


def _cases(quick):
    n_train, n_query = (20_000, 2_000) if quick else (100_000, 10_000)
    return [{"n_train": n_train, "n_query": n_query, "d": d, "dtype": dtype}
            for d in ((10, 50) if quick else (10, 50, 200)) for dtype in ("float32", "float64")]


def _setup(params):
    rng = np.random.default_rng(0)
    n = params["n_train"] + params["n_query"]
    centres = rng.normal(scale=3.0, size=(20, params["d"]))
    labels = rng.integers(0, 20, n)
    X = (centres[labels] + rng.normal(size=(n, params["d"]))).astype(params["dtype"])
    cut = params["n_train"]
    return {"params": params, "X": X[:cut], "y": labels[:cut], "X_test": X[cut:],
            "neighbours": {}}


def _report(name, distances, indices, data):
    data["neighbours"][name] = indices
    values = {"mean distance": float(np.mean(distances, dtype=np.float64))}
    if name != "kernelkit" and "kernelkit" in data["neighbours"]:
        values["same neighbours"] = float(np.mean(
            np.sort(indices, axis=1) == np.sort(data["neighbours"]["kernelkit"], axis=1)))
    return values


def _estimator(name, make):
    def run(data):
        model = make().fit(data["X"], data["y"])
        return _report(name, *model.kneighbors(data["X_test"]), data)
    return run


def _kernelkit():
    from kernelkit.neighbors import KNeighborsClassifier

    return KNeighborsClassifier(K, n_jobs=2)


def _sklearnex():
    from sklearnex.neighbors import KNeighborsClassifier

    return KNeighborsClassifier(K, n_jobs=2)


def _sklearn():
    from sklearn.neighbors import KNeighborsClassifier

    return KNeighborsClassifier(K, n_jobs=2)


def _faiss(data):
    import faiss

    faiss.omp_set_num_threads(2)
    index = faiss.IndexFlatL2(data["X"].shape[1])
    index.add(np.ascontiguousarray(data["X"], dtype=np.float32))
    squared, indices = index.search(np.ascontiguousarray(data["X_test"], dtype=np.float32), K)
    return _report("faiss", np.sqrt(np.maximum(squared, 0)), indices, data)


SUITE = Suite(
    name="neighbors",
    description=f"""
Fit then ``kneighbors`` of a {K}-NN classifier, 2 threads for every contender: 20 Gaussian
clusters in ``d`` dimensions, ``n_train`` training rows, ``n_query`` queries, float32 or float64.
kernelkit's ``algorithm="auto"`` (its compiled KD-tree at d ≤ 15 from 20 000 samples, its
compiled brute force otherwise) against oneDAL's k-NN through scikit-learn-intelex
(``sklearnex.neighbors``, its ``auto``: a KD-tree in low dimension, brute force otherwise),
faiss's exact ``IndexFlatL2`` (float32, 2 OpenMP threads) and scikit-learn's ``auto`` (not at
d = 200). Values: the mean neighbour distance and the share of neighbour lists equal to
kernelkit's.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _estimator("kernelkit", _kernelkit)),
        Contender("sklearnex", _estimator("sklearnex", _sklearnex), requires=("sklearnex",)),
        Contender("faiss", _faiss, requires=("faiss",)),
        Contender("scikit-learn", _estimator("scikit-learn", _sklearn), requires=("sklearn",),
                  applies=lambda params: params["d"] <= 50),
    ],
    repeats=lambda params, quick: 3,
    measure_memory=True,
)
