"""Thread counts of the clustering estimators: an n_jobs beyond the usable CPUs is clamped, and a
team the system cannot create is an exception, never the OpenMP runtime's exit()."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from kernelkit._core._openmp import openmp_version
from kernelkit.cluster import DBSCAN, KMeans, SpectralClustering
from kernelkit.mixture import GaussianMixture
from kernelkit.utils._threads import _usable_cpus


@pytest.mark.parametrize("make", [
    lambda n_jobs: KMeans(3, n_init=2, random_state=0, n_jobs=n_jobs),
    lambda n_jobs: GaussianMixture(3, random_state=0, n_jobs=n_jobs),
    lambda n_jobs: DBSCAN(eps=0.8, n_jobs=n_jobs),
    lambda n_jobs: SpectralClustering(3, random_state=0, n_jobs=n_jobs),
], ids=["KMeans", "GaussianMixture", "DBSCAN", "SpectralClustering"])
def test_absurd_n_jobs_uses_the_usable_cpus(make):
    # n_jobs beyond the CPUs is clamped: 1000 OpenMP threads under a process limit once made
    # the OpenMP runtime end the interpreter
    X, _ = make_blobs(150, 4, centers=3, random_state=0)
    np.testing.assert_array_equal(make(1000).fit_predict(X), make(1).fit_predict(X))


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
    from kernelkit.cluster import DBSCAN, KMeans, SpectralClustering
    from kernelkit.mixture import GaussianMixture

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
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's RLIMIT_NPROC")
def test_process_limit_raises():
    # the child already counts as one process of its user: a limit of 1 refuses every new
    # thread. Root is exempt from the limit, so a root child first becomes user "nobody".
    set_limit = ("import os; os.geteuid() == 0 and os.setuid(65534); "
                 "resource.setrlimit(resource.RLIMIT_NPROC, (1, 1))")
    result = _run(set_limit)
    assert result.returncode == 0, result.stderr
    assert "refused" in result.stdout
    assert "Thread creation failed" not in result.stderr
