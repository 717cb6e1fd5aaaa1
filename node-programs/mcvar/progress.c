/* progress.c: estimates at checkpoints, the progress file, the adaptive stop.
 *
 * The estimates are the ones var_summary.csv reports (risk.c, README "Statistics"): with the
 * first n scenarios' P&L sorted ascending, w = (1 - c) n, k = ceil(w), m = floor(w):
 * VaR = -p_(k); ES = -(p_(1) + ... + p_(m) + (w - m) p_(m+1)) / w; var_stderr the
 * order-statistic interval (p_(k+d) - p_(k-d)) / 2, d = ceil(sqrt(n a (1 - a))), a = w / n
 * (David and Nagaraja, "Order Statistics", 7.1); es_stderr = sd(max(-p - VaR, 0)) /
 * (a sqrt(n)) (Chen, "Nonparametric estimation of expected shortfall", 2008). Only the
 * k + d smallest values need to be in order, so instead of sorting all n this selects them
 * (Hoare's FIND, expected O(n)) and sorts those: per node and checkpoint one copy and
 * an expected ~3n comparisons, plus O(K log K), K = k + d. es_stderr's sums run over the
 * tail only (below), so they round differently from risk.c's pass over all n: the last
 * checkpoint of a full run equals var_summary.csv's VaR and ES exactly and its es_stderr to
 * about 1e-12 relative. Cannot be had without the P&L of every scenario: an order statistic
 * needs all of them, which is why rank 0 gathers each round (the traffic of the final
 * gather, only split into rounds). */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "risk.h"

long long mcvar_checkpoint_next(long long done, long long base, long long cap) {
    long long step = base;
    if (done >= 4 * base) step = done / 4 / base * base;
    return done + step >= cap ? cap : done + step;
}

double mcvar_rse(double value, double se) {
    if (value == 0) return se == 0 ? 0 : INFINITY;
    return fabs(se / value);
}

int mcvar_progress_init(mcvar_progress *g, const char *path, const params *p, long long cap,
                        int nnodes, char *const *node_path) {
    memset(g, 0, sizeof *g);
    g->path = path;
    g->target_rse = p->target_rse;
    g->target_all_nodes = p->target_all_nodes;
    g->base = p->checkpoint_scenarios;
    g->cap = cap;
    g->nnodes = nnodes;
    g->nlevels = p->nconfidence;
    g->node_path = node_path;
    g->confidence = p->confidence;
    g->scratch = malloc(sizeof(double) * (size_t)cap);
    g->est = calloc((size_t)nnodes * (size_t)g->nlevels, sizeof *g->est);
    g->thr = calloc((size_t)nnodes, sizeof *g->thr);
    g->has_thr = calloc((size_t)nnodes, sizeof *g->has_thr);
    if (path) remove(path); /* an earlier run's progress is not this run's */
    return g->scratch && g->est && g->thr && g->has_thr ? 0 : -1;
}

void mcvar_progress_free(mcvar_progress *g) {
    free(g->rows);
    free(g->scratch);
    free(g->est);
    free(g->thr);
    free(g->has_thr);
    memset(g, 0, sizeof *g);
}

/* Hoare's FIND: afterwards a[K-1] is the K-th smallest, a[0..K-2] <= it <= a[K..n-1]. */
static void select_smallest(double *a, long long n, long long K) {
    long long lo = 0, hi = n - 1;
    while (lo < hi) {
        double x = a[lo + (hi - lo) / 2];
        long long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < x) i++;
            while (a[j] > x) j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (K - 1 <= j) hi = j;
        else if (K - 1 >= i) lo = i;
        else break; /* a[K-1] lies between the halves: it equals x */
    }
}

static int ascending(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Puts the `need` smallest of pnl[0..n) in ascending order at s[0..need). Selecting among
 * all n costs branch mispredictions on every comparison, so a first pass keeps, without
 * branches, only the values at or below the node's threshold from the last checkpoint (the
 * 2 need-th smallest then, so about 2.5 need of n now); when fewer than need pass, all n
 * are taken. Either way the result is exactly the need smallest. */
static void smallest(mcvar_progress *g, int node, const double *pnl, long long n,
                     long long need) {
    double *s = g->scratch;
    long long c = 0;
    if (g->has_thr[node]) {
        double thr = g->thr[node];
        for (long long i = 0; i < n; i++) {
            s[c] = pnl[i];
            c += pnl[i] <= thr;
        }
    }
    if (c < need) {
        memcpy(s, pnl, sizeof(double) * (size_t)n);
        c = n;
    }
    long long keep = 2 * need < c ? 2 * need : c;
    select_smallest(s, c, keep);
    g->thr[node] = s[keep - 1];
    g->has_thr[node] = 1;
    select_smallest(s, keep, need);
    qsort(s, (size_t)need, sizeof *s, ascending);
}

/* One node's estimates at every level from its first n P&Ls (n >= 1). */
static void estimate(mcvar_progress *g, int node, const double *pnl, long long n,
                     mcvar_estimate *out) {
    long long need = 1;
    long long k[PARAMS_MAX_CONF], m[PARAMS_MAX_CONF], lo[PARAMS_MAX_CONF], hi[PARAMS_MAX_CONF];
    double w[PARAMS_MAX_CONF], frac[PARAMS_MAX_CONF];
    for (int l = 0; l < g->nlevels; l++) {
        risk_tail_weight(g->confidence[l], n, &m[l], &frac[l]);
        w[l] = (double)m[l] + frac[l];
        if (m[l] == 0 && frac[l] == 0) { m[l] = 1; w[l] = 1; } /* as risk.c */
        k[l] = risk_tail_count(g->confidence[l], n);
        double a = w[l] / (double)n;
        long long d = (long long)ceil(sqrt((double)n * a * (1 - a)));
        lo[l] = k[l] - d < 1 ? 1 : k[l] - d;
        hi[l] = k[l] + d > n ? n : k[l] + d;
        long long es_need = m[l] + (frac[l] > 0) > n ? n : m[l] + (frac[l] > 0);
        if (hi[l] > need) need = hi[l];
        if (es_need > need) need = es_need;
    }
    smallest(g, node, pnl, n, need);
    const double *s = g->scratch;
    for (int l = 0; l < g->nlevels; l++) {
        mcvar_estimate *e = &out[l];
        e->var = -s[k[l] - 1];
        double tail = 0;
        for (long long i = 0; i < m[l] && i < n; i++) tail += s[i];
        if (frac[l] > 0 && m[l] < n) tail += frac[l] * s[m[l]];
        e->es = -tail / w[l];
        e->var_se = (s[hi[l] - 1] - s[lo[l] - 1]) / 2;
        /* The loss beyond VaR, max(-p - VaR, 0), is positive only for p < -VaR, all among
         * the k - 1 smallest: its mean and sum of squared deviations from the tail alone,
         * ss = sum_tail (x - mean)^2 + (n - t) mean^2, equal to risk.c's to rounding. */
        double a = w[l] / (double)n, mean = 0, ss = 0;
        long long t = 0;
        while (t < k[l] - 1 && s[t] < -e->var) mean += -s[t++] - e->var;
        mean /= (double)n;
        for (long long i = 0; i < t; i++) {
            double x = -s[i] - e->var - mean;
            ss += x * x;
        }
        ss += (double)(n - t) * mean * mean;
        e->es_se = n > 1 ? sqrt(ss / (double)(n - 1)) / (a * sqrt((double)n)) : 0;
    }
}

static int append(mcvar_progress *g, const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int len = vsnprintf(g->rows + g->len, g->size - g->len, fmt, ap);
        va_end(ap);
        if (len < 0) return -1;
        if (g->len + (size_t)len < g->size) {
            g->len += (size_t)len;
            return 0;
        }
        size_t size = g->size ? g->size * 2 : 65536;
        while (size <= g->len + (size_t)len) size *= 2;
        char *grown = realloc(g->rows, size);
        if (!grown) return -1;
        g->rows = grown;
        g->size = size;
    }
}

/* A figure's label, quoted per RFC 4180 when the node's name needs it. */
static int append_figure(mcvar_progress *g, const char *what, double conf, const char *node) {
    if (!strpbrk(node, ",\"\r\n")) return append(g, "%s %.15g %s", what, conf, node);
    if (append(g, "\"%s %.15g ", what, conf)) return -1;
    for (const char *c = node; *c; c++)
        if (append(g, *c == '"' ? "\"\"" : "%c", *c)) return -1;
    return append(g, "\"");
}

static double unsigned_zero(double x) { return x + 0.0; }

/* Every node (the top first), levels from the highest confidence, VaR then ES: the first
 * figure is the headline (the top node's VaR at the highest confidence). */
static int append_checkpoint(mcvar_progress *g, long long done) {
    for (int i = 0; i < g->nnodes; i++)
        for (int l = g->nlevels - 1; l >= 0; l--) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            for (int es = 0; es < 2; es++) {
                if (append(g, "%lld,%lld,scenarios,", done, g->cap) ||
                    append_figure(g, es ? "ES" : "VaR", g->confidence[l], g->node_path[i]) ||
                    append(g, ",%.17g,%.17g\n", unsigned_zero(es ? e->es : e->var),
                           unsigned_zero(es ? e->es_se : e->var_se)))
                    return -1;
            }
        }
    return 0;
}

/* The file's directory part and name: the temporary file goes beside it, hidden. */
static int replace_file(const mcvar_progress *g, char *err, size_t errlen) {
    static const char header[] = "done,total,unit,figure,value,stderr\n";
    const char *slash = strrchr(g->path, '/');
    int dirlen = slash ? (int)(slash - g->path + 1) : 0;
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%.*s.%s.tmp.%ld", dirlen, g->path,
                 slash ? slash + 1 : g->path, (long)getpid()) >= (int)sizeof tmp)
        return snprintf(err, errlen, "%s: path too long", g->path), -1;
    FILE *f = fopen(tmp, "wb");
    if (!f) return snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno)), -1;
    int bad = fwrite(header, 1, sizeof header - 1, f) != sizeof header - 1 ||
              fwrite(g->rows, 1, g->len, f) != g->len;
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        remove(tmp);
        return -1;
    }
    if (rename(tmp, g->path) != 0) {
        snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, g->path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

int mcvar_progress_checkpoint(mcvar_progress *g, const double *pnl, long long stride,
                              long long done) {
    g->done = done;
    int nodes = g->path ? g->nnodes : 1; /* without a file, only what the target needs */
    if (g->target_rse > 0 && g->target_all_nodes) nodes = g->nnodes;
    for (int i = 0; i < nodes; i++)
        estimate(g, i, pnl + (size_t)i * (size_t)stride, done, g->est + (size_t)i * g->nlevels);
    if (g->path) {
        char err[512] = "";
        if (append_checkpoint(g, done)) snprintf(err, sizeof err, "out of memory");
        else replace_file(g, err, sizeof err);
        if (err[0] && !g->warned) {
            fprintf(stderr, "mcvar: progress not published: %s (the run goes on)\n", err);
            g->warned = 1;
        }
    }
    if (!(g->target_rse > 0)) return 0;
    int check = g->target_all_nodes ? g->nnodes : 1;
    for (int i = 0; i < check; i++)
        for (int l = 0; l < g->nlevels; l++) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            if (mcvar_rse(e->var, e->var_se) > g->target_rse ||
                mcvar_rse(e->es, e->es_se) > g->target_rse)
                return 0;
        }
    return 1;
}

mcvar_stopping mcvar_progress_stopping(const mcvar_progress *g) {
    mcvar_stopping s = {g->target_rse, g->cap, g->done, 0, g->target_all_nodes ? g->nnodes : 1,
                        g->est};
    s.reached = 1;
    for (int i = 0; i < s.nodes; i++)
        for (int l = 0; l < g->nlevels; l++) {
            const mcvar_estimate *e = &g->est[(size_t)i * g->nlevels + l];
            if (mcvar_rse(e->var, e->var_se) > g->target_rse ||
                mcvar_rse(e->es, e->es_se) > g->target_rse)
                s.reached = 0;
        }
    return s;
}
