"""Ctrl-C stops the compiled loops of histogram gradient boosting (the ``ctrl_c`` fixture of
tests/conftest.py).

Each core is called directly, on an input that keeps one call busy for seconds. A core that never
looked at the signals would still end in KeyboardInterrupt, raised by the first line of Python
after it returned; so ``run()`` records the frames the exception went through, and the test
asserts that it came out of the core itself. A small call afterwards must still work.
"""

import pytest

# ``interrupted_in(call)``: runs ``call``, noting the frames a KeyboardInterrupt comes through
_RECORD = """
    import traceback
    import numpy as np
    frames = []
    def interrupted_in(call):
        try:
            call()
        except KeyboardInterrupt as error:
            frames.extend(frame.name for frame in traceback.extract_tb(error.__traceback__))
            raise
"""


def test_ctrl_c_stops_the_binning(ctrl_c):
    # 3·10⁸ values on two threads; X is all zeros, whose 2.4 GB are never written and so take no
    # memory, and X_binned takes memory only as far as it is written
    setup = _RECORD + """
    from kernelkit._core._hist_binning import map_to_bins
    n_samples, n_features = 100_000, 3000
    X = np.zeros((n_samples, n_features))
    thresholds = np.sort(np.random.default_rng(0).normal(size=(n_features, 254)), axis=1)
    n_thresholds = np.full(n_features, 254, dtype=np.intp)
    numeric = np.zeros(n_features, dtype=np.uint8)
    X_binned = np.empty((n_samples, n_features), dtype=np.uint8, order="F")
    run = lambda: interrupted_in(lambda: map_to_bins(X, thresholds, n_thresholds, numeric, 255,
                                                     X_binned, 2))
    """
    after = """
    print("kernelkit._core._hist_binning.map_to_bins" in frames)
    x = np.array([[-1.0], [0.5], [np.nan]])
    binned = np.empty((3, 1), dtype=np.uint8, order="F")
    map_to_bins(x, np.array([[0.0, 1.0]]), np.array([2], dtype=np.intp),
                np.zeros(1, dtype=np.uint8), 9, binned, 1)
    print(binned.ravel().tolist() == [0, 1, 9])
    """
    assert ctrl_c(setup, after) == ["interrupted", "True", "True"]


def test_ctrl_c_stops_the_gradients(ctrl_c):
    # multinomial loss, 8 192 samples × 8 192 classes: every sample writes a column of the two
    # (classes, samples) outputs, a page per class (raw is all zeros: it takes no memory, and the
    # outputs take it only as far as they are written)
    setup = _RECORD + """
    from kernelkit._core._hist_gradients import multinomial_gradients
    n_samples, n_classes = 8192, 8192
    y, raw = np.zeros(n_samples), np.zeros((n_samples, n_classes))
    gradients = np.empty((n_classes, n_samples), dtype=np.float32)
    hessians = np.empty((n_classes, n_samples), dtype=np.float32)
    run = lambda: interrupted_in(lambda: multinomial_gradients(y, raw, None, gradients, hessians,
                                                                    1))
    """
    after = """
    print("kernelkit._core._hist_gradients.multinomial_gradients" in frames)
    g, h = np.empty((2, 1), dtype=np.float32), np.empty((2, 1), dtype=np.float32)
    multinomial_gradients(np.array([1.0]), np.zeros((1, 2)), None, g, h, 1)
    print(g.ravel().tolist() == [0.5, -0.5] and h.ravel().tolist() == [0.25, 0.25])
    """
    assert ctrl_c(setup, after) == ["interrupted", "True", "True"]


# A tree of 30 splits in a chain, every sample going left to the end (threshold +inf), leaf
# values 1: split nodes 0, 1, 3, ..., 57, the left child of node s at s + 2 (1 for the root)
_CHAIN = """
    n_nodes = 61
    splits = np.r_[0, 1:n_nodes - 2:2]
    nodes = {
        "feature": np.zeros(n_nodes, dtype=np.intp),
        "threshold": np.full(n_nodes, np.inf),
        "missing_go_left": np.ones(n_nodes, dtype=np.uint8),
        "left": np.full(n_nodes, -1, dtype=np.intp),
        "value": np.ones(n_nodes),
        "bitset": np.full(n_nodes, -1, dtype=np.intp),   # no categorical split
        "left_categories": np.zeros((0, 8), dtype=np.uint32),
        "known_categories": np.zeros((0, 8), dtype=np.uint32),
    }
    nodes["left"][splits] = np.where(splits == 0, 1, splits + 2)
"""


@pytest.mark.parametrize("function", ["add_tree_values", "add_leaf_values"])
def test_ctrl_c_stops_the_predictions(ctrl_c, function):
    # add_tree_values: 10⁶ trees (one tree's nodes, rooted a million times) over 20 000 samples;
    # add_leaf_values: 10⁵ leaves, each spanning all 10⁶ samples
    calls = {
        "add_tree_values": """
    X = np.zeros((20_000, 1))
    raw = np.zeros((20_000, 1))
    roots = np.zeros(10**6, dtype=np.intp)
    call = lambda: add_tree_values(X, nodes, roots, 0, len(roots), raw, 2)
        """,
        "add_leaf_values": """
    samples = np.arange(10**6, dtype=np.int32)
    raw = np.zeros((10**6, 1))
    start, stop = np.zeros(10**5, dtype=np.intp), np.full(10**5, 10**6, dtype=np.intp)
    call = lambda: add_leaf_values(samples, start, stop, np.ones(10**5), raw, 0)
        """,
    }
    setup = _RECORD + _CHAIN + f"""
    from kernelkit._core._hist_predict import add_leaf_values, add_tree_values
    {calls[function].strip()}
    run = lambda: interrupted_in(call)
    """
    after = f"""
    print("kernelkit._core._hist_predict.{function}" in frames)
    raw = np.zeros((2, 1))
    add_tree_values(np.zeros((2, 1)), nodes, np.zeros(3, dtype=np.intp), 0, 3, raw, 1)
    add_leaf_values(np.array([1], dtype=np.int32), np.array([0]), np.array([1]),
                    np.array([0.5]), raw, 0)
    print(raw.ravel().tolist() == [3.0, 3.5])
    """
    assert ctrl_c(setup, after) == ["interrupted", "True", "True"]


def test_ctrl_c_stops_the_grower(ctrl_c):
    # the root's histograms of 2 000 features over 10⁶ samples (X_binned is all zeros: its 2 GB
    # are never written and take no memory)
    setup = _RECORD + """
    from kernelkit._core._hist_grower import grow_tree

    def grow(n_samples, n_features, gradients):
        root_counts = np.zeros((n_features, 256))
        root_counts[:, 0] = n_samples
        binned = {"X_binned": np.zeros((n_samples, n_features), dtype=np.uint8, order="F"),
                  "root_counts": root_counts,
                  "n_bins_non_missing": np.ones(n_features, dtype=np.intp),
                  "has_missing_values": np.zeros(n_features, dtype=np.uint8),
                  "is_categorical": np.zeros(n_features, dtype=np.uint8), "missing_bin": 255}
        options = {"max_leaf_nodes": 2, "max_depth": -1, "min_samples_leaf": 1,
                   "min_hessian_to_split": 1e-3, "l2_regularization": 0.0, "learning_rate": 1.0}
        work = {"sample_indices": np.arange(n_samples, dtype=np.int32),
                "partition_buffer": np.empty(n_samples, dtype=np.int32),
                "ordered_gradients": np.empty(n_samples, dtype=np.float32),
                "ordered_hessians": np.empty(n_samples, dtype=np.float32),
                "min_work_per_thread": 0.0}
        max_nodes = 3
        nodes = {name: np.zeros(max_nodes, dtype=np.intp)
                 for name in ("feature", "bin", "left", "right", "start", "stop")}
        nodes.update(missing_go_left=np.zeros(max_nodes, dtype=np.uint8),
                     value=np.zeros(max_nodes), gain=np.zeros(max_nodes),
                     left_bins=np.zeros((max_nodes, 8), dtype=np.uint32))
        n_nodes = grow_tree(binned, gradients, gradients, True, options, work, nodes, 1)
        return n_nodes, nodes["value"][0]

    run = lambda: interrupted_in(lambda: grow(10**6, 2000, np.zeros(10**6, dtype=np.float32)))
    """
    after = """
    print("kernelkit._core._hist_grower.grow_tree" in frames)
    # one constant feature: no split, the root's value is −Σg/Σh
    print(grow(4, 1, np.full(4, 0.5, dtype=np.float32)) == (1, -0.5))
    """
    assert ctrl_c(setup, after) == ["interrupted", "True", "True"]
