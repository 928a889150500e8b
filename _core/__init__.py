"""Compiled cores of kernelkit (Cython). Private: use the estimators in the public subpackages."""

import os

# Idle OpenMP threads of kernelkit's cores sleep instead of spinning. With spinning (the
# runtime's default), a worker that finished its share keeps a core busy for up to a
# millisecond, which on a machine with other work on its cores (cross-validation with n_jobs,
# other processes) slows the threads that still compute: the spectrum Gram of 300 proteins took
# 11.2 ms with 2 threads and one other busy process, against 5.6 ms with sleeping threads
# (measured 2026-11-24, 2 cores; on an idle machine the difference is within noise). The runtime
# reads the policy once, when it is loaded: it is set only for that moment, only if the user did
# not set it, and removed again, so other libraries' runtimes are not affected.
if "OMP_WAIT_POLICY" not in os.environ:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        from kernelkit._core import _openmp  # noqa: F401  (loads the OpenMP runtime now)
    finally:
        del os.environ["OMP_WAIT_POLICY"]
