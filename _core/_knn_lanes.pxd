# The vectorised loops of the k-NN searches (_knn_lanes.h) for `floating` data.
from _types cimport floating, intp_t


cdef extern from "_knn_lanes.h" nogil:
    void kk_leaf_distances_f64(const double *q, const double *columns, intp_t n_rows,
                               intp_t n_features, double *out) noexcept
    void kk_leaf_distances_f32(const float *q, const float *columns, intp_t n_rows,
                               intp_t n_features, double *out) noexcept
    int kk_any_candidate_f64(const double *dots, const double *x_norms,
                             const double *x_lengths, intp_t n, double q_norm,
                             double bound_scale, double worst) noexcept
    int kk_any_candidate_f32(const float *dots, const double *x_norms, const double *x_lengths,
                             intp_t n, double q_norm, double bound_scale,
                             double worst) noexcept


cdef inline void leaf_distances(const floating *q, const floating *columns, intp_t n_rows,
                                intp_t d, double *out) noexcept nogil:
    """``out[p] = Σ_j (x_pj − q_j)²`` in double precision, in feature order, for the ``n_rows``
    rows of a leaf stored by columns (``columns[j * n_rows + p] = x_pj``; ``_knn_lanes.h``)."""
    if floating is float:
        kk_leaf_distances_f32(q, columns, n_rows, d, out)
    else:
        kk_leaf_distances_f64(q, columns, n_rows, d, out)


cdef inline bint any_candidate(const floating *dots, const double *x_norms,
                               const double *x_lengths, intp_t n, double q_norm,
                               double bound_scale, double worst) noexcept nogil:
    """Whether a row of the chunk passes the scalar test of ``_knn_brute._query_block`` against
    ``worst`` (``_knn_lanes.h``)."""
    if floating is float:
        return kk_any_candidate_f32(dots, x_norms, x_lengths, n, q_norm, bound_scale, worst)
    else:
        return kk_any_candidate_f64(dots, x_norms, x_lengths, n, q_norm, bound_scale, worst)
