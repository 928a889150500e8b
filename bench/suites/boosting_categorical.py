"""Histogram gradient boosting with native categorical splits on the Adult table, against
LightGBM's ``categorical_feature`` and scikit-learn (fit time, held-out log-loss and ROC AUC)."""

from kernelkit.bench._harness import Contender, Suite

N_ROUNDS = 200
# the trees every contender grows: LightGBM's names are mapped in _lightgbm
SHARED = {"learning_rate": 0.1, "max_leaf_nodes": 31, "max_bins": 255, "min_samples_leaf": 20,
          "l2_regularization": 0.0}


def _cases(quick):
    return [{"rounds": 50 if quick else N_ROUNDS}]


def _setup(params):
    from sklearn.model_selection import train_test_split

    from kernelkit.datasets import load_adult

    adult = load_adult()
    y = (adult.target == ">50K").to_numpy().astype(int)
    X, X_test, y, y_test = train_test_split(adult.data, y, test_size=0.3, stratify=y,
                                            random_state=0)
    return {"params": params, "X": X, "y": y, "X_test": X_test, "y_test": y_test,
            "categorical": list(adult.data.select_dtypes("category").columns)}


def _kernelkit(data):
    from kernelkit.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=data["params"]["rounds"], categorical_features="from_dtype",
        early_stopping=False, n_jobs=2, random_state=0, **SHARED)
    return model.fit(data["X"], data["y"])


def _lightgbm(data):
    import lightgbm

    model = lightgbm.LGBMClassifier(
        n_estimators=data["params"]["rounds"], learning_rate=SHARED["learning_rate"],
        num_leaves=SHARED["max_leaf_nodes"], max_bin=SHARED["max_bins"],
        min_child_samples=SHARED["min_samples_leaf"], reg_lambda=SHARED["l2_regularization"],
        subsample=1.0, subsample_freq=0, colsample_bytree=1.0, num_threads=2, verbose=-1)
    return model.fit(data["X"], data["y"], categorical_feature=data["categorical"])


def _sklearn(data):
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=data["params"]["rounds"], categorical_features="from_dtype",
        early_stopping=False, random_state=0, **SHARED)
    return model.fit(data["X"], data["y"])


def _run(fit):
    def run(data):
        from sklearn.metrics import log_loss, roc_auc_score
        from threadpoolctl import threadpool_limits

        with threadpool_limits(2):   # scikit-learn's OpenMP and every BLAS: 2 threads
            proba = fit(data).predict_proba(data["X_test"])[:, 1]
        return {"log_loss": round(float(log_loss(data["y_test"], proba)), 5),
                "roc_auc": round(float(roc_auc_score(data["y_test"], proba)), 5)}
    return run


SUITE = Suite(
    name="boosting_categorical",
    description="""
Fit time of second-order histogram gradient boosting with native categorical splits on the UCI
Adult table (``kernelkit.datasets.load_adult``: 6 numeric and 8 categorical features, the
categorical ones pandas ``category`` columns), binary (income above 50K), on a fixed
stratified 70/30 split (``random_state=0``: 21 113 training and 9 049 test rows). 200 rounds
(50 in the quick profile), 31 leaves, learning rate 0.1, ≤ 255 bins, 20 samples per leaf, no
L2, no subsampling, no early stopping, 2 threads for every contender: kernelkit and
scikit-learn ``HistGradientBoostingClassifier(categorical_features="from_dtype")``, LightGBM
``LGBMClassifier(num_leaves=31, max_bin=255, min_child_samples=20, reg_lambda=0)`` fitted with
``categorical_feature`` (its own categorical defaults: one-vs-rest splits below 5 categories,
``cat_smooth=10``, ``cat_l2=10``, ``min_data_per_group=100``, ``max_cat_threshold=32``, so
its trees differ from scikit-learn's); ``log_loss`` and ``roc_auc`` on the test rows.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _run(_kernelkit)),
        Contender("lightgbm", _run(_lightgbm), requires=("lightgbm",)),
        Contender("scikit-learn", _run(_sklearn), requires=("sklearn",)),
    ],
    repeats=5,
)
