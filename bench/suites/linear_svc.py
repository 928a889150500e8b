"""LinearSVC (liblinear's solvers: primal trust-region Newton and dual coordinate descent) against
scikit-learn's LinearSVC (liblinear itself), both at their defaults and with ``dual=True``:
noisy labels (two and five classes), nearly separable classes, ``make_classification``, sparse
counts, and the Weisfeiler-Lehman features of NCI1 when the TU data sets are present."""

import numpy as np
from kernelkit.bench._harness import Contender, Suite, reference_up_to, shared_data, sklearn_peer

C = 1.0   # both libraries' default


def _cases(quick):
    scale = 5 if quick else 1
    cases = [
        # noise: labels independent of the features, where the dual needs max_iter epochs
        {"data": "noise", "n": 5000, "d": 50, "n_classes": 2},
        {"data": "noise", "n": 5000 // scale, "d": 50, "n_classes": 5},
        {"data": "separable", "n": 20_000 // scale, "d": 100, "n_classes": 2},
        {"data": "dense", "n": 20_000 // scale, "d": 100, "n_classes": 2},
        {"data": "sparse", "n": 100_000 // scale, "d": 50_000, "nnz_per_row": 40,
         "n_classes": 2},
        {"data": "dense", "n": 400, "d": 20, "n_classes": 2},   # small enough for the twin
    ]
    if shared_data("NCI1") is not None:
        cases.insert(-1, {"data": "NCI1 WL h=3", "n": 4110, "d": None, "n_classes": 2})
    return cases


def _nci1_features():
    from kernelkit.datasets import load_tudataset
    from kernelkit.kernels import WeisfeilerLehmanKernel

    data = load_tudataset(shared_data("NCI1"), "NCI1", as_networkx=False)
    kernel = WeisfeilerLehmanKernel(n_iter=3).fit(data.graphs)
    return kernel.transform_features(data.graphs), data.target


def _setup(params):
    import scipy.sparse as sp
    from sklearn.datasets import make_classification

    rng = np.random.default_rng(0)
    n, d = params["n"], params["d"]
    if params["data"] == "noise":
        X, y = rng.normal(size=(n, d)), rng.integers(0, params["n_classes"], n)
    elif params["data"] == "separable":
        X, y = make_classification(n, d, n_informative=d // 5, n_redundant=0, class_sep=4.0,
                                   flip_y=0.0, random_state=0)
    elif params["data"] == "dense":
        X, y = make_classification(n, d, n_informative=d // 5, n_redundant=d // 5, flip_y=0.05,
                                   random_state=0)
    elif params["data"] == "sparse":
        # count features of skewed frequency, a linear class with label noise
        k = params["nnz_per_row"]
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
    """Held-out accuracy, the primal objective summed over the one-vs-rest problems, and the
    iterations (Newton steps or epochs)."""
    coef, intercept = model.coef_, model.intercept_
    scores = np.asarray(data["X"] @ coef.T) + intercept
    targets = ([data["y"] == model.classes_[1]] if len(model.classes_) == 2 else
               [data["y"] == c for c in model.classes_])
    primal = 0.0
    for k, target in enumerate(targets):
        margins = np.where(target, 1.0, -1.0) * scores[:, k]
        w = np.r_[coef[k], intercept[k]]
        primal += 0.5 * float(w @ w) + C * float(np.sum(np.maximum(0.0, 1.0 - margins) ** 2))
    return {"accuracy": float(model.score(data["X_test"], data["y_test"])), "primal": primal,
            "n_iter": int(np.max(model.n_iter_))}


def _kernelkit(dual):
    def run(data):
        import warnings

        from sklearn.exceptions import ConvergenceWarning

        from kernelkit.svm import LinearSVC

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)   # n_iter shows max_iter
            return _values(LinearSVC(dual=dual, random_state=0).fit(data["X"], data["y"]), data)
    return run


def _reference(data):
    from kernelkit.reference import linear_dual_cd_solve

    X, y = data["X"], np.where(data["y"] == 1, 1.0, -1.0)[None, :]
    w = np.zeros((1, X.shape[1] + 1))
    n_iter, status = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.intc)
    linear_dual_cd_solve(
        {"X": X, "n_features": X.shape[1], "y": y, "cost": np.full(y.shape, C),
         "squared_hinge": True, "bias": 1.0},
        {"tol": 1e-4, "max_iter": 1000, "seeds": np.zeros(1, dtype=np.uint64), "n_threads": 1},
        w, np.zeros(y.shape), n_iter, status)
    scores = data["X_test"] @ w[0, :-1] + w[0, -1]
    return {"accuracy": float(np.mean((scores > 0) == (data["y_test"] == 1))),
            "n_iter": int(n_iter[0])}


def _sklearn(dual):
    def run(data):
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        from sklearn.svm import LinearSVC

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return _values(LinearSVC(dual=dual, random_state=0).fit(data["X"], data["y"]), data)
    return run


SUITE = Suite(
    name="linear_svc",
    description=f"""
Fit time of the squared-hinge linear SVM at both libraries' defaults (``C = {C}``,
``tol = 1e-4``, at most 1000 iterations, intercept as a regularised constant feature,
one-vs-rest for several classes) by kernelkit's ``LinearSVC`` and scikit-learn's ``LinearSVC``
(liblinear), 80 % of the samples for the fit. ``kernelkit`` and ``scikit-learn`` run
``dual="auto"``: the primal trust-region Newton method when ``n_samples >= n_features``, dual
coordinate descent otherwise; the ``dual=True`` rows force coordinate descent. Data: Gaussian
features with labels drawn independently of them (``noise``, two and five classes: the dual
needs its 1000 epochs there), ``make_classification`` with well separated classes
(``separable``) and with 5 % flipped labels (``dense``), synthetic count features (CSR,
Zipf-distributed columns, ``nnz_per_row`` entries a row), and the Weisfeiler-Lehman (h = 3)
subtree features of NCI1 (CSR). ``primal`` is ``Σ_k ½‖w̄_k‖² + C Σ_i max(0, 1 − y_ik w̄_kᵀx̄_i)²``
recomputed from each model's coefficients, ``accuracy`` the held-out accuracy, ``n_iter`` the
Newton steps (primal) or epochs (dual) of the slowest problem. The pure-Python twin of the dual
solver runs on the smallest case only.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit("auto")),
        Contender("kernelkit dual=True", _kernelkit(True)),
        reference_up_to(400, _reference),
        sklearn_peer(_sklearn("auto")),
        sklearn_peer(_sklearn(True), name="scikit-learn dual=True"),
    ],
    repeats=lambda params, quick: 3 if quick else 5,
)
