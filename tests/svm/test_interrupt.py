"""Ctrl-C stops the SMO solver (the ``ctrl_c`` fixture of tests/conftest.py)."""

# a nearly hard margin on noise targets and an unreachable tolerance: up to 1e8 SMO steps over
# thousands of variables, hours of work; a second fit afterwards still works
_NOISE = """
    import numpy as np
    from kernelkit.svm import SVC, SVR
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6000, 3))
"""
_AFTER = """
    print(model.set_params(C=1.0, tol=1e-3).fit(X[:60], y[:60]).predict(X[:1]).shape == (1,))
"""


def test_ctrl_c_stops_smo(ctrl_c):
    setup = _NOISE + """
    y = rng.normal(size=6000)
    model = SVR(C=1e6, tol=1e-12, max_iter=10**8, n_jobs=1)
    run = lambda: model.fit(X, y)
    """
    assert ctrl_c(setup, _AFTER) == ["interrupted", "True"]


def test_ctrl_c_stops_smo_in_worker_threads(ctrl_c):
    # three classes, two threads: the one-vs-one problems run in a thread pool, whose solvers
    # cannot see the signal; the interrupted main thread stops them through a flag
    setup = _NOISE + """
    y = rng.integers(0, 3, 6000)
    model = SVC(C=1e6, tol=1e-12, max_iter=10**8, n_jobs=2)
    run = lambda: model.fit(X, y)
    """
    assert ctrl_c(setup, _AFTER) == ["interrupted", "True"]


def test_ctrl_c_stops_the_warm_start_of_smo(ctrl_c):
    # a warm start where every variable is free: one kernel row of 200 000 samples for each of
    # them, minutes of work before the first SMO step; interrupted, the caller's alpha is left
    # as it was
    setup = """
    import numpy as np
    from kernelkit._core._gram import VECTOR_KERNELS
    from kernelkit._core._smo_solver import smo_solve
    n = 200_000
    X = np.random.default_rng(0).normal(size=(n, 20))
    start = np.full(n, 0.5)
    alpha = start.copy()
    problem = {"X": X, "x_sqnorm": np.einsum("ij,ij->i", X, X), "gram": np.zeros((0, 0)),
               "col": np.arange(n), "y": np.where(np.arange(n) % 2 == 0, 1, -1).astype(np.int32),
               "p": -np.ones(n), "upper_bound": np.ones(n), "diagonal": np.ones(n),
               "regression": False, "kernel": VECTOR_KERNELS["rbf"], "gamma": 0.05,
               "coef0": 0.0, "degree": 3.0}
    options = {"tol": 1e-3, "shrinking": True, "cache_size": 1.0, "max_iter": 10**8,
               "n_threads": 1, "check_curvature": False}
    run = lambda: smo_solve(problem, options, alpha)
    """
    assert ctrl_c(setup, "print(np.array_equal(alpha, start))") == ["interrupted", "True"]
