"""The `linear_svc` suite and the million-graph script, on their smallest sizes."""

import numpy as np
from kernelkit.bench import million_graphs
from kernelkit.bench._harness import available_suites, load_suite


def test_linear_svc_suite_runs_its_smallest_case():
    assert "linear_svc" in available_suites()
    suite = load_suite("linear_svc")
    smallest = min(suite.cases(True), key=lambda case: case["n"])
    data = suite.setup(smallest)
    by_name = {c.name: c for c in suite.contenders}
    ours = by_name["kernelkit"].run(data)
    theirs = by_name["scikit-learn"].run(data)
    # the same problem solved to the same tolerance: the same held-out accuracy
    assert ours["accuracy"] == theirs["accuracy"]
    assert abs(ours["primal"] - theirs["primal"]) < 1e-3 * theirs["primal"]


def test_generated_graphs_are_trees_plus_cycles_with_the_planted_path():
    graphs, y = million_graphs.generate_batch(np.random.default_rng(0), 300)
    assert len(graphs) == y.size == 300 and set(np.unique(y)) == {0, 1}
    for adjacency, labels in graphs:
        n = adjacency.shape[0]
        assert 15 <= n <= 45 and labels.shape == (n,)
        assert (adjacency != adjacency.T).nnz == 0 and adjacency.diagonal().sum() == 0
        # n − 1 tree edges plus at most two more (a repeated edge merges)
        assert n - 1 <= adjacency.nnz // 2 <= n + 1
        # the last node hangs from the middle of the planted path
        parent = np.flatnonzero((adjacency[[n - 1]].toarray()[0] > 0)
                                & (labels == million_graphs.MIDDLE))
        assert parent.size >= 1
    # after the 10 % label noise, most class-1 graphs end the path with END_B, few class-0 ones
    ends = np.array([labels[-1] == million_graphs.END_B for _, labels in graphs])
    assert 0.8 < ends[y == 1].mean() and ends[y == 0].mean() < 0.2


def test_script_runs_end_to_end(tmp_path, capsys):
    out = tmp_path / "report.md"
    for fixed in ([], ["--fixed-vocabulary"]):
        million_graphs.main(["--n-graphs", "1200", "--batch-size", "400", "--subset", "300",
                             "--out", str(out), *fixed])
        report = out.read_text()
        assert "Held-out accuracy (120 graphs)" in report and "| fit LinearSVC |" in report
        accuracy = float(report.split("Held-out accuracy (120 graphs): **")[1].split("**")[0])
        assert accuracy > 0.7
        assert ("fit on the first batch" in report) == bool(fixed)


class _GrowingLabelCounts:
    """A kernel with a growing vocabulary: node-label counts, new labels in new columns."""

    def __init__(self):
        self.vocabulary = {}

    def partial_fit(self, graphs):
        for _, labels in graphs:
            for label in labels.tolist():
                self.vocabulary.setdefault(label, len(self.vocabulary))
        return self

    def transform_features(self, graphs):
        import scipy.sparse as sp

        rows = np.repeat(np.arange(len(graphs)), [len(labels) for _, labels in graphs])
        columns = [self.vocabulary[label] for _, labels in graphs for label in labels.tolist()]
        return sp.csr_array((np.ones(len(columns)), (rows, columns)),
                            shape=(len(graphs), len(self.vocabulary)))


def test_batches_share_one_growing_column_space():
    kernel = _GrowingLabelCounts()
    first = [(None, np.array([0, 0, 1]))]
    second = [(None, np.array([2, 1]))]
    blocks = [million_graphs.featurize(batch, kernel, i == 0)
              for i, batch in enumerate([first, second])]
    assert blocks[0].shape == (1, 2) and blocks[1].shape == (1, 3)
    X = million_graphs.stack(blocks)
    # the first batch's columns are unchanged, widened with zeros
    np.testing.assert_array_equal(X.toarray(), [[2, 1, 0], [0, 1, 1]])
