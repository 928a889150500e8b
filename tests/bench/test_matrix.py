"""``kernelkit bench matrix``: a row for every public estimator and kernel, cells with the
times, ratios and checks of a run, the budget that leaves a contender out, and the old-vs-new
comparison of ``--baseline``."""

import pathlib
import sys

import numpy as np
import pytest

from kernelkit.bench import matrix
from kernelkit.bench.matrix import _rows

TESTS = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))
from test_common import public_estimators  # noqa: E402

# public classes that are not timed on their own: containers and base classes of the kernels,
# a result record of MKL, and the kernel object that wraps the vector kernels (timed through
# SumKernel, the MKL rows and pairwise_kernels)
NOT_ROWS = {"PackedGraphs", "PackedSequences", "StructuredKernel", "KernelObjective",
            "KernelStack", "VectorKernel"}


def test_every_public_estimator_and_kernel_has_a_row():
    names = {row.name.split(" ")[0] for row in _rows.all_rows()}
    missing = {cls.__name__ for cls in public_estimators()} - names - NOT_ROWS
    assert not missing, f"estimators without a row in the speed matrix: {sorted(missing)}"


def test_row_names_are_unique_and_free_of_commas():
    names = [row.name for row in _rows.all_rows()]
    assert len(names) == len(set(names))
    assert not [name for name in names if "," in name]  # --rows splits at commas


def _toy_row(kernelkit_time=0.0, cost=1):
    def setup(n):
        X, y, X_test, _ = np.ones((n, 2)), np.arange(n) % 2, np.ones((3, 2)), None
        return dict(X=X, y=y, X_test=X_test)

    class Model:
        def __init__(self, flip):
            self.flip = flip

        def predict(self, X):
            return np.full(len(X), self.flip)

    return _rows.Row(
        "toy", "cluster", (10, 20, 40), setup, lambda data: Model(0),
        [_rows.Contender("agrees", lambda data: Model(0)),
         _rows.Contender("differs", lambda data: Model(1)),
         _rows.Contender("absent", lambda data: Model(0), ("no_such_module_for_kernelkit",))],
        lambda model, data: model.predict(data["X_test"]), _rows._compare_labels, cost=cost)


def test_cells_hold_times_checks_and_notes():
    cells = matrix.run_matrix([_toy_row()], sizes=("small", "medium"), log=lambda line: None)
    assert [c["n"] for c in cells] == [10, 20]
    cell = cells[0]
    assert set(cell["times"]) == {"kernelkit", "kernelkit 1 thread", "agrees", "differs"}
    assert cell["checks"]["agrees"][1] and not cell["checks"]["differs"][1]
    assert "missing" in cell["notes"]["absent"]
    table = matrix.format_matrix(cells, [_toy_row()])
    assert "| toy | 10 |" in table and "✘ same prediction 0.0% (differs)" in table


def test_kernelkit_runs_after_a_peer_wait_for_its_threads_to_settle(monkeypatch):
    # a peer's spinning threads (OpenBLAS, TBB, OpenMP) took the cores from kernelkit's next
    # 2-thread run: kernelkit's runs that follow a peer's wait first, the peers' runs never
    events = []
    monkeypatch.setattr(matrix.time, "sleep", lambda seconds: events.append("pause"))
    row = _toy_row()
    names = {row.kernelkit: "kernelkit", row.peers[0].run: "peer", row.peers[1].run: "peer"}
    monkeypatch.setattr(matrix, "_timed", lambda run, data, threads: events.append(names[run])
                        or (1e-3, 1e-3, run(data)))
    matrix.run_matrix([row], sizes=("small", "medium"), log=lambda line: None)
    assert events.count("kernelkit") > 4 and events.count("peer") > 4
    for before, after in zip(events, events[1:]):
        assert (before, after) != ("peer", "kernelkit")   # a pause between them
        assert (before, after) != ("pause", "peer")


def test_a_short_run_of_kernelkit_after_a_pause_is_repeated_untimed_first(monkeypatch):
    # the pause lets the idle CPUs sleep deeply and slows the next milliseconds of work: the
    # timed run of a short fit follows an untimed one (the first of a cell, whose time is not
    # known yet, excepted)
    events, n_samples = [], []
    monkeypatch.setattr(matrix.time, "sleep", lambda seconds: events.append("pause"))
    monkeypatch.setattr(matrix, "WARM_SECONDS", 0.0)
    row = _toy_row()
    names = {row.peers[0].run: "peer", row.peers[1].run: "peer"}

    def timed(run, data, threads):
        events.append(names.get(run, f"kernelkit-{threads}"))
        return 1e-3, 1e-3, run(data)

    monkeypatch.setattr(matrix, "_timed", timed)
    real_median = matrix.statistics.median
    monkeypatch.setattr(matrix.statistics, "median",
                        lambda values: n_samples.append(len(values)) or real_median(values))
    matrix.run_matrix([row], sizes=("small",), log=lambda line: None)
    text = " ".join(events)
    pauses = text.count("pause")
    assert pauses > 4
    # every pause but the first of the cell is followed by the same run of kernelkit twice, the
    # first untimed
    repeated = sum(text.count(f"pause {run} {run}") for run in set(events) - {"pause", "peer"})
    assert repeated == pauses - 1
    # untimed runs are not samples: 41 timed runs of each contender, as without the pause
    assert n_samples == [41] * 4


def test_a_larger_size_starts_with_an_untimed_run(monkeypatch):
    # the first run at a larger size pays the process's first touch of that much memory: it is
    # not a sample of the contender that happens to run first
    events = []
    monkeypatch.setattr(matrix.time, "sleep", lambda seconds: None)
    row = _toy_row()
    monkeypatch.setattr(matrix, "_timed", lambda run, data, threads: events.append(
        (len(data["X"]), run is row.kernelkit and threads != 1)) or (1e-3, 1e-3, run(data)))
    real_median = matrix.statistics.median
    n_samples = []
    monkeypatch.setattr(matrix.statistics, "median",
                        lambda values: n_samples.append(len(values)) or real_median(values))
    matrix.run_matrix([row], sizes=("small", "medium"), log=lambda line: None)
    medium = [two_threads for n, two_threads in events if n == 20]
    assert medium[:2] == [True, True]       # the untimed run, then the first timed one
    assert n_samples[4:] == [41] * 4        # the untimed run is not a sample


def test_a_contender_past_the_budget_is_left_out_of_the_larger_size(monkeypatch):
    row = _toy_row(cost=3)
    cells = matrix.run_matrix([row], sizes=("small", "large"), budget=0.0,
                              log=lambda line: None)
    assert cells[1]["times"] == {}
    assert all("left out" in note for note in cells[1]["notes"].values() if "missing" not in note)


def test_unknown_rows_and_sizes_are_refused():
    with pytest.raises(SystemExit, match="unknown rows NoSuchEstimator"):
        matrix.main(["--rows", "NoSuchEstimator", "--sizes", "small"])
    with pytest.raises(SystemExit, match="--sizes"):
        matrix.main(["--sizes", "tiny"])


def test_rows_select_by_name_or_prefix():
    rows = matrix._select(_rows.all_rows(), "KMeans,SVC precomputed")
    assert {r.name for r in rows} >= {"KMeans", "KMeans k=25", "SVC precomputed n=150"}
    assert "SVC" not in {r.name for r in rows}


def _installed_folder():
    import kernelkit

    folder = pathlib.Path(kernelkit.__file__).resolve().parents[1]
    if not list((folder / "kernelkit" / "_core").glob("_openmp*")):
        pytest.skip("kernelkit is an editable install: no installed folder to time as 'old'")
    return folder


def test_baseline_runs_both_sides_in_fresh_processes(tmp_path):
    folder = _installed_folder()
    row = next(r for r in _rows.all_rows() if r.name == "NearestCentroid")
    cells = matrix.run_baseline(folder, [row], sizes=("small",), pairs=1, log=lambda line: None)
    assert len(cells) == 1
    cell = cells[0]
    assert cell["old_wall"] > 0 and cell["new_wall"] > 0 and cell["old_cpu"] >= 0
    assert "| NearestCentroid | 1000 |" in matrix.format_baseline(cells, folder)


@pytest.mark.parametrize("usable_cpus, default", [(matrix.N_THREADS, None), (8, matrix.N_THREADS)])
def test_kernelkit_and_its_peers_run_under_the_same_thread_limit(monkeypatch, usable_cpus,
                                                                default):
    # no limit context where 2 threads are the default (entering one costs the next run cold
    # caches); the same limit for every contender but the 1-thread one elsewhere
    from kernelkit.bench import _harness

    monkeypatch.setattr(_harness, "_usable_cpus", lambda: usable_cpus)
    row = next(row for row in _rows.all_rows() if row.name == "PCA")
    threads = {label: limit for label, _, limit, _ in matrix._contenders(row)}
    assert threads.pop("kernelkit 1 thread") == 1
    assert set(threads.values()) == {default} and len(threads) >= 2
