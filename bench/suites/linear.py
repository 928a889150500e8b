"""Linear and kernel models against scikit-learn at the same regularisation and objective."""

import numpy as np
from threadpoolctl import threadpool_limits

from kernelkit.bench._harness import Contender, Suite

N_THREADS = 2


def _cases(quick):
    scale = 5 if quick else 1
    return [
        *({"model": "logistic", "data": "classification", "n": 100_000 // scale, "d": 50,
           "tol": tol} for tol in ("default", "tight")),
        dict(model="multinomial", data="digits", n=1797, d=64),
        dict(model="ridge", data="regression", n=100_000 // scale, d=200),
        dict(model="ridge", data="regression", n=500, d=20_000 // scale),
        dict(model="kernel_ridge", data="regression", n=5_000 // scale, d=20),
    ]


def _setup(params):
    from sklearn.datasets import load_digits, make_classification, make_regression
    from sklearn.preprocessing import StandardScaler

    if params["data"] == "digits":
        X, y = load_digits(return_X_y=True)
        X = StandardScaler().fit_transform(X)
    elif params["data"] == "classification":
        X, y = make_classification(params["n"], params["d"], n_informative=10, n_redundant=10,
                                   random_state=0)
    else:
        X, y = make_regression(params["n"], params["d"], n_informative=min(params["d"], 50),
                               noise=5.0, random_state=0)
        y = (y - y.mean()) / y.std()
    cut = 3 * len(X) // 4
    return dict(params=params, X=X[:cut], y=y[:cut], X_test=X[cut:], y_test=y[cut:],
                objectives={})


C, ALPHA, GAMMA = 1.0, 1.0, 0.05


def _objective(data, coef, intercept):
    """The objective every contender minimises, from its coefficients (kernelkit's formula)."""
    from kernelkit.utils._logistic import binary_loss, multinomial_loss

    model, X, y = data["params"]["model"], data["X"], data["y"]
    if model == "logistic":
        return binary_loss(X @ coef[0] + intercept[0], y.astype(float))[0] * C \
            + 0.5 * float(coef[0] @ coef[0])
    if model == "multinomial":
        return multinomial_loss(X @ coef.T + intercept, np.eye(10)[y])[0] * C \
            + 0.5 * float(np.sum(coef**2))
    residual = y - X @ np.ravel(coef) - intercept
    return float(residual @ residual + ALPHA * np.ravel(coef) @ np.ravel(coef))


def _values(name, model, data):
    values = {"score": float(model.score(data["X_test"], data["y_test"]))}
    if data["params"]["model"] != "kernel_ridge":
        objectives = data["objectives"]
        if name not in objectives:
            objectives[name] = _objective(data, np.atleast_2d(model.coef_),
                                          np.atleast_1d(model.intercept_))
        values["objective"] = objectives[name]
        if name != "kernelkit" and "kernelkit" in objectives:
            values["rel_gap"] = (objectives[name] - objectives["kernelkit"]) / abs(
                objectives["kernelkit"])
    return values


def _logistic_regression(library, solver, params):
    """The library's LogisticRegression at the case's tolerance: each library's default
    (``tol`` and ``max_iter``), or tight (kernelkit's ``‖g‖∞ ≤ 1e-8``, the others' ``1e-10``)."""
    if library == "kernelkit":
        from kernelkit.linear_model import LogisticRegression
        kwargs = {"n_jobs": N_THREADS}
    elif library == "scikit-learn-intelex":
        from sklearnex.linear_model import LogisticRegression
        kwargs = {"n_jobs": N_THREADS}
    else:
        from sklearn.linear_model import LogisticRegression
        kwargs = {}
    if params.get("tol") != "default":
        kwargs.update(tol=1e-8 if library == "kernelkit" else 1e-10, max_iter=1000)
    return LogisticRegression(C=C, solver=solver, **kwargs)


def _run(library, solver=None):
    def run(data):
        params = data["params"]
        model, name = params["model"], f"{library} {solver}" if solver else library
        if library == "kernelkit":
            from kernelkit.kernel_ridge import KernelRidge
            from kernelkit.linear_model import Ridge
        else:
            from sklearn.kernel_ridge import KernelRidge
            from sklearn.linear_model import Ridge
        if model in ("logistic", "multinomial"):
            estimator = _logistic_regression(library, solver, params)
        elif model == "ridge":
            estimator = Ridge(alpha=ALPHA)
        else:
            estimator = KernelRidge(alpha=ALPHA, kernel="rbf", gamma=GAMMA)
        with threadpool_limits(limits=N_THREADS, user_api="blas"):
            estimator.fit(data["X"], data["y"])
        return _values("kernelkit" if library == "kernelkit" and solver in (None, "newton")
                       else name, estimator, data)
    return run


def _logistic(params):
    return params["model"] in ("logistic", "multinomial")


SUITE = Suite(
    name="linear",
    description=f"""
Fit time at equal regularisation: logistic regression (``C = {C}``; binary on
``make_classification(n, 50, 10 informative, 10 redundant)``, multinomial on the standardised
digits), ridge (``alpha = {ALPHA}``; ``n ≫ p`` is solved in the primal and ``p ≫ n`` in the dual
by kernelkit, by scikit-learn's default ``solver="auto"``) and RBF kernel ridge (``alpha =
{ALPHA}``, ``gamma = {GAMMA}``), 75 % of the data for the fit. ``objective`` is the minimised
objective recomputed from each contender's coefficients (``C Σ log-loss + ½‖w‖²``, ``‖y − Xw −
b‖² + α‖w‖²``), ``rel_gap`` its relative distance to kernelkit's (positive: kernelkit lower);
``score`` the held-out accuracy or R². The binary logistic case runs at each library's
default tolerance and at a tight one (kernelkit ``tol=1e-8`` on the largest gradient entry,
scikit-learn and scikit-learn-intelex ``tol=1e-10``, ``max_iter=1000``); the multinomial case
at the tight one. Every contender on {N_THREADS} threads: kernelkit and scikit-learn-intelex
``n_jobs={N_THREADS}`` (imported directly, no patching), BLAS limited by threadpoolctl.
""",
    cases=_cases,
    setup=_setup,
    contenders=[
        Contender("kernelkit", _run("kernelkit", None), applies=lambda p: not _logistic(p)),
        Contender("kernelkit newton", _run("kernelkit", "newton"), applies=_logistic),
        Contender("kernelkit lbfgs", _run("kernelkit", "lbfgs"), applies=_logistic),
        Contender("scikit-learn", _run("scikit-learn", None), requires=("sklearn",),
                  applies=lambda p: not _logistic(p)),
        Contender("scikit-learn newton-cg", _run("scikit-learn", "newton-cg"),
                  requires=("sklearn",), applies=_logistic),
        Contender("scikit-learn lbfgs", _run("scikit-learn", "lbfgs"), requires=("sklearn",),
                  applies=_logistic),
        Contender("scikit-learn-intelex lbfgs", _run("scikit-learn-intelex", "lbfgs"),
                  requires=("sklearnex",), applies=_logistic),
    ],
    repeats=lambda params, quick: 3,
    measure_memory=True,
)
