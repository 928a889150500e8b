"""Histogram gradient boosting against LightGBM, XGBoost and scikit-learn (fit time)."""

from kernelkit.bench._harness import Contender, Suite

N_ITER = 200
# (rows, features) of the full profile: the sizes of the boosting targets.
SIZES = [(100_000, 20), (200_000, 30), (1_000_000, 20)]
N_TEST = 50_000


def _cases(quick):
    if quick:
        return [{"task": task, "n": 100_000, "d": 20, "n_iter": 50}
                for task in ("classification", "regression")]
    return [{"task": task, "n": n, "d": d, "n_iter": N_ITER}
            for n, d in SIZES for task in ("classification", "regression")]


def _setup(params):
    from sklearn.datasets import make_classification, make_regression

    n, d = params["n"] + N_TEST, params["d"]
    if params["task"] == "classification":
        X, y = make_classification(n, d, n_informative=10, random_state=0)
    else:
        X, y = make_regression(n, d, n_informative=10, noise=10.0, random_state=0)
    cut = params["n"]
    return {"params": params, "X": X[:cut], "y": y[:cut], "X_test": X[cut:], "y_test": y[cut:]}


def _kernelkit(task, n_iter, n_threads=2):
    from kernelkit.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    model = (HistGradientBoostingClassifier if task == "classification"
             else HistGradientBoostingRegressor)
    return model(max_iter=n_iter, early_stopping=False, n_jobs=n_threads, random_state=0)


def _kernelkit_one_thread(task, n_iter):
    return _kernelkit(task, n_iter, n_threads=1)


def _lightgbm(task, n_iter):
    import lightgbm

    model = lightgbm.LGBMClassifier if task == "classification" else lightgbm.LGBMRegressor
    return model(n_estimators=n_iter, num_leaves=31, learning_rate=0.1, max_bin=255,
                 min_child_samples=20, reg_lambda=0, subsample=1, colsample_bytree=1,
                 num_threads=2, verbose=-1)


def _xgboost(task, n_iter):
    import xgboost

    model = xgboost.XGBClassifier if task == "classification" else xgboost.XGBRegressor
    return model(n_estimators=n_iter, tree_method="hist", grow_policy="lossguide",
                 max_leaves=31, max_depth=0, max_bin=256, learning_rate=0.1, n_jobs=2)


def _sklearn(task, n_iter):
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    model = (HistGradientBoostingClassifier if task == "classification"
             else HistGradientBoostingRegressor)
    return model(max_iter=n_iter, early_stopping=False, random_state=0)


def _run(make):
    def run(data):
        from sklearn.metrics import log_loss, mean_squared_error
        from threadpoolctl import threadpool_limits

        task = data["params"]["task"]
        with threadpool_limits(2):   # scikit-learn's OpenMP and every BLAS: 2 threads
            model = make(task, data["params"]["n_iter"]).fit(data["X"], data["y"])
            if task == "classification":
                proba = model.predict_proba(data["X_test"])
                return {"test_loss": round(float(log_loss(data["y_test"], proba)), 5)}
            prediction = model.predict(data["X_test"])
        return {"test_loss": round(float(mean_squared_error(data["y_test"], prediction)), 3)}
    return run


SUITE = Suite(
    name="hist_boosting",
    description="""
Fit time of second-order histogram gradient boosting, binary classification on
``make_classification(n, d, n_informative=10, random_state=0)`` and regression on
``make_regression(n, d, n_informative=10, noise=10, random_state=0)``, at (n, d) = (10⁵, 20),
(200 000, 30) and (10⁶, 20); 200 rounds (50 in the quick profile), 31 leaves, learning rate 0.1,
≤ 255 bins, 20 samples per leaf, no L2, no subsampling, no early stopping, 2 threads for every
contender (and kernelkit on one): kernelkit ``HistGradientBoosting*``, LightGBM ``LGBM*``
(``num_leaves=31, min_child_samples=20, reg_lambda=0``), XGBoost ``XGB*(tree_method="hist",
grow_policy="lossguide", max_leaves=31, max_depth=0, max_bin=256)`` and scikit-learn's
``HistGradientBoosting*``; ``test_loss`` on 50 000 held-out samples (log-loss, or mean squared
error).
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _run(_kernelkit)),
        Contender("kernelkit 1 thread", _run(_kernelkit_one_thread)),
        Contender("lightgbm", _run(_lightgbm), requires=("lightgbm",)),
        Contender("xgboost", _run(_xgboost), requires=("xgboost",)),
        Contender("scikit-learn", _run(_sklearn), requires=("sklearn",)),
    ],
    repeats=3,
    warmup=False,
)
