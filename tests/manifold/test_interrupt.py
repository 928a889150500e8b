"""Ctrl-C stops the SMACOF passes (the ``ctrl_c`` fixture of tests/conftest.py)."""


def test_ctrl_c_stops_smacof(ctrl_c):
    # 100 000 Guttman transforms of 3 000 points (4.5e6 pairs each), from a random start (the
    # classical one is an eigensolver call of seconds); a small fit afterwards
    setup = """
        import numpy as np
        from kernelkit.manifold import MDS
        X = np.random.default_rng(0).normal(size=(3000, 10))
        model = MDS(max_iter=100_000, eps=0.0, init="random", n_init=1, random_state=0,
                    n_jobs=2)
        run = lambda: model.fit(X)
    """
    after = """
        print(model.set_params(max_iter=5).fit_transform(X[:50]).shape == (50, 2))
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]
