# Shared type vocabulary of the compiled cores, declared once here and cimported by every core
# (never redefined in a core), so that all of them name their types alike.
#
# Floating-point cores are written with `floating` (float32 or float64), integer indices with
# `intp_t` (numpy's np.intp) and labels/codes with `int32_t`; `int64_t` is for counts and hashes.
from cython cimport floating
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
ctypedef Py_ssize_t intp_t

cdef extern from "_omp.h":
    int kk_omp_max_threads() noexcept nogil
    int kk_omp_version() noexcept nogil
    double kk_omp_wtime() noexcept nogil
    int kk_team_for_work(double work, double min_work_per_thread, int n_threads) noexcept nogil
    const char *kk_omp_library() noexcept nogil
    int kk_omp_probe_threads(int n_threads, size_t stack_size) noexcept nogil
