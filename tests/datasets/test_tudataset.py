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


@pytest.mark.parametrize("suffix, lines, message", [
    ("A", ["1, 2", "foo"], "TOY_A.txt, line 2: expected two integers separated by a comma, "
                           "got 'foo'"),
    ("A", ["1, 2", "", "2, 1, 3"], "TOY_A.txt, line 3: expected two integers separated by a "
                                   "comma, got '2, 1, 3'"),
    ("A", ["1, 2", "2, 1.0"], "TOY_A.txt, line 2: expected two integers"),
    ("graph_indicator", ["1", "1", "1,2"], "TOY_graph_indicator.txt, line 3: expected one "
                                           "integer, got '1,2'"),
    ("node_labels", ["0", str(2**70)], f"TOY_node_labels.txt, line 2: {2**70} is outside the "
                                       "range of 64-bit integers"),
    ("graph_labels", ["1", "-1", "x"], "TOY_graph_labels.txt, line 3: expected one integer"),
    ("A", ["1, 2", "2, 1", "2, 7"], "TOY_A.txt, line 3: edge (2, 7) has an end outside nodes "
                                    "1..5"),
    ("A", ["1, 2", "", "1, 4"], "TOY_A.txt, line 3: edge (1, 4) joins two different graphs"),
    ("graph_indicator", ["1", "2", "1", "2", "2"], "TOY_graph_indicator.txt, line 3: graph 1 "
                                                   "after graph 2"),
    ("graph_indicator", ["1", "1", "1", "3", "3"], "TOY_graph_indicator.txt, line 4: graph 3 is "
                                                   "outside 1..2"),
    ("node_labels", ["0", "1"], "TOY_node_labels.txt: 2 node labels for the 5 nodes"),
], ids=lambda v: "" if isinstance(v, list) else v[:40])
def test_bad_files_are_named_with_their_line(tmp_path, suffix, lines, message):
    _write(tmp_path, "TOY", ",")
    if suffix == "A":
        (tmp_path / "TOY_edge_labels.txt").unlink()
    (tmp_path / f"TOY_{suffix}.txt").write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as info:
        load_tudataset(tmp_path, "TOY")
    assert str(info.value).startswith(f"{tmp_path / 'TOY'}_") and message in str(info.value)


def test_a_binary_file_is_named_with_its_line(tmp_path):
    _write(tmp_path, "TOY", ",")
    (tmp_path / "TOY_graph_labels.txt").write_bytes(b"1\n\x93\x00\n")
    with pytest.raises(ValueError, match="TOY_graph_labels.txt, line 2: byte 0x93 is not text"):
        load_tudataset(tmp_path, "TOY")


def test_whitespace_lines_and_separators_are_tolerated(tmp_path):
    _write(tmp_path, "TOY", ",")
    (tmp_path / "TOY_A.txt").write_text("1,2\r\n  \n2 ,1\n2, 3\n3,2\n4,5\n5,4\n")
    (tmp_path / "TOY_graph_indicator.txt").write_text("1 \n1\n1\n2\n2")
    data = load_tudataset(tmp_path, "TOY", as_networkx=False)
    np.testing.assert_array_equal(data.graphs[0][0].toarray(), [[0, 1, 0], [1, 0, 1], [0, 1, 0]])


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
