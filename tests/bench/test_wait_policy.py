"""The wait-policy benchmark: each policy reaches the interpreter that times it."""

import subprocess

import pytest
from kernelkit.bench import wait_policy


def _probe(expected):
    # a workload that fails unless its interpreter got the expected spin count
    return f"""
        assert str(os.environ.get("GOMP_SPINCOUNT")) == {expected!r}
        run = lambda: None
    """


def test_each_policy_sets_the_spin_count_of_its_own_interpreter(monkeypatch):
    monkeypatch.setenv("GOMP_SPINCOUNT", "5")   # the caller's own value does not leak in
    for policy, expected in (("passive", "0"), ("777", "777")):
        monkeypatch.setitem(wait_policy.WORKLOADS, "probe", _probe(expected))
        assert wait_policy._time("probe", policy, 1) >= 0.0
    monkeypatch.setitem(wait_policy.WORKLOADS, "probe", _probe("778"))
    with pytest.raises(subprocess.CalledProcessError):
        wait_policy._time("probe", "777", 1)
