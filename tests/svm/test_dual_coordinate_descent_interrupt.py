"""Ctrl-C stops dual coordinate descent (the ``ctrl_c`` fixture of tests/conftest.py)."""


def test_ctrl_c_stops_dual_coordinate_descent(ctrl_c):
    # a narrow kernel, almost no regularisation and an unreachable tolerance: up to 1e6 epochs
    # over 4 000 samples; a second fit afterwards still works
    setup = """
        import numpy as np
        from kernelkit.svm import SquaredEpsilonSVR
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(4000, 3)), rng.normal(size=4000)
        model = SquaredEpsilonSVR(lambda_=1e-6, gamma=10.0, tol=1e-14, max_iter=10**6, n_jobs=2)
        run = lambda: model.fit(X, y)
    """
    after = """
        print(model.set_params(max_iter=10).fit(X[:50], y[:50]).predict(X[:1]).shape == (1,))
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]
