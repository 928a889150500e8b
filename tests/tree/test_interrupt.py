"""Ctrl-C stops the tree builder (the ``ctrl_c`` fixture of tests/conftest.py)."""

import pytest


def test_ctrl_c_stops_a_forest(ctrl_c):
    # 500 full-depth trees on two threads taking trees by hand (no bootstrap: the Python-side
    # draws stay short, the signal lands in the compiled builder); afterwards a small fit works
    setup = """
        import numpy as np
        from kernelkit.ensemble import RandomForestRegressor
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(50_000, 10)), rng.normal(size=50_000)
        model = RandomForestRegressor(n_estimators=500, bootstrap=False, max_features=0.5,
                                      n_jobs=2)
        run = lambda: model.fit(X, y)
    """
    after = """
        print(len(model.set_params(n_estimators=3).fit(X[:100], y[:100]).estimators_) == 3)
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]


@pytest.mark.parametrize("max_leaf_nodes", [None, 10**6])   # depth first, best first
def test_ctrl_c_stops_one_deep_tree(ctrl_c, max_leaf_nodes):
    # noise targets: about a million leaves
    setup = f"""
        import numpy as np
        from kernelkit.tree import DecisionTreeRegressor
        rng = np.random.default_rng(0)
        X, y = rng.normal(size=(1_000_000, 5)), rng.normal(size=1_000_000)
        model = DecisionTreeRegressor(max_leaf_nodes={max_leaf_nodes}, random_state=0)
        run = lambda: model.fit(X, y)
    """
    after = """
        print(model.fit(X[:100], y[:100]).get_n_leaves() > 1)
    """
    assert ctrl_c(setup, after) == ["interrupted", "True"]
