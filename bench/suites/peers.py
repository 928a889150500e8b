"""Every hot loop against the strongest CPU engines: Intel oneDAL (scikit-learn-intelex),
LightGBM, XGBoost, faiss and scikit-learn, one case per loop, two threads each."""

import contextlib
import importlib
import io
import logging

import numpy as np
from kernelkit.bench._harness import Contender, Suite
from kernelkit.bench.suites import dbscan, kmeans, linear, neighbors, pca, svm
from threadpoolctl import threadpool_limits

N_THREADS = 2
N_TREES = 100
# oneDAL's DBSCAN compares every pair of points: 0.9 s at n = 20 000 on 2-D data where
# kernelkit's grid took 0.05 s, so minutes per run at 300 000
SKLEARNEX_DBSCAN_MAX = 50_000
# scikit-learn's exact forest takes minutes per fit above this size (the summary's
# "kernelkit ÷ scikit-learn" is then empty)
SKLEARN_FOREST_MAX = 100_000
K_NEIGHBOURS = 10
HIST = dict(max_iter=200, max_leaf_nodes=31, learning_rate=0.1, max_bins=255)
DBSCAN_DIGITS_EPS = 18.0
HELD_OUT = 0.2


def _cases(quick):
    svc = [dict(loop="svc", data="gaussian", n=10_000, d=20), dict(loop="svc", data="digits")]
    kmeans_ = [dict(loop="kmeans", mode=mode, n=100_000, d=50, k=100, dtype=dtype)
               for mode, dtype in (("iteration", "float32"), ("iteration", "float64"),
                                   ("convergence", "float64"))]
    dbscan_ = [dict(loop="dbscan", data="uniform", n=300_000, d=2),
               dict(loop="dbscan", data="digits")]
    knn = [dict(loop="knn", n=100_000, n_query=2_000 if quick else 10_000, d=d, dtype=dtype)
           for d in (10, 50, 200) for dtype in ("float32", "float64")]
    forest = [dict(loop="forest", n=n, d=20) for n in ((50_000,) if quick else
                                                      (50_000, 500_000))]
    hist = [dict(loop="hist", n=n, d=20) for n in ((100_000,) if quick else
                                                  (100_000, 1_000_000))]
    logistic = [dict(loop="logistic", n=75_000, d=50, tol=tol) for tol in (1e-4, 1e-8)]
    pca_ = [dict(loop="pca", n=n, d=d, solver=solver)
            for n, d in ((100_000, 100),) + (() if quick else ((1_000_000, 50),))
            for solver in ("full", "covariance_eigh", "randomized")]
    return svc + kmeans_ + dbscan_ + knn + forest + hist + logistic + pca_


# ------------------------------------------------------------------------------------ set-up


def _setup(params):
    loop = params["loop"]
    if loop == "svc":
        data = svm._setup(dict(problem="binary" if params["data"] == "gaussian" else "digits",
                               n=int(params.get("n", 1797) / (1 - HELD_OUT))))
        data = _split(data["X"], data["y"], gamma=data["gamma"])
    elif loop == "kmeans":
        X, centers, _, _ = kmeans.setup(params)
        data = dict(X=X.astype(params["dtype"]), centers=centers.astype(params["dtype"]),
                    mode=params["mode"])
    elif loop == "dbscan":
        if params["data"] == "digits":
            X, eps, min_samples = dbscan.setup(dict(data="digits", eps=DBSCAN_DIGITS_EPS))
        else:
            X, eps, min_samples = dbscan.setup(params)
        data = dict(X=X, eps=eps, min_samples=min_samples)
    elif loop == "knn":
        data = neighbors._setup(dict(n_train=params["n"], n_query=params["n_query"],
                                     d=params["d"], dtype=params["dtype"]))
        data = dict(X=data["X"], y=data["y"], X_test=data["X_test"])
    elif loop in ("forest", "hist"):
        from sklearn.datasets import make_classification

        n_total = int(params["n"] / (1 - HELD_OUT))
        with threadpool_limits(limits=1, user_api="blas"):
            X, y = make_classification(n_total, params["d"], n_informative=10, n_redundant=5,
                                       random_state=0)
        data = _split(X, y)
    elif loop == "logistic":
        data = linear._setup(dict(model="logistic", data="classification",
                                  n=int(params["n"] / 0.75), d=params["d"]))
        data["tol"] = params["tol"]
    else:
        data = pca.setup(dict(n_samples=params["n"], n_features=params["d"], n_components=10,
                              svd_solver=params["solver"]))
        data["solver"] = params["solver"]
    data.update(loop=loop, results={})
    return data


def _split(X, y, **extra):
    cut = int(len(X) * (1 - HELD_OUT))
    return dict(X=X[:cut], y=y[:cut], X_test=X[cut:], y_test=y[cut:], **extra)


# ----------------------------------------------------------------------- the same results


def _label_agreement(a, b):
    """Adjusted Rand index of two labelings (1: the same partition, labels aside)."""
    from sklearn.metrics import adjusted_rand_score

    return round(float(adjusted_rand_score(a, b)), 6)


def _compare(loop, mine, first):
    """How ``mine`` agrees with ``first``, the results of the first contender that ran
    (kernelkit, or scikit-learn when kernelkit is missing)."""
    if loop in ("svc", "forest", "hist"):
        same = {"same predictions": round(float(np.mean(mine["predicted"]
                                                        == first["predicted"])), 4)}
        if loop == "svc":  # the same problem solved to the same tolerance
            return same
        # other trees (other random draws, other split candidates): the accuracy is compared
        return dict(same, **{"accuracy diff": round(mine["accuracy"] - first["accuracy"], 4)})
    if loop == "kmeans":
        return {"inertia rel. diff": abs(mine["inertia"] / first["inertia"] - 1),
                "ARI": _label_agreement(mine["labels"], first["labels"])}
    if loop == "dbscan":
        return {"ARI": _label_agreement(mine["labels"], first["labels"])}
    if loop == "knn":
        same = np.sort(mine["indices"], axis=1) == np.sort(first["indices"], axis=1)
        return {"same neighbours": round(float(np.mean(np.all(same, axis=1))), 4)}
    if loop == "logistic":
        return {"objective rel. gap": (mine["objective"] - first["objective"])
                / abs(first["objective"])}
    return {"variance rel. diff": abs(mine["variance"] / first["variance"] - 1)}


def _record(name, data, result, shown):
    """The table's values: ``shown`` and, from the first run of each contender on, the agreement
    with the first contender that ran (computed once: the timed runs time the loop alone)."""
    results = data["results"]
    if name not in results:
        results[name] = dict(result, shown=shown)
        first = next(iter(results.values()))
        if first is not results[name]:
            results[name]["shown"] = dict(shown, **_compare(data["loop"], result, first))
    return results[name]["shown"]


@contextlib.contextmanager
def _onedal_engine(name, data):
    """Catch the sklearnex log line that says whether oneDAL ran the fit or it fell back to
    scikit-learn, and add it to the contender's values."""
    logger, stream = logging.getLogger("sklearnex"), io.StringIO()
    saved = logger.handlers, logger.level, logger.propagate
    # caught here only, not printed
    logger.handlers, logger.propagate = [logging.StreamHandler(stream)], False
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.handlers, _, logger.propagate = saved
        logger.setLevel(saved[1])
    log = stream.getvalue()
    engine = "fallback to scikit-learn" if "fallback" in log else "oneDAL"
    data.setdefault("engines", {}).setdefault(name, engine if log else None)


# ---------------------------------------------------------------------------- the loops


def _svc(module, name, data, **extra):
    model = module.SVC(C=1.0, kernel="rbf", gamma=data["gamma"], tol=1e-3, cache_size=200,
                       **extra).fit(data["X"], data["y"])
    return _classifier(name, data, model)


def _classifier(name, data, model):
    if name in data["results"]:
        return data["results"][name]["shown"]
    predicted = model.predict(data["X_test"])
    accuracy = round(float(np.mean(predicted == data["y_test"])), 4)
    return _record(name, data, {"predicted": predicted, "accuracy": accuracy},
                   {"accuracy": accuracy})


def _kmeans(module, name, data, **extra):
    settings = ((kmeans.ITERATIONS, 0.0) if data["mode"] == "iteration"
                else (kmeans.MAX_ITER, 1e-4))
    model = module.KMeans(len(data["centers"]), init=data["centers"], max_iter=settings[0],
                   tol=settings[1], **extra).fit(data["X"])
    return _kmeans_result(name, data, model.labels_, model.inertia_, model.n_iter_,
                          per=settings[1] == 0.0)


def _kmeans_result(name, data, labels, inertia, n_iter, per):
    shown = _record(name, data, {"labels": labels, "inertia": float(inertia)},
                    {"iterations": int(n_iter), "inertia": float(inertia)})
    return dict(shown, per=n_iter) if per else shown


def _faiss_kmeans(data):
    import faiss

    faiss.omp_set_num_threads(N_THREADS)
    X, centers = data["X"], data["centers"]
    # every point in every iteration (faiss subsamples 256 points per centroid by default)
    model = faiss.Kmeans(X.shape[1], len(centers), niter=kmeans.ITERATIONS,
                         max_points_per_centroid=len(X), seed=0)
    model.train(X, init_centroids=centers)
    distances, labels = model.index.search(X, 1)
    return _kmeans_result("faiss", data, labels.ravel(), float(distances.sum()),
                          kmeans.ITERATIONS, per=True)


def _dbscan(module, name, data, **extra):
    model = module.DBSCAN(eps=data["eps"], min_samples=data["min_samples"], **extra)
    labels = model.fit(data["X"]).labels_
    return _record(name, data, {"labels": labels},
                   {"clusters": int(labels.max() + 1), "noise": int(np.sum(labels == -1))})


def _knn(module, name, data, **extra):
    model = module.KNeighborsClassifier(K_NEIGHBOURS, **extra).fit(data["X"], data["y"])
    distances, indices = model.kneighbors(data["X_test"])
    return _neighbours(name, data, distances, indices)


def _neighbours(name, data, distances, indices):
    return _record(name, data, {"indices": indices},
                   {"mean distance": round(float(np.mean(distances)), 6)})


def _faiss_knn(data):
    import faiss

    faiss.omp_set_num_threads(N_THREADS)
    index = faiss.IndexFlatL2(data["X"].shape[1])
    index.add(data["X"])
    squared, indices = index.search(data["X_test"], K_NEIGHBOURS)
    return _neighbours("faiss", data, np.sqrt(np.maximum(squared, 0)), indices)


def _forest(module, name, data, **extra):
    model = module.RandomForestClassifier(n_estimators=N_TREES, random_state=0,
                                          n_jobs=N_THREADS, **extra)
    model.fit(data["X"], data["y"])
    return _classifier(name, data, model)


def _forest_hist(data):
    from kernelkit import ensemble

    return _forest(ensemble, "kernelkit hist", data, splitter="hist")


def _logistic(module, name, data, **extra):
    model = module.LogisticRegression(C=linear.C, tol=data["tol"], max_iter=1000, **extra)
    model.fit(data["X"], data["y"])
    objective = linear._objective(data, np.atleast_2d(model.coef_),
                                  np.atleast_1d(model.intercept_))
    return _record(name, data, {"objective": objective},
                   {"objective": objective, "iterations": int(np.max(model.n_iter_))})


def _pca(module, name, data, **extra):
    model = module.PCA(n_components=data["k"], svd_solver=data["solver"], random_state=0,
                       **extra)
    model.fit_transform(data["X"])
    variance = float(model.explained_variance_.sum())
    return _record(name, data, {"variance": variance}, {"variance": variance})


# --------------------------------------------------------------------------- contenders


# loop -> (the function that runs it with a library's estimator, the library's subpackage)
_ESTIMATOR_LOOPS = {"svc": (_svc, "svm"), "kmeans": (_kmeans, "cluster"),
                    "dbscan": (_dbscan, "cluster"), "knn": (_knn, "neighbors"),
                    "forest": (_forest, "ensemble"), "logistic": (_logistic, "linear_model"),
                    "pca": (_pca, "decomposition")}


def _library(package, name, options):
    """The contender that runs each loop with ``package``'s estimators (scikit-learn's names),
    ``options(data)`` giving the keyword arguments of the case's estimator."""
    def run(data):
        loop, subpackage = _ESTIMATOR_LOOPS[data["loop"]]
        module = importlib.import_module(f"{package}.{subpackage}")
        with threadpool_limits(limits=N_THREADS):
            return loop(module, name, data, **options(data))
    return run


def _kernelkit_options(data):
    if data["loop"] == "kmeans":
        # one Lloyd step per iteration; the default (Hamerly) for whole fits
        return dict(n_jobs=N_THREADS,
                    algorithm="lloyd" if data["mode"] == "iteration" else "auto")
    # _forest sets the forest's n_jobs; kernelkit's logistic regression and PCA take none
    return {} if data["loop"] in ("forest", "logistic", "pca") else dict(n_jobs=N_THREADS)


def _sklearn_options(data):
    if data["loop"] == "kmeans":
        return dict(n_init=1, algorithm="lloyd")
    # libsvm is serial; LogisticRegression's n_jobs is for one-vs-rest only
    return dict(n_jobs=N_THREADS) if data["loop"] in ("dbscan", "knn") else {}


def _sklearnex_options(data):
    if data["loop"] == "kmeans":
        return dict(n_init=1, n_jobs=N_THREADS)
    return {} if data["loop"] == "forest" else dict(n_jobs=N_THREADS)


def _sklearnex(data):
    # imported before the log is caught: the first import sets sklearnex's logger up
    importlib.import_module(f"sklearnex.{_ESTIMATOR_LOOPS[data['loop']][1]}")
    with _onedal_engine("sklearnex", data):
        shown = _library("sklearnex", "sklearnex", _sklearnex_options)(data)
    return dict(shown, engine=data["engines"].get("sklearnex"))


def _hist(package, name):
    def run(data):
        ensemble = importlib.import_module(f"{package}.ensemble")
        model = ensemble.HistGradientBoostingClassifier(early_stopping=False, random_state=0,
                                                        **HIST)
        with threadpool_limits(limits=N_THREADS):
            return _classifier(name, data, model.fit(data["X"], data["y"]))
    return run


def _lightgbm(data):
    import lightgbm

    model = lightgbm.LGBMClassifier(
        n_estimators=HIST["max_iter"], num_leaves=HIST["max_leaf_nodes"],
        learning_rate=HIST["learning_rate"], max_bin=HIST["max_bins"], num_threads=N_THREADS,
        verbose=-1, random_state=0)
    return _classifier("LightGBM", data, model.fit(data["X"], data["y"]))


def _xgboost(data):
    import xgboost

    model = xgboost.XGBClassifier(
        n_estimators=HIST["max_iter"], max_leaves=HIST["max_leaf_nodes"], max_depth=0,
        grow_policy="lossguide", tree_method="hist", learning_rate=HIST["learning_rate"],
        max_bin=HIST["max_bins"], n_jobs=N_THREADS, random_state=0)
    return _classifier("XGBoost", data, model.fit(data["X"], data["y"]))


def _faiss(data):
    with threadpool_limits(limits=N_THREADS):
        return _faiss_kmeans(data) if data["loop"] == "kmeans" else _faiss_knn(data)


def _loops(*loops, float32_only=False, iteration_only=False):
    def applies(params):
        return (params["loop"] in loops
                and (not float32_only or params.get("dtype") == "float32")
                and (not iteration_only or params.get("mode", "iteration") == "iteration"))
    return applies


SUITE = Suite(
    name="peers",
    description=f"""
Each hot loop against the strongest CPU implementations, {N_THREADS} threads for every contender
(kernelkit and scikit-learn ``n_jobs={N_THREADS}`` where they take it, sklearnex's estimators
imported directly with ``n_jobs={N_THREADS}``, LightGBM ``num_threads``, XGBoost ``n_jobs``,
faiss ``omp_set_num_threads``, BLAS and OpenMP capped by threadpoolctl). SVC: RBF, ``C = 1``,
``tol = 1e-3``, on ``make_classification(10 000, 20)`` and the digits (80 % fit, 20 %
predicted). k-means: time per Lloyd iteration ({kmeans.ITERATIONS} iterations from the same
centres, ``tol = 0``; faiss on float32 only, every point used) and whole fits
(``tol = 1e-4``; kernelkit's default Hamerly) on the k-means suite's data. DBSCAN: 300 000
uniform points in the square (~20 neighbours per point, ``min_samples = 10``) and the digits
(``eps = {DBSCAN_DIGITS_EPS}``, ``min_samples = 5``); sklearnex only up to
{SKLEARNEX_DBSCAN_MAX:,} points (its DBSCAN compares every pair of points: minutes per run at
300 000). k-NN: ``kneighbors`` of the queries, k =
{K_NEIGHBOURS}, fit included, on the neighbours suite's clusters (faiss: exact ``IndexFlatL2``,
float32 only). Random forest: {N_TREES} trees, ``max_features="sqrt"``, on
``make_classification(n, 20)`` (LightGBM's and XGBoost's random-forest modes grow histogram
trees leaf by leaf and are not timed: fully grown, 100 of them took LightGBM 157 s at n =
5 000, where kernelkit took 1.5 s).
Histogram gradient boosting: {HIST["max_iter"]} iterations, {HIST["max_leaf_nodes"]} leaves,
learning rate {HIST["learning_rate"]}, {HIST["max_bins"]} bins, no early stopping (XGBoost:
``hist``, ``lossguide``). Logistic regression: ``C = 1`` on the linear suite's 75 000 × 50 at
``tol`` = scikit-learn's default 1e-4 and tight 1e-8 (each library's own stopping rule).
PCA: 10 components, each ``svd_solver``. Same results: every contender is compared with the
first that ran (kernelkit, else scikit-learn), once, outside the timed runs — SVC: the share
of equal predictions (≥ 0.99); forests and boosting: the held-out accuracy's difference
(within 0.01; other random draws and split candidates grow other trees); k-means: the
inertia's relative difference (≤ 1e-6, float32 1e-5) and the adjusted Rand index of the labels;
DBSCAN: the adjusted Rand index (1); k-NN: the share of equal neighbour lists (≥ 0.999; float32
ties aside); logistic regression: the objective's relative gap (≤ 1e-6 at tol 1e-8); PCA: the
retained variance's relative difference (≤ 1e-8). ``engine`` says whether sklearnex ran
oneDAL or fell back to scikit-learn. Cases whose runs take minutes skip the untimed warm-up.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _library("kernelkit", "kernelkit", _kernelkit_options),
                  applies=lambda p: p["loop"] != "hist"),
        Contender("kernelkit", _hist("kernelkit", "kernelkit"),
                  requires=("kernelkit.ensemble:HistGradientBoostingClassifier",),
                  applies=_loops("hist"), peer=False),
        # the binned splitter, oneDAL's kind of forest (kernelkit's default is scikit-learn's
        # exact trees): in the table, not in the summary
        Contender("kernelkit hist", _forest_hist, applies=_loops("forest"), peer=False),
        Contender("scikit-learn", _library("sklearn", "scikit-learn", _sklearn_options),
                  requires=("sklearn",),
                  applies=lambda p: p["loop"] != "hist" and not (
                      p["loop"] == "forest" and p["n"] > SKLEARN_FOREST_MAX)),
        Contender("scikit-learn", _hist("sklearn", "scikit-learn"), requires=("sklearn",),
                  applies=_loops("hist")),
        Contender("sklearnex", _sklearnex, requires=("sklearnex",),
                  applies=lambda p: p["loop"] != "hist" and not (
                      p["loop"] == "dbscan" and p.get("n", 0) > SKLEARNEX_DBSCAN_MAX)),
        Contender("LightGBM", _lightgbm, requires=("lightgbm",), applies=_loops("hist")),
        Contender("XGBoost", _xgboost, requires=("xgboost",), applies=_loops("hist")),
        Contender("faiss", _faiss, requires=("faiss",),
                  applies=lambda p: (_loops("knn", float32_only=True)(p)
                                     or _loops("kmeans", float32_only=True,
                                               iteration_only=True)(p))),
    ],
    repeats=lambda params, quick: 3,
    warmup=lambda params, quick: params.get("n", 0) < 500_000,
)
