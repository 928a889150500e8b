"""What the OpenMP runtime offers: used to pick a thread count for the cores."""
from _types cimport kk_omp_max_threads


def openmp_max_threads():
    """``omp_get_max_threads()``: honours OMP_NUM_THREADS and threadpoolctl limits (int)."""
    return kk_omp_max_threads()
