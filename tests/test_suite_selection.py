"""The suite's own selection: the slow tests and the fuzz suite are left out of a plain
``pytest`` and run with ``--run-slow``, ``--fuzz-long``, ``-m slow`` or ``KERNELKIT_TEST_ALL=1``
(what CI runs)."""

import os
import pathlib
import subprocess
import sys
import types

import pytest

TESTS = pathlib.Path(__file__).resolve().parent
FUZZ_TEST = "tests/fuzz/test_fuzz.py::test_summary_table_counts_by_class"


@pytest.fixture
def conftest(request):
    """The module tests/conftest.py, as pytest loaded it."""
    return next(plugin for plugin in request.config.pluginmanager.get_plugins()
                if getattr(plugin, "__file__", None) == str(TESTS / "conftest.py"))


@pytest.mark.slow   # two more pytest processes collecting the fuzz suite
@pytest.mark.skipif(not (TESTS / "fuzz" / "test_fuzz.py").is_file(), reason="no fuzz suite here")
@pytest.mark.parametrize("all_tests", [None, "1"])
def test_the_fuzz_suite_runs_only_when_asked_for(all_tests):
    env = {k: v for k, v in os.environ.items() if k != "KERNELKIT_TEST_ALL"}
    env.update({"KERNELKIT_TEST_ALL": all_tests} if all_tests else {})
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                             "no:cacheprovider", FUZZ_TEST], cwd=TESTS.parent,
                            capture_output=True, text=True, env=env, timeout=300)
    collected = [line for line in result.stdout.splitlines() if "::" in line]
    if all_tests:
        assert collected == [FUZZ_TEST], result.stdout
    else:
        assert collected == [] and "1 deselected" in result.stdout, result.stdout


@pytest.mark.parametrize("options, environment, asked", [
    ({}, {}, False),
    ({"--run-slow": True}, {}, True),
    ({"--fuzz-long": True}, {}, True),
    ({"markexpr": "slow"}, {}, True),
    ({"markexpr": "not slow"}, {}, True),   # pytest's own -m then deselects them
    ({"markexpr": "distributed"}, {}, False),
    ({}, {"KERNELKIT_TEST_ALL": "1"}, True),
    ({}, {"KERNELKIT_TEST_ALL": "0"}, False),
])
def test_what_asks_for_the_slow_tests(conftest, monkeypatch, options, environment, asked):
    defaults = {"--run-slow": False, "--fuzz-long": False, "markexpr": ""}
    config = types.SimpleNamespace(getoption=lambda name: {**defaults, **options}[name])
    monkeypatch.delenv("KERNELKIT_TEST_ALL", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert bool(conftest._runs_slow_tests(config)) == asked


class _Item:
    def __init__(self, path, slow=False, fixtures=(), markers=()):
        self.path = pathlib.Path(path)
        self.markers = ["slow"] * slow + list(markers)
        self.fixturenames = ["request", *fixtures]

    def add_marker(self, marker):
        self.markers.append(marker.name)

    def get_closest_marker(self, name):
        return name if name in self.markers else None


@pytest.mark.parametrize("run_slow", [False, True])
def test_slow_tests_and_the_fuzz_suite_are_deselected(conftest, monkeypatch, run_slow):
    monkeypatch.delenv("KERNELKIT_TEST_ALL", raising=False)
    items = [_Item(TESTS / "cluster" / "test_dbscan.py"),
             _Item(TESTS / "cluster" / "test_dbscan.py", slow=True),
             _Item(TESTS / "fuzz" / "test_fuzz.py"), _Item(TESTS / "fuzz" / "test_new.py"),
             _Item(TESTS / "test_fuzzy_name.py"),
             _Item(TESTS / "svm" / "test_interrupt.py", fixtures=["ctrl_c"]),
             _Item(TESTS / "kernels" / "test_oddst.py", fixtures=["shared_data", "rng"]),
             _Item(TESTS / "svm" / "test_memory.py", fixtures=["under_address_limit"]),
             _Item(TESTS / "distributed" / "test_gram.py", markers=["distributed"]),
             _Item(TESTS / "svm" / "test_classes.py", fixtures=["rng"],
                   markers=["scikit_learn"])]
    deselected = []
    config = types.SimpleNamespace(
        getoption=lambda name: {"--run-slow": run_slow, "--fuzz-long": False,
                                "markexpr": ""}[name],
        hook=types.SimpleNamespace(pytest_deselected=lambda items: deselected.extend(items)))
    kept = list(items)
    conftest.pytest_collection_modifyitems(config, kept)
    # every test of the fuzz folder is slow, whatever its file; so are those of the slow
    # fixtures and markers
    slow = [item.get_closest_marker("slow") is not None for item in items]
    assert slow == [False, True, True, True, False, True, True, True, True, False]
    if run_slow:
        assert kept == items and deselected == []
    else:
        assert kept == [items[0], items[4], items[9]]
        assert deselected == [item for item, is_slow in zip(items, slow) if is_slow]


def test_no_test_marked_slow_runs_unless_asked_for(request, conftest):
    slow = [item.nodeid for item in request.session.items if item.get_closest_marker("slow")]
    assert conftest._runs_slow_tests(request.config) or slow == []
