"""k-NN search and prediction against scikit-learn's algorithms, same neighbours."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite

K = 5


def _cases(quick):
    n_train, n_query = (20_000, 2_000) if quick else (100_000, 10_000)
    return [dict(n_train=n_train, n_query=n_query, d=d) for d in (10, 50)]


def _setup(params):
    rng = np.random.default_rng(0)
    n = params["n_train"] + params["n_query"]
    centres = rng.normal(scale=3.0, size=(20, params["d"]))
    labels = rng.integers(0, 20, n)
    X = centres[labels] + rng.normal(size=(n, params["d"]))
    cut = params["n_train"]
    return dict(params=params, X=X[:cut], y=labels[:cut], X_test=X[cut:], neighbours={})


def _report(name, model, data):
    distances, indices = model.kneighbors(data["X_test"])
    predicted = model.predict(data["X_test"])
    data["neighbours"][name] = indices
    values = {"mean distance": float(distances.mean()), "checksum": int(predicted.sum())}
    if name != "kernelkit" and "kernelkit" in data["neighbours"]:
        values["same neighbours"] = float(np.mean(
            np.sort(indices, axis=1) == np.sort(data["neighbours"]["kernelkit"], axis=1)))
    return values


def _kernelkit(data):
    from kernelkit.neighbors import KNeighborsClassifier

    model = KNeighborsClassifier(K, n_jobs=2).fit(data["X"], data["y"])
    return _report("kernelkit", model, data)


def _sklearn(algorithm):
    def run(data):
        from sklearn.neighbors import KNeighborsClassifier

        model = KNeighborsClassifier(K, algorithm=algorithm, n_jobs=2).fit(data["X"], data["y"])
        return _report(f"scikit-learn {algorithm}", model, data)
    return run


SUITE = Suite(
    name="neighbors",
    description=f"""
``kneighbors`` then ``predict`` (the search twice, as a user who looks at the neighbours and
predicts) of a {K}-NN classifier, fit included, 2 threads for every contender: 20 Gaussian
clusters in ``d`` dimensions, ``n_train`` training rows, ``n_query`` queries. kernelkit's
``algorithm="auto"`` (SciPy's k-d tree at d ≤ 15 from 20 000 samples, its compiled brute force
otherwise) against scikit-learn's brute force, its k-d tree (not at d = 50: 71 s) and its
``auto``. Values: the mean neighbour distance, a checksum of the predictions, and the share of
neighbour lists equal to kernelkit's.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("scikit-learn brute", _sklearn("brute"), requires=("sklearn",)),
        Contender("scikit-learn kd_tree", _sklearn("kd_tree"), requires=("sklearn",),
                  applies=lambda params: params["d"] <= 15),
        Contender("scikit-learn auto", _sklearn("auto"), requires=("sklearn",)),
    ],
    repeats=lambda params, quick: 3,
    measure_memory=True,
)
