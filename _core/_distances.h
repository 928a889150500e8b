/* The squared Euclidean distance from a dot product, ‖x‖² + ‖y‖² − 2 x·y, written once for the
 * Cython cores (_distances.pxd's squared_distance_from_dot) and the SIMD lanes of the k-NN
 * search (_knn_lanes.h), so that every caller rounds it alike: the two additions in this order,
 * each rounded (no contraction: C11's default, and -ffp-contract=off where the lanes are). */
#ifndef KERNELKIT_DISTANCES_H
#define KERNELKIT_DISTANCES_H

/* ‖x‖² + ‖y‖² − 2 x·y as computed, possibly slightly negative from rounding. */
static inline double kk_expanded_distance(double x_squared_norm, double y_squared_norm,
                                          double dot) {
    return x_squared_norm + y_squared_norm - 2.0 * dot;
}

/* The same, clamped at 0. */
static inline double kk_squared_distance_from_dot(double x_squared_norm, double y_squared_norm,
                                                  double dot) {
    const double v = kk_expanded_distance(x_squared_norm, y_squared_norm, dot);
    return v > 0.0 ? v : 0.0;
}

#endif
