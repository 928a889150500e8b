/* The tile test of the one-pass Gram check (check_gram in _gram.pyx). Its row loop is written
 * for the compiler to vectorise over columns: SSE2 pairs by default, four doubles in the AVX2
 * clone that GCC selects at load time on CPUs that have it. Every lane makes exactly the scalar
 * comparisons (no arithmetic that a fused multiply-add could round differently: the clones have
 * no FMA), so the flags do not depend on the clone taken. The mirror of a tile is read by
 * columns, one cache line per row, which the hardware does not prefetch: the tile prefetches
 * the mirror rows of the next one while it tests its own rows.
 *
 * Measured on an RBF Gram evicted from the caches (as a fit meets it), one thread of the 2-core
 * benchmark machine under load, in units of a plain sum of the matrix (0.2 / 1.0 / 22 ms at
 * n = 400 / 1000 / 5000): the former scalar test of 32×32 tiles 2.6–3.2 / 3.4–3.8 / 4.1–4.4;
 * this loop on 128×128 tiles 1.6–1.8 / 1.9 / 2.0, with the prefetch 1.2–1.3 / 1.6 / 1.4–1.6,
 * finiteness included; 256×256 tiles no better. Copying each mirror tile transposed into a
 * buffer, or transposing 4×4 blocks in AVX2 registers, was slower or no faster.
 */
#ifndef KERNELKIT_GRAM_SCAN_H
#define KERNELKIT_GRAM_SCAN_H

#include <float.h>
#include <math.h>
#include <stddef.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__)
#define GRAM_SCAN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GRAM_SCAN_CLONES
#endif

/* The bits of check_gram's answer (_gram.pyx exports them). */
#define KK_GRAM_NEGATIVE_DIAGONAL 1
#define KK_GRAM_ASYMMETRIC 2
#define KK_GRAM_BAD_MINOR 4
#define KK_GRAM_NON_FINITE 8

/* Flags of the entries K[i, j] = row[j] against their mirrors K[j, i] = column[j * stride], for
 * j in [j0, j1): asymmetric when |K_ij - K_ji| > 1e-8 |K_ij| + atol, a negative 2×2 minor when
 * |K_ij| > root_i root[j] + atol (root_i = (1 + 1e-8) sqrt(K_ii), root[j] = sqrt(K_jj)), non-finite
 * when either is NaN or infinite (not <= DBL_MAX in absolute value). The flags are 64-bit
 * integers so that the comparisons of doubles vectorise. */
GRAM_SCAN_CLONES
static int kk_gram_row_flags(const double *row, const double *column, ptrdiff_t stride,
                             const double *root, double root_i, double atol, ptrdiff_t j0,
                             ptrdiff_t j1) {
    long long asymmetric = 0, bad_minor = 0, non_finite = 0;
    for (ptrdiff_t j = j0; j < j1; j++) {
        const double kij = row[j], kji = column[j * stride];
        asymmetric |= (long long)(fabs(kij - kji) > 1e-8 * fabs(kij) + atol);
        bad_minor |= (long long)(fabs(kij) > root_i * root[j] + atol);
        non_finite |= (long long)(!(fabs(kij) <= DBL_MAX)) | (long long)(!(fabs(kji) <= DBL_MAX));
    }
    return (asymmetric ? KK_GRAM_ASYMMETRIC : 0) | (bad_minor ? KK_GRAM_BAD_MINOR : 0)
           | (non_finite ? KK_GRAM_NON_FINITE : 0);
}

#if defined(__GNUC__) || defined(__clang__)
#define KK_PREFETCH(p) __builtin_prefetch(p)
#else
#define KK_PREFETCH(p) ((void)0)
#endif

/* The flags of the rows [i0, i1) x columns [j0, j1) of the upper triangle (j > i), prefetching
 * the mirror rows [j1, next_j1) of the next tile, a few per row. */
static int kk_gram_tile_flags(const double *K, ptrdiff_t n, const double *root, double atol,
                              ptrdiff_t i0, ptrdiff_t i1, ptrdiff_t j0, ptrdiff_t j1,
                              ptrdiff_t next_j1) {
    int found = 0;
    ptrdiff_t per_row = (next_j1 - j1 + (i1 - i0) - 1) / (i1 - i0), r = j1;
    for (ptrdiff_t i = i0; i < i1; i++) {
        for (ptrdiff_t q = 0; q < per_row && r < next_j1; q++, r++)
            for (ptrdiff_t c = i0; c < i1; c += 8)
                KK_PREFETCH(K + r * n + c);
        found |= kk_gram_row_flags(K + i * n, K + i, n, root, (1.0 + 1e-8) * root[i], atol,
                                   j0 > i + 1 ? j0 : i + 1, j1);
    }
    return found;
}

#endif
