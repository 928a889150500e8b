"""What the OpenMP runtime offers: used to pick a thread count for the cores."""
from _types cimport kk_omp_library, kk_omp_max_threads, kk_omp_version


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
