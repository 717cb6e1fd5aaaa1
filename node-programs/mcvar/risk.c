/* risk.c: order statistics of the scenario P&L and the per-position VaR contributions. */
#include "risk.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONTRIB_BLOCK 64

/* The confidence as it was written: the shortest decimal of at most 9 places that reads back
 * as the same double, as num / den. 0.95 is stored as 0.9499999999999999556, and
 * (1 - 0.95) * 1e8 comes out as 5000000.0000000047; no absolute slack fits every n, so
 * the count is taken from the decimal in integers instead. */
static int decimal_of(double c, long long *num, long long *den) {
    long long d = 1;
    for (int places = 0; places <= 9; places++, d *= 10) {
        double scaled = nearbyint(c * (double)d);
        /* Both are integers below 2^53, so the quotient is the double nearest num / den. */
        if (scaled / (double)d == c) {
            *num = (long long)scaled;
            *den = d;
            return 0;
        }
    }
    return -1;
}

long long risk_tail_count(double confidence, long long n) {
    long long num, den, k;
    if (n > 0 && decimal_of(confidence, &num, &den) == 0 && den - num <= (LLONG_MAX - den) / n)
        k = ((den - num) * n + den - 1) / den; /* ceil((1 - num/den) n), exactly */
    else /* more than 9 places: the double itself is the confidence */
        k = (long long)ceill((1.0L - (long double)confidence) * (long double)n);
    return k < 1 ? 1 : k > n ? n : k;
}

static const double *sort_pnl; /* qsort has no context argument */

static int by_pnl(const void *a, const void *b) {
    long long i = *(const long long *)a, j = *(const long long *)b;
    double x = sort_pnl[i], y = sort_pnl[j];
    if (x < y) return -1;
    if (x > y) return 1;
    return (i > j) - (i < j);
}

int risk_analyse(const double *pnl, long long n, const params *p, risk_summary *r) {
    memset(r, 0, sizeof *r);
    r->n = n;
    r->order = malloc(sizeof(long long) * (size_t)n);
    if (!r->order) return -1;
    double sum = 0;
    for (long long i = 0; i < n; i++) {
        r->order[i] = i;
        sum += pnl[i];
    }
    r->mean = sum / (double)n;
    double ss = 0;
    for (long long i = 0; i < n; i++) ss += (pnl[i] - r->mean) * (pnl[i] - r->mean);
    r->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
    sort_pnl = pnl;
    qsort(r->order, (size_t)n, sizeof *r->order, by_pnl);
    r->min = pnl[r->order[0]];
    r->max = pnl[r->order[n - 1]];
    r->nlevels = p->nconfidence;
    for (int l = 0; l < p->nconfidence; l++) {
        var_level *v = &r->level[l];
        v->confidence = p->confidence[l];
        v->k = risk_tail_count(v->confidence, n);
        double tail = 0;
        for (long long i = 0; i < v->k; i++) tail += pnl[r->order[i]];
        v->var = -pnl[r->order[v->k - 1]];
        v->es = -tail / (double)v->k;
    }
    return 0;
}

void risk_free(risk_summary *r) { free(r->order); }

void risk_histogram(const double *pnl, long long n, const risk_summary *r, int bins,
                    long long *counts, double *width) {
    double w = (r->max - r->min) / bins;
    memset(counts, 0, sizeof *counts * (size_t)bins);
    for (long long i = 0; i < n; i++) {
        long long b = w > 0 ? (long long)((pnl[i] - r->min) / w) : 0;
        counts[b < 0 ? 0 : b >= bins ? bins - 1 : b]++;
    }
    *width = w;
}

int risk_contributions(const risk_summary *r, int l, scenario_gen *g, const pricer *pr,
                       double *contrib) {
    const var_level *v = &r->level[l];
    long long m = (long long)(0.0025 * (double)r->n);
    long long from = v->k - m < 1 ? 1 : v->k - m, to = v->k + m > r->n ? r->n : v->k + m;
    int nf = pr->m->n, np = pr->b->n, rc = -1;
    double *x = malloc(sizeof(double) * (size_t)nf * CONTRIB_BLOCK);
    double *lev = malloc(sizeof(double) * (size_t)nf * CONTRIB_BLOCK);
    double out[CONTRIB_BLOCK];
    if (!x || !lev) goto err;
    memset(contrib, 0, sizeof(double) * (size_t)np);
    for (long long at = from - 1; at < to; at += CONTRIB_BLOCK) {
        int cnt = (int)(to - at < CONTRIB_BLOCK ? to - at : CONTRIB_BLOCK);
        scenarios_fill(g, 0, r->order + at, cnt, CONTRIB_BLOCK, x, lev);
        for (int p = 0; p < np; p++) {
            pricer_position_pnl(pr, p, x, lev, CONTRIB_BLOCK, cnt, out);
            for (int b = 0; b < cnt; b++) contrib[p] += out[b];
        }
    }
    double total = 0;
    for (int p = 0; p < np; p++) total += contrib[p];
    /* Rescale the window means so they add up to the VaR (the window's mean P&L is close
     * to, but not exactly, -VaR); without a usable total, report the plain means. */
    double scale = total != 0 ? v->var / total : -1.0 / (double)(to - from + 1);
    for (int p = 0; p < np; p++) contrib[p] *= scale;
    rc = 0;
err:
    free(x);
    free(lev);
    return rc;
}
