"""Node attributes of TU data sets (``{name}_node_attributes.txt``)."""


import numpy as np
import pytest

from kernelkit.datasets import load_tudataset

ATTRIBUTES = [[0.5, -1.0], [1e3, 2.0], [0.0, 0.25], [-3.5, 1.0], [7.0, 8.0]]


def _write(folder, attribute_lines=None):
    files = {
        "A": ["1, 2", "2, 1", "2, 3", "3, 2", "4, 5", "5, 4"],
        "graph_indicator": ["1", "1", "1", "2", "2"],
        "graph_labels": ["1", "-1"],
        "node_labels": ["0", "1", "0", "2", "2"],
        "node_attributes": attribute_lines or [", ".join(map(str, row)) for row in ATTRIBUTES],
    }
    for suffix, lines in files.items():
        (folder / f"TOY_{suffix}.txt").write_text("\n".join(lines) + "\n")


def test_tuples_get_a_fourth_element(tmp_path):
    _write(tmp_path)
    graphs = load_tudataset(tmp_path, "TOY", as_networkx=False).graphs
    assert [len(graph) for graph in graphs] == [4, 4]
    adjacency, labels, edge_labels, attributes = graphs[0]
    assert adjacency.shape == (3, 3) and edge_labels is None
    np.testing.assert_array_equal(labels, [0, 1, 0])
    assert attributes.dtype == np.float64 and attributes.shape == (3, 2)
    np.testing.assert_array_equal(attributes, ATTRIBUTES[:3])
    np.testing.assert_array_equal(graphs[1][3], ATTRIBUTES[3:])


def test_networkx_nodes_get_an_attributes_array(tmp_path):
    _write(tmp_path)
    graph = load_tudataset(tmp_path, "TOY").graphs[1]
    assert dict(graph.nodes(data="label")) == {0: 2, 1: 2}
    for node, row in zip(graph.nodes, ATTRIBUTES[3:]):
        value = graph.nodes[node]["attributes"]
        assert isinstance(value, np.ndarray) and value.dtype == np.float64 and value.ndim == 1
        np.testing.assert_array_equal(value, row)


def test_sets_without_attributes_keep_three_elements(tmp_path):
    _write(tmp_path)
    (tmp_path / "TOY_node_attributes.txt").unlink()
    assert len(load_tudataset(tmp_path, "TOY", as_networkx=False).graphs[0]) == 3
    assert "attributes" not in load_tudataset(tmp_path, "TOY").graphs[0].nodes[0]


def test_whitespace_and_one_attribute_per_line(tmp_path):
    _write(tmp_path, ["1.5", " 2 ", "", "-3e-2", "4", "5\r"])
    attributes = load_tudataset(tmp_path, "TOY", as_networkx=False).graphs[0][3]
    np.testing.assert_array_equal(attributes, [[1.5], [2.0], [-0.03]])


@pytest.mark.parametrize("lines, message", [
    (["1, 2", "3, 4", "5, 6", "7", "9, 10"],
     "TOY_node_attributes.txt, line 4: 1 values, but the lines above have 2"),
    (["1, 2", "3, 4", "5, x", "7, 8", "9, 10"],
     "TOY_node_attributes.txt, line 3: 'x' is not a number"),
    (["1, 2", "3, 4", "", "5, nan", "7, 8", "9, 10"],
     "TOY_node_attributes.txt, line 4: attribute 2 is nan; node attributes must be finite"),
    (["1, 2", "3, 4", "5, 6", "-inf, 8", "9, 10"],
     "TOY_node_attributes.txt, line 4: attribute 1 is -inf"),
    (["1, 2", "3, 4", "5, 6", "7, 8"],
     "TOY_node_attributes.txt: 4 attribute lines for the 5 nodes of TOY_graph_indicator.txt"),
], ids=["ragged", "not-a-number", "nan", "inf", "line-count"])
def test_bad_attribute_files_are_named_with_their_line(tmp_path, lines, message):
    _write(tmp_path, lines)
    with pytest.raises(ValueError) as info:
        load_tudataset(tmp_path, "TOY")
    assert message in str(info.value) and str(tmp_path) in str(info.value)


def test_enzymes_has_18_attributes_per_node(shared_data):
    if not (shared_data / "ENZYMES").is_dir():
        pytest.skip(f"needs the shared ENZYMES copy ({shared_data / 'ENZYMES'})")
    data = load_tudataset(shared_data, "ENZYMES", as_networkx=False)
    assert len(data.graphs) == 600
    assert sum(graph[3].shape[0] for graph in data.graphs) == 19580
    assert {graph[3].shape[1] for graph in data.graphs} == {18}
    np.testing.assert_allclose(data.graphs[0][3][0, :3], [11.0, 15.887014, 37.78])
