"""Thread count for the OpenMP cores, chosen by the estimator (never a hidden global)."""

import functools
import os
import re
import threading
from numbers import Integral

from joblib import cpu_count

from kernelkit._core._openmp import openmp_max_threads, openmp_probe_threads
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["N_JOBS_CONSTRAINT", "ThreadStartError", "effective_n_threads"]

# The ``_parameter_constraints`` entry of every ``n_jobs``: None or a non-zero integer (numpy
# integers included, as grid searches pass them).
N_JOBS_CONSTRAINT = [
    None,
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, MAX_INT, closed="left"),
]


class ThreadStartError(RuntimeError):
    """The system refuses to create the threads of an OpenMP team (a process or memory limit)."""


def effective_n_threads(n_jobs=None):
    """Number of OpenMP threads a core should use for ``n_jobs``.

    Parameters
    ----------
    n_jobs : int or None
        ``None`` means every thread the OpenMP runtime allows (``OMP_NUM_THREADS`` and
        ``threadpoolctl.threadpool_limits`` are honoured); a positive value asks for that many
        threads, at most one per usable CPU; ``-1`` means all CPUs, ``-2`` all but one, and so
        on, as in joblib.

    Returns
    -------
    n_threads : int
        At least 1, at most the number of usable CPUs (cgroup/affinity aware).

    Raises
    ------
    ThreadStartError
        A RuntimeError, when the system cannot create that many threads (a process limit, ``ulimit -u``, or a
        memory limit, ``ulimit -v``, too small for their stacks): the OpenMP runtime would
        otherwise end the process without an exception.
    """
    if n_jobs is not None and (isinstance(n_jobs, bool) or not isinstance(n_jobs, Integral)
                               or n_jobs == 0):
        raise ValueError(f"n_jobs must be None or a non-zero integer, got {n_jobs!r}.")
    n_cpus = _usable_cpus()
    if n_jobs is None:
        n_threads = openmp_max_threads()
        if "OMP_NUM_THREADS" not in os.environ:
            n_threads = min(n_threads, n_cpus)
    elif n_jobs < 0:
        n_threads = max(1, n_cpus + 1 + n_jobs)
    else:
        # more threads than CPUs only add contention (and n_jobs=10**6 would ask the OpenMP
        # runtime for threads it cannot create)
        n_threads = min(int(n_jobs), n_cpus)
    n_threads = max(1, int(n_threads))
    _check_team_can_start(n_threads)
    return n_threads


# Largest team whose threads were started once in this process; libgomp keeps its workers in a
# pool, so a team no larger than that creates no thread.
_largest_team_started = 1
_probe_lock = threading.Lock()


def _check_team_can_start(n_threads):
    """Raise if the ``n_threads - 1`` workers of an OpenMP team cannot be created.

    libgomp ends the process (``exit(1)``, after "Thread creation failed") when
    ``pthread_create`` fails, so the threads are started (and joined) here first, with the
    stack size the runtime gives them; once per team size and process.
    """
    global _largest_team_started
    if n_threads <= _largest_team_started:
        return
    with _probe_lock:
        if n_threads <= _largest_team_started:
            return
        stack_size = _openmp_stack_size()
        error = openmp_probe_threads(n_threads - 1, stack_size)
        if error:
            stack = (f"{stack_size / 2**20:g} MiB set by OMP_STACKSIZE" if stack_size
                     else "the size set by `ulimit -s`")
            raise ThreadStartError(
                f"cannot start {n_threads} OpenMP threads: the system refuses to create "
                f"them ({os.strerror(error)}): a process limit (`ulimit -u`) or a memory limit "
                f"(`ulimit -v`; each thread reserves a stack of {stack}). Pass a smaller "
                f"n_jobs (n_jobs=1 runs in this thread only), set OMP_NUM_THREADS lower, or "
                f"raise the limit.")
        _largest_team_started = n_threads


_STACK_SIZE = re.compile(r"\s*(\d+)\s*([bkmg]?)\s*", re.IGNORECASE)


def _openmp_stack_size():
    """Worker stack size in bytes from OMP_STACKSIZE (else GOMP_STACKSIZE), 0 if unset.

    The libgomp syntax: an integer in kilobytes, or with a suffix B, K, M or G. An invalid
    value is ignored by the runtime (0 here: the system default).
    """
    for name in ("OMP_STACKSIZE", "GOMP_STACKSIZE"):
        match = _STACK_SIZE.fullmatch(os.environ.get(name, ""))
        if match:
            unit = {"b": 1, "": 2**10, "k": 2**10, "m": 2**20, "g": 2**30}
            size = int(match[1]) * unit[match[2].lower()]
            return size if size < 2**63 else 0   # an overflowing size is invalid too
    return 0


@functools.cache
def _usable_cpus():
    # joblib reads the cgroup quota files on every call (about 1 ms): once per process is enough.
    return cpu_count(only_physical_cores=False)
