"""SVC on small precomputed Grams, where graph-kernel users are: single fits and a WL study."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite, shared_data

C_GRID = np.logspace(-3, 3, 7)
N_FOLDS = 10
TU_SETS = ("MUTAG", "PTC_MR", "ENZYMES", "PROTEINS_full")


def _cases(quick):
    fits = [dict(problem="fit", n=n) for n in ((100, 300) if quick else (100, 300, 1000, 5000))]
    sets = ("MUTAG",) if quick or shared_data("PTC_MR") is None else TU_SETS
    return fits + [dict(problem="wl_study", data=name) for name in sets]


def _setup(params):
    if params["problem"] == "fit":
        from sklearn.datasets import make_classification
        from sklearn.metrics.pairwise import rbf_kernel

        X, y = make_classification(n_samples=params["n"], n_features=20, random_state=0)
        return dict(params=params, K=rbf_kernel(X, gamma=1.0 / (20 * X.var())), y=y)
    from sklearn.model_selection import StratifiedKFold

    from kernelkit.datasets import load_mutag, load_tudataset
    from kernelkit.kernels import WeisfeilerLehmanKernel

    name = params["data"]
    data = load_mutag() if name == "MUTAG" else load_tudataset(shared_data("PTC_MR") / name, name)
    K = WeisfeilerLehmanKernel(n_iter=5, normalize=True).fit_transform(data.graphs)
    folds = list(StratifiedKFold(N_FOLDS, shuffle=True, random_state=0).split(K, data.target))
    return dict(params=params, K=K, y=data.target, folds=folds)


def _run(SVC, data, **kwargs):
    K, y = data["K"], data["y"]
    if data["params"]["problem"] == "fit":
        model = SVC(kernel="precomputed", **kwargs).fit(K, y)
        return dict(n_SV=int(model.support_.size))
    accuracy = np.zeros(len(C_GRID))
    for train, test in data["folds"]:
        for c, C in enumerate(C_GRID):
            model = SVC(kernel="precomputed", C=C, **kwargs).fit(K[np.ix_(train, train)], y[train])
            accuracy[c] += np.mean(model.predict(K[np.ix_(test, train)]) == y[test])
    accuracy /= len(data["folds"])
    return dict(best_accuracy=float(accuracy.max()), best_C=float(C_GRID[accuracy.argmax()]),
                accuracies=" ".join(f"{a:.4f}" for a in accuracy))


def _kernelkit(data):
    from kernelkit.svm import SVC

    return _run(SVC, data)


def _sklearn(data):
    from sklearn.svm import SVC

    return _run(SVC, data)


def _sklearnex(data):
    from sklearnex.svm import SVC

    # oneDAL's threads: n_jobs=2, the machine's cores, as kernelkit's default
    return _run(SVC, data, n_jobs=2)


SUITE = Suite(
    name="svm_small",
    description=f"""
SVC on small precomputed Gram matrices, with every library's **default** threads (kernelkit's
``n_jobs=None``; Intel oneDAL's SVC through scikit-learn-intelex, ``sklearnex.svm.SVC``, with
``n_jobs=2``, the machine's cores). ``fit``: one fit on the RBF Gram of ``make_classification(n, 20 features)``
(C = 1, tol = 1e-3). ``wl_study``: the usual graph-kernel protocol, a {N_FOLDS}-fold stratified
cross-validation (shuffled, seed 0) × {len(C_GRID)} values of C (10⁻³ … 10³) on the normalised
WL Gram (``n_iter=5``, computed once, untimed): each contender slices the Gram, fits and
predicts {N_FOLDS * len(C_GRID)} times. MUTAG is shipped; PTC_MR, ENZYMES and PROTEINS are read
from ``../shared/data`` when present. Values: the mean accuracy for each C (must agree) and the
best one.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("scikit-learn", _sklearn, requires=("sklearn",)),
        Contender("sklearnex", _sklearnex, requires=("sklearnex",)),
    ],
    repeats=lambda params, quick: 3 if params["problem"] == "wl_study" else 7,
    measure_memory=False,
)
