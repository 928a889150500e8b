"""Squared-hinge kernel SVM by dual coordinate descent (SquaredHingeSVC) against SMO SVMs."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite, reference_up_to, sklearn_peer

# C = 1 for the hinge-loss SVMs; λ = 1/(2C) puts SquaredHingeSVC's squared hinge at the same C.
C, TOL, CACHE_MB = 1.0, 1e-3, 200.0
LAMBDA = 1.0 / (2.0 * C)


def _cases(quick):
    if quick:
        return [dict(n=500), dict(n=2000)]
    return [dict(n=500), dict(n=2000), dict(n=10000)]


def _setup(params):
    from sklearn.datasets import make_classification

    n = params["n"]
    # The binary problem of the svm suite, with a quarter as many samples again held out.
    X, y = make_classification(n_samples=n + n // 4, n_features=20, random_state=0)
    X = np.ascontiguousarray(X, dtype=np.float64)
    gamma = 1.0 / (X.shape[1] * X[:n].var())
    return dict(X=X[:n], y=y[:n], X_test=X[n:], y_test=y[n:], gamma=gamma)


def _values(model, data, **extra):
    accuracy = float(np.mean(model.predict(data["X_test"]) == data["y_test"]))
    return dict(accuracy=accuracy, n_SV=int(model.support_.size), **extra)


def _dual_cd(data):
    from kernelkit.svm import SquaredHingeSVC

    model = SquaredHingeSVC(lambda_=LAMBDA, gamma=data["gamma"], tol=TOL, cache_size=CACHE_MB,
                            random_state=0).fit(data["X"], data["y"])
    return _values(model, data, epochs=int(model.n_iter_[0]),
                   objective=float(model.dual_objective_[0]))


def _reference(data):
    from kernelkit.reference import dual_cd_solve
    from kernelkit.reference.gram import KERNEL_CODES

    X, y = data["X"], data["y"]
    n = y.size
    alpha, history = np.zeros(n), np.zeros(1000)
    objective, n_iter, _ = dual_cd_solve(
        {"X": X, "x_sqnorm": None, "gram": None, "diagonal": np.ones(n),
         "sign": np.where(y == 1, 1.0, -1.0), "p": -np.ones(n), "kernel": KERNEL_CODES["rbf"],
         "gamma": data["gamma"], "coef0": 0.0, "degree": 3.0, "lambda_": LAMBDA},
        {"tol": TOL, "max_iter": 1000, "seed": 0, "shrinking": True, "cache_size": CACHE_MB,
         "n_threads": 1},
        alpha, history)
    return dict(n_SV=int(np.count_nonzero(alpha)), epochs=n_iter, objective=objective)


def _smo(module, data):
    model = module.SVC(C=C, gamma=data["gamma"], tol=TOL, cache_size=CACHE_MB)
    return _values(model.fit(data["X"], data["y"]), data)


def _kernelkit_svc(data):
    from kernelkit import svm

    return _smo(svm, data)


def _sklearn_svc(data):
    from sklearn import svm

    return _smo(svm, data)


SUITE = Suite(
    name="dual_cd",
    description=(
        "Fit time of the squared-hinge (L2) kernel SVM without intercept trained by dual "
        "coordinate descent (kernelkit.svm.SquaredHingeSVC, λ = 1/(2C) = 0.5) against the "
        "hinge-loss SVC with intercept trained by SMO (kernelkit.svm.SVC and scikit-learn's "
        "LIBSVM, C = 1) on the binary RBF problem of the svm suite (make_classification, 20 "
        "features, gamma = 1/(n_features·Var X), tol = 1e-3, cache_size = 200 MB); the models "
        "differ (loss, intercept), so `accuracy` on n/4 held-out samples compares what they "
        "learn. The CD tolerance is on the largest projected gradient, SMO's on the maximal "
        "violating pair. The reference (pure-Python twin) runs on the smallest case only."
    ),
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("SquaredHingeSVC (dual CD)", _dual_cd),
        reference_up_to(500, _reference, "reference dual CD"),
        Contender("kernelkit SVC (SMO)", _kernelkit_svc),
        sklearn_peer(_sklearn_svc, "scikit-learn SVC"),
    ],
    repeats=lambda params, quick: 3,
    measure_memory=True,
)
