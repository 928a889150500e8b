"""Histogram gradient boosting against LightGBM, XGBoost and scikit-learn (fit time)."""

from kernelkit.bench._harness import Contender, Suite

N_ITER = 200


def _cases(quick):
    if quick:
        return [{"n": 100_000, "n_iter": 50}]
    return [{"n": 100_000, "n_iter": N_ITER}, {"n": 1_000_000, "n_iter": N_ITER}]


def _setup(params):
    from sklearn.datasets import make_classification

    n_test = 50_000
    X, y = make_classification(params["n"] + n_test, 20, n_informative=10, random_state=0)
    cut = params["n"]
    return {"params": params, "X": X[:cut], "y": y[:cut], "X_test": X[cut:], "y_test": y[cut:]}


def _kernelkit(n_iter):
    from kernelkit.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=n_iter, early_stopping=False, n_jobs=2,
                                          random_state=0)


def _lightgbm(n_iter):
    import lightgbm

    return lightgbm.LGBMClassifier(n_estimators=n_iter, num_leaves=31, learning_rate=0.1,
                                   max_bin=255, min_child_samples=20, reg_lambda=0, subsample=1,
                                   colsample_bytree=1, num_threads=2, verbose=-1)


def _xgboost(n_iter):
    import xgboost

    return xgboost.XGBClassifier(n_estimators=n_iter, tree_method="hist",
                                 grow_policy="lossguide", max_leaves=31, max_depth=0,
                                 max_bin=256, learning_rate=0.1, n_jobs=2)


def _sklearn(n_iter):
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=n_iter, early_stopping=False, random_state=0)


def _run(make):
    def run(data):
        from sklearn.metrics import log_loss
        from threadpoolctl import threadpool_limits

        with threadpool_limits(2):   # scikit-learn's OpenMP and every BLAS: 2 threads
            model = make(data["params"]["n_iter"]).fit(data["X"], data["y"])
            proba = model.predict_proba(data["X_test"])
        return {"log_loss": round(float(log_loss(data["y_test"], proba)), 5),
                "accuracy": round(float((proba.argmax(axis=1) == data["y_test"]).mean()), 5)}
    return run


SUITE = Suite(
    name="hist_boosting",
    description="""
Fit time of second-order histogram gradient boosting on ``make_classification(n, 20 features,
10 informative, random_state=0)``, binary, 200 rounds (50 in the quick profile), 31 leaves,
learning rate 0.1, ≤ 255 bins, 20 samples per leaf, no L2, no subsampling, no early stopping,
2 threads for every contender: kernelkit ``HistGradientBoostingClassifier``, LightGBM
``LGBMClassifier`` (``num_leaves=31, min_child_samples=20, reg_lambda=0``), XGBoost
``XGBClassifier(tree_method="hist", grow_policy="lossguide", max_leaves=31, max_depth=0,
max_bin=256)`` and scikit-learn's ``HistGradientBoostingClassifier``; ``log_loss`` and
``accuracy`` on 50 000 held-out samples.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _run(_kernelkit)),
        Contender("lightgbm", _run(_lightgbm), requires=("lightgbm",)),
        Contender("xgboost", _run(_xgboost), requires=("xgboost",)),
        Contender("scikit-learn", _run(_sklearn), requires=("sklearn",)),
    ],
    repeats=3,
    warmup=False,
)
