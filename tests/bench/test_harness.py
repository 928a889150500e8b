"""The benchmark runner: alternating runs, ratios, missing peers reported, Markdown output."""

import re

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
