/* OpenMP shim: the cores compile with or without OpenMP (prange then runs serially). */
#ifndef KERNELKIT_OMP_H
#define KERNELKIT_OMP_H
#ifdef _OPENMP
#include <omp.h>
static inline int kk_omp_max_threads(void) { return omp_get_max_threads(); }
/* The calling thread's number in its team (0: the team's first thread) and the team's size. */
static inline int kk_omp_thread_num(void) { return omp_get_thread_num(); }
static inline int kk_omp_num_threads(void) { return omp_get_num_threads(); }
/* The OpenMP version the module was compiled for: the release date yyyymm (201511 for 4.5). */
static inline int kk_omp_version(void) { return _OPENMP; }
/* Wall-clock seconds from a fixed origin (for timing a parallel region). */
static inline double kk_omp_wtime(void) { return omp_get_wtime(); }
#else
#include <time.h>
static inline double kk_omp_wtime(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}
static inline int kk_omp_max_threads(void) { return 1; }
static inline int kk_omp_thread_num(void) { return 0; }
static inline int kk_omp_num_threads(void) { return 1; }
static inline int kk_omp_version(void) { return 0; }
#endif

/* Threads of a parallel loop of ``work`` seconds of serial work: one per ``min_work_per_thread``
   seconds, at least 1, at most ``n_threads`` (the caller's). ``min_work_per_thread`` comes from
   kernelkit.utils._threads.min_work_per_thread (a measured cost of a parallel region). */
static inline int kk_team_for_work(double work, double min_work_per_thread, int n_threads) {
    double fit;
    if (n_threads <= 1 || min_work_per_thread <= 0.0) return n_threads < 1 ? 1 : n_threads;
    fit = work / min_work_per_thread;
    if (fit < 2.0) return 1;
    return fit < (double)n_threads ? (int)fit : n_threads;
}

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

#if defined(_OPENMP) && !defined(_WIN32)
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
/* libgomp creates its workers with pthread_create and, when that fails, prints "Thread creation
   failed" and calls exit(): the process ends without a Python exception. This starts the
   n_threads workers a team would need, with the stack size the runtime gives them (0: the
   system default, which is what libgomp uses when OMP_STACKSIZE is unset), keeps them all alive
   at once (a stack and a task each, as the team does), then joins them. Returns 0, or the
   pthread_create error (EAGAIN: a process or memory limit). */
static void *kk_probe_worker(void *gate) {
    /* block until every worker has been created, so that all of them exist together */
    pthread_mutex_lock((pthread_mutex_t *)gate);
    pthread_mutex_unlock((pthread_mutex_t *)gate);
    return NULL;
}
static inline int kk_omp_probe_threads(int n_threads, size_t stack_size) {
    pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
    pthread_attr_t attr;
    pthread_t *workers;
    int err = 0, started = 0, i;
    if (n_threads <= 0)
        return 0;
    workers = (pthread_t *)malloc((size_t)n_threads * sizeof(pthread_t));
    if (workers == NULL)
        return ENOMEM;
    pthread_attr_init(&attr);
    /* a size the system refuses is ignored, as libgomp ignores it (with a message) */
    if (stack_size > 0)
        pthread_attr_setstacksize(&attr, stack_size);
    pthread_mutex_lock(&gate);
    for (; started < n_threads; started++) {
        err = pthread_create(&workers[started], &attr, kk_probe_worker, &gate);
        if (err != 0)
            break;
    }
    pthread_mutex_unlock(&gate);
    for (i = 0; i < started; i++)
        pthread_join(workers[i], NULL);
    pthread_attr_destroy(&attr);
    free(workers);
    return err;
}
#else
/* without OpenMP (or on Windows) no runtime can exit on a failed thread creation */
static inline int kk_omp_probe_threads(int n_threads, size_t stack_size) { return 0; }
#endif
#endif
