"""The benchmark runner: alternating runs, ratios, missing peers reported, Markdown output."""

import os
import re

from kernelkit import bench
from kernelkit.bench._harness import Contender, Suite, format_table, run_suite


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
