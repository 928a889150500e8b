/* One DP row of the local alignment kernel for LA_LANES pairs side by side (SIMD across pairs).
 *
 * Used by _local_alignment_dp.pyx (see its module docstring for the recurrences). Lane l holds
 * the pair (x, y_l): the row sequence x is shared, so the row's substitution weights are one
 * profile row gathered at each lane's letter. Each lane performs exactly the operations of the
 * scalar DP, in the same order, so the values are identical (the module is compiled with
 * -ffp-contract=off: no fused multiply-add changes a rounding).
 *
 * Written with GCC/Clang generic vectors (4 doubles: SSE2 pairs by default, one AVX2 register in
 * the AVX2 clone that GCC selects at load time on CPUs that have it).
 */
#ifndef KERNELKIT_LA_LANES_H
#define KERNELKIT_LA_LANES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define LA_WIDTH 4                       /* doubles per vector */
/* vectors per row step: 4 lanes measured fastest on 200 proteins (1.4e9 DP cells per second
   per core; 8 lanes 1.15e9, 16 lanes 0.81e9: more lanes pad more and spill registers) */
#define LA_VECTORS 1
#define LA_LANES (LA_WIDTH * LA_VECTORS)

#if defined(__GNUC__) || defined(__clang__)

typedef double la_vec __attribute__((vector_size(LA_WIDTH * sizeof(double))));
typedef int64_t la_mask __attribute__((vector_size(LA_WIDTH * sizeof(int64_t))));

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__)
#define LA_CLONES __attribute__((target_clones("avx2", "default")))
#define LA_HAS_CLONES 1
#else
#define LA_CLONES
#define LA_HAS_CLONES 0
#endif

static inline la_vec la_load(const double *p) {
    la_vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void la_store(double *p, la_vec v) {
    memcpy(p, &v, sizeof v);
}

/* max(a, b) as the scalar DP's `a if a > b else b` */
static inline la_vec la_max(la_vec a, la_vec b) {
    la_mask greater = a > b;
    return (la_vec)(((la_mask)a & greater) | ((la_mask)b & ~greater));
}

/* One row i of the DP for LA_LANES pairs.
 *
 * profile: exp(beta S(x_i, .)) with a last entry 0 for the padding letter;
 * letters: (width, LA_LANES) interleaved letter codes of the column sequences (padding past a
 *          sequence's end); mask: (width + 1, LA_LANES), 1 on real cells, 0 on padding;
 * m_row, x_row, y_row: (width + 1, LA_LANES) states of row i - 1 in, of row i out;
 * start: (LA_LANES,) the weight 1 of a new alignment in each lane's scale;
 * row_sum, row_max: (LA_LANES,) out, the sum of M over the row and the largest state. */
LA_CLONES
static void la_lanes_row(const double *profile, const intptr_t *letters, const double *mask,
                         double *m_row, double *x_row, double *y_row, intptr_t width,
                         const double *start, double open_weight, double extend_weight,
                         double *row_sum, double *row_max) {
    la_vec st[LA_VECTORS], md[LA_VECTORS], xd[LA_VECTORS], yd[LA_VECTORS];
    la_vec ml[LA_VECTORS], xl[LA_VECTORS], yl[LA_VECTORS], rs[LA_VECTORS], rm[LA_VECTORS];
    const la_vec zero = {0.0, 0.0, 0.0, 0.0};
    const la_vec ow = {open_weight, open_weight, open_weight, open_weight};
    const la_vec ew = {extend_weight, extend_weight, extend_weight, extend_weight};
    for (int v = 0; v < LA_VECTORS; v++) {
        st[v] = la_load(start + v * LA_WIDTH);
        md[v] = xd[v] = yd[v] = ml[v] = xl[v] = yl[v] = rs[v] = rm[v] = zero;
    }
    for (intptr_t q = 1; q <= width; q++) {
        const intptr_t *code = letters + (q - 1) * LA_LANES;
        for (int v = 0; v < LA_VECTORS; v++) {
            const intptr_t at = q * LA_LANES + v * LA_WIDTH;
            const intptr_t *c = code + v * LA_WIDTH;
            la_vec s = {profile[c[0]], profile[c[1]], profile[c[2]], profile[c[3]]};
            la_vec mk = la_load(mask + at);
            la_vec mu = la_load(m_row + at);
            la_vec xu = la_load(x_row + at);
            la_vec yu = la_load(y_row + at);
            la_vec mn = s * (((st[v] + xd[v]) + yd[v]) + md[v]);
            la_vec xn = (ow * mu + ew * xu) * mk;
            la_vec yn = (ow * (ml[v] + xl[v]) + ew * yl[v]) * mk;
            md[v] = mu;
            xd[v] = xu;
            yd[v] = yu;
            la_store(m_row + at, mn);
            la_store(x_row + at, xn);
            la_store(y_row + at, yn);
            ml[v] = mn;
            xl[v] = xn;
            yl[v] = yn;
            rs[v] += mn;
            rm[v] = la_max(rm[v], la_max(mn, la_max(xn, yn)));
        }
    }
    for (int v = 0; v < LA_VECTORS; v++) {
        la_store(row_sum + v * LA_WIDTH, rs[v]);
        la_store(row_max + v * LA_WIDTH, rm[v]);
    }
}

#else  /* compilers without generic vectors: the same operations lane by lane */

static void la_lanes_row(const double *profile, const intptr_t *letters, const double *mask,
                         double *m_row, double *x_row, double *y_row, intptr_t width,
                         const double *start, double open_weight, double extend_weight,
                         double *row_sum, double *row_max) {
    for (int l = 0; l < LA_LANES; l++) {
        double md = 0.0, xd = 0.0, yd = 0.0, ml = 0.0, xl = 0.0, yl = 0.0, rs = 0.0, rm = 0.0;
        for (intptr_t q = 1; q <= width; q++) {
            const intptr_t at = q * LA_LANES + l;
            double mu = m_row[at], xu = x_row[at], yu = y_row[at];
            double mn = profile[letters[(q - 1) * LA_LANES + l]] * (((start[l] + xd) + yd) + md);
            double xn = (open_weight * mu + extend_weight * xu) * mask[at];
            double yn = (open_weight * (ml + xl) + extend_weight * yl) * mask[at];
            double inner;
            md = mu; xd = xu; yd = yu;
            m_row[at] = mn; x_row[at] = xn; y_row[at] = yn;
            ml = mn; xl = xn; yl = yn;
            rs += mn;
            inner = xn > yn ? xn : yn;
            inner = mn > inner ? mn : inner;
            rm = rm > inner ? rm : inner;
        }
        row_sum[l] = rs;
        row_max[l] = rm;
    }
}

#endif  /* generic vectors */

/* The variant of la_lanes_row this CPU runs: "avx2" or "default" (baseline x86-64) for the
   clones, asked as GCC's load-time resolver asks (the clone "avx2" when the CPU has AVX2);
   "generic vectors" for a single build with them, "scalar" without them. */
static const char *la_simd_path(void) {
#if (defined(__GNUC__) || defined(__clang__)) && LA_HAS_CLONES
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? "avx2" : "default";
#elif defined(__GNUC__) || defined(__clang__)
    return "generic vectors";
#else
    return "scalar";
#endif
}

#endif
