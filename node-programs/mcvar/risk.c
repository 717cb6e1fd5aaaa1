/* risk.c: order statistics of the scenario P&L, standard errors, Euler contributions. */
#include "risk.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void risk_tail_weight(double confidence, long long n, long long *m, double *frac) {
    long long num, den;
    if (n > 0 && decimal_of(confidence, &num, &den) == 0 && den - num <= (LLONG_MAX - den) / n) {
        long long t = (den - num) * n; /* w = t / den exactly */
        *m = t / den;
        *frac = (double)(t % den) / (double)den;
    } else { /* more than 9 places: the double itself is the confidence */
        long double w = (1.0L - (long double)confidence) * (long double)n;
        *m = (long long)floorl(w);
        *frac = (double)(w - (long double)*m);
    }
}

long long risk_tail_count(double confidence, long long n) {
    long long m;
    double frac;
    risk_tail_weight(confidence, n, &m, &frac);
    long long k = m + (frac > 0);
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

double risk_es_weight(const var_level *v, long long rank) {
    if (v->w <= 0) return rank == 1; /* (1 - c) n below one scenario can't happen, c < 1 */
    if (rank <= v->m) return 1.0 / v->w;
    if (rank == v->m + 1 && v->frac > 0) return v->frac / v->w;
    return 0;
}

/* One level's tail weight, count, window and standard-error reach (ranks), from n alone. */
static void level_ranks(var_level *v, double confidence, long long n) {
    v->confidence = confidence;
    risk_tail_weight(v->confidence, n, &v->m, &v->frac);
    v->w = (double)v->m + v->frac;
    if (v->m == 0 && v->frac == 0) { v->m = 1; v->w = 1; } /* cannot happen for c < 1 */
    v->k = risk_tail_count(v->confidence, n);
    long long h = (long long)(0.0025 * (double)n);
    v->win_from = v->k - h < 1 ? 1 : v->k - h;
    v->win_to = v->k + h > n ? n : v->k + h;
}

/* The VaR standard error's half-width in ranks: ceil(sqrt(n a (1 - a))), a = w / n. */
static long long se_reach(const var_level *v, long long n) {
    double a = v->w / (double)n;
    return (long long)ceil(sqrt((double)n * a * (1 - a)));
}

long long risk_tail_ranks(long long n, const params *p, int with_stderr) {
    long long need = 1;
    for (int l = 0; l < p->nconfidence; l++) {
        var_level v;
        level_ranks(&v, p->confidence[l], n);
        long long es = v.m + (v.frac > 0), se = with_stderr ? v.k + se_reach(&v, n) : 1;
        if (v.win_to > need) need = v.win_to;
        if (es > need) need = es;
        if (se > need) need = se;
    }
    return need > n ? n : need;
}

void risk_levels(risk_summary *r, const params *p, int with_stderr, const double *s) {
    long long n = r->n;
    r->nlevels = p->nconfidence;
    for (int l = 0; l < p->nconfidence; l++) {
        var_level *v = &r->level[l];
        level_ranks(v, p->confidence[l], n);
        v->var = -s[v->k - 1];
        /* ES: full weight 1/w for ranks 1..m, (w - m)/w for rank m + 1 */
        double tail = 0;
        for (long long i = 0; i < v->m && i < n; i++) tail += s[i];
        if (v->frac > 0 && v->m < n) tail += v->frac * s[v->m];
        v->es = -tail / v->w;
        double ws = 0;
        for (long long i = v->win_from; i <= v->win_to; i++) ws += s[i - 1];
        v->win_mean = ws / (double)(v->win_to - v->win_from + 1);
        if (with_stderr) {
            long long d = se_reach(v, n);
            long long lo = v->k - d < 1 ? 1 : v->k - d, hi = v->k + d > n ? n : v->k + d;
            v->var_se = (s[hi - 1] - s[lo - 1]) / 2;
        }
    }
}

double risk_es_excess(const var_level *v, double pnl) { return fmax(-pnl - v->var, 0); }

double risk_es_stderr(const var_level *v, long long n, double ss) {
    double a = v->w / (double)n;
    return n > 1 ? sqrt(ss / (double)(n - 1)) / (a * sqrt((double)n)) : 0;
}

int risk_analyse(const double *pnl, long long n, const params *p, int with_stderr,
                 risk_summary *r) {
    memset(r, 0, sizeof *r);
    r->n = n;
    r->order = malloc(sizeof(long long) * (size_t)n);
    long long need = risk_tail_ranks(n, p, with_stderr);
    double *sorted = malloc(sizeof(double) * (size_t)need);
    if (!r->order || !sorted) return free(sorted), -1;
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
    const long long *o = r->order;
    r->min = pnl[o[0]];
    r->max = pnl[o[n - 1]];
    r->ntail = n;
    for (long long i = 0; i < need; i++) sorted[i] = pnl[o[i]];
    risk_levels(r, p, with_stderr, sorted);
    free(sorted);
    for (int l = 0; with_stderr && l < r->nlevels; l++) {
        /* Chen (2008): sd of the loss in excess of VaR, max(-pnl - VaR, 0), over all n */
        var_level *v = &r->level[l];
        double es_mean = 0, es_ss = 0;
        for (long long i = 0; i < n; i++) es_mean += risk_es_excess(v, pnl[i]);
        es_mean /= (double)n;
        for (long long i = 0; i < n; i++) {
            double e = risk_es_excess(v, pnl[i]) - es_mean;
            es_ss += e * e;
        }
        v->es_se = risk_es_stderr(v, n, es_ss);
    }
    return 0;
}

void risk_free(risk_summary *r) {
    free(r->order);
    free(r->rows);
    free(r->tail);
    free(r->hist);
}

long long risk_ranks_needed(const risk_summary *r) {
    long long need = 1;
    for (int l = 0; l < r->nlevels; l++) {
        const var_level *v = &r->level[l];
        long long es = v->m + (v->frac > 0);
        if (v->win_to > need) need = v->win_to;
        if (es > need) need = es;
    }
    return need > r->n ? r->n : need;
}

/* The window mean of the part times VaR / the window mean of the node: the parts' means add
 * up to the node's mean, so the contributions add up to the VaR. Without a usable node mean
 * (0), the plain negated mean. */
double risk_var_contribution(const var_level *v, double var_sum) {
    double cnt = (double)(v->win_to - v->win_from + 1), mean = var_sum / cnt;
    return v->win_mean != 0 ? mean * (v->var / v->win_mean) : -mean;
}

double risk_es_contribution(double es_sum) { return -es_sum; }

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
