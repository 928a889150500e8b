"""A process forked after its parent ran an OpenMP team: the child runs its cores on one thread
(the runtime's pool threads are not copied by ``fork``, and a team started in the child would
wait for them for ever), finishes, and gets the parent's results."""

import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
TESTS = HERE.parent
sys.path[:0] = [str(TESTS), str(TESTS / "fuzz")]

from test_common import ARRAY_INSTANCES, STRUCTURED_INSTANCES  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")

# Estimators per worker: each worker imports kernelkit and the common tests' tables once.
N_GROUPS = 2
# Seconds a whole worker may take before the test gives up on it (its own deadlines name a hung
# estimator long before).
WORKER_TIMEOUT = 900


@pytest.mark.parametrize("group", range(N_GROUPS))
def test_every_estimator_fits_in_a_fork_child(group):
    # the worker fits each estimator on two threads, forks (os.fork and multiprocessing's fork
    # context) and fits it again in both children, with a deadline
    expected = len((ARRAY_INSTANCES + STRUCTURED_INSTANCES)[group::N_GROUPS])
    result = subprocess.run([sys.executable, str(HERE / "_fork_worker.py"), str(group),
                             str(N_GROUPS)], capture_output=True, text=True,
                            timeout=WORKER_TIMEOUT)
    lines = [line.split("\t") for line in result.stdout.splitlines()]
    assert result.returncode == 0, result.stderr[-3000:]
    assert lines[0] == ["count", str(expected)]
    assert len(lines) == expected + 1
    failures = [f"{name}: {outcome}: {detail}" for outcome, name, detail in lines[1:]
                if outcome != "ok"]
    assert not failures, "\n".join(failures)


# One process, in order: children forked before any team, after a fit on one thread, then after
# a fit on two; each child prints "<key>\t<repr of what it found>".
_FORK_SCRIPT = """
import contextlib
import io
import os

import numpy as np

from kernelkit.__main__ import main
from kernelkit.cluster import KMeans
from kernelkit.utils._threads import effective_n_threads, forked_after_openmp_team

X = np.random.default_rng(0).normal(size=(2000, 5))


def in_child(key, code):
    pid = os.fork()
    if pid == 0:
        print(f"{key}\t{code()!r}", flush=True)
        os._exit(0)
    os.waitpid(pid, 0)


def threads():
    return forked_after_openmp_team(), effective_n_threads(2), effective_n_threads(), \
        effective_n_threads(-1)


def invalid_n_jobs():
    try:
        effective_n_threads(0)
    except ValueError as error:
        return str(error)


def info_line():
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        main(["info"])
    return next(line for line in text.getvalue().splitlines() if "OpenMP" in line)


in_child("before any team", threads)
KMeans(3, n_jobs=1, n_init=1, random_state=0).fit(X)
in_child("after one thread", threads)
KMeans(3, n_jobs=2, n_init=1, random_state=0).fit(X)
in_child("after a team", threads)
in_child("child", lambda: in_child("grandchild", threads))
in_child("invalid n_jobs", invalid_n_jobs)
in_child("info", info_line)
print(f"parent\t{threads()!r}")
"""


@pytest.fixture(scope="module")
def forked():
    """What the children of ``_FORK_SCRIPT`` found: ``{key: repr}``."""
    from kernelkit.utils._threads import effective_n_threads

    if effective_n_threads(-1) < 2:
        pytest.skip("one usable CPU: no team of two threads")
    result = subprocess.run([sys.executable, "-c", _FORK_SCRIPT], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return dict(line.split("\t") for line in result.stdout.splitlines())


def test_a_child_forked_after_a_team_runs_on_one_thread(forked):
    # n_jobs=2, None and -1 alike; the parent keeps its threads
    assert forked["after a team"] == "(True, 1, 1, 1)"
    assert forked["parent"] == forked["before any team"]


def test_the_children_of_such_a_child_run_on_one_thread(forked):
    # the child never started a team, but its pool is the parent's
    assert forked["grandchild"] == "(True, 1, 1, 1)"


def test_a_child_forked_before_any_team_keeps_its_threads(forked):
    assert forked["before any team"].startswith("(False, 2, ")
    assert forked["after one thread"] == forked["before any team"]   # n_jobs=1: no team


def test_n_jobs_is_still_checked_in_a_fork_child(forked):
    assert forked["invalid n_jobs"].startswith("'n_jobs must be None or a non-zero integer")


def test_kernelkit_info_says_a_fork_child_runs_on_one_thread(forked):
    assert "1 thread (forked after an OpenMP team" in forked["info"]
