"""SVC/SVR fit time against LIBSVM (scikit-learn), at equal C, gamma, tol and cache size."""

import os

import numpy as np

from kernelkit.bench._harness import Contender, Suite

C, TOL, CACHE_MB = 1.0, 1e-3, 200.0


def _cases(quick):
    if quick:
        return [
            dict(problem="binary", n=100),
            dict(problem="binary", n=2000),
            dict(problem="digits", n=1797),
            dict(problem="multiclass", n=5000),
            dict(problem="regression", n=1000),
            dict(problem="precomputed", n=1000),
        ]
    return [
        dict(problem="binary", n=200),
        dict(problem="binary", n=2000),
        dict(problem="binary", n=5000),
        dict(problem="binary", n=10000),
        dict(problem="digits", n=1797),
        dict(problem="multiclass", n=20000),
        dict(problem="regression", n=5000),
        dict(problem="precomputed", n=5000),
    ]


def _setup(params):
    from sklearn.datasets import load_digits, make_classification, make_regression
    from sklearn.metrics.pairwise import rbf_kernel

    problem, n = params["problem"], params["n"]
    if problem == "digits":
        X, y = load_digits(return_X_y=True)
    elif problem == "regression":
        X, y = make_regression(n_samples=n, n_features=20, noise=10.0, random_state=0)
        y = (y - y.mean()) / y.std()
    elif problem == "multiclass":
        X, y = make_classification(n_samples=n, n_features=20, n_informative=10, n_classes=10,
                                   random_state=0)
    else:
        X, y = make_classification(n_samples=n, n_features=20, random_state=0)
    X = np.ascontiguousarray(X, dtype=np.float64)
    gamma = 1.0 / (X.shape[1] * X.var())
    data = dict(X=X, y=y, gamma=gamma, kernel="rbf", problem=problem, objectives={})
    if problem == "precomputed":
        data.update(X=rbf_kernel(X, gamma=gamma), kernel="precomputed")
    return data


def _model(module, data, **kwargs):
    """The SVC or SVR of ``module`` (``kernelkit.svm``, ``sklearn.svm`` or ``sklearnex.svm``) at
    the suite's parameters."""
    kwargs.update(C=C, tol=TOL, cache_size=CACHE_MB, kernel=data["kernel"], gamma=data["gamma"])
    if data["problem"] == "regression":
        return module.SVR(epsilon=0.1, **kwargs)
    return module.SVC(**kwargs)


def _dual_objective(model, data):
    """LIBSVM's minimised dual objective, summed over one-vs-one problems, from the attributes."""
    from itertools import combinations

    from sklearn.metrics.pairwise import rbf_kernel

    X, y = data["X"], data["y"]

    def gram(rows):
        if data["kernel"] == "precomputed":
            return X[np.ix_(rows, rows)]
        return rbf_kernel(X[rows], gamma=data["gamma"])

    if data["problem"] == "regression":
        beta, rows = model.dual_coef_[0], model.support_
        return 0.5 * beta @ gram(rows) @ beta - y[rows] @ beta + 0.1 * np.abs(beta).sum()
    offsets = np.concatenate([[0], np.cumsum(model.n_support_)])
    total = 0.0
    for a, b in combinations(range(model.classes_.size), 2):
        sv_a, sv_b = np.arange(offsets[a], offsets[a + 1]), np.arange(offsets[b], offsets[b + 1])
        coef = np.concatenate([model.dual_coef_[b - 1, sv_a], model.dual_coef_[a, sv_b]])
        rows = model.support_[np.concatenate([sv_a, sv_b])]
        total += 0.5 * coef @ gram(rows) @ coef - np.abs(coef).sum()
    return total


def _report(name, model, data):
    """Objective (computed once, at the untimed warm-up run, and reused) and its gap."""
    objectives = data["objectives"]
    if name not in objectives:
        objectives[name] = _dual_objective(model, data)
    values = dict(objective=objectives[name], n_SV=int(model.support_.size))
    if name != "kernelkit" and "kernelkit" in objectives:
        ours = objectives["kernelkit"]
        values["rel_gap"] = abs(objectives[name] - ours) / abs(ours)
    return values


def _kernelkit(data):
    from kernelkit import svm

    return _report("kernelkit", _model(svm, data).fit(data["X"], data["y"]), data)


def _kernelkit_one_thread(data):
    from kernelkit import svm

    model = _model(svm, data, n_jobs=1).fit(data["X"], data["y"])
    return _report("kernelkit", model, data)


def _reference(data):
    from kernelkit.reference.gram import KERNEL_CODES
    from kernelkit.reference.smo import smo_solve

    X, y = data["X"], data["y"]
    signs = np.where(y == y.max(), -1, 1).astype(np.int32)
    n = y.size
    alpha = np.zeros(n)
    # rbf: k(x, x) = 1
    _, objective, _, _ = smo_solve(
        {"X": X, "x_sqnorm": np.einsum("ij,ij->i", X, X), "gram": np.zeros((0, 0)),
         "col": np.arange(n), "y": signs, "p": -np.ones(n), "upper_bound": np.full(n, C),
         "diagonal": np.ones(n), "regression": False, "kernel": KERNEL_CODES["rbf"],
         "gamma": data["gamma"], "coef0": 0.0, "degree": 3.0},
        {"tol": TOL, "shrinking": True, "cache_size": CACHE_MB, "max_iter": 10**8,
         "n_threads": 1, "check_curvature": False},
        alpha)
    values = dict(objective=objective, n_SV=int(np.count_nonzero(alpha)))
    if "kernelkit" in data["objectives"]:
        values["rel_gap"] = abs(objective - data["objectives"]["kernelkit"]) / abs(
            data["objectives"]["kernelkit"])
    return values


def _sklearn(data):
    from sklearn import svm

    return _report("scikit-learn", _model(svm, data).fit(data["X"], data["y"]), data)


def _sklearnex(data):
    from sklearnex import svm

    # oneDAL's threads: n_jobs=2, the machine's cores, as kernelkit's default
    return _report("sklearnex", _model(svm, data, n_jobs=2).fit(data["X"], data["y"]), data)


SUITE = Suite(
    name="svm",
    description=(
        "Fit time of SVC (binary RBF on make_classification with 20 features; digits and a "
        "10-class make_classification (20 features, 10 informative), one-vs-one over 45 pairs, "
        "solved concurrently by kernelkit's threads — 'kernelkit, 1 thread' is n_jobs=1; RBF "
        "Gram precomputed) and ε-SVR (make_regression, 20 features, "
        "standardised target, ε = 0.1), all with C = 1, gamma = 1/(n_features·Var X), "
        "tol = 1e-3, cache_size = 200 MB; 'sklearnex' is Intel oneDAL's SVC/SVR "
        "(scikit-learn-intelex, `sklearnex.svm`, n_jobs=2). kernelkit may use every OpenMP thread, but a kernel "
        "row is only split across threads above ~10⁶ "
        "samples × (n_features + 16), so with 20 features every binary problem here is solved "
        "on one thread, like LIBSVM (scikit-learn). "
        f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'unset')}. `objective` is LIBSVM's "
        "minimised dual ½αᵀQα + pᵀα (summed over the one-vs-one problems), recomputed from `dual_coef_` once, outside the timed runs; "
        "`rel_gap` is its relative distance to kernelkit's. The reference (pure-Python "
        "simplified SMO, Sangnier Algorithm 4) runs on the smallest case only. `peak MiB` is the "
        "peak resident-memory increase of one fit in a fresh process."
    ),
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("kernelkit, 1 thread", _kernelkit_one_thread,
                  applies=lambda p: p["problem"] in ("digits", "multiclass")),
        Contender("reference", _reference, applies=lambda p: p["n"] <= 200),
        Contender("scikit-learn", _sklearn, requires=("sklearn",)),
        Contender("sklearnex", _sklearnex, requires=("sklearnex",)),
    ],
    repeats=lambda params, quick: 2 if quick else 3,
    measure_memory=True,
)
