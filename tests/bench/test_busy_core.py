"""``kernelkit bench --busy-core``: a spinning process exists while the suites run and is gone
after (also when a suite fails), and the table says the run had one busy core."""

import os
import subprocess
import sys
import time

import kernelkit.bench
import pytest
from kernelkit.bench import Contender, Suite, busy_core

from kernelkit.cli import main

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the process table in /proc")


def _spinners():
    """Process ids of this process's children that run the busy loop."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                parent = int(f.read().rpartition(")")[2].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                command = f.read()
        except OSError:  # ended while we looked
            continue
        if parent == os.getpid() and b"while os.getppid() == parent" in command:
            found.append(int(pid))
    return found


def _toy_suites(seen):
    def run(n):
        seen.append(_spinners())
        return {"value": n}

    def failing(n):
        seen.append(_spinners())
        raise RuntimeError("boom")

    toy = Suite(name="toy", description="A toy suite.", cases=lambda quick: [{"n": 3}],
                setup=lambda p: p["n"], repeats=1, warmup=False,
                contenders=[Contender("kernelkit", run)])
    broken = Suite(name="broken", description="Fails.", cases=lambda quick: [{"n": 3}],
                   setup=lambda p: p["n"], warmup=False, contenders=[Contender("kernelkit",
                                                                               failing)])
    return {"toy": toy, "broken": broken}


@pytest.fixture
def toy_suites(monkeypatch):
    seen = []
    suites = _toy_suites(seen)
    monkeypatch.setattr(kernelkit.bench, "available_suites", lambda: sorted(suites))
    monkeypatch.setattr(kernelkit.bench, "load_suite", suites.__getitem__)
    return seen


def test_busy_core_spins_during_the_run_only(toy_suites, tmp_path, capsys):
    assert _spinners() == []
    assert main(["bench", "toy", "--quick", "--busy-core", "--out", str(tmp_path)]) == 0
    assert len(toy_suites) == 1 and len(toy_suites[0]) == 1  # one spinner while timing
    assert _spinners() == []                                  # reaped after
    assert os.listdir(tmp_path) == ["toy-quick-busy.md"]      # the quiet table is not replaced
    table = (tmp_path / "toy-quick-busy.md").read_text()
    assert table.startswith("# Benchmark `toy` (quick profile) with one busy core")
    machine = next(line for line in table.splitlines() if line.startswith("Machine: "))
    assert "with one busy core" in machine
    capsys.readouterr()


def test_without_busy_core_nothing_spins(toy_suites, tmp_path, capsys):
    assert main(["bench", "toy", "--out", str(tmp_path)]) == 0
    assert toy_suites == [[]]
    assert os.listdir(tmp_path) == ["toy.md"]
    assert "busy" not in (tmp_path / "toy.md").read_text()
    capsys.readouterr()


def test_spinner_is_stopped_when_a_suite_fails(toy_suites, tmp_path):
    with pytest.raises(RuntimeError, match="boom"):
        main(["bench", "broken", "--busy-core", "--out", str(tmp_path)])
    assert len(toy_suites[0]) == 1
    assert _spinners() == []


def test_spinner_is_stopped_on_ctrl_c():
    with pytest.raises(KeyboardInterrupt), busy_core() as spinner:
        assert spinner.poll() is None and _spinners() == [spinner.pid]
        raise KeyboardInterrupt
    assert spinner.poll() is not None and _spinners() == []


def test_spinner_ends_with_its_parent():
    # a parent killed outright runs no cleanup: the spinner notices it is orphaned and ends
    script = ("import time\nfrom kernelkit.bench._harness import busy_core\n"
              "with busy_core() as spinner:\n    print(spinner.pid, flush=True)\n"
              "    time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    pid = int(parent.stdout.readline())
    parent.kill()
    parent.wait()
    for _ in range(200):  # up to ~2 s
        if not os.path.exists(f"/proc/{pid}") or _state(pid) == "Z":
            break
        time.sleep(0.01)
    assert not os.path.exists(f"/proc/{pid}") or _state(pid) == "Z"


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0]
    except OSError:
        return "gone"
