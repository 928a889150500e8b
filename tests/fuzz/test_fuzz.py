"""Fuzzing: bad and extreme inputs, and misuse, for every public estimator, kernel, function and
loader.

Each group (one estimator class, the public functions, or the loaders) runs in a worker
subprocess (``_worker.py``) that writes each case's name before running it, so a crash (segfault,
abort) or a hang (no progress within ``CASE_CPU_BUDGET`` seconds of the worker's CPU time, so
that a loaded machine does not turn a slow case into a hang; ``CASE_WALL_LIMIT`` seconds of
wall-clock time catch a worker that blocks without computing) names its case; the worker is then
restarted after it. A case passes with a finite result, a warning, or a ValueError/TypeError with
a clear message; anything else fails the group's test with the cases' names. ``--fuzz-long``
runs ten times more generated cases.

The counts by class of misuse (``_stress.CLASSES``) and outcome are printed at the end of a
pytest run, or by ``python tests/fuzz/test_fuzz.py --summary [--long] [GROUP ...]``, which also
lists every finding.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _cases import groups  # noqa: E402
from _stress import CLASSES  # noqa: E402
from _worker import OUTCOMES, RESTART  # noqa: E402

CASE_CPU_BUDGET = 20.0   # CPU seconds (all threads) without progress: a hang
CASE_WALL_LIMIT = 300.0  # wall-clock seconds without progress: a hang, whatever the CPU time
# The warning kernelkit gives before a factorisation too long to interrupt (wide data with an
# O(d³) model the user chose): a case that then runs out of budget was announced, not hung.
LONG_WORK_WARNING = "floating-point operations in LAPACK"
STARTUP_TIMEOUT = 900.0
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
FINDINGS = OUTCOMES[1:]


def _cpu_seconds(pid):
    """CPU time (user + system, every thread) of process ``pid`` so far, from ``/proc``; 0.0
    where there is no ``/proc`` (then only the wall-clock limit applies)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS   # utime, stime


def _worker_env():
    """The worker's environment: OpenMP may start a few threads per CPU at most, so that an
    unclamped ``n_jobs=10**6`` is seen as too many threads rather than attempted."""
    return {**os.environ, "OMP_THREAD_LIMIT": str(8 * (os.cpu_count() or 1))}


class GroupRun:
    """What one group's cases gave: ``kinds`` maps case index to class, ``findings`` lists
    ``(kind, case, outcome, detail)``."""

    def __init__(self):
        self.count, self.kinds, self.findings = None, {}, []

    def tally(self):
        """``{kind: Counter(cases=..., <outcome>=...)}`` for this group."""
        table = collections.defaultdict(collections.Counter)
        for kind in self.kinds.values():
            table[kind]["cases"] += 1
        for kind, _, outcome, _ in self.findings:
            table[kind][outcome] += 1
        return table


def run_group(group, scale, tmp_path):
    """Run every case of ``group``; returns its ``GroupRun``."""
    progress = tmp_path / "progress.tsv"
    progress.touch()
    run, start = GroupRun(), 0
    while True:
        seen = len(progress.read_text(encoding="utf-8").splitlines())
        proc = subprocess.Popen([sys.executable, str(HERE / "_worker.py"), group, str(scale),
                                 str(start), str(progress), str(tmp_path)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=_worker_env())
        last, last_cpu, lines, hung = time.monotonic(), 0.0, seen, False
        try:
            while proc.poll() is None:
                time.sleep(0.05)
                now = len(progress.read_text(encoding="utf-8").splitlines())
                cpu = _cpu_seconds(proc.pid)
                if now != lines:
                    lines, last, last_cpu = now, time.monotonic(), cpu
                # the import (an editable install may rebuild the cores) is not a case: its own
                # limit
                elif lines == seen:
                    hung = time.monotonic() - last > STARTUP_TIMEOUT
                else:
                    hung = (cpu - last_cpu > CASE_CPU_BUDGET
                            or time.monotonic() - last > CASE_WALL_LIMIT)
                if hung:
                    break
        finally:        # a hang, or the run interrupted: no worker is left behind
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        stderr = proc.stderr.read().decode(errors="replace")
        records = [line.split("\t") for line in
                   progress.read_text(encoding="utf-8").splitlines()]
        started = {int(r[1]): r[3] for r in records if r[0] == "start"}
        run.kinds.update({int(r[1]): r[2] for r in records if r[0] == "start"})
        ended = {int(r[1]) for r in records if r[0] == "end"}
        run.count = next((int(r[1]) for r in records if r[0] == "count"), run.count)
        for r in records[seen:]:
            if r[0] == "end" and r[2] != "pass":
                run.findings.append((run.kinds[int(r[1])], started[int(r[1])], r[2], r[3]))
        pending = sorted(set(started) - ended)
        if proc.returncode == 0 and not hung:
            return run
        if proc.returncode == RESTART and not pending:   # a fresh worker after too many threads
            start = max(ended) + 1
            continue
        if not pending:        # died before its first case: an import or generation error
            pytest.fail(f"fuzz worker of {group} failed:\n{stderr[-3000:]}", pytrace=False)
        culprit = pending[-1]
        announced = [r[2] for r in records if r[0] == "warned" and int(r[1]) == culprit
                     and LONG_WORK_WARNING in r[2]]
        if hung and announced:
            # the library said, before starting, that the work is long (a factorisation that
            # Ctrl-C cannot stop): what the user asked for, not a hang
            outcome, what = "pass", f"announced long work, stopped at the budget: {announced[0]}"
        elif hung:
            outcome, what = "hang", (f"no progress in {CASE_CPU_BUDGET:g} s of CPU time or "
                                     f"{CASE_WALL_LIMIT:g} s of wall-clock time")
        elif proc.returncode < 0:
            outcome, what = "crash", f"signal {signal.Signals(-proc.returncode).name}"
        else:
            outcome, what = "crash", f"worker exit {proc.returncode}: {stderr[-500:]}"
        what = " ".join(what.split())
        if outcome != "pass":
            run.findings.append((run.kinds[culprit], started[culprit], outcome, what))
        with progress.open("a", encoding="utf-8") as out:
            out.write(f"end\t{culprit}\t{outcome}\t{what}\n")
        start = culprit + 1


def summary_table(tallies):
    """Markdown table of cases and findings by class, from ``{group: tally}``."""
    total = collections.defaultdict(collections.Counter)
    for tally in tallies.values():
        for kind, counts in tally.items():
            total[kind].update(counts)
    kinds = [k for k in CLASSES if k in total] + sorted(set(total) - set(CLASSES))
    head = ("class", "cases", "findings") + FINDINGS
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    overall = collections.Counter()
    for kind in kinds + ["all"]:
        counts = total[kind] if kind != "all" else overall
        found = sum(counts[o] for o in FINDINGS)
        rows.append("| " + " | ".join([kind, str(counts["cases"]), str(found)]
                                      + [str(counts[o]) for o in FINDINGS]) + " |")
        if kind != "all":
            overall.update(counts)
    return "\n".join(rows)


@pytest.mark.parametrize("group", groups())
def test_fuzz(group, tmp_path, request, fuzz_tallies):
    scale = 10 if request.config.getoption("--fuzz-long") else 1
    run = run_group(group, scale, tmp_path)
    assert run.count and run.count == len(run.kinds)
    fuzz_tallies[group] = run.tally()
    if run.findings:
        pytest.fail(f"{len(run.findings)} of {run.count} cases of {group} failed:\n" + "\n".join(
            f"  [{kind}] {case}: {outcome}: {detail}"
            for kind, case, outcome, detail in run.findings), pytrace=False)


def test_summary_table_counts_by_class():
    run = GroupRun()
    run.kinds = {0: "threads", 1: "threads", 2: "wide"}
    run.findings = [("threads", "n_jobs=0", "unclear", "IndexError"),
                    ("wide", "20x5000", "hang", "no progress")]
    table = summary_table({"G": run.tally()}).splitlines()
    assert table[2] == "| threads | 2 | 1 | 0 | 1 | 0 | 0 | 0 |"
    assert table[3] == "| wide | 1 | 1 | 0 | 0 | 0 | 0 | 1 |"
    assert table[4] == "| all | 3 | 2 | 0 | 1 | 0 | 0 | 1 |"


def test_judge_classifies_outcomes():
    import numpy as np
    from _worker import judge

    def raises(exc):
        def thunk():
            raise exc
        return thunk

    assert judge(raises(ValueError("gamma must be finite, got inf")))[0] == "pass"
    assert judge(raises(ValueError("operands could not be broadcast together")))[0] == "unclear"
    assert judge(raises(IndexError("index 3 is out of bounds")))[0] == "unclear"
    assert judge(raises(MemoryError()))[0] == "unclear"
    assert judge(raises(np.linalg.LinAlgError("Singular matrix")))[0] == "unclear"
    # a case that bounds its own wait (a fork child) and reports it
    assert judge(raises(TimeoutError("the child did not finish")))[0] == "hang"
    assert judge(lambda: np.array([1.0, np.nan]))[0] == "nonfinite"
    assert judge(lambda: np.array([1e152]))[0] == "pass"
    assert judge(lambda: np.array([1e152]), "interplay")[0] == "nonfinite"


def _in_worker(code):
    """Run ``code`` in a fresh interpreter set up as a worker (its path and environment)."""
    return subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r})\n"
                           + code], env=_worker_env(), capture_output=True, text=True,
                          check=True).stdout.split()


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="no /proc")
def test_worker_sees_a_thread_count_that_is_not_clamped():
    # the compiled Gram core given more threads than CPUs, as an unclamped n_jobs would
    before, after, allowed = map(int, _in_worker(
        "import numpy as np\n"
        "from _worker import n_threads\n"
        "from kernelkit._core._gram import vector_gram\n"
        "from kernelkit.utils._threads import effective_n_threads\n"
        "X = np.random.default_rng(0).normal(size=(600, 50))\n"
        "before = n_threads()\n"
        "vector_gram(X, X, True, 2, 1.0, 0.0, 3.0, np.empty((600, 600)),\n"
        "            4 * effective_n_threads(-1) + 4)\n"
        "print(before, n_threads(), 2 * effective_n_threads(-1))"))
    assert after - before > allowed


def test_worker_memory_limit_makes_a_huge_allocation_unclear():
    outcome = _in_worker(
        "import numpy as np\n"
        "from _worker import judge, limit_memory\n"
        "limit_memory(2)\n"
        "print(judge(lambda: np.ones(2**29))[0])")       # 4 GiB
    assert outcome == ["unclear"]


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc")
def test_cpu_seconds_counts_this_process():
    before = _cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:
        pass
    assert _cpu_seconds(os.getpid()) >= before + 0.1


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run the fuzz groups and print the counts of "
                                     "cases and findings by class, then every finding.")
    parser.add_argument("--summary", action="store_true", required=True)
    parser.add_argument("--long", action="store_true", help="ten times more generated cases")
    parser.add_argument("--jobs", type=int, default=1, help="groups run at the same time")
    parser.add_argument("groups", nargs="*", help="groups to run (default: all)")
    args = parser.parse_args(argv)
    tallies, findings = {}, []
    with tempfile.TemporaryDirectory() as tmp:
        def one(group):
            folder = pathlib.Path(tmp) / group
            folder.mkdir()
            return group, run_group(group, 10 if args.long else 1, folder)

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(one, group) for group in args.groups or groups()]
            for future in concurrent.futures.as_completed(futures):
                group, run = future.result()
                tallies[group] = run.tally()
                findings += [(group, *finding) for finding in run.findings]
                # one line per group as it ends, so that an interrupted run still counts
                print(json.dumps({"group": group, "tally": tallies[group],
                                  "findings": run.findings}), file=sys.stderr, flush=True)
    print(summary_table(tallies))
    print()
    for group, kind, case, outcome, detail in findings:
        print(f"- [{kind}] {group}: {case}: {outcome}: {detail}")


if __name__ == "__main__":
    main()
