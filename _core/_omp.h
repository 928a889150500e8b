/* OpenMP shim: the cores compile with or without OpenMP (prange then runs serially). */
#ifndef KERNELKIT_OMP_H
#define KERNELKIT_OMP_H
#ifdef _OPENMP
#include <omp.h>
static inline int kk_omp_max_threads(void) { return omp_get_max_threads(); }
#else
static inline int kk_omp_max_threads(void) { return 1; }
#endif
#endif
