/* scenarios.c: draws or replays factor moves; everything derives from the scenario index
 * and, for Monte Carlo, each factor's id. */
#include "scenarios.h"

#include <math.h>
#include <stdlib.h>

#include "rng.h"

int scenarios_init(scenario_gen *g, const market *m, const params *p) {
    g->m = m;
    g->p = p;
    g->sqrt_h = sqrt((double)p->horizon_days);
    g->first_date = 0;
    g->ndates = m->ndates;
    return 0;
}

void scenarios_free(scenario_gen *g) { (void)g; }

long long scenarios_count(const scenario_gen *g) {
    if (g->p->method == METHOD_HISTORICAL) return (long long)g->ndates - g->p->horizon_days;
    return g->p->scenarios;
}

/* x = scale L z for the Monte Carlo columns [b0, b0 + cnt) of the block, the normals z in
 * zb (factor-major). Loops run over the columns innermost, so they vectorise; each x[f][b]
 * is the sum over k = 0..f of L[f][k] z[k][b] in that order, starting from 0, then times
 * the column's scale: the same operations in the same order as one scenario at a time. */
#define MC_CHUNK 256
static void monte_carlo(scenario_gen *g, long long first, const long long *idx, int b0,
                        int cnt, const double *zb, int stride, double *x) {
    const market *m = g->m;
    int n = m->n;
    double scale[MC_CHUNK];
    for (int b = 0; b < cnt; b++) {
        scale[b] = g->sqrt_h;
        if (g->p->method == METHOD_MC_STUDENT_T) {
            long long s = idx ? idx[b0 + b] : first + b0 + b;
            rng_stream gs;
            rng_stream_init(&gs, g->p->seed, (uint64_t)s, RNG_STREAM_GAMMA);
            double chi2 = 2.0 * rng_gamma(&gs, 0.5 * g->p->dof);
            scale[b] *= sqrt((g->p->dof - 2.0) / chi2);
        }
    }
    for (int f = 0; f < n; f++) {
        const double *row = m->chol + (size_t)f * n;
        double *restrict xf = x + (size_t)f * stride + b0;
        double acc[MC_CHUNK];
        for (int b = 0; b < cnt; b++) acc[b] = 0;
        for (int k = 0; k <= f; k++) {
            double l = row[k];
            const double *restrict zk = zb + (size_t)k * stride + b0;
            for (int b = 0; b < cnt; b++) acc[b] += l * zk[b];
        }
        for (int b = 0; b < cnt; b++) xf[b] = scale[b] * acc[b];
    }
}

static void historical(scenario_gen *g, long long s, int b, int stride, double *x) {
    const market *m = g->m;
    long long d = g->first_date + s;
    const double *from = m->history + (size_t)d * m->n;
    const double *to = m->history + (size_t)(d + g->p->horizon_days) * m->n;
    for (int f = 0; f < m->n; f++) x[(size_t)f * stride + b] = market_return(m, f, from[f], to[f]);
}

/* Each factor's normals for the block, into lev (used as scratch before the levels): a pair
 * of consecutive scenarios 2j, 2j + 1 shares one Philox block. */
static void normals(scenario_gen *g, long long first, const long long *idx, int count,
                    int stride, double *zb) {
    const market *m = g->m;
    uint64_t seed = g->p->seed;
    for (int f = 0; f < m->n; f++) {
        double *z = zb + (size_t)f * stride;
        uint64_t key = m->hash[f];
        if (idx) { /* scattered scenarios (contributions): one at a time */
            for (int b = 0; b < count; b++) z[b] = rng_keyed_normal(seed, (uint64_t)idx[b], key);
            continue;
        }
        int b = 0;
        if (first & 1 && count > 0) z[b++] = rng_keyed_normal(seed, (uint64_t)first, key);
        for (; b + 1 < count; b += 2) /* first + b is even here */
            rng_keyed_normal_pair(seed, (uint64_t)(first + b) >> 1, key, &z[b], &z[b + 1]);
        if (b < count) z[b] = rng_keyed_normal(seed, (uint64_t)(first + b), key);
    }
}

void scenarios_fill(scenario_gen *g, long long first, const long long *idx, int count,
                    int stride, double *x, double *lev) {
    if (g->p->method != METHOD_HISTORICAL) {
        normals(g, first, idx, count, stride, lev);
        for (int b0 = 0; b0 < count; b0 += MC_CHUNK)
            monte_carlo(g, first, idx, b0, count - b0 < MC_CHUNK ? count - b0 : MC_CHUNK, lev,
                        stride, x);
    } else {
        for (int b = 0; b < count; b++) historical(g, idx ? idx[b] : first + b, b, stride, x);
    }
    scenarios_levels(g->m, x, count, stride, lev);
}

void scenarios_levels(const market *m, const double *x, int count, int stride, double *lev) {
    for (int f = 0; f < m->n; f++) {
        double level = m->level[f], sh = m->shift[f];
        const double *xf = x + (size_t)f * stride;
        double *lf = lev + (size_t)f * stride;
        switch (m->ret[f]) {
        case RET_LOG: for (int b = 0; b < count; b++) lf[b] = level * exp(xf[b]); break;
        case RET_RELATIVE: for (int b = 0; b < count; b++) lf[b] = level * (1.0 + xf[b]); break;
        case RET_ABSOLUTE: for (int b = 0; b < count; b++) lf[b] = level + xf[b]; break;
        default: for (int b = 0; b < count; b++) lf[b] = (level + sh) * exp(xf[b]) - sh; break;
        }
    }
}
