/* Ctrl-C in long nogil loops (_interrupt.pxd): a monotonic clock and "is this the team's first
   thread" (the thread that released the GIL, the only one that may handle signals). */
#ifndef KERNELKIT_INTERRUPT_H
#define KERNELKIT_INTERRUPT_H
#include <stddef.h>
#include <time.h>
#include "_omp.h"   /* OpenMP through the shim: without it, a team of one */
static inline int kk_team_leader(void) { return kk_omp_thread_num() == 0; }
static inline int kk_team_size(void) { return kk_omp_num_threads(); }
/* shared counters of a team: the next item to take, the threads done */
static inline ptrdiff_t kk_fetch_add(ptrdiff_t *counter, ptrdiff_t value) {
    return __atomic_fetch_add(counter, value, __ATOMIC_SEQ_CST);
}
static inline ptrdiff_t kk_load(ptrdiff_t *counter) {
    return __atomic_load_n(counter, __ATOMIC_SEQ_CST);
}
static inline void kk_pause_millisecond(void) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}
static inline double kk_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
#endif
