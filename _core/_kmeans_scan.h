/* The scan of k-means' GEMM assignment (_kmeans_common.pxd, _assign_chunk): the GEMM block of a
 * chunk holds -2 c.x with one row per centre and one column per sample; add the centres' squared
 * norms and find, for every sample, its smallest value, where it is and the second smallest.
 *
 * The lanes of a vector are samples (8 floats or 4 doubles: SSE2 pairs by default, one AVX2
 * register in the clone that GCC selects at load time on CPUs that have it), so a centre costs a
 * few vector operations per KM_LANES samples whatever the number of centres, and nothing is merged
 * across lanes. Each value is the one a scalar scan computes (one addition, no contraction), and
 * every comparison is the scalar scan's `<`, so a NaN never becomes a minimum.
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

/* Samples per vector of floats; a chunk's GEMM block has a multiple of it as its row stride. */
#define KM_LANES 8

#if defined(__GNUC__) || defined(__clang__)

/* Rows of the GEMM block read ahead by the scan (many centres: the block leaves L1). */
#define KM_PREFETCH_ROWS 16

typedef float km_vf __attribute__((vector_size(32)));
typedef int32_t km_mf __attribute__((vector_size(32)));
typedef double km_vd __attribute__((vector_size(32)));
typedef int64_t km_md __attribute__((vector_size(32)));

/* NAME(dist, ld, norms, n_clusters, smallest, second, index): dist is an (n_clusters, ld)
 * row-major block, one column per sample (ld a multiple of KM_LANES). For every sample i < ld,
 * over the values dist[l * ld + i] + norms[l], l < n_clusters: smallest[i], the smallest value;
 * index[i], the lowest l holding it (0 if every value is NaN or infinite); second[i], the second
 * smallest value of the multiset (the smallest again on a tie, INFINITY when n_clusters < 2).
 * The centres are visited in order and `<` keeps the first of equal values. Two vectors of
 * samples at a time, so that two chains of dependent comparisons overlap. */
#define KM_COLUMN_SCAN(NAME, T, VT, MT, IT, W)                                               \
KM_CLONES                                                                                    \
static void NAME(const T *dist, int ld, const T *norms, int n_clusters, T *smallest,       \
                 T *second, IT *index) {                                                     \
    VT v, w, nv, m1, m2, n1, n2, high;                                                       \
    MT less, at, i1, j1;                                                                     \
    int i, l, lane;                                                                          \
    for (i = 0; i < ld; i += 2 * W) {                                                        \
        for (lane = 0; lane < W; lane++) {                                                   \
            m1[lane] = INFINITY; m2[lane] = INFINITY; n1[lane] = INFINITY;                   \
            n2[lane] = INFINITY; i1[lane] = 0; j1[lane] = 0; at[lane] = 0;                   \
        }                                                                                    \
        for (l = 0; l < n_clusters; l++) {                                                   \
            for (lane = 0; lane < W; lane++) nv[lane] = norms[l];                            \
            /* a column is one cache line of every row: ask for the rows ahead */           \
            __builtin_prefetch(dist + (size_t)(l + KM_PREFETCH_ROWS) * ld + i);              \
            memcpy(&v, dist + (size_t)l * ld + i, sizeof v);                                 \
            v = v + nv;                                                                      \
            /* high = max(m1, v), m1 = min(m1, v), m2 = min(m2, high), as `<` selects */     \
            less = v < m1;                                                                   \
            high = (VT)(((MT)m1 & less) | ((MT)v & ~less));                                  \
            m1 = (VT)(((MT)v & less) | ((MT)m1 & ~less));                                    \
            i1 = (at & less) | (i1 & ~less);                                                 \
            less = high < m2;                                                                \
            m2 = (VT)(((MT)high & less) | ((MT)m2 & ~less));                                 \
            if (i + W < ld) {                                                                \
                memcpy(&w, dist + (size_t)l * ld + i + W, sizeof w);                         \
                w = w + nv;                                                                  \
                less = w < n1;                                                               \
                high = (VT)(((MT)n1 & less) | ((MT)w & ~less));                              \
                n1 = (VT)(((MT)w & less) | ((MT)n1 & ~less));                                \
                j1 = (at & less) | (j1 & ~less);                                             \
                less = high < n2;                                                            \
                n2 = (VT)(((MT)high & less) | ((MT)n2 & ~less));                             \
            }                                                                                \
            at += 1;                                                                         \
        }                                                                                    \
        memcpy(smallest + i, &m1, sizeof m1);                                                \
        memcpy(second + i, &m2, sizeof m2);                                                  \
        memcpy(index + i, &i1, sizeof i1);                                                   \
        if (i + W < ld) {                                                                    \
            memcpy(smallest + i + W, &n1, sizeof n1);                                        \
            memcpy(second + i + W, &n2, sizeof n2);                                          \
            memcpy(index + i + W, &j1, sizeof j1);                                           \
        }                                                                                    \
    }                                                                                        \
}

KM_COLUMN_SCAN(km_column_scan_float, float, km_vf, km_mf, int32_t, 8)
KM_COLUMN_SCAN(km_column_scan_double, double, km_vd, km_md, int64_t, 4)

#else  /* compilers without generic vectors: one sample at a time */

#define KM_COLUMN_SCAN_SCALAR(NAME, T, IT)                                                   \
static void NAME(const T *dist, int ld, const T *norms, int n_clusters, T *smallest,       \
                 T *second, IT *index) {                                                     \
    T s, h, m1, m2;                                                                          \
    int i, l;                                                                                \
    IT at;                                                                                   \
    for (i = 0; i < ld; i++) {                                                               \
        m1 = INFINITY; m2 = INFINITY; at = 0;                                                \
        for (l = 0; l < n_clusters; l++) {                                                   \
            s = dist[(size_t)l * ld + i] + norms[l];                                         \
            h = s < m1 ? m1 : s;                                                             \
            at = s < m1 ? l : at;                                                            \
            m1 = s < m1 ? s : m1;                                                            \
            m2 = h < m2 ? h : m2;                                                            \
        }                                                                                    \
        smallest[i] = m1; second[i] = m2; index[i] = at;                                     \
    }                                                                                        \
}

KM_COLUMN_SCAN_SCALAR(km_column_scan_float, float, int32_t)
KM_COLUMN_SCAN_SCALAR(km_column_scan_double, double, int64_t)

#endif

#endif
