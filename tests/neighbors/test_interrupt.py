"""Ctrl-C stops the brute-force neighbour search (the ``ctrl_c`` fixture of tests/conftest.py)."""


def test_ctrl_c_stops_brute_knn(ctrl_c):
    # 400 000 queries against 400 000 samples: 1.6e11 distances
    setup = """
        import numpy as np
        from kernelkit.neighbors import KNeighborsClassifier
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(400_000, 20)), rng.integers(0, 2, 400_000)
        model = KNeighborsClassifier(algorithm="brute", n_jobs=2).fit(X, y)
        run = lambda: model.predict(X)
    """
    after = """
        print(model.predict(X[:5]).shape == (5,))
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]
