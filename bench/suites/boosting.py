"""AdaBoost and gradient boosting against scikit-learn at equal settings (fit time)."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite


def _cases(quick):
    n = 5_000 if quick else 15_000
    stages = 50 if quick else 200
    return [dict(model=m, n=n, n_estimators=stages) for m in ("adaboost", "gradient", "hist")]


def _setup(params):
    from sklearn.datasets import make_classification

    X, y = make_classification(params["n"] * 4 // 3, 20, n_informative=10, random_state=0)
    cut = params["n"]
    return dict(params=params, X=X[:cut], y=y[:cut], X_test=X[cut:], y_test=y[cut:])


def _estimator(library, params):
    n = params["n_estimators"]
    if library == "kernelkit":
        from kernelkit import ensemble
    else:
        from sklearn import ensemble
    if params["model"] == "adaboost":
        return ensemble.AdaBoostClassifier(n_estimators=n, random_state=0)
    if params["model"] == "gradient":
        return ensemble.GradientBoostingClassifier(n_estimators=n, max_depth=3, random_state=0)
    if library == "kernelkit":
        return ensemble.GradientBoostingClassifier(n_estimators=n, max_depth=3, splitter="hist",
                                                   min_samples_leaf=20, random_state=0)
    return ensemble.HistGradientBoostingClassifier(max_iter=n, max_depth=3, max_leaf_nodes=None,
                                                   min_samples_leaf=20, early_stopping=False,
                                                   random_state=0)


def _run(library):
    def run(data):
        model = _estimator(library, data["params"]).fit(data["X"], data["y"])
        return {"accuracy": round(float(model.score(data["X_test"], data["y_test"])), 4)}
    return run


SUITE = Suite(
    name="boosting",
    description="""
Fit time of AdaBoost (SAMME, decision stumps), exact gradient boosting (log-loss, depth-3 trees,
``learning_rate=0.1``) and histogram gradient boosting (kernelkit ``splitter="hist"``, ≤ 255
bins, depth 3, ``min_samples_leaf=20``, against scikit-learn's ``HistGradientBoostingClassifier``
with the same depth, leaf size and number of iterations, no early stopping) on
``make_classification(n, 20 features, 10 informative, random_state=0)``; ``accuracy`` on a
held-out quarter. Same numbers of stages for both.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _run("kernelkit")),
        Contender("scikit-learn", _run("scikit-learn"), requires=("sklearn",)),
    ],
    repeats=lambda params, quick: 3,
    measure_memory=True,
)
