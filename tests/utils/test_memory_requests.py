"""The memory bound of ``check_memory_request``: physical memory, rlimits, cgroups."""

import resource

import pytest

from kernelkit.utils import _validation
from kernelkit.utils._validation import available_memory, check_memory_request


def test_a_request_beyond_the_available_memory_is_refused_with_estimate_bound_and_fix():
    available, source = available_memory()
    assert 0 < available <= _validation._physical_memory()
    with pytest.raises(ValueError) as info:
        check_memory_request(2.0 * available + 2**30, "Thing(size=huge)", "use a smaller size.")
    message = str(info.value)
    assert message.startswith("Thing(size=huge) would need about ")
    assert "this process can get (limited by" in message and source in message
    assert message.endswith("use a smaller size.")
    check_memory_request(available // 2, "Thing(size=half)", "unused")


@pytest.mark.parametrize("n_bytes, amount", [
    (float("nan"), r"an incalculable amount \(NaN\)"),
    (float("inf"), "more than 1e308 bytes"),
    (10**30, r"about 9.09e\+17 TiB"),
    (10**400, "more than 1e308 bytes"),           # an exact int beyond the float range
])
def test_nan_infinite_and_huge_integer_estimates_are_refused(n_bytes, amount):
    with pytest.raises(ValueError, match=rf"Thing\(\) would need {amount} of memory"):
        check_memory_request(n_bytes, "Thing()", "fix.")


def test_the_soft_address_space_limit_net_of_the_mapped_space_is_the_bound(monkeypatch):
    gib = 2**30
    monkeypatch.setattr(resource, "getrlimit", lambda which: (
        (6 * gib, resource.RLIM_INFINITY) if which == resource.RLIMIT_AS
        else (resource.RLIM_INFINITY, resource.RLIM_INFINITY)))
    monkeypatch.setattr(_validation, "_proc_status_bytes",
                        lambda field: gib if field == "VmSize" else 0)
    monkeypatch.setattr(_validation, "_cgroup_headroom", lambda: [])
    monkeypatch.setattr(_validation, "_physical_memory", lambda: 64 * gib)
    available, source = available_memory()
    assert available == 5 * gib
    assert "RLIMIT_AS" in source and "ulimit -v" in source and "1 GiB already mapped" in source
    with pytest.raises(ValueError, match=r"about 5\.5 GiB of memory, more than the 5 GiB .*"
                                         r"RLIMIT_AS .* 6 GiB"):
        check_memory_request(5.5 * gib, "Thing()", "fix.")


def _cgroup_tree(tmp_path, proc_line, files):
    tmp_path.mkdir(parents=True, exist_ok=True)
    proc = tmp_path / "cgroup"
    proc.write_text(proc_line + "\n")
    for relative, text in files.items():
        path = tmp_path / "sys" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return str(proc), str(tmp_path / "sys")


def test_cgroup_v2_limit_of_an_ancestor_net_of_usage_without_the_inactive_cache(
        tmp_path, monkeypatch):
    mib = 2**20
    monkeypatch.setattr(_validation, "_physical_memory", lambda: 2**40)
    proc, mount = _cgroup_tree(tmp_path, "0::/app/worker", {
        "app/memory.max": f"{1000 * mib}\n",
        "app/memory.current": f"{400 * mib}\n",
        "app/memory.stat": f"anon {300 * mib}\ninactive_file {100 * mib}\n",
        "app/worker/memory.max": "max\n",
        "app/worker/memory.current": f"{50 * mib}\n",
    })
    left, source = _validation._cgroup_headroom(proc, mount)[0]
    assert left == 700 * mib                  # 1000 − (400 − 100 reclaimable)
    assert "cgroup memory limit of 1e+03 MiB" in source and "memory.max" in source


def test_cgroup_v1_limit_net_of_usage_and_no_limit_at_the_physical_memory(tmp_path, monkeypatch):
    mib = 2**20
    monkeypatch.setattr(_validation, "_physical_memory", lambda: 4096 * mib)
    proc, mount = _cgroup_tree(tmp_path, "4:memory:/job\n3:cpuset:/", {
        "memory/memory.limit_in_bytes": "9223372036854771712\n",      # unlimited root
        "memory/job/memory.limit_in_bytes": f"{512 * mib}\n",
        "memory/job/memory.usage_in_bytes": f"{200 * mib}\n",
        "memory/job/memory.stat": f"total_inactive_file {8 * mib}\n",
    })
    assert _validation._cgroup_headroom(proc, mount) == [
        (320 * mib, f"the cgroup memory limit of 512 MiB ({mount}/memory/job/memory."
                    "limit_in_bytes) minus the 192 MiB in use")]
    # no memory controller, or no files: no bound from cgroups
    proc, mount = _cgroup_tree(tmp_path / "other", "3:cpuset:/", {})
    assert _validation._cgroup_headroom(proc, mount) == []


def test_a_lowered_address_space_limit_is_reported_by_the_real_process(under_address_limit):
    result = under_address_limit(
        "from kernelkit.utils._validation import check_memory_request",
        "check_memory_request(3 * 2**30, 'Thing(size=3)', 'use a smaller size.')\n"
        "print('accepted')",
        headroom=2**30)
    assert result.returncode == 0, result.stderr
    assert "ValueError: Thing(size=3) would need about 3 GiB" in result.stdout
    assert "address-space limit RLIMIT_AS (ulimit -v)" in result.stdout and "accepted" not in result.stdout
