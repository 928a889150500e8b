"""The progress helper: line format, pacing by time or by count, the solver callback."""

import time

import pytest

from kernelkit.utils import _progress
from kernelkit.utils._progress import (
    Progress,
    block_ends,
    format_seconds,
    iteration_callback,
    report,
    report_stage,
)


@pytest.fixture
def no_delay(monkeypatch):
    """Lines paced by time become due at every update."""
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "INTERVAL", 0.0)


def _lines(capsys):
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err.splitlines()


def test_report_format(capsys):
    report("Demo", "stage done")
    report("Demo", "timed", start=0.0)
    lines = _lines(capsys)
    assert lines[0] == "[Demo] stage done"
    assert lines[1].startswith("[Demo] timed, ") and lines[1].endswith(" s")
    assert format_seconds(0.4242) == "0.42 s" and format_seconds(123.45) == "123.5 s"


def test_report_stage_needs_level_two_or_a_slow_stage(capsys, monkeypatch):
    now = time.perf_counter()
    report_stage("Demo", 0, "silent", now)
    report_stage("Demo", 2, "detail", now)
    report_stage("Demo", 1, "fast stage", now)
    monkeypatch.setattr(_progress, "DELAY", -1.0)
    report_stage("Demo", 1, "slow stage", now)
    assert [line.split(",")[0] for line in _lines(capsys)] == [
        "[Demo] detail", "[Demo] slow stage"]


def test_progress_is_silent_without_verbose(capsys, no_delay):
    with Progress("Demo", 0, total=10, unit="rows") as progress:
        for _ in range(10):
            assert not progress.update(1)
    assert progress.done == 10 and _lines(capsys) == []


def test_progress_paced_by_time_prints_nothing_for_short_work(capsys):
    with Progress("Demo", 1, total=100, unit="rows") as progress:
        for _ in range(100):
            progress.update(1)
    assert _lines(capsys) == []


def test_progress_paced_by_time_prints_once_due(capsys, no_delay):
    with Progress("Demo", 1, total=3, unit="rows") as progress:
        for _ in range(3):
            progress.update(1)
    lines = _lines(capsys)
    assert [line.split(",")[0] for line in lines] == [
        "[Demo] 1/3 rows", "[Demo] 2/3 rows", "[Demo] 3/3 rows"]
    assert all("\r" not in line for line in lines)


def test_progress_every_counts_crossings(capsys):
    progress = Progress("Demo", 1, unit="steps", every=10)
    printed = [progress.update(n, message=lambda: "line") for n in (4, 4, 4, 25, 1, 2)]
    # done: 4, 8, 12, 37, 38, 40 -> lines at 12 (crossed 10), 37 (crossed 20 and 30), 40
    assert printed == [False, False, True, True, False, True]
    assert len(_lines(capsys)) == 3


def test_message_is_built_only_when_printed(monkeypatch):
    calls = []
    monkeypatch.setattr(_progress, "DELAY", 1e9)
    Progress("Demo", 1).update(1, message=lambda: calls.append(1) or "x")
    assert calls == []


@pytest.mark.parametrize("total, n_blocks", [(1, 10), (7, 10), (10, 10), (95, 10), (3, 1)])
def test_block_ends_cover_the_work_in_increasing_blocks(total, n_blocks):
    ends = block_ends(total, n_blocks)
    assert ends[-1] == total and len(ends) == min(total, n_blocks)
    assert all(a < b for a, b in zip([0] + ends, ends))


def test_iteration_callback_levels(capsys, monkeypatch):
    describe = lambda n_iter, value: f"iteration {n_iter}: {value}"  # noqa: E731
    assert iteration_callback("Demo", 0, 5, describe) is None
    callback = iteration_callback("Demo", 2, 5, describe)
    for n_iter in range(1, 13):
        callback(n_iter, n_iter * 10)
    assert [line.split(",")[0] for line in _lines(capsys)] == [
        "[Demo] iteration 5: 50", "[Demo] iteration 10: 100"]
    callback = iteration_callback("Demo", 1, 5, describe)    # paced by time: nothing yet
    for n_iter in range(1, 13):
        callback(n_iter, 0)
    assert _lines(capsys) == []
