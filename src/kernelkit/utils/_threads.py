"""Thread count for the OpenMP cores, chosen by the estimator (never a hidden global; one thread in
a fork child of a process that ran a team), and the row-block driver of the BLAS-bound
estimators."""

import contextlib
import functools
import os
import re
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from numbers import Integral

import numpy as np
from joblib import cpu_count
from scipy.linalg.blas import dgemm

from kernelkit._core._openmp import (
    openmp_max_threads,
    openmp_probe_threads,
    openmp_region_seconds,
    openmp_version,
)
from kernelkit.utils._gram import blas_controller, blas_limit
from kernelkit.utils._sklearn_compat import Interval
from kernelkit.utils._validation import MAX_INT

__all__ = ["N_JOBS_CONSTRAINT", "ThreadStartError", "blas_threads", "effective_n_threads",
           "blas_team_wakes_promptly", "fold_row_blocks", "forked_after_openmp_team",
           "lapack_threads", "min_work_per_thread",
           "parallel_region_seconds", "slot_cuts"]

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
        At least 1, at most the number of usable CPUs (cgroup/affinity aware). Always 1 in a
        process forked after this one or an ancestor started an OpenMP team
        (``forked_after_openmp_team``): the runtime's threads are not copied by ``fork``.

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
    if _forked_after_team:
        return 1
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
# pool, so a team no larger than that creates no thread. Without OpenMP no team is ever started.
_largest_team_started = 1
_probe_lock = threading.Lock()
# Whether this process was forked after it or an ancestor started a team (see _after_fork).
_forked_after_team = False


def forked_after_openmp_team():
    """Whether this process is a fork child of a process whose OpenMP runtime may have started a
    team of threads (or a child of such a child): its cores then run on one thread (bool)."""
    return _forked_after_team


def _after_fork():
    """In the child, after ``fork``: no parallel region may start a team of more than one thread.

    libgomp keeps the threads of a team in a pool for the next one; ``fork`` copies the pool's
    bookkeeping but not its threads, so a team of two or more started in the child waits for ever
    on threads that do not exist (nothing in the runtime resets the pool after a fork). The
    child's cores therefore run on one thread, and so do its own children's, if the parent had
    handed out a team of more than one thread (``_largest_team_started``: an over-estimate, as a
    core may still run a smaller team); a process forked before its first team keeps its threads.
    """
    global _forked_after_team, _probe_lock
    _forked_after_team = _forked_after_team or _largest_team_started > 1
    # a thread of the parent may have held the lock: it is not copied to release it
    _probe_lock = threading.Lock()


if hasattr(os, "register_at_fork"):   # not on Windows, which has no fork
    os.register_at_fork(after_in_child=_after_fork)


def _check_team_can_start(n_threads):
    """Raise if the ``n_threads - 1`` workers of an OpenMP team cannot be created.

    libgomp ends the process (``exit(1)``, after "Thread creation failed") when
    ``pthread_create`` fails, so the threads are started (and joined) here first, with the
    stack size the runtime gives them; once per team size and process.
    """
    global _largest_team_started
    if n_threads <= _largest_team_started or not openmp_version():
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


# A team's thread pays for itself when it does at least this many times the cost of the region
# (waking the team and joining it): with two threads and work W, W/2 + cost <= 3W/4 at W = 4 cost.
REGION_COST_FACTOR = 2
# Regions per measurement, and measurements whose median is the cost: back to back, and each
# after a pause longer than the idle threads' spin (GOMP_SPINCOUNT=1000 polls, 20-40 µs on the
# benchmark machine; ``kernelkit._core.RUNTIME_WAIT``).
_REGIONS_PER_PROBE = 40
_PAUSED_REGIONS_PER_PROBE = 6
_PAUSE_SECONDS = 200e-6
_N_PROBES = 5


def parallel_region_seconds(n_threads, after_pause=False):
    """Measured cost (s) of an empty OpenMP parallel region of ``n_threads`` threads in this
    process: the median of five means over 40 consecutive regions (``after_pause``: over 6
    regions each after a pause of 0.2 ms), after one unmeasured batch (the team's threads
    started). Measured once per process, team size and kind; 0 for one thread.

    Idle threads of kernelkit's runtime spin a bounded while (1 000 polls), then sleep: a region
    that follows another within the spin costs about a microsecond (2 threads, quiet), one after
    a pause a wake-up of each thread: tens of microseconds on a quiet machine, milliseconds when
    another process keeps a core busy. Cores size their teams from it
    (:func:`min_work_per_thread`).
    """
    return _measured_region_seconds(n_threads, bool(after_pause))


@functools.cache   # one key per (team size, kind), however the arguments are passed
def _measured_region_seconds(n_threads, after_pause):
    if n_threads < 2:
        return 0.0
    n_regions, pause = ((_PAUSED_REGIONS_PER_PROBE, _PAUSE_SECONDS) if after_pause
                        else (_REGIONS_PER_PROBE, 0.0))
    openmp_region_seconds(n_threads, n_regions, pause)
    return statistics.median(openmp_region_seconds(n_threads, n_regions, pause)
                             for _ in range(_N_PROBES))


def min_work_per_thread(n_threads, back_to_back=False):
    """Seconds of serial work each thread of a team must get for a parallel loop to pay:
    ``REGION_COST_FACTOR`` times the measured cost of a region (:func:`parallel_region_seconds`)
    that wakes its team, or, with ``back_to_back``, of one whose team still spins: for a core
    whose parallel loops follow each other within microseconds (the boosting grower's
    partitions and histogram builds). A core runs a loop of ``work`` seconds on
    ``min(n_threads, work // min_work_per_thread)`` threads, one below two
    (``kk_team_for_work`` in ``_core/_omp.h``)."""
    return REGION_COST_FACTOR * parallel_region_seconds(n_threads, after_pause=not back_to_back)


@functools.cache
def _usable_cpus():
    # joblib reads the cgroup quota files on every call (about 1 ms): once per process is enough.
    return cpu_count(only_physical_cores=False)


# Below this many floating-point operations, a BLAS or LAPACK call runs on one thread: a team of
# BLAS threads gains little on it (at most about 10 ms of work on one core), and loses
# much when another process keeps a core busy, as the team's threads spin waiting for the
# descheduled one (measured with other processes on both cores: the 51 x 51 Hessian product
# of 75 000 rows took 52 ms on one thread and 217 ms on two; a 100 x 100 eigendecomposition
# stalled the same way).
SMALL_BLAS_FLOPS = 1e8
# Below this many, OpenBLAS runs a matrix product on one thread by itself (2**18 multiply-adds),
# and a factorisation of this size is made of such products: switching the libraries' thread
# counts around the call (about 10 µs) would cost more than it.
TINY_BLAS_FLOPS = 2.0 * 2**18


def blas_threads(n_flops, n_threads, library="scipy"):
    """A context running BLAS and LAPACK on one thread for calls of fewer than
    ``SMALL_BLAS_FLOPS`` floating-point operations (the largest the context covers), on
    ``n_threads`` otherwise, unless that team wakes slowly now (:func:`lapack_threads`).

    Parameters
    ----------
    n_flops : float
        Operations of the largest call made inside the context.
    n_threads : int or None
        None: larger calls keep the libraries' thread counts.
    library : {"scipy", "numpy"}
        Whose BLAS the calls use (the team :func:`lapack_threads` probes).

    Returns
    -------
    context : context manager
    """
    if n_flops < TINY_BLAS_FLOPS:
        return contextlib.nullcontext()
    if n_flops < SMALL_BLAS_FLOPS:
        return blas_limit(1)
    return lapack_threads(n_flops, n_threads, library)


def lapack_threads(n_flops, n_threads=None, library="scipy"):
    """A context running a BLAS or LAPACK call of ``n_flops`` operations on ``n_threads``
    threads (None: the libraries' counts) when that team wakes promptly now
    (:func:`blas_team_wakes_promptly`, probing the BLAS of ``library``, "scipy" or "numpy":
    each bundles its own, with its own threads), on one thread when it does not.

    For the calls a team speeds up from a few hundred rows on a quiet machine but stalls on when
    another process keeps a core busy: the symmetric eigendecompositions, whose tridiagonal
    reduction joins the team at each of its ``n`` matrix-vector products (quiet, 2 threads ÷ 1
    of ``eigh`` 0.85–0.95 at 300 rows, 0.5–0.76 at 1 000; with one core busy, kernel PCA of
    500 samples took 3.6 s on two threads and 70 ms on one). Results may differ in the last
    bits between the two, as they do between BLAS thread counts.
    """
    if n_flops < TINY_BLAS_FLOPS:
        return contextlib.nullcontext()
    team = _blas_thread_count() if n_threads is None else n_threads
    if not blas_team_wakes_promptly(team, library):
        return blas_limit(1)
    return contextlib.nullcontext() if n_threads is None else blas_limit(n_threads)


def _blas_thread_count():
    """The largest thread count of the BLAS libraries (threadpoolctl's view)."""
    return max((library.get_num_threads() for library in blas_controller().lib_controllers
                if library.user_api == "blas"), default=1)


# The probe of a BLAS team: a product of this order, the smallest OpenBLAS runs on its threads
# (quiet, 50-130 µs on two threads and 75-110 µs on one; with one core busy, a 500 x 500
# eigendecomposition on two threads stalled (0.2-2.5 s against 9-33 ms on one) after each of 13
# probes of 13-21 ms, and ran in 20-22 ms after each of 3 probes of 120-180 µs). The probe wakes
# the library's threads, which then spin for a while (OpenBLAS: about 0.1 s): it uses the
# library the call will use, whose threads the call wakes anyway. The other library's spinning
# threads are a busy core too: quiet, a SciPy eigendecomposition of 500 rows 0-50 ms after a
# NumPy product took 42-102 ms on two threads against 29 ms later, and the probe 3-14 ms.
_PROBE_ORDER = 128
_PRODUCTS = {"scipy": lambda matrix: dgemm(1.0, matrix, matrix),
             "numpy": lambda matrix: matrix @ matrix}
# A slow verdict holds this long, twice as long after each slow verdict that follows it, up to
# MAX_SLOW_VERDICT_SECONDS: a stalled probe costs 12-20 ms, and a machine busy now mostly stays
# busy. A prompt verdict holds PROMPT_VERDICT_SECONDS: it goes stale once the team's threads fall
# asleep again (with one core busy, a 60 ms kernel PCA fit took 0.76 s on a prompt verdict of
# the second before), and a probe every 0.1 s costs at most 0.25 % of a quiet machine's time.
SLOW_VERDICT_SECONDS = 1.0
MAX_SLOW_VERDICT_SECONDS = 16.0
PROMPT_VERDICT_SECONDS = 0.1
# The team is slow when its product takes longer than this many times the one thread's, plus
# _PROBE_SLACK seconds (the timer and a cache miss).
_PROBE_FACTOR = 2.0
_PROBE_SLACK = 5e-4
# (library, n_threads) -> (time.monotonic() of the probe, verdict, seconds it holds)
_team_verdicts = {}


@functools.cache
def _probe_matrix():
    return np.asfortranarray(np.random.default_rng(0).standard_normal((_PROBE_ORDER,) * 2))


def _product_seconds(library, n_threads):
    product, matrix = _PRODUCTS[library], _probe_matrix()
    with blas_limit(n_threads):
        start = time.perf_counter()
        product(matrix)
        return time.perf_counter() - start


@functools.cache
def _one_thread_product_seconds(library):
    return min(_product_seconds(library, 1) for _ in range(3))


def blas_team_wakes_promptly(n_threads, library="scipy"):
    """Whether a team of ``n_threads`` threads of the BLAS of ``library`` ("scipy" or
    "numpy") runs a product in time now: a 128 × 128 product on the team takes at most twice
    its time on one thread (measured once per process), plus 0.5 ms.

    A team's threads sleep between calls; when another process keeps a core busy, the one
    woken on that core waits for the scheduler, milliseconds at each join of the team. A
    verdict is cached per library and team size: a prompt one ``PROMPT_VERDICT_SECONDS``, a
    slow one ``SLOW_VERDICT_SECONDS``, doubled after each slow one up to
    ``MAX_SLOW_VERDICT_SECONDS``. True for one thread.
    """
    if n_threads < 2:
        return True
    now = time.monotonic()
    probed_at, prompt, hold = _team_verdicts.get((library, n_threads), (-np.inf, True, 0.0))
    if now - probed_at > hold:
        limit = _PROBE_FACTOR * _one_thread_product_seconds(library) + _PROBE_SLACK
        slow_before = not prompt
        prompt = _product_seconds(library, n_threads) <= limit
        hold = (PROMPT_VERDICT_SECONDS if prompt else
                min(2.0 * hold, MAX_SLOW_VERDICT_SECONDS) if slow_before else SLOW_VERDICT_SECONDS)
        _team_verdicts[library, n_threads] = (now, prompt, hold)
    return prompt


# Row slots of fold_row_blocks: fixed, so that the result does not depend on the thread count, and
# several per thread, so that a thread slowed by another process's work on its core leaves its
# remaining slots to the others.
_N_SLOTS = 8


def slot_cuts(n_blocks):
    """The slots of ``n_blocks`` consecutive blocks: slot ``s`` takes the blocks
    ``cuts[s] .. cuts[s + 1]`` (at most ``_N_SLOTS`` slots, a split that depends only on
    ``n_blocks``); an intp array."""
    n_slots = min(_N_SLOTS, n_blocks)
    return np.array([n_blocks * s // n_slots for s in range(n_slots + 1)], dtype=np.intp)


def fold_row_blocks(fold, n_rows, block_rows, n_threads):
    """Fold consecutive row blocks, in a fixed number of slots run on ``n_threads`` threads.

    The rows ``0 .. n_rows`` are cut into blocks of ``block_rows`` rows and the blocks into (at
    most) eight contiguous slots. Each slot folds its blocks in order, ``state = fold(state,
    start, stop)`` from ``state = None``; the slots are taken by the threads as they become free,
    each BLAS call running on one thread. Small BLAS products on a team of BLAS threads stall
    when another process keeps one of the cores busy (a thread spins, waiting for the
    descheduled one); independent one-thread calls, one slot at a time, do not wait for each
    other. The slots' states are returned in slot order, so a caller that combines them in that
    order gets a result independent of ``n_threads``.

    Parameters
    ----------
    fold : callable
        ``fold(state, start, stop) -> state``: adds the rows ``start:stop`` to a slot's state
        (None before its first block). It runs outside the GIL for the most part (BLAS, LAPACK and
        NumPy calls on blocks), so that the threads overlap.
    n_rows : int
    block_rows : int
        Rows per block (the last block of the data may be shorter).
    n_threads : int
        Threads folding slots at once.

    Returns
    -------
    states : list
        The final state of each slot, in row order.
    """
    starts = range(0, n_rows, block_rows)
    cuts = slot_cuts(len(starts)).tolist()
    n_slots = len(cuts) - 1
    cancelled = threading.Event()
    states = [None] * n_slots
    pending = iter(range(n_slots))
    lock = threading.Lock()

    def work():
        # take the next slot until none is left: a thread slowed down takes fewer
        while not cancelled.is_set():
            with lock:
                slot = next(pending, None)
            if slot is None:
                return
            state = None
            for block in range(cuts[slot], cuts[slot + 1]):
                if cancelled.is_set():
                    return
                start = starts[block]
                state = fold(state, start, min(start + block_rows, n_rows))
            states[slot] = state

    with blas_limit(1):
        n_workers = min(n_threads, n_slots) - 1
        if n_workers == 0:
            work()
            return states
        # the calling thread is one of the workers: one thread fewer to start per call
        with ThreadPoolExecutor(max_workers=n_workers) as pool:
            helpers = [pool.submit(work) for _ in range(n_workers)]
            try:
                work()
                for helper in helpers:
                    helper.result()
            except BaseException:
                # Ctrl-C or an error in a slot: the other threads stop at their next block
                cancelled.set()
                raise
    return states
