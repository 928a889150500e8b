/* OpenMP shim: the cores compile with or without OpenMP (prange then runs serially). */
#ifndef KERNELKIT_OMP_H
#define KERNELKIT_OMP_H
#ifdef _OPENMP
#include <omp.h>
static inline int kk_omp_max_threads(void) { return omp_get_max_threads(); }
/* The OpenMP version the module was compiled for: the release date yyyymm (201511 for 4.5). */
static inline int kk_omp_version(void) { return _OPENMP; }
#else
static inline int kk_omp_max_threads(void) { return 1; }
static inline int kk_omp_version(void) { return 0; }
#endif

#if defined(_OPENMP) && (defined(__linux__) || defined(__APPLE__))
#include <dlfcn.h>  /* dladdr: Python.h defines _GNU_SOURCE, which glibc asks for */
/* The file of the OpenMP runtime the calls resolve to (NULL if unknown): several may be loaded
   in one process (scikit-learn's wheels carry their own), and only this one sets our threads. */
static inline const char *kk_omp_library(void) {
    Dl_info info;
    if (dladdr((void *)omp_get_max_threads, &info) && info.dli_fname != NULL)
        return info.dli_fname;
    return NULL;
}
#else
static inline const char *kk_omp_library(void) { return NULL; }
#endif
#endif
