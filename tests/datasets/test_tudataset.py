"""TU Dortmund reader and the shipped MUTAG set."""

import numpy as np
import pytest

from kernelkit.datasets import load_mutag, load_tudataset
from kernelkit.kernels import WeisfeilerLehmanKernel


def _write(folder, name, separator):
    files = {
        "A": [(1, 2), (2, 1), (2, 3), (3, 2), (4, 5), (5, 4)],
        "graph_indicator": [1, 1, 1, 2, 2],
        "graph_labels": [1, -1],
        "node_labels": [0, 1, 0, 2, 2],
        "edge_labels": [0, 0, 1, 1, 3, 3],
    }
    for suffix, rows in files.items():
        lines = [separator.join(map(str, r)) if isinstance(r, tuple) else str(r) for r in rows]
        (folder / f"{name}_{suffix}.txt").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("separator", [", ", ","])
def test_both_separators(tmp_path, separator):
    _write(tmp_path, "TOY", separator)
    data = load_tudataset(tmp_path, "TOY", as_networkx=False)
    np.testing.assert_array_equal(data.target, [1, -1])
    adjacency, labels, elabels = data.graphs[0]
    np.testing.assert_array_equal(adjacency.toarray(), [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    np.testing.assert_array_equal(labels, [0, 1, 0])
    assert elabels == {(0, 1): 0, (1, 0): 0, (1, 2): 1, (2, 1): 1}
    graph = load_tudataset(tmp_path, "TOY").graphs[1]
    assert dict(graph.nodes(data="label")) == {0: 2, 1: 2}
    assert graph.edges[0, 1]["label"] == 3
    # the parent folder works too
    (tmp_path / "TOY").mkdir()
    _write(tmp_path / "TOY", "TOY", separator)
    assert len(load_tudataset(tmp_path, "TOY", as_networkx=False).graphs) == 2


def test_missing_and_inconsistent_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="TOY_A.txt"):
        load_tudataset(tmp_path, "TOY")
    _write(tmp_path, "TOY", ",")
    (tmp_path / "TOY_A.txt").write_text("1,4\n4,1\n")
    (tmp_path / "TOY_edge_labels.txt").unlink()
    with pytest.raises(ValueError, match="joins two different graphs"):
        load_tudataset(tmp_path, "TOY")


def test_mutag_is_shipped():
    data = load_mutag(as_networkx=False)
    assert len(data.graphs) == 188
    np.testing.assert_array_equal(np.unique(data.target, return_counts=True)[1], [63, 125])
    assert sum(len(g[1]) for g in data.graphs) == 3371
    assert sum(g[0].nnz for g in data.graphs) == 7442
    assert "MUTAG" in data.DESCR
    networkx_graphs = load_mutag().graphs
    kernel = WeisfeilerLehmanKernel(n_iter=2)
    np.testing.assert_array_equal(kernel.fit_transform(networkx_graphs),
                                  kernel.fit_transform(data.graphs))
