/* Squared distances from one query to the rows of a KD-tree leaf stored by columns, in double
 * precision (used by _knn_kd_tree.pyx).
 *
 * out[p] = sum_j (x_pj - q_j)^2, each row's sum in feature order; the loop over the rows is the
 * inner one, so the compiler vectorises it: SSE2 pairs by default, four doubles in the AVX2
 * clone that GCC selects at load time on CPUs that have it. Every lane performs exactly the
 * scalar operations in the scalar order (the module is compiled with -ffp-contract=off: no fused
 * multiply-add changes a rounding), so the values do not depend on the clone taken.
 */
#ifndef KERNELKIT_KNN_LEAF_H
#define KERNELKIT_KNN_LEAF_H

#include <stddef.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__)
#define KNN_LEAF_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KNN_LEAF_CLONES
#endif

/* One definition for both element types: the rows' type T, the sums in double. */
#define KNN_LEAF_DISTANCES(NAME, T)                                                           \
    KNN_LEAF_CLONES                                                                           \
    static void NAME(const T *q, const T *columns, ptrdiff_t n_rows, ptrdiff_t n_features,    \
                     double *out) {                                                           \
        for (ptrdiff_t p = 0; p < n_rows; p++)                                                \
            out[p] = 0.0;                                                                     \
        for (ptrdiff_t j = 0; j < n_features; j++) {                                          \
            const double qj = (double)q[j];                                                   \
            const T *column = columns + j * n_rows;                                           \
            for (ptrdiff_t p = 0; p < n_rows; p++) {                                          \
                const double diff = (double)column[p] - qj;                                   \
                out[p] += diff * diff;                                                        \
            }                                                                                 \
        }                                                                                     \
    }

KNN_LEAF_DISTANCES(kk_leaf_distances_f64, double)
KNN_LEAF_DISTANCES(kk_leaf_distances_f32, float)

#endif
