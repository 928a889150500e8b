"""Ctrl-C stops the SMO solver (the ``ctrl_c`` fixture of tests/conftest.py)."""

import pytest


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_ctrl_c_stops_smo(ctrl_c, n_jobs):
    # a nearly hard margin on 3 000 noise targets and an unreachable tolerance: up to 1e8 SMO
    # steps over 6 000 variables, hours of work; a second fit afterwards still works
    setup = f"""
        import numpy as np
        from kernelkit.svm import SVR
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(3000, 3)), rng.normal(size=3000)
        model = SVR(C=1e6, tol=1e-12, max_iter=10**8, n_jobs={n_jobs})
        run = lambda: model.fit(X, y)
    """
    after = """
        print(SVR(kernel="rbf").fit(X[:50], y[:50]).predict(X[:1]).shape == (1,))
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]
