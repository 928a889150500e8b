"""LinearSVC (liblinear's dual coordinate descent) against scikit-learn's LinearSVC (liblinear
itself) on the same features: dense, synthetic sparse, and the Weisfeiler-Lehman features of
NCI1 when the TU data sets are present."""

import os

import numpy as np
from kernelkit.bench._harness import Contender, Suite, reference_up_to, sklearn_peer

# the TU data sets of the graph benchmarks (NCI1 cases are skipped without them)
TU_DATA = os.environ.get("KERNELKIT_TU_DATA", "/work/shared/data")
C, TOL = 0.01, 1e-3


def _cases(quick):
    scale = 5 if quick else 1
    cases = [
        {"data": "dense", "n": 20_000 // scale, "d": 100},
        {"data": "sparse", "n": 100_000 // scale, "d": 50_000, "nnz_per_row": 40},
        {"data": "dense", "n": 400, "d": 20},   # small enough for the pure-Python twin
    ]
    if os.path.isdir(os.path.join(TU_DATA, "NCI1")):
        cases.insert(2, {"data": "NCI1 WL h=3", "n": 4110, "d": None})
    return cases


def _nci1_features():
    from kernelkit.datasets import load_tudataset
    from kernelkit.kernels import WeisfeilerLehmanKernel

    data = load_tudataset(TU_DATA, "NCI1", as_networkx=False)
    kernel = WeisfeilerLehmanKernel(n_iter=3).fit(data.graphs)
    return kernel.transform_features(data.graphs), data.target


def _setup(params):
    import scipy.sparse as sp
    from sklearn.datasets import make_classification

    rng = np.random.default_rng(0)
    if params["data"] == "dense":
        X, y = make_classification(params["n"], params["d"], n_informative=params["d"] // 5,
                                   n_redundant=params["d"] // 5, flip_y=0.05, random_state=0)
    elif params["data"] == "sparse":
        # count features of skewed frequency, a linear class with label noise
        n, d, k = params["n"], params["d"], params["nnz_per_row"]
        columns = np.minimum(rng.zipf(1.3, size=(n, k)) - 1, d - 1)
        X = sp.csr_matrix((np.ones(n * k), columns.ravel(), np.arange(0, n * k + 1, k)),
                          shape=(n, d))
        X.sum_duplicates()
        scores = X @ rng.normal(size=d)
        y = (scores + 0.5 * scores.std() * rng.normal(size=n) > 0).astype(int)
    else:
        X, y = _nci1_features()
    X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else X
    order = rng.permutation(X.shape[0])
    cut = 4 * len(order) // 5
    return {"X": X[order[:cut]], "y": y[order[:cut]], "X_test": X[order[cut:]],
                "y_test": y[order[cut:]]}


def _values(model, data):
    w = np.r_[model.coef_.ravel(), model.intercept_]
    margins = np.where(data["y"] == model.classes_[1], 1.0, -1.0) * model.decision_function(
        data["X"])
    return {"accuracy": float(model.score(data["X_test"], data["y_test"])),
            "primal": 0.5 * float(w @ w) + C * float(np.sum(np.maximum(0.0, 1.0 - margins) ** 2)),
            "epochs": int(np.max(model.n_iter_))}


def _kernelkit(data):
    from kernelkit.svm import LinearSVC

    return _values(LinearSVC(C=C, tol=TOL, random_state=0).fit(data["X"], data["y"]), data)


def _reference(data):
    from kernelkit.reference import linear_dual_cd_solve

    X, y = data["X"], np.where(data["y"] == 1, 1.0, -1.0)[None, :]
    w = np.zeros((1, X.shape[1] + 1))
    n_iter, status = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.intc)
    linear_dual_cd_solve(X, X.shape[1], y, np.full(y.shape, C), True, 1.0, TOL, 1000,
                         np.zeros(1, dtype=np.uint64), w, np.zeros(y.shape), n_iter, status)
    scores = data["X_test"] @ w[0, :-1] + w[0, -1]
    return {"accuracy": float(np.mean((scores > 0) == (data["y_test"] == 1))),
            "epochs": int(n_iter[0])}


def _sklearn(data):
    from sklearn.svm import LinearSVC

    model = LinearSVC(C=C, tol=TOL, dual=True, max_iter=1000, random_state=0)
    return _values(model.fit(data["X"], data["y"]), data)


SUITE = Suite(
    name="linear_svc",
    description=f"""
Fit time of the squared-hinge linear SVM (``C = {C}``, ``tol = {TOL}``, intercept as a
regularised constant feature, at most 1000 epochs) by kernelkit's ``LinearSVC`` and
scikit-learn's ``LinearSVC(dual=True)`` (liblinear) on the same features, 80 % of the samples
for the fit: ``make_classification`` (dense), synthetic count features (CSR, Zipf-distributed
columns, ``nnz_per_row`` entries a row), and the Weisfeiler-Lehman (h = 3) subtree features of
NCI1 (CSR). ``primal`` is ``½‖w̄‖² + C Σ max(0, 1 − y w̄ᵀx̄)²`` recomputed from each model's
coefficients, ``accuracy`` the held-out accuracy, ``epochs`` the passes over the data (the
random orders differ, so the epochs and the last digits of the primal do too). The pure-Python
twin runs on the smallest case only.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        reference_up_to(400, _reference),
        sklearn_peer(_sklearn),
    ],
    repeats=lambda params, quick: 3 if quick else 5,
)
