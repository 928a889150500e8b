"""CART trees and random forests: fit time against scikit-learn and oneDAL (sklearnex).

make_classification(100 000, 50, n_informative=10, n_redundant=10, random_state=0); the last 25 %
are held out. A single tree trains on the first 75 % (full depth and depth 10), a forest of 100
trees on the first 37 500 rows with two threads. Both libraries grow the same trees (same random
state, same split arithmetic), so the held-out accuracies agree. The peer cases fit 100-tree
forests on make_classification(n + 20 000, 20, n_informative=10, n_redundant=5, random_state=0)
(the last 20 000 rows held out) against sklearnex's histogram forest, two threads each.
"""

import numpy as np
from kernelkit.bench._harness import Contender, Suite

N_TOTAL, N_FEATURES, HELD_OUT = 100_000, 50, 25_000
# the forests timed against sklearnex: n training rows of 20 features, 20 000 held out
PEER_FEATURES, PEER_HELD_OUT = 20, 20_000
REFERENCE_MAX_SAMPLES = 500


def _cases(quick):
    if quick:
        return [
            dict(model="tree", n=20_000, max_depth=None),
            dict(model="tree", n=20_000, max_depth=10),
            dict(model="forest", n=10_000, n_estimators=20),
            dict(model="tree", n=300, max_depth=None),
            {"model": "forest", "n": 50_000, "n_estimators": 100, "n_features": PEER_FEATURES},
        ]
    return [
        dict(model="tree", n=75_000, max_depth=None),
        dict(model="tree", n=75_000, max_depth=10),
        dict(model="forest", n=37_500, n_estimators=100),
        dict(model="tree", n=500, max_depth=None),
        {"model": "forest", "n": 50_000, "n_estimators": 100, "n_features": PEER_FEATURES},
        {"model": "forest", "n": 500_000, "n_estimators": 100, "n_features": PEER_FEATURES},
    ]


def _setup(params):
    from sklearn.datasets import make_classification
    from threadpoolctl import threadpool_limits

    # BLAS on one thread: idle OpenBLAS workers spin after a call and would steal a core from
    # the timed fits that follow
    if "n_features" in params:
        with threadpool_limits(limits=1, user_api="blas"):
            X, y = make_classification(params["n"] + PEER_HELD_OUT, params["n_features"],
                                       n_informative=10, n_redundant=5, random_state=0)
        return dict(params, X=X[:params["n"]], y=y[:params["n"]], X_test=X[params["n"]:],
                    y_test=y[params["n"]:], values={})
    with threadpool_limits(limits=1, user_api="blas"):
        X, y = make_classification(N_TOTAL, N_FEATURES, n_informative=10, n_redundant=10,
                                   random_state=0)
    return dict(params, X=X[:params["n"]], y=y[:params["n"]], X_test=X[-HELD_OUT:],
                y_test=y[-HELD_OUT:], values={})


def _summary(name, model, data):
    """Held-out accuracy and size of the fitted model, computed on the contender's first run
    (the harness's untimed warm-up) and reused: the timed runs time the fit alone."""
    if name not in data["values"]:
        values = {"accuracy": round(float(model.score(data["X_test"], data["y_test"])), 4)}
        if data["model"] == "tree":
            values["leaves"] = int(model.get_n_leaves())
        else:
            values["nodes"] = int(sum(e.tree_.node_count for e in model.estimators_))
        data["values"][name] = values
    return data["values"][name]


def _model(module, data, **extra):
    if data["model"] == "tree":
        return module.DecisionTreeClassifier(max_depth=data["max_depth"], random_state=0,
                                             **extra)
    return module.RandomForestClassifier(n_estimators=data["n_estimators"], random_state=0,
                                         n_jobs=2, **extra)


def _kernelkit(name, n_jobs=1, splitter="best"):
    def run(data):
        from kernelkit import ensemble, tree

        module = tree if data["model"] == "tree" else ensemble
        extra = dict(splitter=splitter)
        if data["model"] == "tree":
            extra["n_jobs"] = n_jobs
        model = _model(module, data, **extra).fit(data["X"], data["y"])
        return _summary(name, model, data)
    return run


def _run_reference(data):
    from kernelkit.reference import cart_tree
    from kernelkit.tree._flat_tree import Tree
    from kernelkit.tree._growth import draw_tree_seed

    seed = draw_tree_seed(np.random.RandomState(0))       # the draws of random_state=0
    arrays = cart_tree(data["X"], data["y"], seed=seed, criterion="gini", n_classes=2,
                       max_depth=data["max_depth"])
    if "reference" not in data["values"]:
        tree = Tree(*[arrays[k] for k in ("children_left", "children_right", "feature",
                                          "threshold", "value", "impurity", "n_node_samples",
                                          "weighted_n_node_samples", "max_depth")], N_FEATURES)
        proba = tree.predict(data["X_test"])
        data["values"]["reference"] = {
            "accuracy": round(float(np.mean(proba.argmax(axis=1) == data["y_test"])), 4),
            "leaves": tree.n_leaves}
    return data["values"]["reference"]


def _run_sklearn(data):
    from sklearn import ensemble, tree

    module = tree if data["model"] == "tree" else ensemble
    model = _model(module, data).fit(data["X"], data["y"])
    return _summary("scikit-learn", model, data)


def _run_sklearnex(data):
    from sklearnex.ensemble import RandomForestClassifier

    model = RandomForestClassifier(n_estimators=data["n_estimators"], random_state=0, n_jobs=2)
    model.fit(data["X"], data["y"])
    if "sklearnex" not in data["values"]:
        data["values"]["sklearnex"] = {
            "accuracy": round(float(model.score(data["X_test"], data["y_test"])), 4)}
    return data["values"]["sklearnex"]


def _is_single_tree(params):
    return params["model"] == "tree"


def _is_peer_case(params):
    return "n_features" in params


def _is_large(params):
    # scikit-learn's exact forest and kernelkit's presorted one take minutes at 500 000 rows
    return params["n"] > 100_000


SUITE = Suite(
    name="trees",
    description=(
        "Fit time of CART trees and random forests. Data: make_classification(100 000, 50, "
        "n_informative=10, n_redundant=10, random_state=0), the last 25 000 rows held out for "
        "`accuracy` (computed once, outside the timed fits); a tree fits the first n rows "
        "(full depth, or max_depth=10), a forest (RandomForestClassifier, "
        "max_features='sqrt', bootstrap) the first n rows with n_jobs=2 in both libraries. "
        "kernelkit and scikit-learn get the same random_state and grow the same trees (equal "
        "`accuracy` and `leaves`/`nodes`). The single-tree rows time kernelkit on one thread "
        "(scikit-learn's tree is single-threaded), then on two threads (the split search and "
        "partition of nodes above 2¹⁸ sample×feature steps), then with splitter='hist' "
        "(≤ 255 quantile bins; a different, approximate tree). The reference (pure-Python "
        "recursive CART) runs on the smallest case only. `peak MiB` is the peak "
        "resident-memory increase of one fit in a fresh process, the fitted model included. The "
        "cases with n_features=20 time kernelkit's forests against sklearnex's (oneDAL's "
        "histogram forest, two threads) on make_classification(n + 20 000, 20, "
        "n_informative=10, n_redundant=5, random_state=0), the last 20 000 rows held out; "
        "the presorted kernelkit forest is left out at 500 000 rows."
    ),
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit("kernelkit"), applies=lambda p: not _is_large(p)),
        Contender("kernelkit (2 threads)", _kernelkit("kernelkit (2 threads)", n_jobs=2),
                  applies=_is_single_tree),
        Contender("kernelkit (hist)", _kernelkit("kernelkit (hist)", splitter="hist")),
        Contender("reference", _run_reference,
                  applies=lambda p: p["model"] == "tree" and p["n"] <= REFERENCE_MAX_SAMPLES),
        Contender("scikit-learn", _run_sklearn, requires=("sklearn",),
                  applies=lambda p: not _is_peer_case(p)),
        Contender("sklearnex", _run_sklearnex, requires=("sklearnex",), applies=_is_peer_case),
    ],
    repeats=lambda params, quick: 3,
    measure_memory=True,
)
