"""What the OpenMP runtime of the cores offers: its thread limit, version and library file, and
whether a team of threads can start; used to pick thread counts and by ``kernelkit info``. Built
without OpenMP (``-Dopenmp=disabled``, or no OpenMP in the compiler), the ``_omp.h`` shim answers
one thread, version 0 and no library."""
from cython.parallel cimport prange

from _types cimport (kk_omp_library, kk_omp_max_threads, kk_omp_probe_threads,
                    kk_omp_version, kk_omp_wtime)


def openmp_max_threads():
    """``omp_get_max_threads()``: honours OMP_NUM_THREADS and threadpoolctl limits (int)."""
    return kk_omp_max_threads()


def openmp_version():
    """The OpenMP version the cores were compiled for, as its release date ``yyyymm`` (int).

    ``201511`` is OpenMP 4.5, ``201811`` 5.0; 0 when the cores were built without OpenMP.
    """
    return kk_omp_version()


def openmp_library():
    """The file of the OpenMP runtime the cores call (str), or None when unknown.

    A process may load several runtimes (scikit-learn's wheels carry their own libgomp); this is
    the one whose ``omp_get_max_threads`` the cores resolve to, found with ``dladdr`` (Linux,
    macOS). None without OpenMP or elsewhere.
    """
    path = kk_omp_library()
    return None if path == NULL else path.decode()


def openmp_probe_threads(int n_workers, size_t stack_size):
    """Start and join ``n_workers`` threads as the OpenMP runtime would for a team.

    Parameters
    ----------
    n_workers : int
        Threads to start besides the calling one (a team of ``n`` needs ``n - 1``).
    stack_size : int
        Stack of each thread in bytes (``OMP_STACKSIZE``), 0 for the system default.

    Returns
    -------
    error : int
        0 when every thread started, else the ``errno`` of the failed ``pthread_create``
        (always 0 without OpenMP).
    """
    cdef int error
    with nogil:
        error = kk_omp_probe_threads(n_workers, stack_size)
    return error


def openmp_region_seconds(int n_threads, int n_regions, double pause=0.0):
    """Mean wall time (s) of an empty parallel region of ``n_threads`` threads, over
    ``n_regions`` ones: the cost a parallel loop pays before and after its work (waking the
    team, then joining it). Consecutive regions with ``pause = 0``; otherwise the calling thread
    waits ``pause`` seconds (busy, not counted) before each, so that a team whose idle threads
    spin a bounded while first finds them asleep. 0 without OpenMP."""
    cdef int region, i
    cdef double start, total = 0.0
    if n_regions < 1 or n_threads < 2:
        return 0.0
    with nogil:
        for region in range(n_regions):
            start = kk_omp_wtime() + pause
            while pause > 0.0 and kk_omp_wtime() < start:
                pass
            start = kk_omp_wtime()
            for i in prange(n_threads, num_threads=n_threads, schedule='static', chunksize=1):
                pass
            total += kk_omp_wtime() - start
    return total / n_regions
