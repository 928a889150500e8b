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
