"""The benchmark runner: alternating runs, ratios, missing peers reported, Markdown output."""

import os
import re

from kernelkit.bench._harness import (
    Contender,
    Suite,
    case_summaries,
    format_table,
    run_suite,
    shared_data,
)

from kernelkit import bench


def _toy_suite(calls):
    def make(name, value):
        def run(data):
            calls.append(name)
            return {"per": 2, "value": value + data}
        return run

    return Suite(
        name="toy",
        description="A toy suite.",
        cases=lambda quick: [dict(size=1)] if quick else [dict(size=1), dict(size=2)],
        setup=lambda p: p["size"],
        contenders=[
            Contender("first", make("first", 10)),
            Contender("second", make("second", 20)),
            Contender("absent", make("absent", 0), requires=("no_such_module_kernelkit",)),
            Contender("skipped", make("skipped", 0), applies=lambda p: p["size"] > 1),
        ],
        repeats=4,
    )


def test_runs_alternate_and_report():
    calls = []
    rows = run_suite(_toy_suite(calls), quick=True, log=lambda *a: None)
    # warm-up (first, second), then 2 quick repeats with the order rotated each time
    assert calls == ["first", "second", "first", "second", "second", "first"]
    by_name = {r["contender"]: r for r in rows}
    assert by_name["first"]["ratio"] == 1.0
    assert by_name["second"]["values"] == {"value": 21}  # 'per' is not shown
    assert "missing: no_such_module_kernelkit" in by_name["absent"]["note"]
    assert "skipped" not in by_name  # does not apply to size=1


def test_markdown_table():
    suite = _toy_suite([])
    rows = run_suite(suite, quick=False, log=lambda *a: None)
    table = format_table(suite, rows)
    assert table.startswith("# Benchmark `toy`")
    assert "A toy suite." in table
    body = [line for line in table.splitlines() if line.startswith("| size=")]
    # 2 cases x (first, second, absent) + 'skipped' on size=2
    assert len(body) == 7
    assert re.search(r"\| size=2 \| skipped \| .* \| value=2 \|", table)


def test_table_describes_the_machine_it_ran_on():
    suite = _toy_suite([])
    rows = run_suite(suite, quick=True, log=lambda *a: None)
    assert all(len(r["load_before"]) == 3 and len(r["load_after"]) == 3 for r in rows)
    table = format_table(suite, rows, quick=True)
    machine = next(line for line in table.splitlines() if line.startswith("Machine: "))
    assert f"{os.cpu_count()} logical CPUs" in machine
    assert re.search(r"load average \(1, 5, 15 min\) [\d.]+, [\d.]+, [\d.]+ before the run and "
                     r"[\d.]+, [\d.]+, [\d.]+ after", machine)
    assert "not reported" in bench.machine_description(None, None)


def test_suite_descriptions_do_not_describe_our_machine():
    # the harness writes the machine, its cores and its load; a suite's text must not assert
    # facts about the machine its authors measured on, since users print it on theirs
    for name in bench.available_suites():
        description = bench.load_suite(name).description
        for phrase in ("2-core", "2 here", "2 cores", "load average", "this shared machine"):
            assert phrase not in description, (name, phrase)


def _rows(case, times, peers=()):
    """Rows as run_suite returns them, with given median times (s) per contender."""
    kernelkit = times.get("kernelkit", float("nan"))
    return [{"case": case, "contender": name, "time": t, "ratio": t / kernelkit, "repeats": 3,
             "peer": name in peers, "values": {}, "load_before": None, "load_after": None}
            for name, t in times.items()]


def _peer_suite():
    def run(data):
        return {}

    return Suite(name="peers-toy", description="Toy.", cases=lambda quick: [], setup=None,
                 contenders=[Contender("kernelkit", run), Contender("reference", run),
                             Contender("scikit-learn", run, requires=("sklearn",)),
                             Contender("lightgbm", run, requires=("lightgbm",)),
                             Contender("GEMM bound", run)])


def test_peers_are_told_from_kernelkit_and_its_twin():
    suite = _peer_suite()
    assert [c.is_peer() for c in suite.contenders] == [False, False, True, True, False]
    assert Contender("scipy", None, peer=True).is_peer()
    assert not Contender("kernelkit (hist)", None, requires=("sklearn",)).is_peer()


def test_summary_names_the_fastest_peer_and_kernelkits_ratios():
    suite = _peer_suite()
    peers = ("scikit-learn", "lightgbm")
    rows = (_rows({"n": 1}, {"kernelkit": 2.0, "reference": 0.1, "scikit-learn": 8.0,
                              "lightgbm": 4.0, "GEMM bound": 0.5}, peers)
            + _rows({"n": 2}, {"kernelkit": 3.0, "scikit-learn": 1.0, "lightgbm": 6.0}, peers)
            + [{"case": {"n": 3}, "contender": "kernelkit", "note": "missing: x"},
               *_rows({"n": 3}, {"scikit-learn": 5.0}, peers)]
            + _rows({"n": 4}, {"kernelkit": 1.0}, peers))
    first, second, third, fourth = case_summaries(suite, rows)
    # the twin and the bound are faster but are not peers
    assert first == {"case": {"n": 1}, "fastest peer": "lightgbm", "peer time": 4.0,
                     "kernelkit / peer": 0.5, "kernelkit / scikit-learn": 0.25}
    assert second["fastest peer"] == "scikit-learn" and second["kernelkit / peer"] == 3.0
    assert third["fastest peer"] == "scikit-learn" and third["kernelkit / peer"] != \
        third["kernelkit / peer"]  # kernelkit missing: NaN
    assert fourth["fastest peer"] is None

    table = format_table(suite, rows)
    summary = table.split("Against the peers")[1]
    assert "| case | fastest peer | its time | kernelkit ÷ fastest peer | kernelkit ÷ " \
           "scikit-learn |" in summary
    assert "| n=1 | lightgbm | 4 s | 0.500 | 0.250 |" in summary
    assert "| n=2 | scikit-learn | 1 s | 3.000 | 3.000 |" in summary
    assert "| n=3 | scikit-learn | 5 s | – | – |" in summary
    assert "| n=4 | none ran |  | – | – |" in summary


def test_no_summary_without_peers():
    calls = []
    suite = _toy_suite(calls)
    table = format_table(suite, run_suite(suite, quick=True, log=lambda *a: None))
    assert "Against the peers" not in table


def test_ratios_are_not_taken_against_a_peer_when_kernelkit_is_missing():
    suite = Suite(name="toy", description="Toy.", cases=lambda quick: [{"n": 1}],
                  setup=lambda p: p["n"], repeats=1, warmup=False,
                  contenders=[Contender("kernelkit", None, requires=("no_such_module_kk",)),
                              Contender("peer", lambda n: {"n": n}, requires=("os",))])
    logged = []
    rows = run_suite(suite, log=logged.append)
    peer = next(r for r in rows if r["contender"] == "peer")
    assert peer["ratio"] != peer["ratio"]
    assert "fastest peer: peer; kernelkit ÷ fastest peer –" in logged[-1]
    assert "| n=1 | peer | " in format_table(suite, rows)


def test_shared_data_lookup(tmp_path, monkeypatch):
    """``$KERNELKIT_SHARED_DATA`` first, then ``shared/data`` in the working directory or a
    parent, then beside the source tree; only a folder that holds the named set."""
    from kernelkit.bench import _shared_data

    (tmp_path / "env" / "NCI1").mkdir(parents=True)
    (tmp_path / "shared" / "data" / "MUTAG").mkdir(parents=True)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    monkeypatch.setattr(_shared_data, "SOURCE", tmp_path / "site" / "bench" / "_shared_data.py")
    monkeypatch.setenv("KERNELKIT_SHARED_DATA", str(tmp_path / "env"))
    assert shared_data("NCI1") == tmp_path / "env"
    assert shared_data() == tmp_path / "env"
    assert shared_data("MUTAG") == (tmp_path / "shared" / "data").resolve()
    assert shared_data("ENZYMES") is None
    monkeypatch.delenv("KERNELKIT_SHARED_DATA")
    assert shared_data("NCI1") is None
    assert shared_data() == (tmp_path / "shared" / "data").resolve()
    # from a working directory outside the checkout: beside the source tree (an editable install)
    (tmp_path / "checkout" / "bench").mkdir(parents=True)
    (tmp_path / "outside" / "shared" / "data" / "NCI1").mkdir(parents=True)
    monkeypatch.setattr(_shared_data, "SOURCE", tmp_path / "checkout" / "bench" / "_shared_data.py")
    assert shared_data("NCI1") is None
    monkeypatch.setattr(_shared_data, "SOURCE",
                        tmp_path / "outside" / "checkout" / "bench" / "_shared_data.py")
    assert shared_data("NCI1") == tmp_path / "outside" / "shared" / "data"


def test_the_suites_and_the_matrix_share_the_one_lookup():
    # the speed matrix's rows once had a copy of their own, which answered differently
    from kernelkit.bench import _harness
    from kernelkit.bench._shared_data import shared_data as lookup
    from kernelkit.bench.matrix import _data

    assert _data.shared_data is lookup and _harness.shared_data is lookup
