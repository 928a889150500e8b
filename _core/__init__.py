"""Compiled cores of kernelkit (Cython). Private: use the estimators in the public subpackages."""

import os

# How idle OpenMP threads of kernelkit's cores wait: they spin a short while (GOMP_SPINCOUNT,
# 1 000 polls: tens of microseconds), then sleep (OMP_WAIT_POLICY=PASSIVE).
# - Sleeping at once made every parallel region pay a wake-up of its team: 16-62 µs for 2 threads
#   on the 2-core benchmark machine, on some days more than the work a grower's node gives a
#   second thread; with the short spin a region that follows within the spin costs about 1 µs.
#   Quiet, fresh interpreters (bench/wait_policy.py): histogram boosting 0.69-0.83 of the time
#   of threads that sleep at once, k-means and the spectrum Gram 0.94-1.05.
# - Spinning without bound (the runtime's default, up to milliseconds) keeps a core busy that
#   another process or the descheduled thread of the same team may need: the spectrum Gram of
#   300 proteins took 11.2 ms with 2 threads and one other busy process against 5.6 ms with
#   sleeping threads (2026-11-24), boosting 1.8-3.2x longer with 10 000 or 30 000 polls. With
#   1 000 polls and one core busy: 0.99-1.02 of the time of threads that sleep at once. PASSIVE
#   also keeps threads from spinning at all when the process runs more OpenMP threads than
#   there are CPUs.
# The runtime reads both variables once, when it is loaded: they are set only for that moment,
# only if the user set neither, and removed again, so other libraries' runtimes are not affected.
RUNTIME_WAIT = {"OMP_WAIT_POLICY": "PASSIVE", "GOMP_SPINCOUNT": "1000"}


def _runtime_wait_environment(environ):
    """The variables of RUNTIME_WAIT to set while the OpenMP runtime loads: none when the user
    chose a policy; the user's spin count is kept with PASSIVE."""
    if "OMP_WAIT_POLICY" in environ:
        return {}
    return {name: value for name, value in RUNTIME_WAIT.items() if name not in environ}


def _load_openmp_runtime():
    """Load kernelkit's OpenMP runtime with the wait variables of _runtime_wait_environment."""
    chosen = _runtime_wait_environment(os.environ)
    os.environ.update(chosen)
    try:
        from kernelkit._core import _openmp  # noqa: F401
    finally:
        for name in chosen:
            del os.environ[name]


_load_openmp_runtime()
