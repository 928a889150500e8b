/* The vectorised loops of the k-NN searches, each written for the compiler to vectorise over
 * training rows: SSE2 pairs by default, four doubles in the AVX2 clone that GCC selects at load
 * time on CPUs that have it. Every lane performs exactly the scalar operations in the scalar
 * order (the modules are compiled with -ffp-contract=off: no fused multiply-add changes a
 * rounding), so the values and decisions do not depend on the clone taken.
 *
 * - kk_leaf_distances_*: squared distances from one query to the rows of a KD-tree leaf stored
 *   by columns, in double precision (_knn_kd_tree.pyx);
 * - kk_any_candidate_*: whether any training row of a GEMM block can enter a query's heap
 *   (_knn_brute.pyx), so that a block of rejected rows costs a few vector instructions.
 */
#ifndef KERNELKIT_KNN_LANES_H
#define KERNELKIT_KNN_LANES_H

#include <stddef.h>

#include "_distances.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__)
#define KNN_LANES_CLONES __attribute__((target_clones("avx2", "default"), unused))
#elif defined(__GNUC__) || defined(__clang__)
#define KNN_LANES_CLONES __attribute__((unused))  /* each core uses some of the loops */
#else
#define KNN_LANES_CLONES
#endif

/* One definition for both element types: the rows' type T, the sums in double. */
#define KNN_LEAF_DISTANCES(NAME, T)                                                            \
    KNN_LANES_CLONES                                                                           \
    static void NAME(const T *q, const T *columns, ptrdiff_t n_rows, ptrdiff_t n_features,     \
                     double *out) {                                                            \
        for (ptrdiff_t p = 0; p < n_rows; p++)                                                 \
            out[p] = 0.0;                                                                      \
        for (ptrdiff_t j = 0; j < n_features; j++) {                                           \
            const double qj = (double)q[j];                                                    \
            const T *column = columns + j * n_rows;                                            \
            for (ptrdiff_t p = 0; p < n_rows; p++) {                                           \
                const double diff = (double)column[p] - qj;                                    \
                out[p] += diff * diff;                                                         \
            }                                                                                  \
        }                                                                                      \
    }

KNN_LEAF_DISTANCES(kk_leaf_distances_f64, double)
KNN_LEAF_DISTANCES(kk_leaf_distances_f32, float)

/* Whether any of the n products dots[t] = q.x_t gives a candidate: with x_lengths NULL, a
 * squared distance q_norm + x_norms[t] - 2 dots[t] (clamped at 0) at most `worst`; otherwise
 * the clamped distance less its rounding bound, bound_scale * x_lengths[t], at most `worst`.
 * The expressions are those of the scalar tests in _knn_brute.pyx (_distances.h), evaluated
 * alike; `worst` is never negative, so the clamp cannot change the plain test and is left out
 * of it. */
#define KNN_ANY_CANDIDATE(NAME, T)                                                             \
    KNN_LANES_CLONES                                                                           \
    static int NAME(const T *dots, const double *x_norms, const double *x_lengths,             \
                    ptrdiff_t n, double q_norm, double bound_scale, double worst) {            \
        int any = 0;                                                                           \
        if (x_lengths == NULL) {                                                               \
            for (ptrdiff_t t = 0; t < n; t++)                                                  \
                any |= kk_expanded_distance(q_norm, x_norms[t], (double)dots[t]) <= worst;     \
            return any;                                                                        \
        }                                                                                      \
        for (ptrdiff_t t = 0; t < n; t++) {                                                    \
            double v = kk_squared_distance_from_dot(q_norm, x_norms[t], (double)dots[t]);      \
            any |= v - bound_scale * x_lengths[t] <= worst;                                    \
        }                                                                                      \
        return any;                                                                            \
    }

KNN_ANY_CANDIDATE(kk_any_candidate_f64, double)
KNN_ANY_CANDIDATE(kk_any_candidate_f32, float)

#endif
