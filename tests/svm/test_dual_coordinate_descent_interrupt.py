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


def test_ctrl_c_stops_the_warm_start_of_dual_coordinate_descent(ctrl_c):
    # a warm start where every variable is non-zero: one kernel row of 200 000 samples for each
    # of them (no cache), minutes of work before the first epoch; the warm start leaves alpha
    # as it was
    setup = """
        import numpy as np
        from kernelkit._core._dual_cd import dual_cd_solve
        from kernelkit._core._gram import VECTOR_KERNELS
        n = 200_000
        X = np.random.default_rng(0).normal(size=(n, 20))
        start = np.full(n, 0.5)
        alpha = start.copy()
        problem = {"X": X, "x_sqnorm": np.einsum("ij,ij->i", X, X), "gram": np.zeros((0, 0)),
                   "diagonal": np.ones(n), "sign": np.ones(n), "p": -np.ones(n),
                   "kernel": VECTOR_KERNELS["rbf"], "gamma": 0.05, "coef0": 0.0, "degree": 3.0,
                   "lambda_": 1.0}
        options = {"tol": 1e-3, "max_iter": 10, "seed": 0, "shrinking": True,
                   "cache_size": 0.0, "n_threads": 1}
        run = lambda: dual_cd_solve(problem, options, alpha, np.zeros(10))
    """
    assert ctrl_c(setup, "print(np.array_equal(alpha, start))") == ["interrupted", "True"]
