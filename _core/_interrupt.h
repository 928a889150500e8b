/* Ctrl-C in long nogil loops (_interrupt.pxd): a monotonic clock and "is this the team's first
   thread" (the thread that released the GIL, the only one that may handle signals). */
#ifndef KERNELKIT_INTERRUPT_H
#define KERNELKIT_INTERRUPT_H
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
static inline int kk_team_leader(void) { return omp_get_thread_num() == 0; }
#else
static inline int kk_team_leader(void) { return 1; }
#endif
static inline double kk_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif
