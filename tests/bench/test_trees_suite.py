"""The `trees` benchmark suite: declared, sized for the quick profile, contenders agree."""

from kernelkit.bench._harness import available_suites, load_suite


def test_trees_suite_runs_its_smallest_case():
    assert "trees" in available_suites()
    suite = load_suite("trees")
    assert suite.contenders[0].name == "kernelkit"
    assert suite.measure_memory
    smallest = min(suite.cases(True), key=lambda case: case["n"])
    data = suite.setup(smallest)
    by_name = {c.name: c for c in suite.contenders}
    ours = by_name["kernelkit"].run(data)
    # the same trees as scikit-learn: same held-out accuracy and number of leaves
    assert by_name["scikit-learn"].run(data) == ours
    assert ours["accuracy"] > 0.6
