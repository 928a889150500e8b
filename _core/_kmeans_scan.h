/* The row scan of k-means' GEMM assignment (_kmeans_common.pxd, _assign_chunk): add the centres'
 * squared norms to a row of -2 x.c values, and find its smallest value and the second smallest.
 *
 * KM_WIDTH running minima and second minima side by side in one vector (8 floats or 4 doubles:
 * SSE2 pairs by default, one AVX2 register in the clone that GCC selects at load time on CPUs
 * that have it), merged at the end: the scan costs a few vector operations per KM_WIDTH centres
 * instead of a compare and branch per centre. Each value is the one a scalar scan computes (one
 * addition, no contraction), and every comparison is the scalar scan's `<` or `>`, so a NaN never
 * becomes a minimum.
 */
#ifndef KERNELKIT_KMEANS_SCAN_H
#define KERNELKIT_KMEANS_SCAN_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__)
#define KM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KM_CLONES
#endif

#if defined(__GNUC__) || defined(__clang__)

typedef float km_vf __attribute__((vector_size(32)));
typedef int32_t km_mf __attribute__((vector_size(32)));
typedef double km_vd __attribute__((vector_size(32)));
typedef int64_t km_md __attribute__((vector_size(32)));

/* NAME(row, norms, n, second): over the values row[j] + norms[j], j < n, returns the lowest index
 * of the smallest value (0 if every value is NaN) and sets *second to the second smallest value
 * of the multiset (the smallest again on a tie, INFINITY when n < 2). Each lane keeps its
 * smallest value, the index where it first appeared and its second smallest; the lanes are then
 * merged without branches (a branch per lane would be mispredicted about half the time). */
#define KM_TWO_SMALLEST(NAME, T, VT, MT, IT, W)                                              \
KM_CLONES                                                                                    \
static int NAME(const T *row, const T *norms, int n, T *second) {                                 \
    VT v, m1, m2, high, nv;                                                                  \
    MT less, at, index;                                                                      \
    T a1[W + 1], a2[W + 1], s, h, best_d, second_d;                                          \
    IT i1[W + 1];                                                                            \
    int j = 0, l, best = n;                                                                  \
    for (l = 0; l < W; l++) {                                                                \
        m1[l] = INFINITY; m2[l] = INFINITY; at[l] = l; index[l] = n;                         \
    }                                                                                        \
    for (; j + W <= n; j += W, at += W) {                                                    \
        memcpy(&v, row + j, sizeof v);                                                       \
        memcpy(&nv, norms + j, sizeof nv);                                                   \
        v = v + nv;                                                                          \
        /* high = max(m1, v), m1 = min(m1, v), m2 = min(m2, high), as `<` selects */         \
        less = v < m1;                                                                       \
        high = (VT)(((MT)m1 & less) | ((MT)v & ~less));                                      \
        m1 = (VT)(((MT)v & less) | ((MT)m1 & ~less));                                        \
        index = (at & less) | (index & ~less);                                               \
        less = high < m2;                                                                    \
        m2 = (VT)(((MT)high & less) | ((MT)m2 & ~less));                                     \
    }                                                                                        \
    a1[W] = INFINITY; a2[W] = INFINITY; i1[W] = n;                                           \
    for (; j < n; j++) {                                                                     \
        s = row[j] + norms[j];                                                               \
        h = s < a1[W] ? a1[W] : s;                                                           \
        i1[W] = s < a1[W] ? j : i1[W];                                                       \
        a1[W] = s < a1[W] ? s : a1[W];                                                       \
        a2[W] = h < a2[W] ? h : a2[W];                                                       \
    }                                                                                        \
    for (l = 0; l < W; l++) { a1[l] = m1[l]; a2[l] = m2[l]; i1[l] = index[l]; }              \
    best_d = a1[0];                                                                          \
    for (l = 1; l <= W; l++)                                                                 \
        best_d = a1[l] < best_d ? a1[l] : best_d;                                            \
    /* the lowest index holding it, then the second smallest of all: the best lane's         \
       second, every other lane's smallest */                                                \
    for (l = 0; l <= W; l++)                                                                 \
        best = (a1[l] == best_d && i1[l] < best) ? (int)i1[l] : best;                        \
    second_d = INFINITY;                                                                     \
    for (l = 0; l <= W; l++) {                                                               \
        s = i1[l] == best ? a2[l] : a1[l];                                                   \
        second_d = s < second_d ? s : second_d;                                              \
    }                                                                                        \
    *second = second_d;                                                                      \
    return best < n ? best : 0;                                                              \
}

KM_TWO_SMALLEST(km_two_smallest_float, float, km_vf, km_mf, int32_t, 8)
KM_TWO_SMALLEST(km_two_smallest_double, double, km_vd, km_md, int64_t, 4)

#else  /* compilers without generic vectors: one running minimum and second minimum */

#define KM_TWO_SMALLEST_SCALAR(NAME, T)                                                      \
static int NAME(const T *row, const T *norms, int n, T *second) {                                 \
    T s, h, m1 = INFINITY, m2 = INFINITY;                                                    \
    int j;                                                                                   \
    for (j = 0; j < n; j++) {                                                                \
        s = row[j] + norms[j];                                                               \
        h = s < m1 ? m1 : s;                                                                 \
        m1 = s < m1 ? s : m1;                                                                \
        m2 = h < m2 ? h : m2;                                                                \
    }                                                                                        \
    *second = m2;                                                                            \
    for (j = 0; j < n; j++)                                                                  \
        if (row[j] + norms[j] == m1) return j;                                                \
    return 0;                                                                                \
}

KM_TWO_SMALLEST_SCALAR(km_two_smallest_float, float)
KM_TWO_SMALLEST_SCALAR(km_two_smallest_double, double)

#endif

#endif
