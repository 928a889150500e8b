"""Thread count for the OpenMP cores, chosen by the estimator (never a hidden global)."""

import functools
import os
from numbers import Integral

from joblib import cpu_count
from sklearn.utils._param_validation import Interval

from kernelkit._core._openmp import openmp_max_threads
from kernelkit.utils._validation import MAX_INT

__all__ = ["N_JOBS_CONSTRAINT", "effective_n_threads"]

# The ``_parameter_constraints`` entry of every ``n_jobs``: None or a non-zero integer (numpy
# integers included, as grid searches pass them).
N_JOBS_CONSTRAINT = [
    None,
    Interval(Integral, None, -1, closed="right"),
    Interval(Integral, 1, MAX_INT, closed="left"),
]


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
    return max(1, int(n_threads))


@functools.cache
def _usable_cpus():
    # joblib reads the cgroup quota files on every call (about 1 ms): once per process is enough.
    return cpu_count(only_physical_cores=False)
