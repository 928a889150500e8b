"""LDA and QDA fit time against scikit-learn on the same data, with the same predictions."""

import numpy as np

from kernelkit.bench._harness import Contender, Suite


def _cases(quick):
    n = 20_000 if quick else 100_000
    return [dict(model=m, n=n, d=50) for m in ("lda", "qda")]


def _setup(params):
    from sklearn.datasets import make_classification

    # redundant features make every class covariance singular, where scikit-learn's QDA stops
    # with an error (kernelkit's regularises and warns): none for QDA
    X, y = make_classification(n_samples=params["n"], n_features=params["d"], n_informative=10,
                               n_redundant=10 if params["model"] == "lda" else 0, n_classes=3,
                               random_state=0)
    cut = 3 * params["n"] // 4
    return dict(params=params, X=X[:cut], y=y[:cut], X_test=X[cut:], y_test=y[cut:],
                predictions={})


def _report(name, model, data):
    predicted = model.predict(data["X_test"])
    data["predictions"][name] = predicted
    values = {"accuracy": float(np.mean(predicted == data["y_test"]))}
    if name != "kernelkit" and "kernelkit" in data["predictions"]:
        values["same predictions"] = float(np.mean(predicted == data["predictions"]["kernelkit"]))
    return values


def _kernelkit(data):
    from kernelkit import discriminant_analysis as da

    model = (da.LinearDiscriminantAnalysis(covariance="mle") if data["params"]["model"] == "lda"
             else da.QuadraticDiscriminantAnalysis())
    return _report("kernelkit", model.fit(data["X"], data["y"]), data)


def _sklearn(solver):
    def run(data):
        from sklearn import discriminant_analysis as da

        model = (da.LinearDiscriminantAnalysis(solver=solver) if data["params"]["model"] == "lda"
                 else da.QuadraticDiscriminantAnalysis())
        return _report(f"scikit-learn {solver}", model.fit(data["X"], data["y"]), data)
    return run


SUITE = Suite(
    name="discriminant",
    description="""
Fit time of linear and quadratic discriminant analysis on ``make_classification(n, 50
features, 10 informative, 10 redundant (none for QDA: they make the class covariances singular,
and scikit-learn's QDA then raises), 3 classes, random_state=0)``, 75 % used for the fit.
kernelkit's LDA with ``covariance="mle"`` is scikit-learn's model (covariance weighted by the
class proportions); scikit-learn's LDA runs with its default ``solver="svd"`` and with
``"lsqr"``. Values: held-out accuracy, and the share of held-out predictions equal to
kernelkit's (fit time only is timed).
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _kernelkit),
        Contender("scikit-learn svd", _sklearn("svd"), requires=("sklearn",)),
        Contender("scikit-learn lsqr", _sklearn("lsqr"), requires=("sklearn",),
                  applies=lambda params: params["model"] == "lda"),
    ],
    repeats=lambda params, quick: 5,
    measure_memory=True,
)
