"""SimpleMKL on precomputed RBF Gram stacks: warm-started inner SVM vs cold starts, and peers."""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.preprocessing import StandardScaler

from kernelkit.bench._harness import Contender, Suite
from kernelkit.kernels import rbf_kernel
from kernelkit.mkl import SimpleMKL

CASES = [{"n": 1000, "n_kernels": 10}, {"n": 2000, "n_kernels": 20}]
QUICK_CASES = [{"n": 500, "n_kernels": 10}, {"n": 1000, "n_kernels": 10}]
N_THREADS = 2


def setup(params):
    n = params["n"]
    X, y = make_classification(n_samples=n + n // 4, n_features=20, n_informative=8,
                               random_state=0)
    X = StandardScaler().fit_transform(X)
    gammas = np.logspace(-3, 0, params["n_kernels"])
    train, test = slice(0, n), slice(n, None)
    data = {
        "K_train": np.stack([rbf_kernel(X[train], gamma=g) for g in gammas], axis=-1),
        "K_test": np.stack([rbf_kernel(X[test], X[train], gamma=g) for g in gammas], axis=-1),
        "y_train": y[train], "y_test": y[test],
    }
    # the model that `warm refit` refits: each refit leaves it at the same optimum
    data["fitted"] = _model(True).fit(data["K_train"], data["y_train"])
    return data


def _model(warm_start):
    return SimpleMKL("precomputed", C=1.0, tol=1e-3, warm_start=warm_start, n_jobs=N_THREADS)


def _values(model, data):
    return {"J": round(float(model.objective_history_[-1]), 4), "iterations": model.n_iter_,
            "kernels kept": int(np.count_nonzero(model.weights_)),
            "accuracy": round(float(model.score(data["K_test"], data["y_test"])), 4)}


def _simple_mkl(warm_start):
    def run(data):
        return _values(_model(warm_start).fit(data["K_train"], data["y_train"]), data)
    return run


def _warm_refit(data):
    return _values(data["fitted"].fit(data["K_train"], data["y_train"]), data)


def _easy_mkl(data):
    from MKLpy.algorithms import EasyMKL

    Ks = [data["K_train"][..., m] for m in range(data["K_train"].shape[-1])]
    model = EasyMKL(lam=0.1).fit(Ks, data["y_train"])
    tests = [data["K_test"][..., m] for m in range(data["K_test"].shape[-1])]
    return {"accuracy": round(float(np.mean(model.predict(tests) == data["y_test"])), 4)}


SUITE = Suite(
    name="mkl",
    description=(
        f"SimpleMKL (hinge loss, C = 1, duality-gap tolerance 1e-3, inner SVM tol 1e-6) on n "
        "training samples of make_classification (20 features, standardised) with RBF kernels of "
        "widths γ = logspace(-3, 0, n_kernels), Gram matrices precomputed once (kernels last). "
        "`warm start` refits kernelkit's SVC from the previous solution at every evaluation of "
        "J; `cold starts` refits from α = 0 and uniform weights, which is what a hand-rolled "
        "SimpleMKL around an SVM library does; `warm refit` refits a fitted model on the same "
        f"data (from its weights and SVM solution). {N_THREADS} threads. `J` is the objective "
        "reached (equal within the tolerance), `accuracy` is on n/4 held-out samples. MKLpy "
        "(EasyMKL) is the peer when it can be installed (it needs torch and cvxopt)."
    ),
    cases=lambda quick: QUICK_CASES if quick else CASES,
    setup=setup,
    contenders=[
        Contender("kernelkit (warm start)", _simple_mkl(True)),
        Contender("kernelkit (cold starts)", _simple_mkl(False)),
        Contender("kernelkit (warm refit)", _warm_refit),
        Contender("MKLpy EasyMKL", _easy_mkl, requires=("MKLpy",)),
    ],
    repeats=3,
)
