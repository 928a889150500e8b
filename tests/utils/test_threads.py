"""Thread teams the system cannot create: an exception, never the OpenMP runtime's exit()."""

import os
import subprocess
import sys
import textwrap

import pytest

from kernelkit._core._openmp import openmp_probe_threads, openmp_version
from kernelkit.utils._threads import _openmp_stack_size, _usable_cpus

needs_two_threads = pytest.mark.skipif(
    openmp_version() == 0 or _usable_cpus() < 2,
    reason="needs OpenMP and two usable CPUs")

# libgomp prints "Thread creation failed" and calls exit(1) when pthread_create fails: the
# interpreter ended with status 1 and no exception. The child process sets its limit after a
# serial fit (imports done, memory in place) and before any parallel region, then fits with two
# threads: the fit must raise, name the fix, and leave the process alive to fit with one thread.
_LIMITED_FIT = textwrap.dedent("""
    import resource
    import numpy as np
    from kernelkit.cluster import DBSCAN, GaussianMixture, KMeans, SpectralClustering

    X = np.random.default_rng(0).normal(size=(60, 3))
    models = [KMeans(n_clusters=3, n_init=1, random_state=0), GaussianMixture(2, random_state=0),
              DBSCAN(eps=0.8), SpectralClustering(2, random_state=0)]
    for model in models:
        model.set_params(n_jobs=1).fit(X)
    {set_limit}
    for model in models:
        try:
            model.set_params(n_jobs=2).fit(X)
        except RuntimeError as error:
            message = str(error)
            assert "cannot start 2 OpenMP threads" in message, message
            assert "n_jobs" in message and "OMP_NUM_THREADS" in message, message
        else:
            raise AssertionError(f"{{type(model).__name__}} fitted with two threads")
        model.set_params(n_jobs=1).fit(X)
    print("refused")
""")


def _run(set_limit, **env):
    script = _LIMITED_FIT.format(set_limit=set_limit)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, "OMP_NUM_THREADS": "2", **env}, timeout=300)


@needs_two_threads
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_memory_limit_below_a_thread_stack_raises():
    # each worker reserves a 64 MiB stack (OMP_STACKSIZE); 16 MiB of address space are left
    set_limit = ("size = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize(); "
                 "resource.setrlimit(resource.RLIMIT_AS, (size + 2**24, size + 2**24))")
    result = _run(set_limit, OMP_STACKSIZE="64M")
    assert result.returncode == 0, result.stderr
    assert "refused" in result.stdout
    assert "Thread creation failed" not in result.stderr


@needs_two_threads
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root is exempt from RLIMIT_NPROC")
def test_process_limit_raises():
    # the user already runs this process (and pytest's): a limit of 1 refuses every new thread
    result = _run("resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))")
    assert result.returncode == 0, result.stderr
    assert "refused" in result.stdout


def test_probe_starts_and_joins_threads():
    assert openmp_probe_threads(0, 0) == 0
    assert openmp_probe_threads(3, 0) == 0
    assert openmp_probe_threads(2, 2**20) == 0


@pytest.mark.parametrize("value, size", [
    ("", 0), ("2048", 2**21), ("4k", 2**12), ("16 M", 2**24), ("1G", 2**30), ("512b", 512),
    ("lots", 0), ("-1", 0), ("9" * 30, 0),
])
def test_openmp_stack_size_reads_the_libgomp_syntax(monkeypatch, value, size):
    monkeypatch.delenv("GOMP_STACKSIZE", raising=False)
    monkeypatch.setenv("OMP_STACKSIZE", value)
    assert _openmp_stack_size() == size


def test_openmp_stack_size_falls_back_to_gomp_stacksize(monkeypatch):
    monkeypatch.delenv("OMP_STACKSIZE", raising=False)
    monkeypatch.setenv("GOMP_STACKSIZE", "100")
    assert _openmp_stack_size() == 100 * 2**10
