"""Fuzzing: bad and extreme inputs for every public estimator, kernel and loader.

Each group (one estimator class, or the loaders) runs in a worker subprocess (``_worker.py``)
that writes each case's name before running it, so a crash (segfault, abort) or a hang (no
progress within ``CASE_CPU_BUDGET`` seconds of the worker's CPU time, so that a loaded machine
does not turn a slow case into a hang; ``CASE_WALL_LIMIT`` seconds of wall-clock time catch a
worker that blocks without computing) names its case; the worker is then restarted after it. A case passes with a finite result, a warning, or a ValueError/TypeError with a clear
message; anything else fails the group's test with the cases' names. ``--fuzz-long`` runs ten
times more generated cases.
"""

import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _cases import groups  # noqa: E402

CASE_CPU_BUDGET = 30.0   # CPU seconds (all threads) without progress: a hang
CASE_WALL_LIMIT = 300.0  # wall-clock seconds without progress: a hang, whatever the CPU time
STARTUP_TIMEOUT = 900.0
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid):
    """CPU time (user + system, every thread) of process ``pid`` so far, from ``/proc``; 0.0
    where there is no ``/proc`` (then only the wall-clock limit applies)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS   # utime, stime


def run_group(group, scale, tmp_path):
    """Run every case of ``group``; returns ``(n_cases, failures)`` with failures as
    ``(case, what)`` (crash, hang, or the judged outcome)."""
    progress = tmp_path / "progress.tsv"
    progress.touch()
    failures, start, count = [], 0, None
    while True:
        seen = len(progress.read_text(encoding="utf-8").splitlines())
        proc = subprocess.Popen([sys.executable, str(HERE / "_worker.py"), group, str(scale),
                                 str(start), str(progress), str(tmp_path)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        last, last_cpu, lines, hung = time.monotonic(), 0.0, seen, False
        while proc.poll() is None:
            time.sleep(0.05)
            now, cpu = len(progress.read_text(encoding="utf-8").splitlines()), _cpu_seconds(proc.pid)
            if now != lines:
                lines, last, last_cpu = now, time.monotonic(), cpu
            # the import (an editable install may rebuild the cores) is not a case: its own limit
            elif lines == seen:
                hung = time.monotonic() - last > STARTUP_TIMEOUT
            else:
                hung = (cpu - last_cpu > CASE_CPU_BUDGET
                        or time.monotonic() - last > CASE_WALL_LIMIT)
            if hung:
                proc.kill()
                proc.wait()
        stderr = proc.stderr.read().decode(errors="replace")
        records = [line.split("\t") for line in
                   progress.read_text(encoding="utf-8").splitlines()]
        started = {int(r[1]): r[2] for r in records if r[0] == "start"}
        ended = {int(r[1]) for r in records if r[0] == "end"}
        count = next((int(r[1]) for r in records if r[0] == "count"), count)
        for r in records[seen:]:
            if r[0] == "end" and r[2] == "FAIL":
                failures.append((started[int(r[1])], r[3]))
        pending = sorted(set(started) - ended)
        if proc.returncode == 0 and not hung:
            return count, failures
        if not pending:        # died before its first case: an import or generation error
            pytest.fail(f"fuzz worker of {group} failed:\n{stderr[-3000:]}", pytrace=False)
        culprit = pending[-1]
        if hung:
            what = (f"hang (no progress in {CASE_CPU_BUDGET:g} s of CPU time or "
                    f"{CASE_WALL_LIMIT:g} s of wall-clock time)")
        elif proc.returncode < 0:
            what = f"crash ({signal.Signals(-proc.returncode).name})"
        else:
            what = f"worker exit {proc.returncode}: {stderr[-500:]}"
        failures.append((started[culprit], what))
        progress.open("a").write(f"end\t{culprit}\tFAIL\t{what}\n")
        start = culprit + 1


@pytest.mark.parametrize("group", groups())
def test_fuzz(group, tmp_path, request):
    scale = 10 if request.config.getoption("--fuzz-long") else 1
    count, failures = run_group(group, scale, tmp_path)
    assert count and count > 0
    report = os.environ.get("KERNELKIT_FUZZ_REPORT")
    if report:      # one line per group: cases, findings, crashes, hangs (for the README)
        crashes = sum(what.startswith("crash") for _, what in failures)
        hangs = sum(what.startswith("hang") for _, what in failures)
        with open(report, "a", encoding="utf-8") as out:
            out.write(f"{group}\t{count}\t{len(failures)}\t{crashes}\t{hangs}\n")
    if failures:
        pytest.fail(f"{len(failures)} of {count} cases of {group} failed:\n" + "\n".join(
            f"  {case}: {what}" for case, what in failures), pytrace=False)


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc")
def test_cpu_seconds_counts_this_process():
    before = _cpu_seconds(os.getpid())
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:
        pass
    assert _cpu_seconds(os.getpid()) >= before + 0.1
